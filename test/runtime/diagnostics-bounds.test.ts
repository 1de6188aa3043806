/**
 * The diagnostics record is bounded whatever the workbook: by the number of cells it remembers and by the
 * size of what their records hold, so a 100,000-cell workbook, or cells with huge arguments and a note per
 * column, keep it as small as a 5,000-cell one.
 */
import { CallTrace } from "../../src/functions/context";
import { recordAnsweredCall, recordCall } from "../../src/functions/call-record";
import {
  Diagnostics,
  MAX_RECORD_BYTES,
  recordBytes,
  type CellRecord,
} from "../../src/runtime/diagnostics";
import { sharedDiagnostics } from "../../src/runtime/runtime";

const T = Date.UTC(2026, 10, 20, 12);

function bigRecord(address: string): CellRecord {
  return {
    address,
    functionName: "METRIC",
    args: { project: [["aave", "uniswap"]], metric: "fees" },
    at: T,
    requests: ["GET /v2/metrics/fees?project_ids=aave,uniswap"],
    // A table over many projects: a note per column, each a long message.
    warnings: Array.from({ length: 50 }, (_, i) => `column ${i}: ${"no data ".repeat(25)}`),
  };
}

describe("the diagnostics record of a big workbook", () => {
  it("keeps at most 5,000 to 6,250 cells and about 4 MB of records, however many cells recalculate", () => {
    const d = new Diagnostics(() => T, 60);
    for (let i = 1; i <= 100_000; i++) d.recordCell(bigRecord(`Big!A${i}`));
    const held = d.retained();
    expect(held.cells).toBeLessThanOrEqual(6_250);
    expect(held.bytes).toBeLessThanOrEqual(MAX_RECORD_BYTES);
    // The count adds up: what the bound says it holds is what export() gives.
    const cells = d.export().cells;
    expect(cells).toHaveLength(held.cells);
    expect(cells.reduce((n, c) => n + recordBytes(c), 0)).toBe(held.bytes);
    // The newest are kept, the oldest gone.
    expect(d.cell("Big!A100000")?.warnings).toHaveLength(50);
    expect(d.cell("Big!A1")).toBeUndefined();
    // These records are large: the size bound, not the count, decided how many stay.
    expect(held.cells).toBeLessThan(5_000);
  });

  it("counts a record made on reading by what it holds, and again once it is made", () => {
    const d = new Diagnostics(() => T, 60);
    for (let i = 1; i <= 100_000; i++)
      d.recordCellLater(`Warm!A${i}`, () => bigRecord(`Warm!A${i}`), 500);
    expect(d.retained().cells).toBeLessThanOrEqual(6_250);
    expect(d.retained().bytes).toBeLessThanOrEqual(6_250 * 500);
    const before = d.retained().bytes;
    d.cell("Warm!A100000");
    expect(d.retained().bytes).toBe(before - 500 + recordBytes(bigRecord("Warm!A100000")));
    d.clearCells();
    expect(d.retained()).toMatchObject({ cells: 0, bytes: 0 });
  });

  it("keeps the newest record even when it alone is larger than the bound", () => {
    const d = new Diagnostics(() => T, 60);
    d.recordCell(bigRecord("Sheet1!A1"));
    const huge = { ...bigRecord("Sheet1!A2"), warnings: ["x".repeat(MAX_RECORD_BYTES)] };
    d.recordCell(huge);
    expect(d.retained().cells).toBe(1);
    expect(d.cell("Sheet1!A2")).toBe(huge);
  });
});

describe("a cell's record", () => {
  beforeEach(() => sharedDiagnostics().clearCells());

  it("lists 50 notes and how many more, and cuts long texts, so one cell cannot hold megabytes", () => {
    const trace = new CallTrace();
    for (let i = 0; i < 5_000; i++) trace.requests.add(`GET /v2/projects/p${i}`);
    const longText = "a".repeat(30_000);
    const range = Array.from({ length: 1_000 }, () => [longText]);
    const cellErrors = Array.from(
      { length: 10_000 },
      (_, i) => `p${i}: ${"not available ".repeat(20)}`
    );
    recordCall(
      { address: "Sheet1!B2", functionName: "COMPS", args: { projects: range, columns: longText } },
      trace,
      undefined,
      cellErrors
    );
    const record = sharedDiagnostics().cell("Sheet1!B2")!;
    expect(record.requests).toHaveLength(51);
    expect(record.requests[50]).toBe("… and 4950 more");
    expect(record.warnings).toHaveLength(51);
    expect(record.warnings[50]).toBe("… and 9950 more");
    expect((record.args.columns as string).length).toBeLessThanOrEqual(200);
    const cells = record.args.projects as string[][];
    expect(cells).toHaveLength(1_000);
    expect(cells.every(([text]) => text.length <= 200 && text.startsWith("aaa"))).toBe(true);
    expect(recordBytes(record)).toBeLessThan(300_000);
  });

  it("keeps the arguments of a cell answered from the cache as they are when nothing is long", () => {
    const args = { project: "aave", metric: "fees", date: 45292, options: null };
    recordAnsweredCall({ address: "Sheet1!C3", functionName: "VALUE", args }, new CallTrace());
    expect(sharedDiagnostics().cell("Sheet1!C3")?.args).toBe(args);
    const long = { ...args, project: "p".repeat(1_000) };
    recordAnsweredCall(
      { address: "Sheet1!C4", functionName: "VALUE", args: long },
      new CallTrace()
    );
    expect(sharedDiagnostics().cell("Sheet1!C4")?.args.project).toBe(`${"p".repeat(199)}…`);
  });
});
