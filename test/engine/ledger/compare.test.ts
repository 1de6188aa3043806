import { compareRange } from "../../../src/engine/ledger/compare";

const series = { projectId: "aave", productId: "", metricId: "fees", filter: "chains=base" };
const T1 = Date.UTC(2026, 10, 20, 9);
const T2 = Date.UTC(2026, 10, 21, 9);

describe("what an answer changes", () => {
  it("records a restated day with both values and when each was first seen, and keeps the others' first sighting", () => {
    const outcome = compareRange({
      series,
      dim: "base",
      held: [
        { day: 1, value: 10, seenAt: T1 },
        { day: 2, value: 20, seenAt: T1 },
        { day: 3, value: null, seenAt: T1 },
      ],
      sent: [
        { day: 1, value: 10 },
        { day: 2, value: 21.5 },
        { day: 3, value: 30 },
        { day: 4, value: 40 },
      ],
      at: T2,
      request: "GET /v2/projects/aave/metrics for 1 metric",
    });
    expect(outcome.changes).toEqual([
      {
        series,
        dim: "base",
        day: 2,
        before: 20,
        after: 21.5,
        beforeSeenAt: T1,
        seenAt: T2,
        request: "GET /v2/projects/aave/metrics for 1 metric",
      },
      expect.objectContaining({ day: 3, before: null, after: 30 }),
    ]);
    // Day 1 is unchanged: still first seen at T1. Days 2 to 4 hold what was first seen at T2.
    expect(outcome.seen).toEqual([
      { from: 1, to: 1, at: T1 },
      { from: 2, to: 4, at: T2 },
    ]);
  });

  it("records a day the service no longer sends as going to no value", () => {
    const outcome = compareRange({
      series,
      dim: "",
      held: [
        { day: 1, value: 10, seenAt: T1 },
        { day: 2, value: null, seenAt: T1 },
        { day: 5, value: 50, seenAt: T1 },
      ],
      sent: [{ day: 3, value: 30 }],
      at: T2,
      request: "r",
    });
    expect(outcome.changes.map((c) => [c.day, c.before, c.after])).toEqual([
      [1, 10, null],
      [5, 50, null],
    ]);
  });

  it("takes no day sent twice with two values (a conflict) for a restatement, either way", () => {
    const outcome = compareRange({
      series,
      dim: "",
      held: [
        { day: 1, value: null, seenAt: T1, conflict: true },
        { day: 2, value: 20, seenAt: T1 },
      ],
      sent: [
        { day: 1, value: 10 },
        { day: 2, value: null, conflict: true },
      ],
      at: T2,
      request: "r",
    });
    expect(outcome.changes).toEqual([]);
    expect(outcome.seen).toEqual([{ from: 1, to: 2, at: T2 }]);
  });

  it("never dates a value held before it was seen, even from a clock that went back", () => {
    const outcome = compareRange({
      series,
      dim: "",
      held: [{ day: 1, value: 10, seenAt: T2 }],
      sent: [{ day: 1, value: 11 }],
      at: T1,
      request: "r",
    });
    expect(outcome.changes[0]).toMatchObject({ beforeSeenAt: T1, seenAt: T1 });
  });
});
