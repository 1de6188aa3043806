/**
 * The saved cache as the engine speaks to it: series and whole answers by their engine key, read back or saved
 * soon, with no codec, envelope or store in sight. saved-entries.ts implements it over persistence.ts
 * (`savedEngineCache`); `lazySavedCache` loads that implementation the first time anything is read or saved.
 *
 * Why lazily: on the Excel page functions.js is loaded for every workbook, before any cell asks for anything;
 * the saved cache's code (its envelopes, the check of every kind of answer read back, the batching) is needed
 * only once a cell misses the session's memory, and then together with the IndexedDB store. The runtime puts
 * the two in one chunk, fetched from the add-in's origin with the first look-up.
 */
import type { BlobStoreUsage, Persisted } from "./persistence";
import type { SeriesEntryData } from "./series-store";
import { OnFirstUse } from "./on-first-use";

/** A keyed-cache entry as saved: the answer, when it was fetched and until when it is fresh. */
export interface EntryData {
  value: unknown;
  fetchedAt: number;
  expiresAt: number;
}

export interface SavedCache {
  /** A series saved by an earlier session, or undefined; never rejects. */
  readSeries(key: string): Promise<SeriesEntryData | undefined>;
  /** Saves the series soon: `entry` gives what to save when the write happens (undefined: nothing). */
  saveSeries(key: string, entry: () => SeriesEntryData | undefined): void;
  /** A keyed-cache entry saved by an earlier session, or undefined; never rejects. */
  readEntry(key: string): Promise<Persisted<EntryData> | undefined>;
  saveEntry(key: string, entry: () => EntryData | undefined): void;
  /** Writes everything saved so far; resolves when written or given up (a note says why). */
  flush(): Promise<void>;
  /** Forgets every saved entry and anything not yet written. */
  clear(): Promise<void>;
  usage(): Promise<BlobStoreUsage>;
}

/**
 * A saved cache whose implementation is loaded on first use. Every call waits for the one load, in the order
 * made, so a flush follows the saves before it. A load that fails costs one note and leaves the session
 * without a saved cache: reads answer undefined (the service is asked), saves and flushes do nothing; usage
 * and clear reject with the reason, for the taskpane to show.
 */
export function lazySavedCache(
  load: () => Promise<SavedCache>,
  onNote: (note: string) => void = () => undefined
): SavedCache {
  const part = new OnFirstUse(() =>
    load().catch((error: unknown) => {
      onNote(`The saved cache could not be loaded (${String(error)}); fetching from the service.`);
      throw error;
    })
  );
  const whenLoaded = <R>(use: (cache: SavedCache) => R | Promise<R>, none: R): Promise<R> =>
    part.get().then(use, () => none);
  return {
    readSeries: (key) => whenLoaded((cache) => cache.readSeries(key), undefined),
    readEntry: (key) => whenLoaded((cache) => cache.readEntry(key), undefined),
    saveSeries: (key, entry) => void whenLoaded((cache) => cache.saveSeries(key, entry), undefined),
    saveEntry: (key, entry) => void whenLoaded((cache) => cache.saveEntry(key, entry), undefined),
    // Nothing was ever saved or read: nothing can be pending.
    flush: () => (part.asked ? whenLoaded((cache) => cache.flush(), undefined) : Promise.resolve()),
    clear: () => part.get().then((cache) => cache.clear()),
    usage: () => part.get().then((cache) => cache.usage()),
  };
}
