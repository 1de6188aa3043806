import { dayNumber } from "../../../src/client/data/days";
import { Coverage } from "../../../src/cache/coverage";
import {
  aggregate,
  lastDataAtOrBefore,
  lastValueAtOrBefore,
  slicePoints,
  type DayPoint,
} from "../../../src/engine/figures/series-ops";
import { defaultAggregation, metricKind } from "../../../src/engine/figures/metric-kinds";

const d = dayNumber;
const pts = (...entries: Array<[string, number | null]>): DayPoint[] =>
  entries.map(([day, value]) => ({ day: d(day), value }));

describe("coverage", () => {
  it("merges overlapping and adjacent ranges and answers containment", () => {
    const c = new Coverage();
    c.add(10, 20);
    c.add(21, 30);
    c.add(40, 50);
    expect(c.list()).toEqual([
      [10, 30],
      [40, 50],
    ]);
    expect(c.covers(12, 29)).toBe(true);
    expect(c.covers(25, 45)).toBe(false);
    c.add(-Infinity, 12);
    expect(c.covers(-Infinity, 30)).toBe(true);
  });
});

describe("series operations", () => {
  const series = pts(["2024-01-01", 1], ["2024-01-02", null], ["2024-01-04", 4]);

  it("rolls values up with each aggregation, and gives null for none", () => {
    expect(aggregate([1, 2, 3], "sum")).toBe(6);
    expect(aggregate([1, 2, 3], "avg")).toBe(2);
    expect(aggregate([1, 2, 3], "first")).toBe(1);
    expect(aggregate([1, 2, 3], "last")).toBe(3);
    expect(aggregate([2, 1, 3], "min")).toBe(1);
    expect(aggregate([2, 3, 1], "max")).toBe(3);
    expect(aggregate([], "sum")).toBeNull();
  });

  it("slices to a range, both bounds included", () => {
    expect(slicePoints(series, d("2024-01-02"), d("2024-01-04"))).toEqual(
      pts(["2024-01-02", null], ["2024-01-04", 4])
    );
    expect(slicePoints(series, -Infinity, d("2024-01-01"))).toEqual(pts(["2024-01-01", 1]));
  });

  it("finds the last value at or before a day", () => {
    expect(lastValueAtOrBefore(series, d("2024-01-03"))).toEqual({
      day: d("2024-01-01"),
      value: 1,
    });
    expect(lastValueAtOrBefore(series, d("2023-12-31"))).toBeUndefined();
    // The day itself counts.
    expect(lastValueAtOrBefore(series, d("2024-01-04"))).toEqual({
      day: d("2024-01-04"),
      value: 4,
    });
  });

  it("finds the last day with data: a day sent twice with different values is one, a null is not", () => {
    const days: DayPoint[] = [
      { day: d("2024-01-01"), value: 1 },
      { day: d("2024-01-02"), value: null, conflict: true },
      { day: d("2024-01-03"), value: null },
    ];
    expect(lastDataAtOrBefore(days, Infinity)).toEqual(days[1]);
    expect(lastValueAtOrBefore(days, Infinity)).toEqual(days[0]);
  });
});

describe("metric kinds", () => {
  it("sums flows, takes the last level and averages daily users", () => {
    expect(defaultAggregation("revenue")).toBe("sum");
    expect(defaultAggregation("tvl")).toBe("last");
    expect(defaultAggregation("user_dau")).toBe("avg");
  });

  it("guesses no kind for an id outside the table, whatever words it holds: it is asked (agg=)", () => {
    for (const id of [
      "perp_trading_volume",
      "user_monthly",
      "staked_supply",
      "fees_cumulative",
      "revenue_annualized",
      "tokenholders_count",
      "average_fees_per_user",
      "new_users",
    ]) {
      expect({ id, kind: metricKind(id) }).toEqual({ id, kind: undefined });
      expect({ id, agg: defaultAggregation(id) }).toEqual({ id, agg: undefined });
    }
    // agg= always wins, for an id of the table too.
    expect(defaultAggregation("fees_cumulative", "last")).toBe("last");
    expect(defaultAggregation("revenue", "avg")).toBe("avg");
  });

  it("rolls up a price, a count and a running total by their last value, an average and a rate by the mean", () => {
    expect(defaultAggregation("price")).toBe("last");
    expect(defaultAggregation("tokenholders")).toBe("last");
    expect(defaultAggregation("active_developers")).toBe("last");
    expect(defaultAggregation("pf_fully_diluted")).toBe("last");
  });
});
