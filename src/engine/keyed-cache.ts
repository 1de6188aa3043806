/**
 * Cache for whole answers (catalogues, details, statements, aggregations): identical loads in flight are
 * shared, failures are never cached, and a failed reload falls back to the previous answer (stale-if-error)
 * within the policy's limit.
 *
 * With a saved cache (persistence.ts), a key this session does not hold is first looked up there: an answer
 * saved in an earlier session is fresh until the expiry it was saved with (unless this session refreshed
 * since), and otherwise the fallback it would have been. Every fetched answer is saved.
 */
import { Generations } from "./generations";
import { LruCache } from "./lru";
import type { Timers } from "../client";
import { nextDailyUpdate, staleMayCover, type CachePolicy, type Lifetime } from "../cache/policy";
import type { SavedCache } from "./saved-cache";

interface Stored {
  value: unknown;
  fetchedAt: number;
  expiresAt: number;
  generation: number;
  /** Read back from the saved cache (an earlier session), not fetched by this one. */
  restored?: boolean;
}

export interface Loaded<T> {
  value: T;
  /** Set when the value is an old one served because the reload failed. */
  stale?: { fetchedAt: number; error: unknown };
  /** True when no request was needed. */
  cached: boolean;
  /** Set when the value was read back from the cache saved on this computer. */
  restored?: { fetchedAt: number };
}

/** The saved cache as the keyed cache uses it: its whole answers (`entry` gives what to save when written). */
type SavedEntries = Pick<SavedCache, "readEntry" | "saveEntry">;

export class KeyedCache {
  private readonly generations: Generations;
  private readonly stored: LruCache<string, Stored>;
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(
    private readonly policy: CachePolicy,
    private readonly now: () => number,
    private readonly timers?: Timers,
    private readonly saved?: SavedEntries
  ) {
    this.stored = new LruCache<string, Stored>({ max: policy.maxEntries });
    this.generations = new Generations(now);
  }

  refresh(): void {
    this.generations.refresh();
  }

  clear(): void {
    this.stored.clear();
    this.generations.refresh();
  }

  get size(): number {
    return this.stored.size;
  }

  get pending(): number {
    return this.inFlight.size;
  }

  /** Whether a load of `key` is under way (a second one would be a wasted request). */
  loading(key: string): boolean {
    return this.inFlight.has(key);
  }

  /** The cached value if fresh, here or in the saved cache, without loading. */
  async peekSaved<T>(key: string): Promise<T | undefined> {
    let s = this.stored.get(key);
    if (!s && this.saved) s = await this.restore(key);
    return s && this.isFresh(s) ? (s.value as T) : undefined;
  }

  /** The cached value if fresh, without loading. */
  peek<T>(key: string): T | undefined {
    const s = this.stored.get(key);
    return s && this.isFresh(s) ? (s.value as T) : undefined;
  }

  /**
   * The value under `key`: cached (in this session or the saved cache), shared with a load in flight, or
   * loaded. `keep` decides whether a loaded value is stored (a value computed from stale answers is shown but
   * not kept as fresh); by default all are.
   */
  async get<T>(
    key: string,
    lifetime: Lifetime,
    load: () => Promise<T>,
    keep?: (value: T) => boolean
  ): Promise<Loaded<T>> {
    let s = this.stored.get(key);
    if (!s && this.saved) s = await this.restore(key);
    if (s && this.isFresh(s)) {
      return s.restored
        ? { value: s.value as T, cached: true, restored: { fetchedAt: s.fetchedAt } }
        : { value: s.value as T, cached: true };
    }
    let flight = this.inFlight.get(key) as Promise<T> | undefined;
    if (!flight) {
      flight = load().then((value) => {
        if (keep && !keep(value)) return value;
        const now = this.now();
        const expiresAt =
          lifetime === "catalogue"
            ? now + this.policy.catalogueTtlMs
            : nextDailyUpdate(now, this.policy.dailyUpdateUtcHour);
        // Fetched just now, so fresh even if a refresh happened while it was in flight.
        const entry: Stored = {
          value,
          fetchedAt: now,
          expiresAt,
          generation: this.generations.current,
        };
        this.stored.set(key, entry);
        this.saved?.saveEntry(key, () =>
          this.stored.peek(key) === entry
            ? { value: entry.value, fetchedAt: entry.fetchedAt, expiresAt: entry.expiresAt }
            : undefined
        );
        return value;
      });
      const settle = (): void => {
        if (this.inFlight.get(key) === flight) this.inFlight.delete(key);
      };
      flight.then(settle, settle);
      this.inFlight.set(key, flight);
    }
    const old = this.usable(this.stored.get(key));
    try {
      return old ? await this.staleIfSlow(flight, old) : { value: await flight, cached: false };
    } catch (error) {
      // Not when the key or the plan was refused (cache-policy.ts, staleMayCover).
      const fallback = staleMayCover(error) ? this.usable(this.stored.get(key)) : undefined;
      if (fallback) {
        return {
          value: fallback.value as T,
          cached: true,
          stale: { fetchedAt: fallback.fetchedAt, error },
        };
      }
      throw error;
    }
  }

  /** The saved answer of an earlier session, taken in unless this session fetched one meanwhile. */
  private async restore(key: string): Promise<Stored | undefined> {
    const saved = await this.saved?.readEntry(key);
    const held = this.stored.get(key);
    if (held || !saved) return held;
    const { value, fetchedAt, expiresAt } = saved.value;
    const entry: Stored = {
      value,
      fetchedAt,
      expiresAt,
      generation: this.generations.ofRestored(fetchedAt),
      restored: true,
    };
    this.stored.set(key, entry);
    return entry;
  }

  /** A previous value young enough to show when a reload fails or is slow. */
  private usable(s: Stored | undefined): Stored | undefined {
    return s && s.fetchedAt >= this.now() - this.policy.maxStaleMs ? s : undefined;
  }

  /** The reload's value, or the previous one if the reload takes too long (the reload goes on). */
  private staleIfSlow<T>(flight: Promise<T>, old: Stored): Promise<Loaded<T>> {
    const timers = this.timers;
    if (!timers) return flight.then((value) => ({ value, cached: false }));
    return new Promise<Loaded<T>>((resolve, reject) => {
      const seconds = Math.round(this.policy.staleAfterMs / 1000);
      const timer = timers.setTimeout(
        () =>
          resolve({
            value: old.value as T,
            cached: true,
            stale: {
              fetchedAt: old.fetchedAt,
              error: new Error(
                `the service has not answered within ${seconds} s; showing the previous values`
              ),
            },
          }),
        this.policy.staleAfterMs
      );
      flight.then(
        (value) => {
          timers.clearTimeout(timer);
          resolve({ value, cached: false });
        },
        (error: unknown) => {
          timers.clearTimeout(timer);
          reject(error);
        }
      );
    });
  }

  private isFresh(s: Stored): boolean {
    return this.generations.isFresh(s);
  }
}
