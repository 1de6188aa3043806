/**
 * Cache for whole answers (catalogues, details, statements, aggregations): identical loads in flight are
 * shared, failures are never cached, and a failed reload falls back to the previous answer (stale-if-error)
 * within the policy's limit.
 */
import { LRUCache } from "lru-cache";
import type { Timers } from "../client";
import { nextDailyUpdate, type CachePolicy } from "./cache-policy";

export type Lifetime = "catalogue" | "daily";

interface Stored {
  value: unknown;
  fetchedAt: number;
  expiresAt: number;
  generation: number;
}

export interface Loaded<T> {
  value: T;
  /** Set when the value is an old one served because the reload failed. */
  stale?: { fetchedAt: number; error: unknown };
  /** True when no request was needed. */
  cached: boolean;
}

export class KeyedCache {
  private generation = 0;
  private readonly stored: LRUCache<string, Stored>;
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(
    private readonly policy: CachePolicy,
    private readonly now: () => number,
    private readonly timers?: Timers
  ) {
    this.stored = new LRUCache<string, Stored>({ max: policy.maxEntries });
  }

  refresh(): void {
    this.generation++;
  }

  clear(): void {
    this.stored.clear();
    this.generation++;
  }

  get size(): number {
    return this.stored.size;
  }

  get pending(): number {
    return this.inFlight.size;
  }

  /** The cached value if fresh, without loading. */
  peek<T>(key: string): T | undefined {
    const s = this.stored.get(key);
    return s && this.isFresh(s) ? (s.value as T) : undefined;
  }

  async get<T>(key: string, lifetime: Lifetime, load: () => Promise<T>): Promise<Loaded<T>> {
    const s = this.stored.get(key);
    if (s && this.isFresh(s)) return { value: s.value as T, cached: true };
    let flight = this.inFlight.get(key) as Promise<T> | undefined;
    if (!flight) {
      flight = load().then((value) => {
        const now = this.now();
        const expiresAt =
          lifetime === "catalogue"
            ? now + this.policy.catalogueTtlMs
            : nextDailyUpdate(now, this.policy.dailyUpdateUtcHour);
        // Fetched just now, so fresh even if a refresh happened while it was in flight.
        this.stored.set(key, { value, fetchedAt: now, expiresAt, generation: this.generation });
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
      const fallback = this.usable(this.stored.get(key));
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
    return s.generation === this.generation && this.now() < s.expiresAt;
  }
}
