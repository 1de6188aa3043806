/**
 * Records of cells answered from the cache are described only when read: a warm recalculation records
 * thousands of cells, the taskpane opens one. A deferred record reads as an eager one would, in its place.
 */
import { Diagnostics, type CellRecord } from "../../src/runtime/diagnostics";

const T = Date.UTC(2026, 10, 20, 12);

function record(address: string, at = T): CellRecord {
  return {
    address,
    functionName: "VALUE",
    args: { project: "aave", metric: "fees" },
    at,
    requests: ["GET /v2/projects (cached)"],
    warnings: [],
  };
}

describe("a deferred cell record", () => {
  it("is described when first read, once, and keeps its place among the records", () => {
    const d = new Diagnostics(() => T, 60);
    let described = 0;
    d.recordCell(record("Sheet1!A1"));
    d.recordCellLater("Sheet1!A2", () => {
      described++;
      return record("Sheet1!A2");
    });
    d.recordCell(record("Sheet1!A3"));
    expect(described).toBe(0);
    expect(d.cell("Sheet1!$A$2")).toEqual(record("Sheet1!A2"));
    expect(d.cell("Sheet1!A2")).toEqual(record("Sheet1!A2"));
    expect(described).toBe(1);
    expect(d.export().cells.map((c) => c.address)).toEqual(["Sheet1!A1", "Sheet1!A2", "Sheet1!A3"]);
    expect(described).toBe(1);
  });

  it("gives way to a newer record of the same cell, deferred or not", () => {
    const d = new Diagnostics(() => T, 60);
    d.recordCellLater("Sheet1!A1", () => record("Sheet1!A1", T));
    d.recordCell({ ...record("Sheet1!A1", T + 1), error: { code: "#N/A", message: "gone" } });
    expect(d.cell("Sheet1!A1")?.error).toEqual({ code: "#N/A", message: "gone" });
    d.recordCellLater("Sheet1!A1", () => record("Sheet1!A1", T + 2));
    expect(d.cell("Sheet1!A1")?.at).toBe(T + 2);
    expect(d.export().cells).toHaveLength(1);
    // The error stays in the recent errors: a later success does not rewrite what happened.
    expect(d.recentErrors().map((e) => e.message)).toEqual(["gone"]);
  });

  it("is bounded like the others, and a record trimmed unread is never described", () => {
    const d = new Diagnostics(() => T, 60);
    let described = 0;
    for (let i = 1; i <= 10_000; i++)
      d.recordCellLater(`Bench!A${i}`, () => {
        described++;
        return record(`Bench!A${i}`);
      });
    expect(d.retained().cells).toBeLessThanOrEqual(6_250);
    expect(d.cell("Bench!A1")).toBeUndefined();
    expect(d.cell("Bench!A10000")?.address).toBe("Bench!A10000");
    expect(described).toBe(1);
  });
});
