/**
 * What the pages (the taskpane, the preview) do alike as they start: wait for Office, and mark the data
 * source, the runtime's, followed as it is replaced.
 */
import { buildConfig } from "../runtime/build-config";
import { DataSourceWatch, localSourceMemory } from "../runtime/data-source";
import { onRuntimeChange, readyRuntime } from "../runtime/runtime";
import { followTheme } from "../ui/fluent";
import { whenOfficeReady } from "../ui/office-ready";

/**
 * Starts the page in the element `id` once `ready` (Office.onReady, from the page's entry: Office globals stay
 * there) resolves, in the system's colour scheme meanwhile.
 */
export function startPage<T>(
  id: string,
  ready: (() => Promise<T>) | undefined,
  start: (root: HTMLElement, info: T) => void | Promise<void>
): void {
  followTheme();
  const root = document.getElementById(id);
  // Without office.js (a blocked or unreachable CDN) the page says so instead of loading forever.
  if (root) whenOfficeReady(root, ready, (info) => start(root, info));
}

export function watchPageSource(): DataSourceWatch {
  // Marked from the first paint: the last source seen for the address (npm start's pages: the simulator).
  const source = new DataSourceWatch(undefined, {
    memory: localSourceMemory(),
    fallback: buildConfig.mode === "development" ? "simulated" : "unknown",
  });
  onRuntimeChange((runtime) => source.follow(runtime));
  // The functions bundle configured the runtime already (or is doing so): follow the current one.
  readyRuntime().then(
    (runtime) => source.follow(runtime),
    () => undefined
  );
  return source;
}
