/**
 * The WorkbookPort inside Excel: the composition that builds it from the modules here (sheets.ts writes
 * blocks and sheets, freeze.ts freezes to values, refresh.ts recalculates), plus the small requests that
 * belong to no larger group: writing one formula into the active cell, the active cell's address, and
 * word of selection changes. What Office provides (Excel.run, requirement sets, selection events) comes
 * injected from office-host.ts.
 */
import type { InsertResult, WorkbookPort } from "./port";
import { freezeToValues } from "./freeze";
import { recalculate } from "./refresh";
import {
  officeExcelRun,
  officeSelectionEvents,
  officeSupports,
  type ExcelRun,
  type SelectionEvents,
  type Supports,
} from "./office-host";
import { createSheet, insertGrid } from "./sheets";
import { officeLineage } from "./freeze-lineage";
import { readyRuntime } from "../runtime/runtime";
import type { FreezeDeps } from "./freeze";

/** Writing one formula into the active cell (what the insert buttons and the builder's Insert do). */
export function insertFormula(run: ExcelRun, formula: string): Promise<InsertResult> {
  return run(async (context) => {
    const cell = context.workbook.getActiveCell();
    cell.formulas = [[formula]];
    cell.load("address");
    await context.sync();
    return { address: cell.address };
  });
}

/** The active cell, for the diagnostics panel. */
export function activeCellAddress(run: ExcelRun): Promise<string> {
  return run(async (context) => {
    const cell = context.workbook.getActiveCell();
    cell.load("address");
    await context.sync();
    return cell.address;
  });
}

export function onSelectionChanged(events: SelectionEvents, listener: () => void): () => void {
  const handler = (): void => listener();
  events.add(handler);
  return () => events.remove(handler);
}

interface OfficeWorkbookDeps {
  run: ExcelRun;
  supports: Supports;
  selectionEvents: SelectionEvents;
  /** Freeze's lineage (freeze-lineage.ts): the shared runtime's, unless given. */
  lineage?: FreezeDeps["lineage"];
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
    freezeToValues: (scope, note) =>
      freezeToValues(
        { ...deps, lineage: deps.lineage ?? officeLineage(readyRuntime) },
        scope,
        note
      ),
    activeCellAddress: () => activeCellAddress(deps.run),
    onSelectionChanged: (listener) => onSelectionChanged(deps.selectionEvents, listener),
  };
}
