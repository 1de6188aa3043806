/**
 * Recalculation, the Excel half of Refresh: the engine's cache is marked stale first (by the caller), then
 * Excel re-runs the formulas. Non-volatile custom functions are not recalculated by an ordinary recalc, so
 * "all" asks for a full one; "selection" recalculates the selected range.
 */
import type { RefreshScope } from "./port";
import type { ExcelRun } from "./run";

export function recalculate(run: ExcelRun, scope: RefreshScope): Promise<void> {
  return run(async (context) => {
    if (scope === "all") context.workbook.application.calculate("Full");
    else context.workbook.getSelectedRange().calculate();
    await context.sync();
  });
}
