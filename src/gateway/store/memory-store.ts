/**
 * The store of one process: answers in a size-bounded LRU (lru-cache), locks and failure marks in maps with
 * expiry, release notices as plain callbacks. What `npm start` and a single gateway process use, and what a
 * process falls back on while Redis cannot be reached.
 */
import { LRUCache } from "lru-cache";
import type { Store } from "./store";

export interface MemoryStoreOptions {
  /** Bound on the answers kept, in characters of JSON (default 256 MB worth: about 128 M characters). */
  maxChars?: number;
  now?: () => number;
}

/** 128 million characters: about 256 MB of strings, room for a large team's day of answers. */
const DEFAULT_MAX_CHARS = 128_000_000;

export class MemoryStore implements Store {
  readonly name = "memory";
  private readonly values: LRUCache<string, string>;
  private readonly locks = new Map<string, { owner: string; until: number }>();
  private readonly failed = new Map<string, { message: string; until: number }>();
  private readonly listeners = new Set<(keys: readonly string[]) => void>();
  private readonly now: () => number;

  constructor(options: MemoryStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    const now = this.now;
    this.values = new LRUCache<string, string>({
      maxSize: options.maxChars ?? DEFAULT_MAX_CHARS,
      sizeCalculation: (value, key) => value.length + key.length,
      // The store's clock, so that tests moving time move expiry too.
      perf: { now },
      ttlResolution: 0,
    });
  }

  read(keys: readonly string[]): Promise<Array<string | undefined>> {
    return Promise.resolve(keys.map((key) => this.values.get(key)));
  }

  write(key: string, value: string, ttlMs: number): Promise<void> {
    this.values.set(key, value, { ttl: ttlMs });
    return Promise.resolve();
  }

  lock(keys: readonly string[], owner: string, ttlMs: number): Promise<Set<string>> {
    const now = this.now();
    const taken = new Set<string>();
    for (const key of keys) {
      const held = this.locks.get(key);
      if (held && held.until > now) continue;
      this.locks.set(key, { owner, until: now + ttlMs });
      taken.add(key);
    }
    return Promise.resolve(taken);
  }

  renew(keys: readonly string[], owner: string, ttlMs: number): Promise<void> {
    const until = this.now() + ttlMs;
    for (const key of keys) {
      const held = this.locks.get(key);
      if (held?.owner === owner) held.until = until;
    }
    return Promise.resolve();
  }

  release(keys: readonly string[], owner: string): Promise<void> {
    const released = keys.filter((key) => {
      if (this.locks.get(key)?.owner !== owner) return false;
      this.locks.delete(key);
      return true;
    });
    if (released.length > 0) for (const listener of [...this.listeners]) listener(released);
    return Promise.resolve();
  }

  markFailed(keys: readonly string[], message: string, ttlMs: number): Promise<void> {
    const until = this.now() + ttlMs;
    for (const key of keys) this.failed.set(key, { message, until });
    return Promise.resolve();
  }

  failures(keys: readonly string[]): Promise<Array<string | undefined>> {
    const now = this.now();
    return Promise.resolve(
      keys.map((key) => {
        const mark = this.failed.get(key);
        if (!mark) return undefined;
        if (mark.until > now) return mark.message;
        this.failed.delete(key);
        return undefined;
      })
    );
  }

  onReleased(listener: (keys: readonly string[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): Promise<void> {
    this.listeners.clear();
    return Promise.resolve();
  }
}
