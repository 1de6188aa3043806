/**
 * What a custom function hands back, read the way Excel reads it, into one small cell model that the
 * output formats share. Values the host would not accept become #VALUE! cells with a message saying why,
 * so a bug in a function shows up in the output instead of crashing the host.
 */
import { entityText, isEntity, validateEntity, type EntityJson } from "./entity";
import { isDateFormat, serialToIsoDate } from "./excel-dates";
import { ERROR_CODES, isErrorCode } from "./host";

export type Cell =
  /** `percent`: a ratio the function formats as a percentage (0.15 shows as 15.0%). */
  | { kind: "number"; value: number; percent?: true }
  | { kind: "string"; value: string }
  | { kind: "boolean"; value: boolean }
  | { kind: "empty" }
  | { kind: "date"; value: string; serial: number }
  | { kind: "error"; code: string; message: string }
  /** A data type (Excel.EntityCellValue): the cell shows its text; fields read with FIELDVALUE or dot access. */
  | { kind: "entity"; text: string; value: EntityJson };

export type ErrorCell = Extract<Cell, { kind: "error" }>;

/** A formula's result: always 2D; a single value is a 1x1 grid. */
export type Grid = Cell[][];

export const EMPTY: Cell = Object.freeze({ kind: "empty" });

/** A number, text, boolean or date: a cell that holds one plain value. */
type PlainCell = Extract<Cell, { kind: "number" | "string" | "boolean" | "date" }>;

/** A plain cell's value as a function or an operator takes it: a date as its serial number, as in Excel. */
export function plainValueOf(cell: PlainCell): number | string | boolean {
  return cell.kind === "date" ? cell.serial : cell.value;
}

export function errorCell(code: string, message = ""): ErrorCell {
  return { kind: "error", code, message };
}

/** Whether a value (a host value or a coerced argument, which may also be a card) is an error cell. */
export function isErrorCell(value: unknown): value is ErrorCell {
  return isRecord(value) && value.kind === "error" && typeof value.code === "string";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// Excel shows a custom message only with these two codes; the others ignore it (see CustomFunctions.ErrorCode).
const CODES_WITH_MESSAGES: ReadonlySet<string> = new Set([
  ERROR_CODES.invalidValue,
  ERROR_CODES.notAvailable,
]);

/** A CustomFunctions.Error from any copy of the runtime (ours, Excel's, a test's): duck-typed on `code`. */
function asHostError(value: unknown): ErrorCell | undefined {
  if (!isRecord(value)) return undefined;
  const { code, message } = value;
  if (!isErrorCode(code)) return undefined;
  const shown = CODES_WITH_MESSAGES.has(code) && typeof message === "string" ? message : "";
  return errorCell(code, shown);
}

function numberCell(value: number): Cell {
  // Excel cannot hold NaN or infinities; it shows #NUM! for them.
  return Number.isFinite(value)
    ? { kind: "number", value: value === 0 ? 0 : value }
    : errorCell(ERROR_CODES.invalidNumber, "not a finite number");
}

function richValueCell(value: Record<string, unknown>): Cell | undefined {
  const { type, basicValue, numberFormat } = value;
  if ((type === "Double" || type === "FormattedNumber") && typeof basicValue === "number") {
    if (typeof numberFormat === "string" && isDateFormat(numberFormat)) {
      const date = serialToIsoDate(basicValue);
      if (date !== undefined) return { kind: "date", value: date, serial: basicValue };
    }
    const cell = numberCell(basicValue);
    return cell.kind === "number" && typeof numberFormat === "string" && numberFormat.includes("%")
      ? { ...cell, percent: true }
      : cell;
  }
  if (type === "String" && typeof basicValue === "string") return toCell(basicValue);
  if (type === "Boolean" && typeof basicValue === "boolean") return toCell(basicValue);
  return undefined;
}

/** An entity as Excel would take it: a valid one is a card cell, an invalid one #VALUE! saying why. */
function entityCell(value: EntityJson): Cell {
  const problems = validateEntity(value);
  if (problems.length > 0)
    return errorCell(ERROR_CODES.invalidValue, `invalid entity value: ${problems[0]}`);
  return { kind: "entity", text: entityText(value), value };
}

/** One cell of a result. */
export function toCell(value: unknown): Cell {
  if (value === null || value === undefined || value === "") return EMPTY;
  switch (typeof value) {
    case "number":
      return numberCell(value);
    case "string":
      return { kind: "string", value };
    case "boolean":
      return { kind: "boolean", value };
  }
  const hostError = asHostError(value);
  if (hostError) return hostError;
  if (isEntity(value)) return entityCell(value);
  const rich = isRecord(value) ? richValueCell(value) : undefined;
  return rich ?? errorCell(ERROR_CODES.invalidValue, `unsupported cell value (${describe(value)})`);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return "a nested array";
  if (isRecord(value) && typeof value.type === "string") return `rich value of type ${value.type}`;
  return typeof value === "object" ? "an object" : typeof value;
}

function malformed(reason: string): Grid {
  return [[errorCell(ERROR_CODES.invalidValue, `function returned ${reason}`)]];
}

/** A whole result: a single value, or a rectangular, non-empty array of rows. */
export function toGrid(value: unknown): Grid {
  if (!Array.isArray(value)) return [[toCell(value)]];
  if (value.length === 0) return malformed("an empty array");
  if (!value.every(Array.isArray)) return malformed("an array that is not 2D (rows of cells)");
  const rows = value as unknown[][];
  const width = rows[0].length;
  if (width === 0) return malformed("an array with empty rows");
  if (rows.some((row) => row.length !== width)) return malformed("rows of different lengths");
  return rows.map((row) => row.map(toCell));
}

/**
 * One element of a lifted call. Excel cannot nest arrays, so an element that is itself an array shows
 * #VALUE!; a 1x1 array is the same as its single value in a grid, so it stands for that value.
 */
export function toLiftedCell(value: unknown): Cell {
  if (!Array.isArray(value)) return toCell(value);
  const grid = toGrid(value);
  if (grid.length === 1 && grid[0].length === 1) return grid[0][0];
  return errorCell(ERROR_CODES.invalidValue, "array result in a lifted call");
}

/**
 * A thrown or rejected value. A CustomFunctions.Error keeps its code and message; anything else is what
 * Excel makes of an unhandled exception, #VALUE!, with a message naming the function (never the exception's
 * own text, which is not meant for the cell).
 */
export function thrownToCell(thrown: unknown, functionLabel: string): ErrorCell {
  return (
    asHostError(thrown) ??
    errorCell(ERROR_CODES.invalidValue, `unhandled error in ${functionLabel}`)
  );
}

/** True when the whole result is one error: the exit code then says the formula failed. */
export function isWholeError(grid: Grid): boolean {
  return grid.length === 1 && grid[0].length === 1 && grid[0][0].kind === "error";
}
