/** What the Refresh view says a Refresh all found: the restatements counted, listed, and a CHANGES formula. */
import type { Change, SeriesRef } from "../../src/engine/ledger";
import { dayNumber } from "../../src/client/data/days";
import {
  LISTED_CHANGES,
  changeLine,
  changesFormula,
  changesFound,
} from "../../src/taskpane/model/refresh-changes";
import { RefreshChanges, type FoundChanges } from "../../src/excel/refresh-changes";

const NINE = Date.UTC(2026, 10, 20, 9);

/** What a Refresh all started at 09:00:00 UTC found, once the ledger recorded `changes`. */
function foundOf(changes: Change[], source: "ribbon" | "taskpane" = "taskpane"): FoundChanges {
  const tracker = new RefreshChanges();
  let feed: (changes: readonly Change[]) => void = () => undefined;
  tracker.start({ subscribe: (l) => ((feed = l), () => undefined) }, NINE, source);
  feed(changes);
  return tracker.last!;
}

const series = (over: Partial<SeriesRef> = {}): SeriesRef => ({
  projectId: "aave",
  productId: "",
  metricId: "fees",
  filter: "",
  ...over,
});
const change = (over: Partial<Change> = {}): Change => ({
  series: series(),
  dim: "",
  day: dayNumber("2024-02-15"),
  before: 1030419.3848,
  after: 1288024.231,
  beforeSeenAt: 1,
  seenAt: 2,
  request: "GET /v2/metrics/fees",
  ...over,
});

describe("what a Refresh all found", () => {
  it("names each change by its series and day, with before and after", () => {
    expect(changeLine(change())).toBe("aave fees 2024-02-15: 1,030,419.38 → 1,288,024.23");
    expect(
      changeLine(
        change({
          series: series({ productId: "aave-v3", filter: "chains=base" }),
          dim: "base",
          after: null,
        })
      )
    ).toBe(
      "aave (product aave-v3) fees (chains=base; member base) 2024-02-15: 1,030,419.38 → no value"
    );
  });

  it("counts them all, lists the newest, and says when there were none", () => {
    expect(changesFound(foundOf([]))).toEqual({
      summary: "No figure has changed since the refresh at 09:00:00 UTC.",
      lines: [],
    });
    expect(changesFound(foundOf([change()])).summary).toBe(
      "1 figure changed since the refresh at 09:00:00 UTC."
    );
    const many = Array.from({ length: LISTED_CHANGES + 5 }, (_, i) =>
      change({ day: dayNumber("2024-01-01") + i, seenAt: 100 + i })
    );
    const found = changesFound(foundOf(many));
    expect(found.summary).toBe(
      `${LISTED_CHANGES + 5} figures changed since the refresh at 09:00:00 UTC (the newest ${LISTED_CHANGES} below).`
    );
    expect(found.lines).toHaveLength(LISTED_CHANGES);
    expect(found.lines[0]).toContain("2024-01-25");
    // The ribbon's refresh is named as such: the list opens in the taskpane after it.
    expect(changesFound(foundOf([change()], "ribbon")).summary).toBe(
      "1 figure changed since the ribbon's refresh at 09:00:00 UTC."
    );
  });

  it("builds a CHANGES formula for the projects and metrics that changed", () => {
    const state = changesFormula(
      foundOf([
        change(),
        change({ series: series({ metricId: "revenue" }) }),
        change({ series: series({ projectId: "gmx" }) }),
      ])
    );
    expect(state.fn).toBe("CHANGES");
    expect(state.values.projects).toEqual({ kind: "ids", ids: ["aave", "gmx"] });
    expect(state.values.metrics).toEqual({ kind: "ids", ids: ["fees", "revenue"] });
    expect(changesFormula(foundOf([])).values).toEqual({});
    expect(changesFormula(undefined).values).toEqual({});
  });
});
