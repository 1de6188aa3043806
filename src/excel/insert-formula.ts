/** Writing one formula into the active cell (what the insert buttons and the builder's Insert do). */
import type { InsertResult } from "./port";
import type { ExcelRun } from "./run";

export function insertFormula(run: ExcelRun, formula: string): Promise<InsertResult> {
  return run(async (context) => {
    const cell = context.workbook.getActiveCell();
    cell.formulas = [[formula]];
    cell.load("address");
    await context.sync();
    return { address: cell.address };
  });
}
