/**
 * Adding a worksheet from a SheetPlan (the statement): a valid, unique name after the project, the blocks
 * written, formats applied, columns sized, the header frozen, and the sheet shown.
 */
import { uniqueSheetName } from "./sheet-name";
import { formulasEntry, type SheetPlan } from "./port";
import { applyFormat } from "./apply-format";
import type { ExcelRun } from "./run";

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
