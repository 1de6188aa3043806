/**
 * What the taskpane asks of a workbook, as one small interface. In Excel the Office implementation
 * (office-workbook.ts) does it with Excel.run; in a plain browser (the browser tests, a demo) a
 * recording implementation keeps the requests so they can be inspected. UI code never calls Excel itself.
 */
import { inertText } from "../sheet/safe-text";

/**
 * A cell's content: a formula the add-in wrote, or a constant. Strings are always text, never formulas:
 * a name from the service that starts with "=" stays text (see formulasEntry).
 */
export type CellInput = string | number | boolean | null | { formula: string };

export interface CellFormat {
  bold?: boolean;
  /** Font size in points. */
  size?: number;
  italic?: boolean;
  numberFormat?: string;
  /** Horizontal alignment. */
  align?: "left" | "right" | "center";
}

/** A rectangle relative to a block's top-left cell (0-based). */
export interface Area {
  row: number;
  column: number;
  rows: number;
  columns: number;
}

export interface FormatRule {
  area: Area;
  format: CellFormat;
}

/**
 * A block of cells written at the active cell. Formulas are in R1C1 notation so that a formula can point at
 * the block's own header cells wherever the block lands (e.g. `=CRYPTO.VALUE(RC[-2],R[-1]C)`).
 */
export interface GridPlan {
  /** What the block is, for messages ("comparison grid"). */
  title: string;
  /** Rows of cells; formulas in R1C1 notation. All rows have the same length. */
  cells: CellInput[][];
  formats: FormatRule[];
}

/** A new worksheet: cells in A1 notation (the sheet starts empty), formats, frozen panes. */
export interface SheetPlan {
  /** Wanted name, before Excel's rules and uniqueness are applied. */
  name: string;
  /** Writes, each a block at a top-left cell: `at` is 0-based [row, column]. */
  blocks: { at: [number, number]; cells: CellInput[][] }[];
  formats: FormatRule[];
  /** Rows and columns frozen at the top-left. */
  freeze: { rows: number; columns: number };
  /** Column widths in points, by 0-based column; others keep Excel's default. */
  columnWidths: Record<number, number>;
}

export interface InsertResult {
  /** Where it went, e.g. "Sheet1!B2" or "Sheet1!B2:E7". */
  address: string;
}

export interface FreezeResult {
  /** The frozen ranges (a CRYPTO formula's whole spill counts as one). */
  ranges: string[];
  /** Formulas replaced by their values. */
  formulas: number;
  /** Where the "as of" note went, if anywhere. */
  noteAddress?: string;
  /** Why no note could be added, when none was. */
  noteProblem?: string;
  /** The sheet the frozen ranges' lineage was written to (lineage-sheet.ts), when it was. */
  lineageSheet?: string;
  /** Why no lineage could be written, when none was (the values are frozen all the same). */
  lineageProblem?: string;
}

/** A range Freeze replaced by its values: where, the cell its formula was in, and the formula. */
export interface FrozenRange {
  range: string;
  anchor: string;
  formula: string;
}

export type RefreshScope = "all" | "selection";
export type FreezeScope = "selection" | "sheet";

export interface WorkbookPort {
  /** "excel" inside Excel; "recording" in a plain browser test; "none" when there is no workbook. */
  readonly kind: "excel" | "recording" | "none";
  /** Writes one formula into the active cell. */
  insertFormula(formula: string): Promise<InsertResult>;
  /** Writes a block at the active cell; refuses to overwrite cells that are not empty. */
  insertGrid(plan: GridPlan): Promise<InsertResult>;
  /** Adds a worksheet (name made valid and unique), fills and formats it, and activates it. */
  createSheet(plan: SheetPlan): Promise<{ sheetName: string }>;
  /** Full recalculation of the workbook, or recalculation of the selected range. */
  recalculate(scope: RefreshScope): Promise<void>;
  /** Replaces the CRYPTO formulas of the selection (or sheet) by their values; keeps other formulas. */
  freezeToValues(scope: FreezeScope, note: string): Promise<FreezeResult>;
  /** Address of the active cell, e.g. "Sheet1!B2". */
  activeCellAddress(): Promise<string | undefined>;
  /** Calls `listener` when the user selects other cells; returns the function that stops it. */
  onSelectionChanged(listener: () => void): () => void;
}

/** Raised for something the workbook cannot do (e.g. the target range is not empty). */
export class WorkbookError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "WorkbookError";
  }
}

/**
 * How a constant is written through Range.formulas: text that Excel would read as a formula or a number
 * ("=...", "+...", "-...", "@...") gets the apostrophe prefix that keeps it text.
 */
export function formulasEntry(cell: CellInput): string | number | boolean {
  if (cell === null) return "";
  if (typeof cell === "object") return cell.formula;
  if (typeof cell === "string") return inertText(cell);
  return cell;
}

/** "CRYPTO." formulas, whatever the case and spacing: what freeze-to-values replaces. */
const CRYPTO_FORMULA = /(^|[^A-Za-z0-9_.])CRYPTO\.[A-Za-z_]+\s*\(/i;

export function isCryptoFormula(formula: unknown): boolean {
  return typeof formula === "string" && formula.startsWith("=") && CRYPTO_FORMULA.test(formula);
}

/** Outside Excel: every workbook request says where it works. */
export function noWorkbook(): WorkbookPort {
  const refuse = (): Promise<never> =>
    Promise.reject(
      new WorkbookError(
        "This needs Excel: open Cryptometrics from Excel's Data tab to write into a workbook."
      )
    );
  return {
    kind: "none",
    insertFormula: refuse,
    insertGrid: refuse,
    createSheet: refuse,
    recalculate: async () => undefined,
    freezeToValues: refuse,
    activeCellAddress: async () => undefined,
    onSelectionChanged: () => () => undefined,
  };
}
