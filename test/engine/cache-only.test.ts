/**
 * The engine's cache-only mode (Engine.cacheOnly), the view a formula preview reads: what the engine holds
 * fresh, answered as now and shared with it; for anything else the caller's miss error, with no request sent
 * and no batching window opened. The mode is a field every read path asks, not methods replaced on a copy.
 */
import type { ClientResult, Project, ResultMeta } from "../../src/client";
import { dayNumber } from "../../src/client/data/days";
import { Engine, type EngineClient } from "../../src/engine/engine";
import { DEFAULT_VARIANT, type SeriesQuery } from "../../src/engine/series-types";
import { fakeClock, type FakeClock, MIDDAY_2026 } from "../support/clock";
import { FakeClient } from "./fake-client";

const META: ResultMeta = { requests: 1, simulated: true, redirects: [] };
const PROJECTS: Project[] = [{ projectId: "aave", name: "Aave", isArchived: false, products: [] }];

/** The fake's series operations, and a project list and aggregations that count their calls. */
function engineClient(fake: FakeClient, counted: string[]): EngineClient {
  const unused = (name: string) => (): Promise<never> => {
    counted.push(name);
    return Promise.reject(new Error(`${name}: not used by these tests`));
  };
  return {
    getMetric: (...args) => fake.getMetric(...args),
    getProjectMetrics: (...args) => fake.getProjectMetrics(...args),
    getProductMetrics: (...args) => fake.getProductMetrics(...args),
    listProjects: (): Promise<ClientResult<Project[]>> => {
      counted.push("listProjects");
      return Promise.resolve({ data: PROJECTS, errors: [], meta: META });
    },
    getProject: unused("getProject"),
    getProjectMetricAggregations: unused("getProjectMetricAggregations"),
    getFinancialStatement: unused("getFinancialStatement"),
    getProduct: unused("getProduct"),
    listMarketSectors: unused("listMarketSectors"),
    getMarketSector: unused("getMarketSector"),
    listMetrics: unused("listMetrics"),
    getMetricAggregations: unused("getMetricAggregations"),
    getMetricsBreakdown: unused("getMetricsBreakdown"),
  };
}

function q(projectId: string, metricId: string, start: string, end = start): SeriesQuery {
  return {
    projectId,
    metricId,
    start: dayNumber(start),
    end: dayNumber(end),
    variant: DEFAULT_VARIANT,
  };
}

/** Moves the manual clock until the promise settles (the batching window runs on it). */
async function settle<T>(time: FakeClock, promise: Promise<T>): Promise<T> {
  let done = false;
  const tracked = promise.finally(() => {
    done = true;
  });
  for (let i = 0; i < 1_000 && !done; i++) await time.advance(10);
  return tracked;
}

class Miss extends Error {}

function setUp() {
  const time = fakeClock(MIDDAY_2026, { held: true });
  const fake = new FakeClient();
  const counted: string[] = [];
  const engine = new Engine({
    client: engineClient(fake, counted),
    now: time.now,
    timers: time.timers,
  });
  const view = engine.cacheOnly(() => new Miss("not held"));
  const sent = (): number => fake.calls.length + counted.length;
  return { time, fake, engine, view, sent };
}

describe("the engine's cache-only mode", () => {
  it("answers what the engine holds fresh, as the engine does, with no request", async () => {
    const { time, engine, view, sent } = setUp();
    const live = await settle(time, engine.series(q("aave", "fees", "2025-03-01", "2025-03-05")));
    await settle(time, engine.projects());
    const before = sent();
    const held = await view.series(q("aave", "fees", "2025-03-02", "2025-03-04"));
    expect(held.dims.get("")!.map((p) => p.value)).toEqual(
      live.dims
        .get("")!
        .slice(1, 4)
        .map((p) => p.value)
    );
    expect((await view.projects()).value).toEqual(PROJECTS);
    expect(sent()).toBe(before);
  });

  it("rejects with the caller's miss for a series, a catalogue, a computed value or a first day not held", async () => {
    const { time, view, sent } = setUp();
    await expect(view.series(q("aave", "fees", "2025-03-01"))).rejects.toBeInstanceOf(Miss);
    await expect(view.projects()).rejects.toBeInstanceOf(Miss);
    await expect(view.metrics()).rejects.toBeInstanceOf(Miss);
    await expect(view.project("aave")).rejects.toBeInstanceOf(Miss);
    await expect(view.aggregation("aave", "fees")).rejects.toBeInstanceOf(Miss);
    await expect(view.statement("aave", "quarter", "1y")).rejects.toBeInstanceOf(Miss);
    await expect(
      view.breakdown("fees", ["aave"], "2025-01-01", "2025-01-31")
    ).rejects.toBeInstanceOf(Miss);
    const compute = jest.fn(() => Promise.resolve(1));
    await expect(view.derived("card:aave", compute)).rejects.toBeInstanceOf(Miss);
    await expect(view.historyStarts("fees", ["aave"], () => 0)).rejects.toBeInstanceOf(Miss);
    view.flush();
    await time.advance(60_000);
    expect(compute).not.toHaveBeenCalled();
    expect(sent()).toBe(0);
    expect(view.stats().waiting).toBe(0);
  });

  it("shares the engine's caches both ways: what the engine fetches after, the view holds", async () => {
    const { time, engine, view } = setUp();
    await expect(view.series(q("uniswap", "tvl", "2025-01-10"))).rejects.toBeInstanceOf(Miss);
    await settle(time, engine.series(q("uniswap", "tvl", "2025-01-10")));
    await expect(view.series(q("uniswap", "tvl", "2025-01-10"))).resolves.toBeDefined();
  });

  it("leaves the engine live: a miss of the view is no miss of the engine", async () => {
    const { time, fake, engine, view } = setUp();
    await expect(view.series(q("aave", "revenue", "2025-02-01"))).rejects.toBeInstanceOf(Miss);
    const answer = await settle(time, engine.series(q("aave", "revenue", "2025-02-01")));
    expect(answer.dims.get("")).toHaveLength(1);
    expect(fake.calls).toHaveLength(1);
  });

  it("is a mode of the same class: the view has the engine's methods, none of its own", () => {
    const { engine, view } = setUp();
    expect(Object.getPrototypeOf(view)).toBe(Engine.prototype);
    const own = Object.entries(view).filter(([, v]) => typeof v === "function");
    expect(own).toEqual([]);
    expect(view.options).toBe(engine.options);
  });
});
