/**
 * A warm VALUE (and ASOF) answers synchronously: when both catalogues are cached and the engine holds the
 * series fresh, the function returns the plain value instead of a promise, the same value and the same
 * diagnostics the async path gives, for every reading (a day, the latest, a period, a window, growth): both
 * run the same reading (impl/reads.ts). Anything not fresh (a new day, a Refresh, a range not fetched yet),
 * a filter to check or a vintage to read goes the async way.
 */
import * as fns from "../../src/functions/functions";
import { run, runCached } from "../../src/functions/edge";
import { asOf, asOfNow, value, valueNow } from "../../src/functions/impl/value";
import { currentRuntime, sharedDiagnostics } from "../../src/runtime/runtime";
import type { CellRecord } from "../../src/runtime/diagnostics";
import { expectedDaily, inv, NOW, show, startHarness, type Harness } from "./harness";

const DAY_MS = 86_400_000;
/** The runtime's clock, moved by the tests (the simulator's stays at NOW). */
let clock = NOW;
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ now: () => clock });
});
afterAll(() => h.close());
beforeEach(() => {
  clock = NOW;
  currentRuntime().engine.clear();
});

type Outcome = { value: unknown } | { error: { code: string; message: string } };

async function outcome(returned: unknown): Promise<Outcome> {
  try {
    return { value: show(await returned) };
  } catch (e) {
    const { code, message } = e as { code: string; message: string };
    return { error: { code, message } };
  }
}

/** A cell's diagnostics record, without the time it was made. */
function recordOf(address: string): Omit<CellRecord, "at"> | undefined {
  const record = sharedDiagnostics().cell(address);
  if (!record) return undefined;
  const { at: _at, ...rest } = record;
  return rest;
}

type Args = [project: unknown, metric: unknown, date: unknown, options: unknown];

/** The async path on its own: the edge's run with VALUE's (or ASOF's) async implementation. */
function asyncPath(name: "VALUE" | "ASOF", args: Args, address: string): Promise<unknown> {
  const [project, metric, date, options] = args;
  return run(name, inv(address), { project, metric, date, options }, (ctx) =>
    name === "VALUE"
      ? value(ctx, project, metric, date, options)
      : asOf(ctx, project, metric, date, options)
  );
}

/** The synchronous path on its own: an async way taken instead is reported, not followed. */
function cachedPath(
  name: "VALUE" | "ASOF",
  args: Args,
  address: string
): { returned: unknown; tookAsyncPath: boolean } {
  const [project, metric, date, options] = args;
  let tookAsyncPath = false;
  const returned = runCached(
    name,
    inv(address),
    { project, metric, date, options },
    (ctx) =>
      name === "VALUE"
        ? valueNow(ctx, project, metric, date, options)
        : asOfNow(ctx, project, metric, date, options),
    () => {
      tookAsyncPath = true;
      return Promise.resolve(null);
    }
  );
  return { returned, tookAsyncPath };
}

/** Fills the cache the way a first recalculation does (through the async path). */
async function warm(args: Args): Promise<void> {
  await outcome(asyncPath("VALUE", args, "Warm!A1"));
}

