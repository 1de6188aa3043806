/**
 * A least-recently-used map bounded by a number of entries or by a total size, in the few lines the engine's
 * caches need (lru-cache's browser build alone was about 6 kB of functions.js gzipped, a tenth of its budget).
 * It behaves as lru-cache does for what the engine uses: `get` makes an entry the most recent, `peek` and
 * `has` do not; `set` makes it the most recent and then drops the least recent others until the bounds hold;
 * an entry larger than `maxSize` on its own is not kept (and replaces nothing: the key is dropped).
 */
interface LruLimits<V> {
  /** At most this many entries. */
  max?: number;
  /** At most this total size, each entry's size given to `set` or by `sizeOf`. */
  maxSize?: number;
  sizeOf?: (value: V) => number;
}

interface Slot<V> {
  value: V;
  size: number;
}

export class LruCache<K, V> {
  /** In recency order: a Map iterates in insertion order, so the first key is the least recently used. */
  private readonly slots = new Map<K, Slot<V>>();
  private total = 0;

  constructor(private readonly limits: LruLimits<V>) {
    if (limits.max === undefined && limits.maxSize === undefined)
      throw new TypeError("an LRU cache needs max or maxSize");
  }

  /** Entries held. */
  get size(): number {
    return this.slots.size;
  }

  /** Sum of the entries' sizes (0 without maxSize). */
  get calculatedSize(): number {
    return this.total;
  }

  has(key: K): boolean {
    return this.slots.has(key);
  }

  /** The value without making it more recent. */
  peek(key: K): V | undefined {
    return this.slots.get(key)?.value;
  }

  /** The value, which becomes the most recently used. */
  get(key: K): V | undefined {
    const slot = this.slots.get(key);
    if (!slot) return undefined;
    this.slots.delete(key);
    this.slots.set(key, slot);
    return slot.value;
  }

  /** Stores the value as the most recent; `size` (positive) overrides `sizeOf`. */
  set(key: K, value: V, options?: { size?: number }): this {
    const { max, maxSize, sizeOf } = this.limits;
    let size = 0;
    if (maxSize !== undefined) {
      size = options?.size || (sizeOf ? sizeOf(value) : 0);
      if (!Number.isInteger(size) || size < 1)
        throw new TypeError("an entry's size must be a positive integer");
    }
    this.delete(key);
    if (maxSize !== undefined && size > maxSize) return this;
    for (const oldest of this.slots.keys()) {
      const full =
        (max !== undefined && this.slots.size >= max) ||
        (maxSize !== undefined && this.total + size > maxSize);
      if (!full) break;
      this.delete(oldest);
    }
    this.slots.set(key, { value, size });
    this.total += size;
    return this;
  }

  delete(key: K): boolean {
    const slot = this.slots.get(key);
    if (!slot) return false;
    this.slots.delete(key);
    this.total -= slot.size;
    return true;
  }

  clear(): void {
    this.slots.clear();
    this.total = 0;
  }
}
