/**
 * What every gateway process shares, per service key: answers (as text, each with a revision so that two
 * fetches of one series merge rather than overwrite each other), locks (a fetch under way for a need, naming the
 * days it covers: nobody fetches what a fetch under way covers, across processes; up to FETCHES_PER_NEED fetches
 * of one need over different days at once), short-lived failure marks (a request that just failed is not asked
 * again by every waiter in turn) and release notices (waiters wake when a fetch they wait for is over). In process memory (one process, the default) or in Redis (several processes); see memory-store.ts
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

/** Whether one of the fetches under way covers these days. */
export function covered(
  holders: readonly LockHolder[],
  days: { start: number; end: number }
): boolean {
  return holders.some((h) => h.start <= days.start && days.end <= h.end);
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
   * Registers a fetch of `keys` over the days `value` names (lockValue), all in one atomic step: for each key,
   * unless a fetch under way covers those days (or FETCHES_PER_NEED are under way already), a lock of its own.
   * A lock without an expiry (or with one longer than `ttlMs` allows) is no lock: its place is taken. Returns
   * the keys taken, and for the others the fetches under way.
   */
  lock(
    keys: readonly string[],
    value: string,
    ttlMs: number
  ): Promise<{ taken: Set<string>; held: Map<string, LockHolder[]> }>;
  /** The fetches under way for each key (none: an empty list). */
  holders(keys: readonly string[]): Promise<LockHolder[][]>;
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