describe("a warm VALUE", () => {
  it("answers synchronously with the value the async path gives", async () => {
    const args: Args = ["aave", "fees", "2024-03-01", null];
    const first = fns.value_(...args, inv());
    expect(first).toBeInstanceOf(Promise); // cold: the series has to be fetched
    const fetched = await first;
    const warmValue: unknown = fns.value_(...args, inv());
    expect(warmValue).not.toBeInstanceOf(Promise);
    expect(warmValue).toBe(fetched);
    expect(warmValue).toBeCloseTo(
      expectedDaily("aave", "fees", "2024-03-01", "2024-03-01")[0].value!,
      6
    );
  });

  it("gives, cell by cell, the outcome and the diagnostics record of the async path", async () => {
    const cases: Array<{ name: "VALUE" | "ASOF"; args: Args }> = [
      { name: "VALUE", args: ["aave", "fees", "2024-03-01", null] },
      { name: "ASOF", args: ["aave", "fees", "2024-03-01", null] },
      // tick-and-tock's on-chain data is null from 2023-03-01 to 2023-03-14.
      { name: "VALUE", args: ["tick-and-tock", "tvl", "2023-03-05", null] },
      { name: "VALUE", args: ["tick-and-tock", "tvl", "2023-03-05", "fill=previous"] },
      { name: "ASOF", args: ["tick-and-tock", "tvl", "2023-03-05", "fill=previous"] },
      { name: "VALUE", args: ["sushiswap", "fees", "2026-11-18", "fill=zero"] },
      { name: "VALUE", args: ["sushiswap", "fees", "2026-11-12", "fill=zero"] },
      { name: "VALUE", args: ["aave", "fees", "2026-11-25", null] },
      { name: "VALUE", args: ["sushiswap", "tvl", null, null] },
      { name: "ASOF", args: ["sushiswap", "tvl", null, null] },
      { name: "VALUE", args: ["sushiswap", "tvl", null, "maxage=3d"] },
      { name: "VALUE", args: ["anchor-protocol", "tvl", null, null] },
      { name: "VALUE", args: ["bitcoin", "tokenholders", "2024-03-01", null] },
      { name: "VALUE", args: ["aave", "nonsense", "2024-03-01", null] },
      { name: "VALUE", args: ["aave", "fees", "2024-03-01", "fill=sideways"] },
      // Periods, windows and growth: the same reading, over every series it reads.
      { name: "VALUE", args: ["aave", "revenue", "2024-02-10", "period=quarter"] },
      { name: "ASOF", args: ["aave", "revenue", null, "period=quarter"] },
      { name: "VALUE", args: ["aave", "revenue", null, "period=month; partial=include"] },
      { name: "VALUE", args: ["aave", "fees", "2024-03-31", "window=30d"] },
      { name: "VALUE", args: ["aave", "fees", null, "window=ttm; annualize=1"] },
      { name: "VALUE", args: ["sushiswap", "fees", "2026-11-18", "window=30d; fill=zero"] },
      { name: "VALUE", args: ["aave", "revenue", "2024-05-15", "period=quarter; values=pop"] },
      { name: "VALUE", args: ["aave", "revenue", null, "period=quarter; values=yoy"] },
      { name: "VALUE", args: ["tick-and-tock", "tvl", "2023-03-31", "period=month"] },
    ];
    for (const [i, c] of cases.entries()) {
      const address = `Cmp!A${i + 1}`;
      await warm(c.args);
      const viaAsync = await outcome(asyncPath(c.name, c.args, address));
      const asyncRecord = recordOf(address);
      const { returned, tookAsyncPath } = cachedPath(c.name, c.args, address);
      expect({
        case: c,
        tookAsyncPath,
        result: await outcome(returned),
        record: recordOf(address),
      }).toEqual({ case: c, tookAsyncPath: false, result: viaAsync, record: asyncRecord });
    }
  });

  it("delivers an error it finds synchronously as a rejected promise, as the async path does", async () => {
    const args: Args = ["aave", "fees", "2026-11-25", null];
    await warm(args);
    const returned = fns.value_(...args, inv());
    expect(returned).toBeInstanceOf(Promise);
    expect(await outcome(returned)).toEqual({
      error: {
        code: "#N/A",
        message:
          "no aave fees value on 2026-11-25: 2026-11-25 is after the service's latest day, today 2026-11-20 (UTC)",
      },
    });
  });

  it("does not serve a cached series once the service's daily update has passed (the catalogues still fresh)", async () => {
    const args: Args = ["aave", "fees", "2024-03-01", null];
    await warm(args);
    h.sim.clearLog();
    // Just past midnight UTC, the service's daily update: the series is stale, the catalogues (24 h) are not.
    clock = NOW + DAY_MS / 2 + 60_000;
    expect(currentRuntime().engine.cachedProjects()).toBeDefined();
    expect(currentRuntime().engine.cachedMetrics()).toBeDefined();
    const returned = fns.value_(...args, inv());
    expect(returned).toBeInstanceOf(Promise);
    expect(await returned).toBeCloseTo(
      expectedDaily("aave", "fees", "2024-03-01", "2024-03-01")[0].value!,
      6
    );
    expect(h.requests().some((p) => p.includes("/fees"))).toBe(true);
    // Fetched afresh, the series is warm again.
    expect(fns.value_(...args, inv())).not.toBeInstanceOf(Promise);
  });

  it("does not serve a cached series after a Refresh", async () => {
    const args: Args = ["aave", "fees", "2024-03-01", null];
    await warm(args);
    currentRuntime().engine.refresh();
    h.sim.clearLog();
    const returned = fns.value_(...args, inv());
    expect(returned).toBeInstanceOf(Promise);
    await returned;
    expect(h.requests().some((p) => p.includes("/fees"))).toBe(true);
  });

  it("waits for a day the cached series does not cover", async () => {
    await warm(["aave", "fees", "2024-03-01", null]);
    expect(fns.value_("aave", "fees", "2024-03-02", null, inv())).toBeInstanceOf(Promise);
  });

  it("refuses a latest value older than maxage from the cache as the async path does", async () => {
    await warm(["sushiswap", "tvl", null, null]);
    expect(fns.value_("sushiswap", "tvl", null, "maxage=5d", inv())).toEqual(expect.any(Number));
    expect(await outcome(fns.value_("sushiswap", "tvl", null, "maxage=3d", inv()))).toEqual({
      error: {
        code: "#N/A",
        message:
          "the latest sushiswap tvl value is from 2026-11-15, 5 days before today (maxage=3d)",
      },
    });
    // A day later the latest value is a day older, and the series fetched yesterday is not fresh.
    clock = NOW + DAY_MS;
    const returned = fns.value_("sushiswap", "tvl", null, "maxage=5d", inv());
    expect(returned).toBeInstanceOf(Promise);
    expect(await outcome(returned)).toEqual({
      error: {
        code: "#N/A",
        message:
          "the latest sushiswap tvl value is from 2026-11-15, 6 days before today (maxage=5d)",
      },
    });
  });

  it("leaves filters and vintages to the async path, which reads what the cache cannot say", async () => {
    const warmed: Args[] = [
      ["aave", "fees", "2024-01-01", "chains=ethereum"],
      ["aave", "fees", "2024-01-01", "vintage=2026-11-19"],
    ];
    for (const args of warmed) {
      await warm(args);
      const returned = fns.value_(...args, inv());
      expect({ args, promise: returned instanceof Promise }).toEqual({ args, promise: true });
      await outcome(returned);
    }
  });

  it("answers nothing synchronously before the catalogues are loaded", async () => {
    const returned = fns.value_("aave", "fees", "2024-03-01", null, inv());
    expect(returned).toBeInstanceOf(Promise);
    expect(await returned).toEqual(expect.any(Number));
  });
});
