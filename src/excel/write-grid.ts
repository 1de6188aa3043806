/**
 * Writing a block (the comparison grid) at the active cell. The block must land on empty cells: writing over
 * a user's figures, or into another formula's spill, is refused with the address so they can move.
 */
import { formulasEntry, WorkbookError, type GridPlan, type InsertResult } from "./port";
import { applyFormat, areaRange } from "./apply-format";
import type { ExcelRun } from "./run";

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
