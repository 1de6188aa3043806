import {
  LedgerView,
  NO_RUNS,
  parseVintage,
  spliceRuns,
  type Vintage,
} from "../../src/engine/ledger";
import { seriesRefOf } from "../../src/engine/series-ledger";
import { DEFAULT_VARIANT } from "../../src/engine/series-types";
import { knownAt } from "../../src/engine/vintage-answer";

const NOW = Date.UTC(2026, 10, 26, 12);
const FIRST = Date.UTC(2026, 10, 20, 9); // the first run
const REFRESH = Date.UTC(2026, 10, 23, 9); // the refresh that found the restatement
const LATE = Date.UTC(2026, 10, 24, 9); // a day fetched for the first time
const series = seriesRefOf({ projectId: "aave", metricId: "revenue", variant: DEFAULT_VARIANT });

function vintage(text: string): Vintage {
  const v = parseVintage(text, NOW);
  if ("error" in v) throw new Error(v.error);
  return v;
}

function setup() {
  const view = new LedgerView();
  view.add([
    {
      series,
      dim: "",
      day: 100,
      before: 50,
      after: 68,
      beforeSeenAt: FIRST,
      seenAt: REFRESH,
      request: "r",
    },
    // A day the service no longer sends: held no more, known through the ledger alone.
    {
      series,
      dim: "",
      day: 103,
      before: 7,
      after: null,
      beforeSeenAt: FIRST,
      seenAt: REFRESH,
      request: "r",
    },
  ]);
  let runs = spliceRuns(NO_RUNS, 99, 102, [
    { from: 99, to: 99, at: FIRST },
    { from: 100, to: 100, at: REFRESH },
    { from: 101, to: 101, at: LATE },
    { from: 102, to: 102, at: FIRST },
  ]);
  runs = spliceRuns(runs, 104, 104, []);
  const held = {
    dims: new Map([
      [
        "",
        [
          { day: 99, value: 40 },
          { day: 100, value: 68 },
          { day: 101, value: 90 },
          { day: 102, value: null, conflict: true as const },
        ],
      ],
    ]),
    seen: new Map([["", runs]]),
    fetchedAt: LATE,
  };
  return { view, held };
}

describe("a series as it was known at a vintage", () => {
  it("gives the first figure of a day before its restatement, the restated one after", () => {
    const { view, held } = setup();
    const before = knownAt(view, series, held, 99, 103, vintage("2026-11-20"));
    expect(before.dims.get("")).toEqual([
      { day: 99, value: 40 },
      { day: 100, value: 50 },
      { day: 101, value: null, conflict: true },
      { day: 102, value: null, conflict: true },
      { day: 103, value: 7 },
    ]);
    // Day 101 was not fetched until 2026-11-24: not known then, and said so.
    expect(before.notKnown.get("")).toEqual(
      new Map([[101, "not known on 2026-11-20: first seen 2026-11-24"]])
    );
    const after = knownAt(view, series, held, 99, 103, vintage("2026-11-25"));
    expect(after.dims.get("")).toEqual([
      { day: 99, value: 40 },
      { day: 100, value: 68 },
      { day: 101, value: 90 },
      { day: 102, value: null, conflict: true },
      { day: 103, value: null },
    ]);
    expect(after.notKnown.size).toBe(0);
  });

  it("says a day seen in conflict later was not known before, and shows the conflict once it was", () => {
    const { view, held } = setup();
    const early = knownAt(view, series, held, 102, 102, vintage("2026-11-19"));
    expect(early.notKnown.get("")?.get(102)).toBe("not known on 2026-11-19: first seen 2026-11-20");
    const known = knownAt(view, series, held, 102, 102, vintage("2026-11-21T00:00:00Z"));
    expect(known.dims.get("")).toEqual([{ day: 102, value: null, conflict: true }]);
    expect(known.notKnown.size).toBe(0);
  });
});
