/**
 * A test double of the workbook: it records what the taskpane asked for, so the tests can check it, and
 * answers like a small, empty workbook. Unit tests construct it; the browser tests inject it into the page
 * before the page's own scripts run (test/e2e/support/recording-entry.ts, as window.__recordingWorkbook),
 * which the taskpane takes as its workbook outside Excel. It is in no production bundle.
 */
import { uniqueSheetName } from "../../src/excel/sheets";
import {
  type FreezeResult,
  type FreezeScope,
  type GridPlan,
  type InsertResult,
  type RefreshScope,
  type SheetPlan,
  type WorkbookPort,
} from "../../src/excel/port";

export type RecordedCall =
  | { op: "insertFormula"; address: string; formula: string }
  | { op: "insertGrid"; address: string; plan: GridPlan }
  | { op: "createSheet"; sheetName: string; plan: SheetPlan }
  | { op: "recalculate"; scope: RefreshScope }
  | { op: "freezeToValues"; scope: FreezeScope; note: string };

function columnName(index: number): string {
  let n = index + 1;
  let name = "";
  while (n > 0) {
    const rem = (n - 1) % 26;
    name = String.fromCharCode(65 + rem) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

/** "Sheet1!B2" + (rows, columns) → "Sheet1!B2:E7". */
export function extend(address: string, rows: number, columns: number): string {
  const match = /^(.*!)?([A-Z]+)(\d+)$/.exec(address);
  if (!match || (rows <= 1 && columns <= 1)) return address;
  const [, sheet = "", col, row] = match;
  const colIndex = [...col].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
  return `${sheet}${col}${row}:${columnName(colIndex + columns - 1)}${Number(row) + rows - 1}`;
}

export class RecordingWorkbook implements WorkbookPort {
  readonly kind = "recording";
  readonly calls: RecordedCall[] = [];
  readonly sheets: string[] = ["Sheet1"];
  activeCell = "Sheet1!A1";
  /** What freezeToValues reports (the recording holds no formulas of its own). */
  freezeAnswer: FreezeResult = { ranges: [], formulas: 0 };
  private readonly selectionListeners = new Set<() => void>();

  async insertFormula(formula: string): Promise<InsertResult> {
    this.calls.push({ op: "insertFormula", address: this.activeCell, formula });
    return { address: this.activeCell };
  }

  async insertGrid(plan: GridPlan): Promise<InsertResult> {
    const address = extend(this.activeCell, plan.cells.length, plan.cells[0]?.length ?? 0);
    this.calls.push({ op: "insertGrid", address, plan });
    return { address };
  }

  async createSheet(plan: SheetPlan): Promise<{ sheetName: string }> {
    const sheetName = uniqueSheetName(plan.name, this.sheets);
    this.sheets.push(sheetName);
    this.calls.push({ op: "createSheet", sheetName, plan });
    return { sheetName };
  }

  async recalculate(scope: RefreshScope): Promise<void> {
    this.calls.push({ op: "recalculate", scope });
  }

  async freezeToValues(scope: FreezeScope, note: string): Promise<FreezeResult> {
    this.calls.push({ op: "freezeToValues", scope, note });
    return this.freezeAnswer;
  }

  async activeCellAddress(): Promise<string> {
    return this.activeCell;
  }

  onSelectionChanged(listener: () => void): () => void {
    this.selectionListeners.add(listener);
    return () => this.selectionListeners.delete(listener);
  }

  /** For tests: move the active cell as a user would, telling listeners. */
  select(address: string): void {
    this.activeCell = address;
    for (const l of [...this.selectionListeners]) l();
  }
}

declare global {
  interface Window {
    /** The browser tests' handle on the recording workbook they injected (recording-entry.ts). */
    __recordingWorkbook?: RecordingWorkbook;
  }
}
