/** The one rule of every figure (src/engine/figures.ts), on small hand-made series. */
import { dayNumber, formatDay } from "../../src/client/data/days";
import {
  FILL_LOOKBACK_DAYS,
  dayStates,
  incompleteReason,
  isWhole,
  judge,
  windowFigure,
  type SeriesDays,
} from "../../src/engine/figures";
import type { DayPoint } from "../../src/engine/series-ops";

const d = dayNumber;
const TODAY = d("2024-01-31");
const point = (day: string, value: number | null): DayPoint => ({ day: d(day), value });
const conflict = (day: string): DayPoint => ({ day: d(day), value: null, conflict: true });
const words = { label: "the window", subject: "aave fees", today: TODAY };

/** Data on 2024-01-05..08 with a null on the 6th and no row on the 7th; its first day with data is known. */
const series: SeriesDays = {
  points: [point("2024-01-05", 5), point("2024-01-06", null), point("2024-01-08", 8)],
  horizon: d("2024-01-08"),
  firstData: d("2024-01-05"),
};

const shown = (s: SeriesDays, from: string, to: string, fill: "none" | "zero" | "previous") =>
  dayStates(s, d(from), d(to), fill).map((state, k) => [
    formatDay(d(from) + k),
    state.kind === "value" ? state.value : state.kind === "conflict" ? "conflict" : state.why,
  ]);

describe("the days a figure covers", () => {
  it("without a fill: values, gaps inside the data, days before its first and after its horizon", () => {
    expect(shown(series, "2024-01-04", "2024-01-09", "none")).toEqual([
      ["2024-01-04", "before-data"],
      ["2024-01-05", 5],
      ["2024-01-06", "gap"],
      ["2024-01-07", "gap"],
      ["2024-01-08", 8],
      ["2024-01-09", "after-data"],
    ]);
  });

  it("fill=zero counts a gap 0, never a day before the first data or after the horizon", () => {
    expect(shown(series, "2024-01-04", "2024-01-09", "zero")).toEqual([
      ["2024-01-04", "before-data"],
      ["2024-01-05", 5],
      ["2024-01-06", 0],
      ["2024-01-07", 0],
      ["2024-01-08", 8],
      ["2024-01-09", "after-data"],
    ]);
  });

  it("fill=zero fills a leading gap when the series had data before its points here", () => {
    const later: SeriesDays = { points: [point("2024-01-08", 8)], horizon: d("2024-01-08") };
    // Not known whether the data had begun: missing, never filled, called neither a launch nor a gap.
    expect(shown(later, "2024-01-06", "2024-01-08", "zero")[0][1]).toBe("unknown");
    expect(
      shown({ ...later, firstData: d("2024-01-08") }, "2024-01-06", "2024-01-08", "zero")[0][1]
    ).toBe("before-data");
    expect(
      shown({ ...later, firstData: d("2023-06-01") }, "2024-01-06", "2024-01-08", "zero")
    ).toEqual([
      ["2024-01-06", 0],
      ["2024-01-07", 0],
      ["2024-01-08", 8],
    ]);
  });

  it("fill=previous carries the last value over gaps, never past the horizon nor before the first data", () => {
    expect(shown(series, "2024-01-04", "2024-01-09", "previous")).toEqual([
      ["2024-01-04", "before-data"],
      ["2024-01-05", 5],
      ["2024-01-06", 5],
      ["2024-01-07", 5],
      ["2024-01-08", 8],
      ["2024-01-09", "after-data"],
    ]);
  });

  it(`fill=previous carries a value at most ${FILL_LOOKBACK_DAYS} days`, () => {
    const old: SeriesDays = { points: [point("2023-01-01", 1)], horizon: d("2024-01-31") };
    const first = d("2023-01-01");
    const states = dayStates(
      old,
      first + FILL_LOOKBACK_DAYS,
      first + FILL_LOOKBACK_DAYS + 1,
      "previous"
    );
    expect(states.map((s) => s.kind)).toEqual(["value", "missing"]);
  });

  it("never fills a conflict, nor carries a value across one", () => {
    const s: SeriesDays = {
      points: [point("2024-01-05", 5), conflict("2024-01-06"), point("2024-01-09", 9)],
      horizon: d("2024-01-09"),
    };
    expect(shown(s, "2024-01-05", "2024-01-09", "previous")).toEqual([
      ["2024-01-05", 5],
      ["2024-01-06", "conflict"],
      ["2024-01-07", "conflict"],
      ["2024-01-08", "conflict"],
      ["2024-01-09", 9],
    ]);
    expect(shown(s, "2024-01-06", "2024-01-07", "zero")).toEqual([
      ["2024-01-06", "conflict"],
      ["2024-01-07", 0],
    ]);
  });
});

