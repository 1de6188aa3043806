/**
 * The data source a page (the taskpane, the preview) marks: the runtime's, followed as it is replaced.
 */
import { buildConfig } from "../runtime/build-config";
import { DataSourceWatch, localSourceMemory } from "../runtime/data-source";
import { onRuntimeChange, readyRuntime } from "../runtime/runtime";

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
