/** VALUE's trailing windows (window=), through real HTTP against the simulator. */
import * as fns from "../../src/functions/functions";
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

const values = (points: Array<{ value: number | null }>) =>
  points.flatMap((p) => (p.value === null ? [] : [p.value]));
const sum = (points: Array<{ value: number | null }>) => values(points).reduce((s, v) => s + v, 0);

describe("CRYPTO.VALUE with window=", () => {
  it("sums a flow over the trailing twelve months ending on the date", async () => {
    const ttm = await fns.value_("aave", "revenue", "2024-03-31", "window=ttm", inv());
    expect(ttm).toBeCloseTo(sum(expectedDaily("aave", "revenue", "2023-04-01", "2024-03-31")), 2);
    expect(await fns.value_("aave", "revenue", "2024-03-31", "window=12m", inv())).toBe(ttm);
  });

  it("sums N days, both ends included, and the to-date windows from their period's first day", async () => {
    const cases: Array<[string, string]> = [
      ["30d", "2024-03-02"],
      ["90d", "2024-01-02"],
      ["ytd", "2024-01-01"],
      ["qtd", "2024-01-01"],
      ["mtd", "2024-03-01"],
      ["3m", "2024-01-01"],
    ];
    for (const [window, from] of cases)
      expect(await fns.value_("aave", "fees", "2024-03-31", `window=${window}`, inv())).toBeCloseTo(
        sum(expectedDaily("aave", "fees", from, "2024-03-31")),
        2
      );
  });

  it("rolls up with the metric's default: user counts average, levels take the last day", async () => {
    const dau = expectedDaily("aave", "user_dau", "2024-03-02", "2024-03-31");
    expect(await fns.value_("aave", "user_dau", "2024-03-31", "window=30d", inv())).toBeCloseTo(
      sum(dau) / values(dau).length,
      4
    );
    const tvl = values(expectedDaily("aave", "tvl", "2024-03-02", "2024-03-31"));
    expect(await fns.value_("aave", "tvl", "2024-03-31", "window=30d", inv())).toBeCloseTo(
      tvl[tvl.length - 1],
      4
    );
    const max = tvl.reduce((a, b) => Math.max(a, b), -Infinity);
    expect(await fns.value_("aave", "tvl", "2024-03-31", "window=30d; agg=max", inv())).toBeCloseTo(
      max,
      4
    );
  });

  it("annualizes a summed window to 365 days", async () => {
    const thirty = sum(expectedDaily("aave", "fees", "2024-03-02", "2024-03-31"));
    expect(
      await fns.value_("aave", "fees", "2024-03-31", "window=30d; annualize=1", inv())
    ).toBeCloseTo((thirty * 365) / 30, 2);
  });

  it("ends on the latest value's day when no date is given", async () => {
    const info = dataset.project("sushiswap")!; // its data stops before today
    const end = info.lastDate;
    const fromDay = new Date(Date.parse(`${end}T00:00:00Z`) - 29 * 86_400_000)
      .toISOString()
      .slice(0, 10);
    expect(await fns.value_("sushiswap", "fees", null, "window=30d", inv())).toBeCloseTo(
      sum(expectedDaily("sushiswap", "fees", fromDay, end)),
      2
    );
    expect(show(await fns.asof_("sushiswap", "fees", null, "window=30d", inv()))).toBe(end);
  });

  it("refuses a window running past the latest data unless partial=include", async () => {
    // sushiswap's data goes up to 2026-11-15.
    expect(
      await excelError(fns.value_("sushiswap", "fees", "2026-11-20", "window=30d", inv()))
    ).toEqual({
      code: "#N/A",
      message:
        "30d to 2026-11-20 (2026-10-22..2026-11-20) is not complete for sushiswap fees: 25 of 30 days (the data goes up to 2026-11-15); partial=include shows it",
    });
    expect(
      await fns.value_("sushiswap", "fees", "2026-11-20", "window=30d; partial=include", inv())
    ).toBeCloseTo(sum(expectedDaily("sushiswap", "fees", "2026-10-22", "2026-11-15")), 2);
  });

  it("refuses a window starting before the project's data: a young project's TTM is no TTM", async () => {
    // Ethena launched on 2024-02-19.
    const refused = await excelError(
      fns.value_("ethena", "revenue", "2024-06-30", "window=ttm", inv())
    );
    expect(refused.code).toBe("#N/A");
    expect(refused.message).toMatch(
      /is not complete for ethena revenue: \d+ of 366 days \(no value on \d+ days from 2023-07-01; the first value is on 2024-02-19\)/
    );
    expect(
      await fns.value_("ethena", "revenue", "2024-06-30", "window=ttm; partial=include", inv())
    ).toBeCloseTo(sum(expectedDaily("ethena", "revenue", "2023-07-01", "2024-06-30")), 2);
  });

  it("refuses bad windows and options that contradict a window, by name", async () => {
    const bad: Array<[string, RegExp]> = [
      ["window=3w", /window="3w" is not allowed; use window=<N>d, <N>m, ttm/],
      ["window=0d", /window="0d" is not allowed/],
      ["window=ttm; period=quarter", /"window" and "period" both choose the days/],
      ["annualize=1", /"annualize" scales a window/],
      ["window=30d; annualize=1; agg=avg", /annualize=1" scales a summed window/],
    ];
    for (const [options, message] of bad) {
      const e = await excelError(fns.value_("aave", "fees", "2024-03-31", options, inv()));
      expect(e.code).toBe("#VALUE!");
      expect(e.message).toMatch(message);
    }
    const level = await excelError(
      fns.value_("aave", "tvl", "2024-03-31", "window=30d; annualize=1", inv())
    );
    expect(level.message).toMatch(/tvl rolls up with last/);
  });
});