describe("a window's figure", () => {
  it("is whole only when every day has a value", () => {
    const f = windowFigure(series, d("2024-01-05"), d("2024-01-08"), "none", "sum");
    expect(f).toMatchObject({
      days: 4,
      covered: 2,
      value: 13,
      gapCount: 2,
      lastCovered: d("2024-01-08"),
    });
    expect(isWhole(f)).toBe(false);
    expect(isWhole(windowFigure(series, d("2024-01-05"), d("2024-01-08"), "zero", "sum"))).toBe(
      true
    );
  });

  it("is #N/A by default naming N of M days, the part with partial=include", () => {
    const f = windowFigure(series, d("2024-01-04"), d("2024-01-09"), "none", "sum");
    const refused = judge(f, false, words);
    expect(refused).toEqual({
      conflict: false,
      reason:
        "the window is not complete for aave fees: 2 of 6 days (the data goes up to 2024-01-08; no data before 2024-01-05; no value on 2 days from 2024-01-06); partial=include shows it",
    });
    expect(judge(f, true, words)).toEqual({ value: 13, asOf: d("2024-01-08"), whole: false });
  });

  it("is never a figure when it holds a day sent twice with different values, whatever partial says", () => {
    const s: SeriesDays = {
      points: [point("2024-01-05", 5), conflict("2024-01-06"), point("2024-01-07", 7)],
      horizon: d("2024-01-07"),
    };
    const f = windowFigure(s, d("2024-01-05"), d("2024-01-07"), "zero", "sum");
    for (const include of [false, true])
      expect(judge(f, include, words)).toEqual({
        conflict: true,
        reason:
          "the service sent aave fees for 2024-01-06 twice with different values; no figure for the window",
      });
  });

  it("hints a fill for gaps only, never for days before the data or days not known to be inside it", () => {
    const hint = 'option "fill=zero" counts a missing day as 0';
    const gap = windowFigure(series, d("2024-01-05"), d("2024-01-08"), "none", "sum");
    expect(incompleteReason(gap, { ...words, fillHint: hint })).toContain(hint);
    const unknown = windowFigure(
      { points: [point("2024-01-05", 5)], horizon: d("2024-01-05") },
      d("2024-01-01"),
      d("2024-01-05"),
      "none",
      "sum"
    );
    expect(incompleteReason(unknown, { ...words, fillHint: hint })).toBe(
      "the window is not complete for aave fees: 1 of 5 days (no value on 4 days from 2024-01-01); partial=include shows it"
    );
    const launch = windowFigure(
      { points: [point("2024-01-05", 5)], horizon: d("2024-01-05"), firstData: d("2024-01-05") },
      d("2024-01-01"),
      d("2024-01-05"),
      "none",
      "sum"
    );
    expect(incompleteReason(launch, { ...words, fillHint: hint })).not.toContain("fill=");
  });

  it("says a period with no data yet has none, and where the data goes up to", () => {
    const future = windowFigure(
      { points: [point("2024-01-31", 1)], horizon: TODAY },
      d("2024-02-01"),
      d("2024-02-29"),
      "none",
      "sum"
    );
    expect(judge(future, true, words)).toEqual({
      conflict: false,
      reason:
        "the window has no data yet for aave fees (0 of 29 days; the data goes up to today, 2024-01-31 (UTC))",
    });
    const ended = windowFigure(
      { points: [point("2023-07-14", 1)], horizon: d("2023-07-14") },
      d("2023-08-01"),
      d("2023-08-31"),
      "previous",
      "last"
    );
    expect(judge(ended, true, words)).toMatchObject({
      reason: expect.stringContaining("the data goes up to 2023-07-14") as unknown,
    });
  });
});
