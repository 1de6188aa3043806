/**
 * "Latest" values carry their date: ASOF gives the date of VALUE's number with the same arguments,
 * maxage refuses one older than allowed, an archived project has no latest value, and rolled-up periods are
 * complete ones unless partial=include.
 */
import * as fns from "../../src/functions/functions";
import { sharedDiagnostics } from "../../src/runtime/runtime";
import {
  dataset,
  excelError,
  expectedDaily,
  inv,
  show,
  startHarness,
  type Harness,
} from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

async function asof(...args: unknown[]): Promise<unknown> {
  const [project, metric, date, options] = args;
  return show(await fns.asof_(project, metric, date, options, inv()));
}

const sum = (points: Array<{ value: number | null }>) =>
  points.reduce((s, p) => s + (p.value ?? 0), 0);

describe("ASOF and latest values", () => {
  it("dates the latest value, and Diagnostics shows that date for the cell", async () => {
    // sushiswap's data stops 5 days before today (2026-11-20).
    const address = "Comps!C4";
    const latest = await fns.value_("sushiswap", "tvl", null, null, inv(address));
    expect(latest).toBeCloseTo(
      expectedDaily("sushiswap", "tvl", "2026-11-15", "2026-11-15")[0].value!,
      4
    );
    expect(await asof("sushiswap", "tvl", null, null)).toBe("2026-11-15");
    expect(sharedDiagnostics().cell(address)?.asOf).toEqual({ "sushiswap tvl": "2026-11-15" });
  });

  it("dates a carried value by the day it comes from, and a period by its last day", async () => {
    // tick-and-tock's on-chain data is null from 2023-03-01 to 2023-03-14.
    expect(await asof("tick-and-tock", "tvl", "2023-03-05", "fill=previous")).toBe("2023-02-28");
    expect(await asof("aave", "revenue", "2024-02-10", "period=quarter")).toBe("2024-03-31");
  });

  it("refuses a latest value older than maxage, stating its date", async () => {
    expect(await excelError(fns.value_("sushiswap", "tvl", null, "maxage=3d", inv()))).toEqual({
      code: "#N/A",
      message: "the latest sushiswap tvl value is from 2026-11-15, 5 days before today (maxage=3d)",
    });
    expect(await fns.value_("sushiswap", "tvl", null, "maxage=5d", inv())).toEqual(
      expect.any(Number)
    );
    expect(
      await excelError(fns.value_("aave", "tvl", "2024-01-01", "maxage=3d", inv()))
    ).toMatchObject({ code: "#VALUE!", message: expect.stringContaining("maxage") });
    expect(await excelError(fns.value_("aave", "tvl", null, "maxage=week", inv()))).toMatchObject({
      code: "#VALUE!",
      message: expect.stringContaining("maxage=<N>d"),
    });
  });

  it("gives an archived project no latest value, in VALUE, ASOF and AGGREGATION alike", async () => {
    const reason = /^anchor-protocol is archived since 2022-05-13 \(Wound down/;
    for (const call of [
      fns.value_("anchor-protocol", "tvl", null, null, inv()),
      fns.asof_("anchor-protocol", "tvl", null, null, inv()),
      fns.aggregation_("anchor-protocol", "tvl", "latest", null, inv()),
    ]) {
      const error = await excelError(call);
      expect(error.code).toBe("#N/A");
      expect(error.message).toMatch(reason);
    }
  });
});

describe("complete periods", () => {
  it("gives the latest complete period by default, the period holding the latest data with partial=include", async () => {
    const q3 = sum(expectedDaily("aave", "revenue", "2026-07-01", "2026-09-30"));
    const q4 = sum(expectedDaily("aave", "revenue", "2026-10-01", "2026-11-20"));
    expect(await fns.value_("aave", "revenue", null, "period=quarter", inv())).toBeCloseTo(q3, 2);
    expect(await asof("aave", "revenue", null, "period=quarter")).toBe("2026-09-30");
    expect(
      await fns.value_("aave", "revenue", null, "period=quarter; partial=include", inv())
    ).toBeCloseTo(q4, 2);
    expect(await asof("aave", "revenue", null, "period=quarter; partial=include")).toBe(
      "2026-11-20"
    );
  });

  it("refuses a period holding a date that is not complete, naming the days covered", async () => {
    expect(
      await excelError(fns.value_("aave", "revenue", "2026-12-31", "period=quarter", inv()))
    ).toEqual({
      code: "#N/A",
      message:
        "Q4 2026 is not complete for aave revenue: 51 of 92 days (the data goes up to today, 2026-11-20 (UTC)); partial=include shows it",
    });
    // sushiswap's November runs past its latest data (2026-11-15).
    expect(
      await excelError(fns.value_("sushiswap", "fees", "2026-11-02", "period=month", inv()))
    ).toMatchObject({
      message:
        "November 2026 is not complete for sushiswap fees: 15 of 30 days (the data goes up to 2026-11-15); partial=include shows it",
    });
  });

  it("never fills past the latest data: days not indexed yet are no zeros and no carried values", async () => {
    const zero = await excelError(
      fns.value_("sushiswap", "fees", "2026-11-18", "fill=zero", inv())
    );
    expect(zero.message).toBe(
      "no sushiswap fees value on 2026-11-18: the data goes up to 2026-11-15; fill=zero never reaches past the data"
    );
    const included = await fns.value_(
      "sushiswap",
      "fees",
      "2026-11-02",
      "period=month; partial=include; fill=zero",
      inv()
    );
    expect(included).toBeCloseTo(
      sum(expectedDaily("sushiswap", "fees", "2026-11-01", "2026-11-15")),
      2
    );
  });
});

describe("fills that would invent figures", () => {
  it.each([
    ["revenue", "fill=previous", /revenue is a flow.*use fill=zero/],
    ["user_dau", "fill=previous", /daily user count.*use fill=none/],
    ["tvl", "fill=zero", /tvl is a level.*use fill=previous/],
  ])("refuses %s with %s, saying why and what to use", async (metric, fill, message) => {
    for (const call of [
      fns.value_("aave", metric, "2024-01-01", fill, inv()),
      fns.metric_([["aave"]], [[metric]], "2024-01-01", "2024-01-31", fill, inv()),
    ]) {
      const error = await excelError(call);
      expect(error.code).toBe("#VALUE!");
      expect(error.message).toMatch(message);
    }
  });

  it("keeps the sum of a month's days when a flow is filled with zeros", async () => {
    const days = dataset.daily("tick-and-tock", "fees", { start: "2023-03-01", end: "2023-03-31" });
    expect(
      await fns.value_("tick-and-tock", "fees", "2023-03-10", "period=month; fill=zero", inv())
    ).toBeCloseTo(sum(days), 2);
  });
});
