/**
 * refresh-changes.ts: a Refresh all, the ribbon's or the taskpane's, collects the restatements the ledger
 * records from the moment it starts; a ribbon refresh that finds one tells the user once. The ledger is the
 * runtime's real RestatementLedger (in memory); Excel's recalculation is where the changes come from, so a
 * test records them into the ledger while "Excel recalculates".
 */
import { dayNumber } from "../../src/client/data/days";
import { MemoryLedgerStore, RestatementLedger, type Change } from "../../src/engine/ledger";
import { refresh, refreshAllCommand, RefreshLog, type RefreshDeps } from "../../src/excel/refresh";
import {
  MAX_KEPT_CHANGES,
  RefreshChanges,
  tellChanges,
  type FoundChanges,
} from "../../src/excel/refresh-changes";

const T = Date.UTC(2026, 10, 20, 9, 0, 0);

const change = (day: string, projectId = "aave", metricId = "fees"): Change => ({
  series: { projectId, productId: "", metricId, filter: "" },
  dim: "",
  day: dayNumber(day),
  before: 100,
  after: 125,
  beforeSeenAt: T - 86_400_000,
  seenAt: T + 1_000,
  request: "GET /v2/projects/aave/metrics",
});

function ledger(): RestatementLedger {
  return new RestatementLedger({
    store: new MemoryLedgerStore(),
    namespace: async () => "test",
    now: () => T,
  });
}

/** A refresh whose recalculation makes the ledger record `found` (what Excel's recalculation would find). */
function deps(l: RestatementLedger, changes: RefreshChanges, found: Change[][] = []) {
  const order: string[] = [];
  const d: RefreshDeps = {
    runtime: async () => ({
      engine: { refresh: () => order.push("engine.refresh") },
      ledger: l,
    }),
    recalculate: async (scope) => {
      order.push(`recalculate ${scope}`);
      for (const batch of found) await l.record(batch);
    },
    now: () => T,
    log: new RefreshLog(),
    changes,
  };
  return { d, order };
}

describe("what a Refresh all finds", () => {
  it("collects every restatement recorded from its start, and a new Refresh all starts afresh", async () => {
    const l = ledger();
    const changes = new RefreshChanges();
    // Recorded before any refresh: not a refresh's finding.
    await l.record([change("2024-01-01")]);
    expect(changes.last).toBeUndefined();

    const { d } = deps(l, changes, [
      [change("2024-02-15")],
      [change("2024-02-16", "gmx", "revenue")],
    ]);
    await refresh(d, "all", "taskpane");
    expect(changes.last).toMatchObject({
      since: T,
      source: "taskpane",
      count: 2,
      projects: ["aave", "gmx"],
      metrics: ["fees", "revenue"],
    });
    // Excel recalculates after its calculate request returns: what arrives later is still this refresh's.
    await l.record([change("2024-02-17")]);
    expect(changes.last?.count).toBe(3);

    await refresh(deps(l, changes).d, "all", "ribbon");
    expect(changes.last).toMatchObject({ source: "ribbon", count: 0, kept: [] });
    await l.record([change("2024-02-18")]);
    expect(changes.last?.count).toBe(1);
  });

  it("a Refresh selection does not start a new list", async () => {
    const l = ledger();
    const changes = new RefreshChanges();
    await refresh(deps(l, changes).d, "selection", "taskpane");
    expect(changes.last).toBeUndefined();
  });

  it("keeps the newest changes up to its bound, and counts them all", async () => {
    const l = ledger();
    const changes = new RefreshChanges();
    await refresh(deps(l, changes).d, "all", "ribbon");
    const first = dayNumber("2000-01-01");
    const many = Array.from({ length: MAX_KEPT_CHANGES + 10 }, (_, i) => ({
      ...change("2000-01-01", i === 0 ? "first" : "aave"),
      day: first + i,
    }));
    await l.record(many);
    expect(changes.last?.count).toBe(MAX_KEPT_CHANGES + 10);
    expect(changes.last?.kept).toHaveLength(MAX_KEPT_CHANGES);
    expect(changes.last?.kept[0].day).toBe(first + 10);
    // The CHANGES formula still names every project, the dropped ones' too.
    expect(changes.last?.projects).toEqual(["first", "aave"]);
  });

  it("tells of a ribbon refresh's changes once, when it finds the first; not of the taskpane's, nor of none", async () => {
    const l = ledger();
    const changes = new RefreshChanges();
    const told: FoundChanges[] = [];
    const stop = tellChanges(changes, "ribbon", (found) => told.push(found));

    await refreshAllCommand(deps(l, changes).d)({ completed: () => undefined });
    expect(told).toEqual([]);
    await l.record([change("2024-02-15")]);
    await l.record([change("2024-02-16")]);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ source: "ribbon", count: 2 });

    await refresh(deps(l, changes, [[change("2024-02-17")]]).d, "all", "taskpane");
    expect(told).toHaveLength(1);

    await refreshAllCommand(deps(l, changes, [[change("2024-02-18")]]).d)();
    expect(told).toHaveLength(2);
    stop();
    await refreshAllCommand(deps(l, changes, [[change("2024-02-19")]]).d)();
    expect(told).toHaveLength(2);
  });
});
