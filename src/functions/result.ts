/**
 * What function implementations return before the Excel edge turns it into Excel values: plain cells, dates
 * as day numbers (shown as real Excel dates) and error cells with a reason (#N/A or #VALUE! inside a table).
 */
export type ErrorCode = "value" | "na";

export interface ErrorCell {
  readonly error: ErrorCode;
  readonly message: string;
}

export interface DateCell {
  /** Days since 1970-01-01 (see client/data/days.ts). */
  readonly date: number;
}

/** A ratio shown as a percentage where the host formats numbers (0.15 shows as 15.0 %); a plain number elsewhere. */
export interface PercentCell {
  readonly percent: number;
}

/** A data type: an entity value (a project card) the cell holds as a whole. */
export interface EntityCell {
  readonly entity: Excel.EntityCellValue;
}

export type Cell =
  number | string | boolean | null | DateCell | ErrorCell | EntityCell | PercentCell;
export type Table = Cell[][];

/** A whole-result error raised by an implementation: a bad argument (#VALUE!) or nothing to show (#N/A). */
/**
 * Thrown for an expected outcome (#N/A for a day without data is common: a sheet of thousands of cells may
 * hold hundreds), caught by the edge, which keeps only the code and the message. So no stack trace is
 * captured: capturing one (with its async frames) cost more than the rest of a cached cell.
 */
export class FunctionError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string) {
    const limit = Error.stackTraceLimit;
    if (typeof limit === "number") Error.stackTraceLimit = 0;
    super(message);
    if (typeof limit === "number") Error.stackTraceLimit = limit;
    this.code = code;
    this.name = "FunctionError";
  }
}

export function invalid(message: string): FunctionError {
  return new FunctionError("value", message);
}

export function notAvailable(message: string): FunctionError {
  return new FunctionError("na", message);
}

export function isErrorCell(cell: Cell): cell is ErrorCell {
  return typeof cell === "object" && cell !== null && "error" in cell;
}

export function isDateCell(cell: Cell): cell is DateCell {
  return typeof cell === "object" && cell !== null && "date" in cell;
}

export function isPercentCell(cell: Cell): cell is PercentCell {
  return typeof cell === "object" && cell !== null && "percent" in cell;
}

export function isEntityCell(cell: Cell): cell is EntityCell {
  return typeof cell === "object" && cell !== null && "entity" in cell;
}

/** Pads rows with empty cells so the table is rectangular (Excel spills rectangles only). */
export function rectangular(rows: Table): Table {
  // Folded, never spread into Math.max: a table may have more rows than a call takes arguments.
  const width = rows.reduce((w, r) => Math.max(w, r.length), 1);
  return rows.map((r) =>
    r.length === width ? r : [...r, ...Array<Cell>(width - r.length).fill(null)]
  );
}
