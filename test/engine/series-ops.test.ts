import { dayNumber, formatDay } from "../../src/client/data/days";
import { Coverage } from "../../src/engine/coverage";
import { fillDays, lastValueAtOrBefore, rollUp, type DayPoint } from "../../src/engine/series-ops";
import { defaultAggregation, metricKind } from "../../src/engine/metric-kinds";

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

  it("fills missing days and nulls with the previous value, carrying one from before the range", () => {
    const filled = fillDays(series, d("2024-01-02"), d("2024-01-05"), "previous");
    expect(filled.map((p) => [formatDay(p.day), p.value])).toEqual([
      ["2024-01-02", 1],
      ["2024-01-03", 1],
      ["2024-01-04", 4],
      ["2024-01-05", 4],
    ]);
  });

  it("fill=previous keeps the day's own value, on the first day of the range too", () => {
    const days = pts(["2024-01-01", 1], ["2024-01-03", 3], ["2024-01-04", 4]);
    const filled = fillDays(days, d("2024-01-03"), d("2024-01-04"), "previous");
    expect(filled.map((p) => p.value)).toEqual([3, 4]);
    // (Carrying from days `<= start` instead of `< start` is the same: the start day's own value, when
    // present, replaces the carried one at once, and a null there is never carried.)
  });

  it("fill=previous: a null just before the range does not wipe the value carried from earlier", () => {
    const days = pts(["2024-01-01", 1], ["2024-01-02", null], ["2024-01-05", 5]);
    const filled = fillDays(days, d("2024-01-03"), d("2024-01-05"), "previous");
    expect(filled.map((p) => [formatDay(p.day), p.value])).toEqual([
      ["2024-01-03", 1],
      ["2024-01-04", 1],
      ["2024-01-05", 5],
    ]);
  });

  it("fill=previous leaves days before the first value empty, and carries nothing from after the range", () => {
    const days = pts(["2024-01-03", 3], ["2024-01-09", 9]);
    const filled = fillDays(days, d("2024-01-01"), d("2024-01-04"), "previous");
    expect(filled.map((p) => p.value)).toEqual([null, null, 3, 3]);
  });

  it("fill=none slices to the range, both bounds included", () => {
    const days = pts(
      ["2024-01-01", 1],
      ["2024-01-02", 2],
      ["2024-01-03", null],
      ["2024-01-04", 4],
      ["2024-01-05", 5]
    );
    expect(fillDays(days, d("2024-01-02"), d("2024-01-04"), "none")).toEqual(
      pts(["2024-01-02", 2], ["2024-01-03", null], ["2024-01-04", 4])
    );
    expect(fillDays(days, -Infinity, d("2024-01-01"), "none")).toEqual(pts(["2024-01-01", 1]));
  });

  it("fill=zero keeps the values present, on every day of the range", () => {
    const days = pts(["2024-01-01", 1], ["2024-01-03", 3], ["2024-01-06", 6]);
    expect(fillDays(days, d("2024-01-02"), d("2024-01-04"), "zero")).toEqual(
      pts(["2024-01-02", 0], ["2024-01-03", 3], ["2024-01-04", 0])
    );
  });

  it("fills with zeros, and leaves the service's rows alone with fill=none", () => {
    expect(fillDays(series, d("2024-01-01"), d("2024-01-03"), "zero").map((p) => p.value)).toEqual([
      1, 0, 0,
    ]);
    expect(fillDays(series, d("2024-01-01"), d("2024-01-04"), "none")).toEqual(series);
  });

  it("rolls days up into periods dated by their first day, skipping nulls", () => {
    const days = pts(
      ["2024-03-30", 1],
      ["2024-03-31", 2],
      ["2024-04-01", 10],
      ["2024-04-02", null],
      ["2024-07-01", 7]
    );
    const quarterly = (agg: Parameters<typeof rollUp>[2]) =>
      rollUp(days, "quarter", agg).map((p) => [formatDay(p.day), p.value]);
    expect(quarterly("sum")).toEqual([
      ["2024-01-01", 3],
      ["2024-04-01", 10],
      ["2024-07-01", 7],
    ]);
    expect(quarterly("last")).toEqual([
      ["2024-01-01", 2],
      ["2024-04-01", 10],
      ["2024-07-01", 7],
    ]);
    expect(quarterly("avg")[0][1]).toBe(1.5);
    expect(quarterly("min")[0][1]).toBe(1);
    expect(quarterly("max")[0][1]).toBe(2);
    expect(quarterly("first")[0][1]).toBe(1);
    expect(rollUp(pts(["2024-01-01", null]), "month", "sum")).toEqual([
      { day: d("2024-01-01"), value: null },
    ]);
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

  it("leaves daily points as they are, in a new array the caller may change", () => {
    const rolled = rollUp(series, "day", "sum");
    expect(rolled).toEqual(series);
    expect(rolled).not.toBe(series);
  });
});

describe("metric kinds", () => {
  it("sums flows, takes the last level and averages daily users", () => {
    expect(defaultAggregation("revenue")).toBe("sum");
    expect(defaultAggregation("tvl")).toBe("last");
    expect(defaultAggregation("user_dau")).toBe("avg");
  });

  it("guesses unlisted ids from their names, treating the unknown as levels", () => {
    expect(metricKind("perp_trading_volume")).toBe("flow");
    expect(metricKind("user_monthly")).toBe("users");
    expect(metricKind("staked_supply")).toBe("level");
  });
});
