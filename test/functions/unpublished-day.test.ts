/**
 * The service publishes a day some time after midnight UTC. A session that asked before it did must not keep
 * yesterday's "latest" until the next midnight: an answer that reaches today but lacks it is asked again after
 * half an hour.
 */
import * as fns from "../../src/functions/functions";
import { currentRuntime } from "../../src/runtime/runtime";
import { DEFAULT_CACHE_POLICY } from "../../src/cache/policy";
import { excelError, expectedDaily, inv, serial, startHarness, type Harness } from "./harness";

const MINUTE = 60_000;
/** 00:05 UTC on 2026-11-20: the runtime's clock. */
const AFTER_MIDNIGHT = Date.UTC(2026, 10, 20, 0, 5);
let clock = AFTER_MIDNIGHT;
/** The service's clock: its day is published when this passes midnight. */
let service = Date.UTC(2026, 10, 19, 23, 0);

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ now: () => clock }, { now: () => service });
});
afterAll(() => h.close());

/** A date cell's serial, formatted or not. */
function serialOf(cell: unknown): number {
  return typeof cell === "number" ? cell : (cell as { basicValue: number }).basicValue;
}

describe("a day the service publishes after the session asked", () => {
  it("shows in the session half an hour later at most, not the next day", async () => {
    // Before publication the latest TVL is 2026-11-19's, and 2026-11-20 has none.
    const before = expectedDaily("aave", "tvl", "2026-11-19", "2026-11-19")[0].value!;
    expect(await fns.value_("aave", "tvl", null, null, inv())).toBeCloseTo(before, 4);
    expect(serialOf(await fns.asof_("aave", "tvl", null, null, inv()))).toBe(serial("2026-11-19"));
    expect(await excelError(fns.value_("aave", "tvl", "2026-11-20", null, inv()))).toMatchObject({
      code: "#N/A",
    });

    // The service publishes the day; ten minutes later the session still has its answer (no request).
    service = Date.UTC(2026, 10, 20, 1, 0);
    clock = AFTER_MIDNIGHT + 10 * MINUTE;
    h.sim.clearLog();
    expect(await excelError(fns.value_("aave", "tvl", "2026-11-20", null, inv()))).toMatchObject({
      code: "#N/A",
    });
    expect(h.requests()).toEqual([]);

    // Past the short lifetime, it asks again and shows the day.
    clock = AFTER_MIDNIGHT + DEFAULT_CACHE_POLICY.unpublishedTtlMs + MINUTE;
    const published = expectedDaily("aave", "tvl", "2026-11-20", "2026-11-20")[0].value!;
    expect(await fns.value_("aave", "tvl", "2026-11-20", null, inv())).toBeCloseTo(published, 4);
    expect(await fns.value_("aave", "tvl", null, null, inv())).toBeCloseTo(published, 4);
    const asOf = (await fns.asof_("aave", "tvl", null, null, inv())) as
      number | { basicValue: number };
    expect(typeof asOf === "number" ? asOf : asOf.basicValue).toBe(serial("2026-11-20"));
    currentRuntime().engine.clear();
  });
});
