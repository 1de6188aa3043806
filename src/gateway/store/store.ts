/**
 * What every gateway process shares: answers (as JSON text), locks ("one upstream fetch at a time for the same
 * need, across processes"), short-lived failure marks (a need that just failed is not asked again by every
 * waiter in turn) and release notices (waiters wake when a fetch they wait for is over). In process memory
 * (one process, the default) or in Redis (several processes); see memory-store.ts and redis-store.ts.
 *
 * Keys here are the gateway's logical keys (series and whole-answer keys); each store maps them to its own.
 */
export interface Store {
  /** "memory" or "redis": what /readyz and the log say. */
  readonly name: string;
  /** The values of `keys` (undefined where none). */
  read(keys: readonly string[]): Promise<Array<string | undefined>>;
  /** Stores a value for `ttlMs` (then it is forgotten). */
  write(key: string, value: string, ttlMs: number): Promise<void>;
  /** Takes the free locks among `keys` for `owner`, all in one atomic step; returns those taken. */
  lock(keys: readonly string[], owner: string, ttlMs: number): Promise<Set<string>>;
  /** Extends `owner`'s locks (a fetch still under way). */
  renew(keys: readonly string[], owner: string, ttlMs: number): Promise<void>;
  /** Lets go of `owner`'s locks and tells every process's waiters. */
  release(keys: readonly string[], owner: string): Promise<void>;
  /** Remembers for `ttlMs` that fetching `keys` just failed, and why. */
  markFailed(keys: readonly string[], message: string, ttlMs: number): Promise<void>;
  /** Why each key's last fetch failed, while that is remembered. */
  failures(keys: readonly string[]): Promise<Array<string | undefined>>;
  /** Called with the keys released by any process; returns how to stop. */
  onReleased(listener: (keys: readonly string[]) => void): () => void;
  close(): Promise<void>;
}
