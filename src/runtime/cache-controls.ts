/**
 * What a user sees of the saved cache and can do with it, for any view (the taskpane's settings today):
 * its size and bound, and "Clear cache". Clearing forgets the saved answers of every service and key and the
 * current session's memory, so the next recalculation asks the service again.
 */
import type { BlobStore } from "../engine";
import type { Runtime } from "./runtime";

export interface CacheInfo {
  entries: number;
  bytes: number;
  maxBytes: number;
  location: string;
}

export interface CacheControls {
  /** undefined when this page has no saved cache (no IndexedDB). */
  info(): Promise<CacheInfo | undefined>;
  clear(): Promise<void>;
}

export function cacheControls(
  store: BlobStore | undefined,
  runtime: () => Runtime | undefined
): CacheControls {
  return {
    info: async () => (store ? store.usage() : undefined),
    clear: async () => {
      const current = runtime();
      // Through the runtime when there is one: answers waiting to be written are dropped too.
      if (current?.saved) await current.clearCaches();
      else {
        current?.engine.clear();
        await store?.clear();
      }
    },
  };
}

/** "1.2 MB": decimal units, as the bound is given (50 MB = 50,000,000 bytes). */
export function formatSize(bytes: number): string {
  if (bytes < 1_000) return `${bytes} bytes`;
  if (bytes < 1_000_000) return `${(bytes / 1_000).toFixed(bytes < 10_000 ? 1 : 0)} kB`;
  return `${(bytes / 1_000_000).toFixed(bytes < 10_000_000 ? 1 : 0)} MB`;
}

export function describeCache(info: CacheInfo | undefined): string {
  if (!info)
    return "This page cannot keep a cache (IndexedDB is not available): answers last for the session only.";
  const entries = `${info.entries.toLocaleString("en-US")} ${info.entries === 1 ? "answer" : "answers"}`;
  return `${formatSize(info.bytes)} in ${entries}, on this computer (limit ${formatSize(info.maxBytes)}; the least recently used go first).`;
}
