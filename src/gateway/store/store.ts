/**
 * What every gateway process shares, per service key: answers (as text, each with a revision so that two
 * fetches of one series merge rather than overwrite each other), locks ("one upstream fetch at a time for the
 * same need, across processes", each naming the days its fetch covers), short-lived failure marks (a request that
 * just failed is not asked again by every waiter in turn) and release notices (waiters wake when a fetch they wait
 * for is over). In process memory (one process, the default) or in Redis (several processes); see memory-store.ts
 * and redis-store.ts.
 *
 * Keys here are the gateway's logical keys (series and whole-answer keys); each store maps them to its own.
 */
export interface Stored {
  /** Revision of the value: 0 for none, then one more at each write. */
  rev: number;
  text: string;
}

/** Who holds a lock and what its fetch covers: "owner|start|end" (day numbers). */
export interface LockHolder {
  owner: string;
  start: number;
  end: number;
}

export function lockValue(owner: string, start: number, end: number): string {
  return `${owner}|${start}|${end}`;
}

export function parseLockValue(text: string | undefined): LockHolder | undefined {
  if (text === undefined) return undefined;
  const [owner, start, end] = text.split("|");
  const s = Number(start);
  const e = Number(end);
  return owner && Number.isFinite(s) && Number.isFinite(e)
    ? { owner, start: s, end: e }
    : undefined;
}

export interface Store {
  /** What /readyz and the log say: "memory", "redis", "memory (Redis unreachable)". */
  readonly name: string;
  /** The values of `keys` (undefined where none). */
  read(keys: readonly string[]): Promise<Array<Stored | undefined>>;
  /**
   * Stores `text` for `ttlMs` as the next revision, if the stored one is still `rev` (0: none stored). False when
   * another write came first: the caller reads again and merges.
   */
  writeIf(key: string, rev: number, text: string, ttlMs: number): Promise<boolean>;
  /**
   * Takes the free locks among `keys` for `owner`, all in one atomic step, each naming the days its fetch covers
   * (`value`: lockValue). A lock without an expiry (or one longer than `ttlMs` allows) is no lock: it is taken.
   * Returns the keys taken, and the holders of the others.
   */
  lock(
    keys: readonly string[],
    value: string,
    ttlMs: number
  ): Promise<{ taken: Set<string>; held: Map<string, LockHolder> }>;
  /** Who holds each key's lock now (undefined: nobody). */
  holders(keys: readonly string[]): Promise<Array<LockHolder | undefined>>;
  /** Extends the locks `value` holds (a fetch still under way). */
  renew(keys: readonly string[], value: string, ttlMs: number): Promise<void>;
  /** Lets go of the locks `value` holds and tells every process's waiters. */
  release(keys: readonly string[], value: string): Promise<void>;
  /** Remembers for `ttlMs` that one upstream request (by its key) just failed, and how. */
  markFailed(key: string, failure: string, ttlMs: number): Promise<void>;
  /** How that request last failed, while remembered. */
  failure(key: string): Promise<string | undefined>;
  /** Called with the keys released by any process; returns how to stop. */
  onReleased(listener: (keys: readonly string[]) => void): () => void;
  close(): Promise<void>;
}
