/**
 * Stale-if-error at the cell: after Refresh, a cell whose data was fetched before in this runtime keeps its
 * previous value when fetching afresh fails, and the diagnostics say it is stale and why. Over real HTTP
 * against the simulator, on virtual time.
 */
import type { CellRecord } from "../../src/runtime/diagnostics";
import { openLab, type Lab } from "../harness/faults/lab";
import { backgroundSettles } from "../harness/faults/run";
import { HEALTHY } from "../harness/faults/scenarios";
import { evaluate, type CellResult, type Formula } from "../harness/faults/workbook";

let lab: Lab;
beforeAll(async () => {
  lab = await openLab();
});
afterAll(() => lab.close());
beforeEach(() => {
  lab.setKnobs(HEALTHY);
  lab.reset();
});

const DAY = 86_400_000;

const workbook: Formula[] = [
  { address: "S!A1", name: "VALUE", args: ["aave", "fees"] },
  { address: "S!A2", name: "VALUE", args: ["uniswap", "revenue", "2025-06-30"] },
  {
    address: "S!A3",
    name: "METRIC",
    args: [[["aave"]], [["fees", "tvl"]], "2025-01-01", "2025-01-31"],
  },
  // bitcoin has no revenue: the table's second column is #N/A cells, its first column data.
  {
    address: "S!A4",
    name: "METRIC",
    args: [[["bitcoin"]], [["fees", "revenue"]], "2025-01-01", "2025-01-31"],
  },
  { address: "S!A5", name: "STATEMENT", args: ["aave"] },
  { address: "S!A6", name: "PROJECT", args: ["compound", "chains"] },
  {
    address: "S!A7",
    name: "PRODUCT_METRIC",
    args: ["aave", "aave-v3", [["fees"]], "2025-05-01", "2025-05-31"],
  },
  { address: "S!A8", name: "AGGREGATION", args: ["aave", "fees", "sum_30d"] },
];

function values(cells: readonly CellResult[]): unknown[] {
  return cells.map((c) => (c.ok ? c.value : `${c.code} ${c.message}`));
}

function record(address: string): CellRecord {
  const found = lab.runtime.diagnostics.cell(address);
  if (!found) throw new Error(`no diagnostics for ${address}`);
  return found;
}

describe("stale-if-error", () => {
  it("keeps every value a refreshed workbook had while the service is down, and says why", async () => {
    const before = await evaluate(lab, workbook);
    expect(before.every((c) => c.ok)).toBe(true);
    const fetchedAt = lab.time.now();
    const errorsBefore = lab.runtime.diagnostics.recentErrors().length;
    lab.time.jump(3_600_000);
    lab.runtime.engine.refresh();
    lab.setKnobs({ fraction5xx: 1 });
    const during = await evaluate(lab, workbook);
    expect(values(during)).toEqual(values(before));
    for (const cell of workbook) {
      const stale = record(cell.address).stale;
      expect(stale).toBeDefined();
      expect(stale!.fetchedAt).toBeLessThanOrEqual(fetchedAt);
      // The failure itself, or (retries of a 5xx outlast it) stale-if-slow's "not answered within 10 s".
      expect(stale!.reason).toMatch(/service error \(HTTP 50[023]\)|has not answered within 10 s/);
    }
    // A kept value is not an error: nothing is listed under recent errors.
    expect(lab.runtime.diagnostics.recentErrors()).toHaveLength(errorsBefore);
    expect(JSON.stringify(lab.runtime.diagnostics.export().cells)).toContain('"stale"');
  });

  it("keeps a table whose unavailable column cannot be asked again", async () => {
    const table = workbook.filter((f) => f.address === "S!A4");
    const [before] = await evaluate(lab, table);
    lab.runtime.engine.refresh();
    lab.setKnobs({ fault: "empty-body" });
    const [during] = await evaluate(lab, table);
    expect(during).toMatchObject({ ok: true });
    expect(during.ok && during.value).toEqual(before.ok && before.value);
  });

  it("serves fresh values again, without the stale mark, once the service is back", async () => {
    await evaluate(lab, workbook);
    lab.runtime.engine.refresh();
    lab.setKnobs({ fault: "reset" });
    await evaluate(lab, workbook);
    expect(record("S!A1").stale?.reason).toMatch(/network error|has not answered within 10 s/);
    lab.setKnobs(HEALTHY);
    lab.sim.clearLog();
    // The refresh requests of the cells answered stale-if-slow go on; once they end, the cache is fresh.
    await backgroundSettles(lab);
    const after = await evaluate(lab, workbook);
    expect(after.every((c) => c.ok)).toBe(true);
    for (const cell of workbook) expect(record(cell.address).stale).toBeUndefined();
    // The kept values were not taken for fresh ones: the healed recalculation asked the service again.
    expect(lab.sim.requestLog.filter((e) => e.status === 200).length).toBeGreaterThan(0);
  });

  it("does not show values older than the staleness limit (a week) as if they were current", async () => {
    await evaluate(lab, workbook);
    lab.time.jump(8 * DAY);
    lab.runtime.engine.refresh();
    lab.setKnobs({ fraction5xx: 1 });
    const during = await evaluate(lab, workbook);
    expect(during.every((c) => !c.ok && c.code === "#N/A" && /Use Refresh/.test(c.message))).toBe(
      true
    );
  });

  it("fails cells that had nothing before with the fault's error, not with a stale value", async () => {
    await evaluate(lab, workbook.slice(0, 1));
    lab.runtime.engine.refresh();
    lab.setKnobs({ fault: "html-200" });
    const [kept, fresh] = await evaluate(lab, [
      workbook[0],
      { address: "S!B1", name: "VALUE", args: ["curve", "fees"] },
    ]);
    expect(kept.ok).toBe(true);
    expect(fresh).toMatchObject({ ok: false, code: "#N/A" });
    expect(!fresh.ok && fresh.message).toMatch(/expected JSON, got text\/html/);
    // An answer that came but cannot be read: said so, with both pieces of advice (not "could not be reached").
    expect(record("S!B1").error?.message).toMatch(
      /^The service's answer could not be read: .*Use Refresh later; if it persists, check the service address/
    );
  });
});
