/**
 * @jest-environment jsdom
 */
/**
 * The add-in's saved cache: IndexedDB (fake-indexeddb in jsdom) through the store the page uses, alone and
 * under the engine, as a workbook reopened in a new session meets it.
 */
import "../support/jsdom-polyfills";
import "fake-indexeddb/auto";
import { createHash } from "crypto";
import { openDB } from "idb";
import { Engine, type EngineClient } from "../../src/engine/engine";
import { dayNumber } from "../../src/client/data/days";
import { PersistentCache } from "../../src/engine/persistence";
import { savedEngineCache } from "../../src/engine/saved-entries";
import { DEFAULT_VARIANT } from "../../src/engine/series-types";
import { namespaceSource } from "../../src/runtime/cache-namespace";
import { IdbBlobStore } from "../../src/runtime/idb-store";
import { fakeClock, type FakeClock, MIDDAY_2026 } from "../support/clock";
import { FakeClient } from "../engine/fake-client";

let databases = 0;
/** A database of its own per test: fake-indexeddb keeps them for the whole file. */
function freshName(): string {
  return `cryptometrics-test-${++databases}`;
}

const text = (n: number, fill = "x") => fill.repeat(n);

describe("IndexedDB store", () => {
  it("gives back what an earlier session wrote", async () => {
    const database = freshName();
    const first = new IdbBlobStore({ database });
    await first.setMany(
      new Map([
        ["a", "alpha"],
        ["b", "beta"],
      ])
    );
    first.close();
    const second = new IdbBlobStore({ database });
    expect(await second.getMany(["a", "b", "missing"])).toEqual(
      new Map([
        ["a", "alpha"],
        ["b", "beta"],
      ])
    );
    expect(await second.usage()).toMatchObject({ entries: 2, bytes: 2 + 5 + 4 });
    await second.deleteMany(["a"]);
    expect([...(await second.getMany(["a", "b"])).keys()]).toEqual(["b"]);
    await second.clear();
    expect(await second.usage()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it("stays within its bound, removing the least recently used entries first", async () => {
    const time = fakeClock(MIDDAY_2026, { held: true });
    const store = new IdbBlobStore({ database: freshName(), maxBytes: 10_000, now: time.now });
    // Four entries of about 3 kB: the fourth goes over 10 kB.
    for (const key of ["k1", "k2", "k3"]) {
      await store.setMany(new Map([[key, text(2_998)]]));
      await time.advance(1_000);
    }
    await store.getMany(["k1"]); // k1 is now the most recently used
    await time.advance(1_000);
    await store.setMany(new Map([["k4", text(2_998)]]));
    const usage = await store.usage();
    expect(usage.bytes).toBeLessThanOrEqual(10_000);
    expect([...(await store.getMany(["k1", "k2", "k3", "k4"])).keys()]).toEqual(["k1", "k3", "k4"]);
  });

  it("does not keep one entry bigger than the whole bound", async () => {
    const store = new IdbBlobStore({ database: freshName(), maxBytes: 1_000 });
    await store.setMany(new Map([["small", "s"]]));
    await store.setMany(new Map([["huge", text(2_000)]]));
    expect([...(await store.getMany(["small", "huge"])).keys()]).toEqual(["small"]);
  });
});

describe("the engine over IndexedDB", () => {
  const KEY = "cm_live_7Hq2ZkT9wXb41sVfD0aQ";
  const digest = async (s: string) => createHash("sha256").update(s).digest("hex");

  function session(time: FakeClock, database: string) {
    const fake = new FakeClient();
    const unused = (): Promise<never> => Promise.reject(new Error("not used"));
    const client: EngineClient = {
      getMetric: (...a) => fake.getMetric(...a),
      getProjectMetrics: (...a) => fake.getProjectMetrics(...a),
      getProductMetrics: (...a) => fake.getProductMetrics(...a),
      listProjects: unused,
      getProject: unused,
      getProjectMetricAggregations: unused,
      getFinancialStatement: unused,
      getProduct: unused,
      listMarketSectors: unused,
      getMarketSector: unused,
      listMetrics: unused,
      getMetricAggregations: unused,
      getMetricsBreakdown: unused,
    };
    const store = new IdbBlobStore({ database, now: time.now });
    const saved = savedEngineCache(
      new PersistentCache({
        store,
        namespace: namespaceSource("https://metrics.example/", KEY, digest),
        timers: time.timers,
        now: time.now,
      })
    );
    return {
      fake,
      store,
      saved,
      engine: new Engine({ client, timers: time.timers, now: time.now, saved }),
    };
  }

  async function settle<T>(time: FakeClock, promise: Promise<T>): Promise<T> {
    let done = false;
    const tracked = promise.finally(() => (done = true));
    // fake-indexeddb answers on real macrotasks: let them run between steps of the manual clock.
    for (let i = 0; i < 500 && !done; i++) {
      await time.advance(10);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    return tracked;
  }

  const cells = ["aave", "uniswap", "curve"].flatMap((projectId) =>
    ["fees", "revenue"].map((metricId) => ({
      projectId,
      metricId,
      start: dayNumber("2025-01-01"),
      end: dayNumber("2025-03-31"),
      variant: DEFAULT_VARIANT,
    }))
  );

  it("reopens on the same day without a request, and the key is nowhere in the database", async () => {
    const time = fakeClock(MIDDAY_2026, { held: true });
    const database = freshName();
    const first = session(time, database);
    const before = await settle(time, Promise.all(cells.map((c) => first.engine.series(c))));
    await first.saved.flush();
    expect(first.fake.calls.length).toBeGreaterThan(0);
    first.store.close();

    await time.advance(60 * 60_000);
    const second = session(time, database);
    const after = await settle(time, Promise.all(cells.map((c) => second.engine.series(c))));
    expect(second.fake.calls).toHaveLength(0);
    expect(after.map((a) => a.dims)).toEqual(before.map((a) => a.dims));
    expect(after.every((a) => a.restored !== undefined)).toBe(true);

    // Everything IndexedDB holds, keys and values, as text: the key appears nowhere.
    const db = await openDB(database);
    const dump = JSON.stringify({
      entryKeys: await db.getAllKeys("entries"),
      entries: await db.getAll("entries"),
      usage: await db.getAll("usage"),
    });
    db.close();
    expect(dump).toContain("https://metrics.example#");
    expect(dump).toContain("aave");
    expect(dump).not.toContain(KEY);
    expect(dump).not.toContain(KEY.slice(-12));
  });
});
