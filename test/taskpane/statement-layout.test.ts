import grids from "../fixtures/taskpane/statement-grids.json";
import {
  CHANGE_FORMAT,
  HEADER_ROWS,
  statementSheet,
  VALUE_FORMAT,
  type StatementInput,
} from "../../src/taskpane/model/statement-layout";
import type { CellInput, FormatRule, SheetPlan } from "../../src/excel/port";

const input: StatementInput = {
  projectId: "aave",
  projectName: "Aave",
  granularity: "quarter",
  interval: "1y",
  values: grids.values,
  changes: grids.changes,
  mode: "static",
  asOf: "2025-06-15 12:00 UTC",
  simulated: true,
};

/** The formats that cover one cell, merged in order. */
function formatAt(plan: SheetPlan, row: number, column: number): FormatRule["format"] {
  return plan.formats
    .filter(
      ({ area: a }) =>
        row >= a.row && row < a.row + a.rows && column >= a.column && column < a.column + a.columns
    )
    .reduce((all, rule) => ({ ...all, ...rule.format }), {});
}

describe("static statement", () => {
  const plan = statementSheet(input);
  const cells = plan.blocks[0].cells;
  const rowOf = (first: CellInput) => cells.findIndex((r) => r[0] === first);

  test("title, as-of line with the demo mark, headings with subheadings, sections, lines; values as numbers", () => {
    expect(plan.blocks).toHaveLength(1);
    expect(cells.slice(0, 6)).toEqual([
      ["Aave — financial statement", null, null],
      [
        "As of 2025-06-15 12:00 UTC (static values, fetched) · quarterly periods over 1y · Demo data — not real figures",
        null,
        null,
      ],
      [null, null, null],
      ["Metric", "Q1 '24", "Q2 '24"],
      [null, "Jan 1 – Mar 31, 2024", "Apr 1 – Jun 30, 2024"],
      ["Income statement", null, null],
    ]);
    expect(cells[rowOf("fees")]).toEqual(["fees", 1234567.8, 2345678.9]);
    expect(cells[rowOf("revenue")]).toEqual(["revenue", 234567.1, -345678.2]);
    expect(cells[rowOf("tvl")]).toEqual(["tvl", 99000000, null]);
    expect(cells.every((r) => r.length === 3)).toBe(true);
  });

  test("section rows and headings are bold; values have thousands separators; changes are percentages", () => {
    expect(formatAt(plan, 0, 0)).toMatchObject({ bold: true, size: 14 });
    expect(formatAt(plan, 3, 1)).toMatchObject({ bold: true, align: "right" });
    expect(formatAt(plan, 4, 1)).toMatchObject({ italic: true });
    expect(formatAt(plan, rowOf("Income statement"), 0)).toMatchObject({ bold: true });
    expect(formatAt(plan, rowOf("Key metrics"), 0)).toMatchObject({ bold: true });
    expect(formatAt(plan, rowOf("fees"), 0).bold).toBeUndefined();
    expect(formatAt(plan, rowOf("fees"), 1)).toMatchObject({ numberFormat: VALUE_FORMAT });
    const change = cells.findIndex((r) => r[0] === "Change on previous period");
    expect(change).toBeGreaterThan(rowOf("tvl"));
    const changedRevenue = cells.findIndex((r, i) => i > change && r[0] === "revenue");
    expect(cells[changedRevenue]).toEqual(["revenue", null, -2.4737]);
    expect(formatAt(plan, changedRevenue, 2)).toMatchObject({ numberFormat: CHANGE_FORMAT });
    expect(VALUE_FORMAT).toMatch(/#,##0/);
    expect(CHANGE_FORMAT).toMatch(/%/);
  });

  test("the header is frozen and the sheet is named after the project", () => {
    expect(plan.freeze).toEqual({ rows: HEADER_ROWS, columns: 1 });
    expect(plan.name).toBe("Aave");
  });
});

describe("live statement", () => {
  const plan = statementSheet({ ...input, mode: "live", simulated: false });
  test("two STATEMENT formulas (values, then changes) in their own blocks, nothing written over their spills", () => {
    expect(plan.blocks).toEqual([
      {
        at: [0, 0],
        cells: [
          ["Aave — financial statement"],
          [
            "As of 2025-06-15 12:00 UTC (live formulas, updated by Refresh) · quarterly periods over 1y",
          ],
        ],
      },
      {
        at: [3, 0],
        cells: [[{ formula: '=CRYPTO.STATEMENT("aave","quarter","1y","headers=2")' }]],
      },
      { at: [9, 0], cells: [["Change on previous period"]] },
      {
        at: [10, 0],
        cells: [[{ formula: '=CRYPTO.STATEMENT("aave","quarter","1y","headers=1; values=pop")' }]],
      },
    ]);
  });
  test("formats laid on the spill: bold headings and sections, separators on values, percent on changes", () => {
    // headers=2 spills [name, "", subheadings], [Section, Metric, headings], then 3 lines: rows 3..7.
    expect(formatAt(plan, 3, 2)).toMatchObject({ bold: true, align: "right" });
    expect(formatAt(plan, 4, 0)).toMatchObject({ bold: true });
    expect(formatAt(plan, 5, 0)).toMatchObject({ bold: true });
    expect(formatAt(plan, 7, 3)).toMatchObject({ numberFormat: VALUE_FORMAT });
    expect(formatAt(plan, 8, 3).numberFormat).toBeUndefined();
    expect(formatAt(plan, 10, 2)).toMatchObject({ bold: true });
    expect(formatAt(plan, 11, 2)).toMatchObject({ numberFormat: CHANGE_FORMAT });
    expect(formatAt(plan, 13, 3)).toMatchObject({ numberFormat: CHANGE_FORMAT });
    expect(formatAt(plan, 14, 3).numberFormat).toBeUndefined();
    expect(plan.freeze).toEqual({ rows: HEADER_ROWS, columns: 2 });
  });
});
