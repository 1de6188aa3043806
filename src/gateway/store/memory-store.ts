/**
 * The store of one process: answers in an LRU bounded by bytes (lru-cache), locks and failure marks in maps with
 * expiry (the marks bounded by count too), release notices as plain callbacks. What a one-process gateway and
 * `npm start` use, and what a process falls back on while Redis cannot be reached.
 */
import { LRUCache } from "lru-cache";
import { MEMORY_STORE_BYTES } from "../bounds";
import { parseLockValue, type LockHolder, type Store, type Stored } from "./store";

export interface MemoryStoreOptions {
  /** Bound on the answers kept, in bytes of their text (UTF-16: two per character). */
  maxBytes?: number;
  now?: () => number;
}

/** Failure marks kept at once: each lives seconds; a flood of distinct failing requests cannot grow the map. */
const MAX_FAILURE_MARKS = 10_000;

export class MemoryStore implements Store {
  readonly name = "memory";
  private readonly values: LRUCache<string, Stored>;
  private readonly locks = new Map<string, { value: string; until: number }>();
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

  private liveLock(key: string, now: number): { value: string; until: number } | undefined {
    const held = this.locks.get(key);
    if (held && held.until > now) return held;
    if (held) this.locks.delete(key);
    return undefined;
  }

  lock(
    keys: readonly string[],
    value: string,
    ttlMs: number
  ): Promise<{ taken: Set<string>; held: Map<string, LockHolder> }> {
    const now = this.now();
    const taken = new Set<string>();
    const held = new Map<string, LockHolder>();
    for (const key of keys) {
      const live = this.liveLock(key, now);
      const holder = live && parseLockValue(live.value);
      if (holder) {
        held.set(key, holder);
        continue;
      }
      this.locks.set(key, { value, until: now + ttlMs });
      taken.add(key);
    }
    return Promise.resolve({ taken, held });
  }

  holders(keys: readonly string[]): Promise<Array<LockHolder | undefined>> {
    const now = this.now();
    return Promise.resolve(keys.map((key) => parseLockValue(this.liveLock(key, now)?.value)));
  }

  renew(keys: readonly string[], value: string, ttlMs: number): Promise<void> {
    const until = this.now() + ttlMs;
    for (const key of keys) {
      const held = this.locks.get(key);
      if (held?.value === value) held.until = until;
    }
    return Promise.resolve();
  }

  release(keys: readonly string[], value: string): Promise<void> {
    const released = keys.filter((key) => {
      if (this.locks.get(key)?.value !== value) return false;
      this.locks.delete(key);
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

  /** Locks held now (tests and /readyz's detail). */
  get lockCount(): number {
    const now = this.now();
    for (const key of [...this.locks.keys()]) this.liveLock(key, now);
    return this.locks.size;
  }

  close(): Promise<void> {
    this.listeners.clear();
    return Promise.resolve();
  }
}
