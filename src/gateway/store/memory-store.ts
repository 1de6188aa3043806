/**
 * The store of one process: answers in an LRU bounded by bytes (lru-cache), locks and failure marks in maps with
 * expiry (the marks bounded by count too), release notices as plain callbacks. What a one-process gateway and
 * `npm start` use, and what a process falls back on while Redis cannot be reached.
 */
import { LRUCache } from "lru-cache";
import { FETCHES_PER_NEED, MEMORY_STORE_BYTES } from "../bounds";
import { covered, parseLockValue, type LockHolder, type Store, type Stored } from "./store";

interface MemoryStoreOptions {
  /** Bound on the answers kept, in bytes of their text (UTF-16: two per character). */
  maxBytes?: number;
  now?: () => number;
}

/** Failure marks kept at once: each lives seconds; a flood of distinct failing requests cannot grow the map. */
const MAX_FAILURE_MARKS = 10_000;

export class MemoryStore implements Store {
  readonly name = "memory";
  private readonly values: LRUCache<string, Stored>;
  private readonly locks = new Map<string, Array<{ value: string; until: number }>>();
  private readonly failed: LRUCache<string, { failure: string; until: number }>;
  private readonly listeners = new Set<(keys: readonly string[]) => void>();
  private readonly now: () => number;

  constructor(options: MemoryStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    const now = this.now;
    this.values = new LRUCache<string, Stored>({
      maxSize: options.maxBytes ?? MEMORY_STORE_BYTES,
      sizeCalculation: (value, key) => 2 * (value.text.length + key.length) + 64,
      // The store's clock, so that tests moving time move expiry too.
      perf: { now },
      ttlResolution: 0,
    });
    this.failed = new LRUCache({ max: MAX_FAILURE_MARKS });
  }

  read(keys: readonly string[]): Promise<Array<Stored | undefined>> {
    return Promise.resolve(keys.map((key) => this.values.get(key)));
  }

  writeIf(key: string, rev: number, text: string, ttlMs: number): Promise<boolean> {
    const current = this.values.get(key)?.rev ?? 0;
    if (current !== rev) return Promise.resolve(false);
    this.values.set(key, { rev: rev + 1, text }, { ttl: Math.max(1, ttlMs) });
    return Promise.resolve(true);
  }

  /** The locks of a key still in force (expired ones dropped). */
  private live(key: string, now: number): Array<{ value: string; until: number }> {
    const held = (this.locks.get(key) ?? []).filter((l) => l.until > now);
    if (held.length > 0) this.locks.set(key, held);
    else this.locks.delete(key);
    return held;
  }

  lock(
    keys: readonly string[],
    value: string,
    ttlMs: number
  ): Promise<{ taken: Set<string>; held: Map<string, LockHolder[]> }> {
    const now = this.now();
    const days = parseLockValue(value) ?? { start: 0, end: 0 };
    const taken = new Set<string>();
    const held = new Map<string, LockHolder[]>();
    for (const key of keys) {
      const live = this.live(key, now);
      const holders = live.map((l) => parseLockValue(l.value)).filter((h): h is LockHolder => !!h);
      if (covered(holders, days) || live.length >= FETCHES_PER_NEED) {
        held.set(key, holders);
        continue;
      }
      this.locks.set(key, [...live, { value, until: now + ttlMs }]);
      taken.add(key);
    }
    return Promise.resolve({ taken, held });
  }

  holders(keys: readonly string[]): Promise<LockHolder[][]> {
    const now = this.now();
    return Promise.resolve(
      keys.map((key) =>
        this.live(key, now)
          .map((l) => parseLockValue(l.value))
          .filter((h): h is LockHolder => !!h)
      )
    );
  }

  renew(keys: readonly string[], value: string, ttlMs: number): Promise<void> {
    const until = this.now() + ttlMs;
    for (const key of keys)
      for (const l of this.locks.get(key) ?? []) if (l.value === value) l.until = until;
    return Promise.resolve();
  }

  release(keys: readonly string[], value: string): Promise<void> {
    const released = keys.filter((key) => {
      const held = this.locks.get(key) ?? [];
      const left = held.filter((l) => l.value !== value);
      if (left.length === held.length) return false;
      if (left.length > 0) this.locks.set(key, left);
      else this.locks.delete(key);
      return true;
    });
    if (released.length > 0) for (const listener of [...this.listeners]) listener(released);
    return Promise.resolve();
  }

  markFailed(key: string, failure: string, ttlMs: number): Promise<void> {
    this.failed.set(key, { failure, until: this.now() + ttlMs });
    return Promise.resolve();
  }

  failure(key: string): Promise<string | undefined> {
    const mark = this.failed.get(key);
    if (!mark) return Promise.resolve(undefined);
    if (mark.until > this.now()) return Promise.resolve(mark.failure);
    this.failed.delete(key);
    return Promise.resolve(undefined);
  }

  onReleased(listener: (keys: readonly string[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Locks held now (tests). */
  get lockCount(): number {
    const now = this.now();
    let n = 0;
    for (const key of [...this.locks.keys()]) n += this.live(key, now).length;
    return n;
  }

  close(): Promise<void> {
    this.listeners.clear();
    return Promise.resolve();
  }
}
