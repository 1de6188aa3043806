import { LruCache } from "../../src/engine/lru";

describe("LruCache", () => {
  it("bounded by entries: drops the least recently used, get refreshes, peek and has do not", () => {
    const c = new LruCache<string, number>({ max: 2 });
    c.set("a", 1).set("b", 2);
    expect(c.get("a")).toBe(1); // a is now the most recent
    c.set("c", 3);
    expect([c.has("a"), c.has("b"), c.has("c")]).toEqual([true, false, true]);
    expect(c.peek("a")).toBe(1); // peek: a stays older than c
    expect(c.has("a")).toBe(true);
    c.set("d", 4);
    expect([c.has("a"), c.has("c"), c.has("d")]).toEqual([false, true, true]);
    expect(c.size).toBe(2);
  });

  it("replacing a key makes it the most recent without counting it twice", () => {
    const c = new LruCache<string, number>({ max: 2 });
    c.set("a", 1).set("b", 2).set("a", 10).set("c", 3);
    expect(c.peek("a")).toBe(10);
    expect(c.has("b")).toBe(false);
    expect(c.size).toBe(2);
  });

  it("bounded by size: sizeOf or an explicit size, oldest dropped until the new entry fits", () => {
    const c = new LruCache<string, { n: number }>({ maxSize: 10, sizeOf: (v) => v.n });
    c.set("a", { n: 4 }).set("b", { n: 4 });
    expect(c.calculatedSize).toBe(8);
    c.set("c", { n: 5 });
    expect([c.has("a"), c.has("b"), c.has("c")]).toEqual([false, true, true]);
    expect(c.calculatedSize).toBe(9);
    c.set("b", { n: 999 }, { size: 1 }); // the explicit size wins
    expect(c.calculatedSize).toBe(6);
    // Re-measured when set again (a new size), the entry set last is kept, older ones go.
    c.set("c", { n: 9 });
    expect([c.has("b"), c.has("c")]).toEqual([true, true]);
    expect(c.calculatedSize).toBe(10);
  });

  it("an entry larger than maxSize on its own is not kept, and drops the key's old value", () => {
    const c = new LruCache<string, number>({ maxSize: 5, sizeOf: (v) => v });
    c.set("a", 2).set("b", 3);
    c.set("a", 6);
    expect(c.has("a")).toBe(false);
    expect(c.has("b")).toBe(true);
    expect(c.calculatedSize).toBe(3);
  });

  it("refuses sizes that are not positive integers, and a cache without bounds", () => {
    const c = new LruCache<string, number>({ maxSize: 5, sizeOf: (v) => v });
    expect(() => c.set("a", 0)).toThrow(TypeError);
    expect(() => c.set("a", 1.5)).toThrow(TypeError);
    expect(() => new LruCache<string, number>({})).toThrow(TypeError);
  });

  it("delete and clear", () => {
    const c = new LruCache<string, number>({ maxSize: 5, sizeOf: (v) => v });
    c.set("a", 2).set("b", 3);
    expect(c.delete("a")).toBe(true);
    expect(c.delete("a")).toBe(false);
    expect(c.calculatedSize).toBe(3);
    c.clear();
    expect([c.size, c.calculatedSize, c.get("b")]).toEqual([0, 0, undefined]);
  });
});
