import fc from "fast-check";
import {
  decodeRuns,
  encodeRuns,
  listRuns,
  NO_RUNS,
  runsOf,
  seenAt,
  spliceRuns,
  type SeenRun,
  type SeenRuns,
} from "../../../src/engine/ledger/seen";
import { propertyRuns } from "../../support/property-runs";

const T0 = Date.UTC(2026, 10, 20, 9);

/** The oracle: each day's first-seen instant, one entry a day. */
function oracleSplice(
  held: Map<number, number>,
  start: number,
  end: number,
  fresh: Map<number, number>
): Map<number, number> {
  const out = new Map<number, number>();
  for (const [day, at] of held) if (day < start || day > end) out.set(day, at);
  for (const [day, at] of fresh) out.set(day, at);
  return out;
}

function freshRuns(fresh: Map<number, number>): SeenRun[] {
  const days = [...fresh.keys()].sort((a, b) => a - b);
  return runsOf(
    days,
    days.map((d) => fresh.get(d)!)
  );
}

const write = fc.record({
  start: fc.integer({ min: 19_000, max: 19_060 }),
  length: fc.integer({ min: 0, max: 30 }),
  // Days of the range the answer holds (a subset), each first seen at one of a few instants.
  days: fc.array(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 4 })), {
    maxLength: 25,
  }),
});

describe("when each held value was first seen (seen runs)", () => {
  it("answers each day as a day-by-day record would, through any sequence of answered ranges", () => {
    fc.assert(
      fc.property(fc.array(write, { minLength: 1, maxLength: 12 }), (writes) => {
        let runs: SeenRuns = NO_RUNS;
        let oracle = new Map<number, number>();
        writes.forEach((w, k) => {
          const start = w.start;
          const end = w.start + w.length;
          const fresh = new Map<number, number>();
          for (const [offset, instant] of w.days)
            if (offset <= w.length) fresh.set(start + offset, T0 + k * 1000 + instant);
          runs = spliceRuns(runs, start, end, freshRuns(fresh));
          oracle = oracleSplice(oracle, start, end, fresh);
          // Days without a point inside a run have no value to date: only held days are checked.
          const wrong = [...oracle].filter(([day, expected]) => seenAt(runs, day) !== expected);
          expect(wrong).toEqual([]);
        });
        const list = listRuns(runs);
        for (let i = 1; i < list.length; i++) expect(list[i].from).toBeGreaterThan(list[i - 1].to);
      }),
      { numRuns: propertyRuns(300) }
    );
  });

  it("keeps the days around an answered range that an old run covered on both sides", () => {
    let runs = spliceRuns(NO_RUNS, 100, 200, [{ from: 100, to: 200, at: T0 }]);
    runs = spliceRuns(runs, 140, 150, [{ from: 141, to: 149, at: T0 + 5 }]);
    expect(listRuns(runs)).toEqual([
      { from: 100, to: 139, at: T0 },
      { from: 141, to: 149, at: T0 + 5 },
      { from: 151, to: 200, at: T0 },
    ]);
    // A range open towards launch or the latest day, as the service's defaults are.
    runs = spliceRuns(runs, -Infinity, 120, [{ from: 90, to: 120, at: T0 + 9 }]);
    expect(seenAt(runs, 90)).toBe(T0 + 9);
    expect(seenAt(runs, 121)).toBe(T0);
    runs = spliceRuns(runs, 180, Infinity, []);
    expect(seenAt(runs, 180)).toBeUndefined();
    expect(seenAt(runs, 179)).toBe(T0);
  });

  it("merges runs past the bound only towards later instants: never known earlier than it was", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 10_000_000 }), { minLength: 2, maxLength: 60 }),
        fc.integer({ min: 1, max: 20 }),
        (instants, max) => {
          // One run a day, as daily refreshes that each bring a new day make them.
          const fresh = instants.map((at, i) => ({ from: i, to: i, at: T0 + at }));
          const exact = spliceRuns(NO_RUNS, 0, instants.length - 1, fresh, Infinity);
          const bounded = spliceRuns(NO_RUNS, 0, instants.length - 1, fresh, max);
          expect(listRuns(bounded).length).toBeLessThanOrEqual(max);
          for (let day = 0; day < instants.length; day++)
            expect(seenAt(bounded, day)!).toBeGreaterThanOrEqual(seenAt(exact, day)!);
        }
      ),
      { numRuns: propertyRuns(200) }
    );
  });

  it("reads back what it saved, and refuses runs that overlap, go backwards or are not whole", () => {
    const runs = spliceRuns(NO_RUNS, 0, 10, [
      { from: 0, to: 3, at: T0 },
      { from: 5, to: 10, at: T0 + 60_000 },
    ]);
    const saved = JSON.parse(JSON.stringify(encodeRuns(runs))) as unknown;
    expect(listRuns(decodeRuns(saved)!)).toEqual(listRuns(runs));
    for (const bad of [
      [0, 3, T0, 3, 5, T0], // overlaps
      [5, 3, T0], // backwards
      [0, 3.5, T0], // not a whole day
      [0, 3, -1], // an instant before 1970
      [0, 3], // not triples
      "0,3,1", // not a list
      [0, 3, null],
    ])
      expect(decodeRuns(bad)).toBeUndefined();
    expect(decodeRuns([0, 1, T0, 2, 3, T0, 4, 5, T0], 2)).toBeUndefined();
  });
});
