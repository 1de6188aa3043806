import { NO_RUNS, spliceRuns } from "../../src/engine/ledger";
import { answerChanges, filterText, seriesRefOf } from "../../src/engine/series-ledger";
import { DEFAULT_VARIANT } from "../../src/engine/series-types";

const T0 = Date.UTC(2026, 10, 20, 9);
const T1 = Date.UTC(2026, 10, 21, 9);
const T2 = Date.UTC(2026, 10, 22, 9);

describe("a series as the ledger names it", () => {
  it("writes the options that change an answer as one canonical text, the defaults as none", () => {
    expect(filterText(DEFAULT_VARIANT)).toBe("");
    expect(
      filterText({
        bridged: false,
        chains: ["ethereum", "base"],
        products: [],
        sectors: ["lending"],
        breakdown: "chain",
      })
    ).toBe("chains=base,ethereum; sectors=lending; bridged=false; breakdown=chain");
    expect(
      seriesRefOf({
        projectId: "uniswap",
        productId: "uniswap-v3",
        metricId: "fees",
        variant: DEFAULT_VARIANT,
      })
    ).toEqual({ projectId: "uniswap", productId: "uniswap-v3", metricId: "fees", filter: "" });
  });
});

describe("what an answer changes of the series cache", () => {
  const series = seriesRefOf({ projectId: "aave", metricId: "revenue", variant: DEFAULT_VARIANT });

  it("compares each day with the snapshot answering for it first, carrying first sightings", () => {
    const fallback = {
      covers: (day: number) => day >= 1 && day <= 10,
      points: new Map([
        [
          "",
          [
            { day: 1, value: 10 },
            { day: 2, value: 20 },
            { day: 3, value: 30 },
          ],
        ],
      ]),
      seen: new Map([["", spliceRuns(NO_RUNS, 1, 10, [{ from: 1, to: 3, at: T0 }])]]),
      fetchedAt: T1,
    };
    // This session's fresh snapshot answered for day 3 already: its view of day 3 wins over the fallback.
    const fresh = {
      covers: (day: number) => day === 3,
      points: new Map([["", [{ day: 3, value: 31 }]]]),
      fetchedAt: T1,
    };
    const outcome = answerChanges({
      series,
      start: 1,
      end: 3,
      held: [fresh, fallback],
      sent: new Map([
        [
          "",
          [
            { day: 1, value: 10 },
            { day: 2, value: 22 },
            { day: 3, value: 31 },
          ],
        ],
      ]),
      at: T2,
      request: "GET /v2/projects/aave/metrics for 1 metric, launch → latest",
    });
    expect(outcome.changes.map((c) => [c.day, c.before, c.after, c.beforeSeenAt])).toEqual([
      [2, 20, 22, T0],
    ]);
    // Day 1 keeps its first sighting; day 3 was held without one (first seen when its snapshot was fetched).
    expect(outcome.seen.get("")).toEqual([
      { from: 1, to: 1, at: T0 },
      { from: 2, to: 2, at: T2 },
      { from: 3, to: 3, at: T1 },
    ]);
  });

  it("compares each breakdown member on its own, and takes no conflict for a value", () => {
    const held = {
      covers: () => true,
      points: new Map([
        ["base", [{ day: 5, value: 1 }]],
        ["ethereum", [{ day: 5, value: null, conflict: true as const }]],
      ]),
      fetchedAt: T0,
    };
    const outcome = answerChanges({
      series,
      start: 5,
      end: 5,
      held: [held],
      sent: new Map([
        ["base", [{ day: 5, value: 2 }]],
        ["ethereum", [{ day: 5, value: 9 }]],
      ]),
      at: T1,
      request: "r",
    });
    expect(outcome.changes.map((c) => [c.dim, c.before, c.after])).toEqual([["base", 1, 2]]);
  });
});
