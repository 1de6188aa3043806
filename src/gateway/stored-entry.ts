/**
 * The stored form of the gateway's cache entries, answers kept whole (whole.ts) and series (series/entry.ts)
 * alike: version 1, the key the entry was stored under, the current snapshot and the previous one kept as the
 * fallback when the service fails.
 */

interface StoredEntry<S> {
  key: string;
  cur: S;
  prev?: S;
}

export function writeStored<S>(entry: StoredEntry<S>): string {
  return JSON.stringify({ v: 1, ...entry });
}

/**
 * Reads an entry stored under `key`; anything else (damaged, foreign, another version, a snapshot `readable`
 * refuses) is no entry.
 */
export function readStored<S extends { expiresAt: number }>(
  text: string | undefined,
  key: string,
  readable: (snapshot: S) => boolean = () => true
): StoredEntry<S> | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed = JSON.parse(text) as { v?: number } & StoredEntry<S>;
    if (parsed.v !== 1 || parsed.key !== key || typeof parsed.cur?.expiresAt !== "number")
      return undefined;
    if (!readable(parsed.cur) || (parsed.prev && !readable(parsed.prev))) return undefined;
    return { key, cur: parsed.cur, ...(parsed.prev ? { prev: parsed.prev } : {}) };
  } catch {
    return undefined;
  }
}
