/** The one rule of every figure (src/engine/figures/rule.ts), on small hand-made series. */
import { dayNumber, formatDay } from "../../../src/client/data/days";
import {
  FILL_LOOKBACK_DAYS,
  conflictMessage,
  dataEnd,
  dayConflict,
  dayStates,
  incompleteReason,
  isWhole,
  judge,
  windowFigure,
  type SeriesDays,
} from "../../../src/engine/figures/rule";
import type { DayPoint } from "../../../src/engine/figures/series-ops";

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

  it("names the window's first value after days without one at its start, from the window's own days", () => {
    const at = (days: Array<[string, number | null]>) => ({
      points: days.map(([day, value]) => point(day, value)),
      horizon: d("2024-01-10"),
    });
    const reason = (s: SeriesDays) =>
      incompleteReason(windowFigure(s, d("2024-01-01"), d("2024-01-10"), "none", "sum"), words);
    // Days at the start without a value (a launch inside the window, or a gap: only the history could say).
    expect(
      reason(
        at([
          ["2024-01-07", 1],
          ["2024-01-10", 1],
        ])
      )
    ).toContain("(no value on 8 days from 2024-01-01; the first value is on 2024-01-07)");
    // A value on the first day: the gaps after it are gaps, and no first value is named.
    expect(
      reason(
        at([
          ["2024-01-01", 1],
          ["2024-01-05", 1],
          ["2024-01-10", 1],
        ])
      )
    ).toContain("(no value on 7 days from 2024-01-02)");
    // Known to be before the data (the first data day was read): said as such, not twice.
    const launch = windowFigure(
      { ...at([["2024-01-07", 1]]), firstData: d("2024-01-07") },
      d("2024-01-01"),
      d("2024-01-10"),
      "none",
      "sum"
    );
    expect(launch.leadingGaps).toBe(0);
    expect(incompleteReason(launch, words)).not.toContain("the first value");
    // No value at all in the window: nothing to name.
    expect(reason(at([]))).not.toContain("the first value");
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
      "the window is not complete for aave fees: 1 of 5 days (no value on 4 days from 2024-01-01; the first value is on 2024-01-05); partial=include shows it"
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

describe("the messages of a figure that is not shown", () => {
  const split = (day: string): DayPoint => ({
    day: d(day),
    value: null,
    conflict: true,
    split: true,
  });
  const unreadable = (day: string, sent: string): DayPoint => ({
    day: d(day),
    value: null,
    conflict: true,
    unreadable: sent,
  });
  const judged = (points: DayPoint[], from: string, to: string, label = "the window") =>
    judge(windowFigure({ points, horizon: d(to) }, d(from), d(to), "none", "sum"), true, {
      ...words,
      label,
    });

  it("names what the service sent for a value that is no number, and how many other days it cannot vouch for", () => {
    expect(
      judged(
        [point("2024-01-05", 5), unreadable("2024-01-06", "1,234.50")],
        "2024-01-05",
        "2024-01-06"
      )
    ).toEqual({
      conflict: true,
      reason:
        'the service sent "1,234.50" for aave fees on 2024-01-06, which is not a number; no figure for the window',
    });
    expect(
      judged(
        [conflict("2024-01-05"), unreadable("2024-01-06", "$1,000")],
        "2024-01-05",
        "2024-01-06"
      )
    ).toMatchObject({
      reason:
        'the service sent "$1,000" for aave fees on 2024-01-06, which is not a number (and 1 more day it cannot vouch for); no figure for the window',
    });
    expect(
      judged(
        [conflict("2024-01-04"), conflict("2024-01-05"), unreadable("2024-01-06", "true")],
        "2024-01-04",
        "2024-01-06"
      )
    ).toMatchObject({
      reason: expect.stringContaining("(and 2 more days it cannot vouch for)") as unknown,
    });
    // A one-day figure says "that day", not the day twice.
    expect(
      judged([unreadable("2024-01-06", "Infinity")], "2024-01-06", "2024-01-06", "2024-01-06")
    ).toMatchObject({
      reason:
        'the service sent "Infinity" for aave fees on 2024-01-06, which is not a number; no figure for that day',
    });
  });

  it("keeps each day's unreadable text and split mark in the window's figure", () => {
    const f = windowFigure(
      {
        points: [unreadable("2024-01-05", "n/a"), split("2024-01-06"), conflict("2024-01-07")],
        horizon: d("2024-01-07"),
      },
      d("2024-01-05"),
      d("2024-01-07"),
      "none",
      "sum"
    );
    expect(f.conflicts).toEqual([d("2024-01-05"), d("2024-01-06"), d("2024-01-07")]);
    expect(f.splits).toEqual([d("2024-01-06")]);
    expect([...(f.unreadable ?? new Map<number, string>())]).toEqual([[d("2024-01-05"), "n/a"]]);
    // A window without an unreadable day carries no map at all.
    expect(
      "unreadable" in windowFigure(series, d("2024-01-05"), d("2024-01-08"), "none", "sum")
    ).toBe(false);
    // A day carried over many days by fill=previous is one conflict, named once.
    const carried = windowFigure(
      { points: [split("2024-01-05")], horizon: d("2024-01-09") },
      d("2024-01-05"),
      d("2024-01-09"),
      "previous",
      "last"
    );
    expect(carried.conflicts).toEqual([d("2024-01-05")]);
    expect(carried.splits).toEqual([d("2024-01-05")]);
  });

  it("says how the rows of a day could not be told apart: twice, split, or both", () => {
    expect(judged([split("2024-01-06")], "2024-01-06", "2024-01-06", "2024-01-06")).toEqual({
      conflict: true,
      reason:
        "the service sent aave fees for 2024-01-06 in rows split by a member nobody asked for that cannot be told apart; no figure for that day",
    });
    expect(
      judged(
        [split("2024-01-05"), split("2024-01-06"), split("2024-01-07")],
        "2024-01-05",
        "2024-01-07"
      )
    ).toMatchObject({
      reason:
        "the service sent aave fees for 3 days (2024-01-05, 2024-01-06, …) in rows split by a member nobody asked for that cannot be told apart; no figure for the window",
    });
    expect(
      judged([conflict("2024-01-05"), split("2024-01-06")], "2024-01-05", "2024-01-06")
    ).toMatchObject({
      reason:
        "the service sent aave fees for 2 days (2024-01-05, 2024-01-06, …) twice with different values, or in rows split by a member nobody asked for that cannot be told apart; no figure for the window",
    });
    // A window whose label happens to be its one day's date says "that day"; one of several days does not.
    expect(
      judged([conflict("2024-01-05")], "2024-01-05", "2024-01-05", "2024-01-05")
    ).toMatchObject({
      reason: expect.stringMatching(/; no figure for that day$/) as unknown,
    });
  });

  it("the conflict message reads a figure's conflicting days however they were gathered", () => {
    const one = { label: "Q1 2024", subject: "aave fees", today: TODAY };
    expect(conflictMessage(dayConflict(d("2024-01-06"), { split: true }), one)).toBe(
      "the service sent aave fees for 2024-01-06 in rows split by a member nobody asked for that cannot be told apart; no figure for Q1 2024"
    );
    expect(conflictMessage(dayConflict(d("2024-01-06"), { unreadable: "12.5 USD" }), one)).toBe(
      'the service sent "12.5 USD" for aave fees on 2024-01-06, which is not a number; no figure for Q1 2024'
    );
    expect(dayConflict(d("2024-01-06"), {})).toEqual({ conflicts: [d("2024-01-06")], splits: [] });
    expect(conflictMessage({ conflicts: [d("2024-01-06")] }, one)).toBe(
      "the service sent aave fees for 2024-01-06 twice with different values; no figure for Q1 2024"
    );
  });

  it("names the one gap day, the days without data before it, and a series with no data at all", () => {
    const oneGap = windowFigure(
      { points: [point("2024-01-05", 5), point("2024-01-07", 7)], horizon: d("2024-01-07") },
      d("2024-01-05"),
      d("2024-01-07"),
      "none",
      "sum"
    );
    expect(incompleteReason(oneGap, { ...words, noPartial: true })).toBe(
      "the window is not complete for aave fees: 2 of 3 days (no value on 2024-01-06)"
    );
    const launch = windowFigure(
      { points: [], horizon: d("2024-01-31"), firstData: null },
      d("2024-01-01"),
      d("2024-01-03"),
      "none",
      "sum"
    );
    expect(incompleteReason(launch, words)).toBe(
      "no aave fees data in the window (0 of 3 days; no data before it)"
    );
    const none = windowFigure(
      { points: [], horizon: -Infinity, firstData: null },
      d("2024-01-01"),
      d("2024-01-03"),
      "none",
      "sum"
    );
    expect(incompleteReason(none, { ...words, fillHint: "use fill=zero" })).toBe(
      "no aave fees data in the window (0 of 3 days; the series has no data)"
    );
    const nothingKnown = windowFigure(
      { points: [], horizon: d("2024-01-31") },
      d("2024-01-01"),
      d("2024-01-02"),
      "none",
      "sum"
    );
    expect(incompleteReason(nothingKnown, { ...words, fillHint: "use fill=zero" })).toBe(
      "no aave fees data in the window (0 of 2 days; no value on 2 days from 2024-01-01)"
    );
    expect(dataEnd(-Infinity, TODAY)).toBe("the series has no data");
    expect(dataEnd(TODAY + 3, TODAY)).toBe("the data goes up to today, 2024-01-31 (UTC)");
  });

  it("names at most three gap days, and counts them all", () => {
    const f = windowFigure(
      { points: [point("2024-01-01", 1), point("2024-01-10", 1)], horizon: d("2024-01-10") },
      d("2024-01-01"),
      d("2024-01-10"),
      "none",
      "sum"
    );
    expect(f.gapCount).toBe(8);
    expect(f.knownGaps).toBe(8);
    expect(f.gaps.map(formatDay)).toEqual(["2024-01-02", "2024-01-03", "2024-01-04"]);
  });

  it("shows a figure as of the day its last value came from, and a part only with partial=include", () => {
    const s: SeriesDays = { points: [point("2024-01-05", 5)], horizon: d("2024-01-08") };
    const carried = windowFigure(s, d("2024-01-05"), d("2024-01-08"), "previous", "last");
    expect(judge(carried, false, words)).toEqual({ value: 5, asOf: d("2024-01-05"), whole: true });
    const part = windowFigure(series, d("2024-01-05"), d("2024-01-08"), "none", "sum");
    expect(judge(part, false, words)).toMatchObject({ conflict: false });
    expect(judge(part, true, words)).toEqual({ value: 13, asOf: d("2024-01-08"), whole: false });
    // A window with no day covered is no figure, even with partial=include.
    const empty = windowFigure(series, d("2024-01-06"), d("2024-01-07"), "none", "sum");
    expect(judge(empty, true, words)).toMatchObject({ conflict: false });
  });
});

describe("the days a figure covers, read from anywhere in a long series", () => {
  it("finds the window's first point by search, and the last data before it for a carry", () => {
    const points = Array.from({ length: 200 }, (_, k) =>
      point(formatDay(d("2023-06-01") + 2 * k), k % 7 === 3 ? null : k)
    );
    const s: SeriesDays = {
      points,
      horizon: points[points.length - 1].day,
      firstData: points[0].day,
    };
    for (const start of [0, 1, 6, 7, 8, 101, 390, 395]) {
      const from = d("2023-06-01") + start;
      const states = dayStates(s, from, from + 3, "previous");
      // Every day carries the last value at or before it: brute force over all the points.
      states.forEach((state, k) => {
        const day = from + k;
        const last = [...points].reverse().find((p) => p.day <= day && p.value !== null);
        expect(state).toEqual({
          kind: "value",
          value: last!.value,
          from: last!.day,
          filled: last!.day !== day,
        });
      });
    }
  });

  it("counts a day before the first point a gap when the series' first data is on that very day", () => {
    const s: SeriesDays = {
      points: [point("2024-01-05", 5)],
      horizon: d("2024-01-05"),
      firstData: d("2024-01-03"),
    };
    expect(shown(s, "2024-01-02", "2024-01-05", "zero")).toEqual([
      ["2024-01-02", "before-data"],
      ["2024-01-03", 0],
      ["2024-01-04", 0],
      ["2024-01-05", 5],
    ]);
    expect(dayStates(s, d("2024-01-03"), d("2024-01-03"), "zero")).toEqual([
      { kind: "value", value: 0, from: d("2024-01-03"), filled: true },
    ]);
    expect(dayStates(s, d("2024-01-05"), d("2024-01-05"), "zero")).toEqual([
      { kind: "value", value: 5, from: d("2024-01-05"), filled: false },
    ]);
  });
});
