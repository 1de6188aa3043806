/** The WorkbookPort inside Excel: each request done by its own small Excel.run module. */
import type { WorkbookPort } from "./port";
import { freezeToValues } from "./freeze";
import { insertFormula } from "./insert-formula";
import { recalculate } from "./refresh";
import { officeExcelRun, officeSupports, type ExcelRun, type Supports } from "./run";
import {
  activeCellAddress,
  officeSelectionEvents,
  onSelectionChanged,
  type SelectionEvents,
} from "./selection";
import { createSheet } from "./statement-sheet";
import { insertGrid } from "./write-grid";

export interface OfficeWorkbookDeps {
  run: ExcelRun;
  supports: Supports;
  selectionEvents: SelectionEvents;
}

export function officeWorkbook(
  deps: OfficeWorkbookDeps = {
    run: officeExcelRun,
    supports: officeSupports,
    selectionEvents: officeSelectionEvents,
  }
): WorkbookPort {
  return {
    kind: "excel",
    insertFormula: (formula) => insertFormula(deps.run, formula),
    insertGrid: (plan) => insertGrid(deps.run, plan),
    createSheet: (plan) => createSheet(deps.run, plan),
    recalculate: (scope) => recalculate(deps.run, scope),
    freezeToValues: (scope, note) => freezeToValues(deps, scope, note),
    activeCellAddress: () => activeCellAddress(deps.run),
    onSelectionChanged: (listener) => onSelectionChanged(deps.selectionEvents, listener),
  };
}
