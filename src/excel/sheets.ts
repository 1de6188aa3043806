/**
 * Writing blocks into the workbook: a block (the comparison grid) at the active cell, a new worksheet from a
 * SheetPlan (the statement), the FormatRules both apply, and Excel's rules for worksheet names.
 */
import {
  formulasEntry,
  WorkbookError,
  type Area,
  type CellFormat,
  type GridPlan,
  type InsertResult,
  type SheetPlan,
} from "./port";
import type { ExcelRun } from "./office-host";

// --- Worksheet names ---------------------------------------------------------------------------------
// Excel's rules: 1 to 31 characters, none of \ / ? * [ ] :, no apostrophe at either end, not "History"
// (reserved), and unique within the workbook ignoring case.

export const MAX_SHEET_NAME = 31;
const FORBIDDEN = /[\\/?*[\]:]/g;

export function sanitiseSheetName(wanted: string, fallback = "Statement"): string {
  let name = wanted
    .replace(FORBIDDEN, " ")
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  name = stripApostrophes(name.slice(0, MAX_SHEET_NAME));
  if (name === "" || name.toLowerCase() === "history") return fallback;
  return name;
}

function stripApostrophes(name: string): string {
  return name.replace(/^'+/, "").replace(/'+$/, "").trim();
}

/** `base`, or `base (2)`, `base (3)`... shortened so the suffix fits: the first name not taken. */
export function uniqueSheetName(wanted: string, existing: readonly string[]): string {
  const base = sanitiseSheetName(wanted);
  const taken = new Set(existing.map((n) => n.toLowerCase()));
  if (!taken.has(base.toLowerCase())) return base;
  for (let i = 2; ; i += 1) {
    const suffix = ` (${i})`;
    const stem = stripApostrophes(base.slice(0, MAX_SHEET_NAME - suffix.length));
    const candidate = `${stem}${suffix}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

// --- Formats -----------------------------------------------------------------------------------------
// A FormatRule applied to the range it covers: fonts, alignment and number formats in one place.

// String values of Excel.HorizontalAlignment: the enum object exists only inside Office.
const ALIGN: Record<NonNullable<CellFormat["align"]>, "Left" | "Right" | "Center"> = {
  left: "Left",
  right: "Right",
  center: "Center",
};

function applyFormat(range: Excel.Range, area: Area, format: CellFormat): void {
  if (format.bold !== undefined) range.format.font.bold = format.bold;
  if (format.italic !== undefined) range.format.font.italic = format.italic;
  if (format.size !== undefined) range.format.font.size = format.size;
  if (format.align !== undefined) range.format.horizontalAlignment = ALIGN[format.align];
  if (format.numberFormat !== undefined) {
    // Range.numberFormat takes one entry per cell.
    range.numberFormat = Array.from({ length: area.rows }, () =>
      Array<string>(area.columns).fill(format.numberFormat as string)
    );
  }
}

/** The cells of `area`, counted from `origin` (the block's top-left cell). */
function areaRange(origin: Excel.Range, area: Area): Excel.Range {
  return origin.getCell(area.row, area.column).getResizedRange(area.rows - 1, area.columns - 1);
}

// --- A block at the active cell ----------------------------------------------------------------------
// The block must land on empty cells: writing over a user's figures, or into another formula's spill, is
// refused with the address so they can move.

function filledCells(formulas: readonly (readonly unknown[])[]): number {
  return formulas.reduce((n, row) => n + row.filter((f) => f !== "" && f !== null).length, 0);
}

export function insertGrid(run: ExcelRun, plan: GridPlan): Promise<InsertResult> {
  const rows = plan.cells.length;
  const columns = plan.cells.reduce((n, r) => Math.max(n, r.length), 0);
  if (rows === 0 || columns === 0)
    return Promise.reject(new WorkbookError(`The ${plan.title} is empty.`));
  return run(async (context) => {
    const target = context.workbook.getActiveCell().getResizedRange(rows - 1, columns - 1);
    target.load(["address", "formulas"]);
    await context.sync();
    const taken = filledCells(target.formulas);
    if (taken > 0) {
      throw new WorkbookError(
        `${target.address} is not empty (${taken} cell${taken === 1 ? "" : "s"} in use): select an empty area for the ${plan.title} and insert again.`
      );
    }
    target.formulasR1C1 = plan.cells.map((row) =>
      Array.from({ length: columns }, (_, c) => formulasEntry(row[c] ?? null))
    );
    for (const rule of plan.formats)
      applyFormat(areaRange(target, rule.area), rule.area, rule.format);
    target.format.autofitColumns();
    await context.sync();
    return { address: target.address };
  });
}

// --- A new worksheet ---------------------------------------------------------------------------------
// Adding a worksheet from a SheetPlan (the statement): a valid, unique name after the project, the blocks
// written, formats applied, columns sized, the header frozen, and the sheet shown.

export function createSheet(run: ExcelRun, plan: SheetPlan): Promise<{ sheetName: string }> {
  return run(async (context) => {
    const sheets = context.workbook.worksheets;
    sheets.load("items/name");
    await context.sync();
    const sheetName = uniqueSheetName(
      plan.name,
      sheets.items.map((s) => s.name)
    );
    const sheet = sheets.add(sheetName);
    for (const block of plan.blocks) {
      const columns = block.cells.reduce((n, r) => Math.max(n, r.length), 1);
      const range = sheet.getRangeByIndexes(block.at[0], block.at[1], block.cells.length, columns);
      range.formulas = block.cells.map((row) =>
        Array.from({ length: columns }, (_, c) => formulasEntry(row[c] ?? null))
      );
    }
    for (const rule of plan.formats) {
      const { row, column, rows, columns } = rule.area;
      if (rows < 1 || columns < 1) continue;
      applyFormat(sheet.getRangeByIndexes(row, column, rows, columns), rule.area, rule.format);
    }
    for (const [column, width] of Object.entries(plan.columnWidths)) {
      sheet.getRangeByIndexes(0, Number(column), 1, 1).format.columnWidth = width;
    }
    const { rows, columns } = plan.freeze;
    if (rows > 0 && columns > 0)
      sheet.freezePanes.freezeAt(sheet.getRangeByIndexes(0, 0, rows, columns));
    else if (rows > 0) sheet.freezePanes.freezeRows(rows);
    else if (columns > 0) sheet.freezePanes.freezeColumns(columns);
    sheet.activate();
    await context.sync();
    return { sheetName };
  });
}
