import { DEFAULT_CACHE_POLICY, nextDailyUpdate } from "../../src/cache/policy";
import { KeyedCache } from "../../src/engine/keyed-cache";
import { SeriesStore } from "../../src/engine/series-store";
import { fakeClock, MIDDAY_2026 } from "../support/clock";

const HOUR = 3_600_000;

describe("cache lifetimes", () => {
  it("expires daily data at the next update hour", () => {
    const noon = Date.UTC(2026, 10, 20, 12);
    expect(nextDailyUpdate(noon, 0)).toBe(Date.UTC(2026, 10, 21, 0));
    expect(nextDailyUpdate(noon, 14)).toBe(Date.UTC(2026, 10, 20, 14));
    expect(nextDailyUpdate(Date.UTC(2026, 10, 21, 0), 0)).toBe(Date.UTC(2026, 10, 22, 0));
  });
});

describe("series store", () => {
  const points = (days: number[]) => new Map([["", days.map((day) => ({ day, value: day * 10 }))]]);

  it("is fresh for what it covers until the next daily update", async () => {
    const time = fakeClock(Date.UTC(2026, 10, 20, 23), { held: true });
    const store = new SeriesStore(DEFAULT_CACHE_POLICY, time.now);
    store.write("k", 1, 5, points([1, 2, 3, 4, 5]), "req");
    expect(store.fresh("k", 2, 4)).toBeDefined();
    expect(store.fresh("k", 2, 6)).toBeUndefined();
    await time.advance(HOUR);
    expect(store.fresh("k", 2, 4)).toBeUndefined();
    expect(store.stale("k", 2, 4)).toBeDefined();
  });

  it("replaces the days of a refetched range, dropping days the service no longer returns", () => {
    const time = fakeClock(MIDDAY_2026, { held: true });
    const store = new SeriesStore(DEFAULT_CACHE_POLICY, time.now);
    store.write("k", 1, 5, points([1, 2, 3, 4, 5]), "first");
    store.write("k", 3, 5, points([3]), "second");
    const s = store.fresh("k", 1, 5)!;
    expect(
      store
        .read(s, 1, 5)
        .get("")!
        .map((p) => p.day)
    ).toEqual([1, 2, 3]);
    expect([...s.servedBy]).toEqual(["first", "second"]);
  });

  it("keeps the previous snapshot after a refresh as a fallback, within the staleness limit", async () => {
    const time = fakeClock(MIDDAY_2026, { held: true });
    const store = new SeriesStore(DEFAULT_CACHE_POLICY, time.now);
    store.write("k", 1, 5, points([1, 2]), "first");
    store.refresh();
    expect(store.fresh("k", 1, 5)).toBeUndefined();
    store.write("k", 10, 12, points([10]), "second");
    expect(store.read(store.stale("k", 1, 5)!, 1, 5).get("")).toHaveLength(2);
    await time.advance(DEFAULT_CACHE_POLICY.maxStaleMs + 1);
    expect(store.stale("k", 1, 5)).toBeUndefined();
  });

  it("stays within its bound on points, dropping the least recently used series", () => {
    const store = new SeriesStore(
      { ...DEFAULT_CACHE_POLICY, maxPoints: 100 },
      fakeClock(MIDDAY_2026, { held: true }).now
    );
    for (let i = 0; i < 10; i++)
      store.write(`k${i}`, 0, 29, points(Array.from({ length: 30 }, (_, d) => d)), "r");
    expect(store.size.points).toBeLessThanOrEqual(100);
    expect(store.fresh("k9", 0, 29)).toBeDefined();
    expect(store.fresh("k0", 0, 29)).toBeUndefined();
  });
});

describe("keyed cache", () => {
  it("shares one load between concurrent callers and serves later ones from the cache", async () => {
    const cache = new KeyedCache(DEFAULT_CACHE_POLICY, fakeClock(MIDDAY_2026, { held: true }).now);
    const load = jest.fn(async () => ["aave"]);
    const [a, b] = await Promise.all([
      cache.get("projects", "catalogue", load),
      cache.get("projects", "catalogue", load),
    ]);
    expect(a.value).toBe(b.value);
    expect((await cache.get("projects", "catalogue", load)).cached).toBe(true);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("never caches a failure, and falls back to the previous value when a reload fails", async () => {
    const time = fakeClock(MIDDAY_2026, { held: true });
    const cache = new KeyedCache(DEFAULT_CACHE_POLICY, time.now);
    const boom = new Error("unreachable");
    await expect(cache.get("p", "catalogue", () => Promise.reject(boom))).rejects.toBe(boom);
    await cache.get("p", "catalogue", async () => 1);
    cache.refresh();
    const fallback = await cache.get("p", "catalogue", () => Promise.reject(boom));
    expect(fallback).toEqual({
      value: 1,
      cached: true,
      stale: { fetchedAt: time.now(), error: boom },
    });
    expect(cache.pending).toBe(0);
  });

  it("shows the previous value when a reload is slow, and takes the reload's value when it comes", async () => {
    const time = fakeClock(MIDDAY_2026, { held: true });
    const cache = new KeyedCache(DEFAULT_CACHE_POLICY, time.now, time.timers);
    await cache.get("p", "catalogue", async () => "old");
    cache.refresh();
    let answer: (v: string) => void = () => undefined;
    const slow = cache.get(
      "p",
      "catalogue",
      () => new Promise<string>((resolve) => (answer = resolve))
    );
    await time.advance(DEFAULT_CACHE_POLICY.staleAfterMs);
    const shown = await slow;
    expect(shown.value).toBe("old");
    expect(String(shown.stale?.error)).toContain("has not answered within 10 s");
    answer("new");
    await time.advance(0);
    expect(cache.peek("p")).toBe("new");
    expect(time.timersPending).toBe(0);
  });

  it("reloads catalogues after a day", async () => {
    const time = fakeClock(MIDDAY_2026, { held: true });
    const cache = new KeyedCache(DEFAULT_CACHE_POLICY, time.now);
    const load = jest.fn(async () => "v");
    await cache.get("p", "catalogue", load);
    await time.advance(DEFAULT_CACHE_POLICY.catalogueTtlMs);
    await cache.get("p", "catalogue", load);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
