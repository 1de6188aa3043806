/**
 * Deterministic pseudo-random numbers keyed by ids: the dataset must come out identical on every run and
 * every machine, so nothing here touches Math.random.
 */

/** 32-bit FNV-1a of a string, finished with a murmur-style avalanche so nearby ids spread apart. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

/** Murmur3 finaliser: a cheap bijective scramble of 32 bits. */
function mix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A value in [0, 1) from a key hash and an integer (e.g. a day number), without allocating strings. */
export function unitAt(keyHash: number, n: number): number {
  return mix32(keyHash ^ Math.imul(n + 0x9e3779b9, 0x9e3779b1)) / 4294967296;
}

/** A value in [0, 1) from a string key. */
export function unitHash(key: string): number {
  return hashString(key) / 4294967296;
}

/** mulberry32: tiny, fast, good enough for simulation noise. Returns values in [0, 1). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal draw (Box-Muller) from a uniform source. */
export function gaussian(random: () => number): number {
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** A number in [min, max) from a string key: for per-project constants. */
export function rangeHash(key: string, min: number, max: number): number {
  return min + unitHash(key) * (max - min);
}
