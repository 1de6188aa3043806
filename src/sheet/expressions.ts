/**
 * Computing the expressions of a formula: inside its arguments (`TODAY()-365`, `DATE(2024,1,1)+30`,
 * `"period="&"month"`) before the add-in function is called, as Excel computes them before calling a
 * custom function, and around the add-in calls (`=SUM(B2:B92)`, `=CRYPTO.VALUE(…)/1e6`, `=IF(A1>0,…)`). An error anywhere (text where a number is needed, a division by zero, a date outside
 * Excel's range) is the formula's result, as in Excel, where an error argument makes the cell that error.
 */
import {
  EMPTY,
  errorCell,
  plainValueOf,
  toCell,
  type Cell,
  type ErrorCell,
  type Grid,
} from "./cells";
import {
  EXCEL_FUNCTIONS,
  numberFrom,
  textFrom,
  type ExcelFunctionContext,
  type FormulaValue,
} from "./excel-functions";
import type { Argument, BinaryOperator, ComparisonOperator, Expression, Scalar } from "./formula";
import { ERROR_CODES } from "./host";
import { formatText, TEXT_FORMATS_TAKEN } from "./number-format";
import { plainFunction, type PlainArgument } from "./plain-functions";
import { specialFunction } from "./special-functions";

/**
 * An argument once computed: what the parser calls a constant, or the cells a nested call, a reference or
 * a field gave when the argument is that alone (a card, a table: passed on as they are).
 */
export type ConstantArgument =
  Exclude<Argument, { kind: "expression" }> | { kind: "cells"; grid: Grid };

/** The clock a recalculation reads once, for every TODAY() and NOW() in it. */
export type SheetClock = () => ExcelFunctionContext;

export const systemClock: SheetClock = () => {
  const now = Date.now();
  return { now, utcOffsetMinutes: -new Date(now).getTimezoneOffset() };
};

function isError(value: FormulaValue): value is ErrorCell {
  return typeof value === "object";
}

function shown(value: number | string | boolean): string {
  return typeof value === "string" ? JSON.stringify(value) : textFrom(value);
}

function needNumber(value: number | string | boolean, where: string): number | ErrorCell {
  return (
    numberFrom(value) ??
    errorCell(ERROR_CODES.invalidValue, `${where} needs a number or a date, got ${shown(value)}`)
  );
}

function finite(value: number, where: string): number | ErrorCell {
  if (!Number.isFinite(value))
    return errorCell(ERROR_CODES.invalidNumber, `${where} gives a number too large`);
  return value === 0 ? 0 : value;
}

function arithmetic(
  op: "+" | "-" | "*" | "/" | "^",
  left: number,
  right: number
): number | ErrorCell {
  switch (op) {
    case "+":
      return finite(left + right, "'+'");
    case "-":
      return finite(left - right, "'-'");
    case "*":
      return finite(left * right, "'*'");
    case "/":
      return right === 0
        ? errorCell(ERROR_CODES.divisionByZero, "division by zero")
        : finite(left / right, "'/'");
    case "^":
      if (left === 0 && right < 0)
        return errorCell(ERROR_CODES.divisionByZero, "0 to a negative power");
      if (left < 0 && !Number.isInteger(right))
        return errorCell(ERROR_CODES.invalidNumber, "'^': a negative number to a fractional power");
      return finite(left ** right, "'^'");
  }
}

/** One cell inside an expression: a card or several cells fit no operator. */
function valueOfCells(grid: Grid): FormulaValue {
  if (grid.length !== 1 || grid[0].length !== 1) {
    return errorCell(
      ERROR_CODES.invalidValue,
      "a table inside an expression: only one value fits there (read one cell or field of it)"
    );
  }
  return valueOfCell(grid[0][0]);
}

function valueOfCell(cell: Cell): FormulaValue {
  switch (cell.kind) {
    // An empty cell reads as "" here: text joins as Excel's would; arithmetic reads it as 0 (cellNumber).
    case "empty":
      return "";
    case "error":
      return cell;
    case "entity":
      return errorCell(
        ERROR_CODES.invalidValue,
        `the card "${cell.text}" is not a number or text here: read one of its fields (=A1.Symbol or FIELDVALUE)`
      );
    default:
      return plainValueOf(cell);
  }
}

/** A computed value as a cell (an error stays itself). */
function cellOf(value: FormulaValue): Cell {
  return isError(value) ? value : toCell(value);
}

/** A cell as a number for an operator or a numeric argument: an empty cell is 0, as in Excel. */
function cellNumber(cell: Cell, where: string): number | ErrorCell {
  if (cell.kind === "empty") return 0;
  const value = valueOfCell(cell);
  return isError(value) ? value : needNumber(value, where);
}

/** Excel's order for comparisons: numbers, then text (case-insensitive), then TRUE/FALSE. */
function compare(left: Cell, right: Cell): number | ErrorCell {
  const rank = (value: number | string | boolean): number =>
    typeof value === "number" ? 0 : typeof value === "string" ? 1 : 2;
  const read = (cell: Cell, other: Cell): FormulaValue => {
    // An empty cell is 0 beside a number, "" beside text, FALSE beside a logical value.
    if (cell.kind !== "empty") return valueOfCell(cell);
    const o = other.kind === "empty" ? 0 : valueOfCell(other);
    return typeof o === "string" ? "" : typeof o === "boolean" ? false : 0;
  };
  const a = read(left, right);
  if (isError(a)) return a;
  const b = read(right, left);
  if (isError(b)) return b;
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (typeof a === "string" && typeof b === "string") {
    const x = a.toLowerCase();
    const y = b.toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  }
  const x = Number(a);
  const y = Number(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function comparison(op: ComparisonOperator, order: number): boolean {
  switch (op) {
    case "=":
      return order === 0;
    case "<>":
      return order !== 0;
    case "<":
      return order < 0;
    case ">":
      return order > 0;
    case "<=":
      return order <= 0;
    case ">=":
      return order >= 0;
  }
}

function binaryCell(op: BinaryOperator, left: Cell, right: Cell): Cell {
  if (left.kind === "error") return left;
  if (right.kind === "error") return right;
  if (op === "&") {
    const a = valueOfCell(left);
    if (isError(a)) return a;
    const b = valueOfCell(right);
    if (isError(b)) return b;
    return { kind: "string", value: textFrom(a) + textFrom(b) };
  }
  if (op === "+" || op === "-" || op === "*" || op === "/" || op === "^") {
    const where = `'${op}'`;
    const a = cellNumber(left, where);
    if (isError(a)) return a;
    const b = cellNumber(right, where);
    if (isError(b)) return b;
    return cellOf(arithmetic(op, a, b));
  }
  const order = compare(left, right);
  return isError(order) ? order : { kind: "boolean", value: comparison(op, order) };
}

/**
 * Excel's broadcasting of arrays in an operator or a function of cells: the result is as tall as the tallest
 * operand and as wide as the widest; a single row or column repeats; past a smaller operand's edge is #N/A.
 */
function broadcast(grids: readonly Grid[], fn: (cells: Cell[]) => Cell): Grid {
  if (grids.every((g) => g.length === 1 && g[0].length === 1))
    return [[fn(grids.map((g) => g[0][0]))]];
  const height = grids.reduce((n, g) => Math.max(n, g.length), 0);
  const width = grids.reduce((n, g) => Math.max(n, g[0]?.length ?? 0), 0);
  const outside = errorCell(ERROR_CODES.notAvailable, "arrays of different sizes");
  const at = (g: Grid, r: number, c: number): Cell | undefined => {
    const row = g.length === 1 ? g[0] : g[r];
    if (row === undefined) return undefined;
    return row.length === 1 ? row[0] : row[c];
  };
  const out: Grid = [];
  for (let r = 0; r < height; r += 1) {
    const row: Cell[] = [];
    for (let c = 0; c < width; c += 1) {
      const cells = grids.map((g) => at(g, r, c));
      row.push(cells.every((x): x is Cell => x !== undefined) ? fn(cells) : outside);
    }
    out.push(row);
  }
  return out;
}

/** Whether a cell is TRUE for IF: a number other than 0, TRUE, "TRUE"; text that is neither is #VALUE!. */
function truth(cell: Cell): boolean | ErrorCell {
  switch (cell.kind) {
    case "error":
      return cell;
    case "empty":
      return false;
    case "boolean":
      return cell.value;
    case "number":
      return cell.value !== 0;
    case "date":
      return cell.serial !== 0;
    case "string": {
      const upper = cell.value.trim().toUpperCase();
      if (upper === "TRUE" || upper === "FALSE") return upper === "TRUE";
      return errorCell(
        ERROR_CODES.invalidValue,
        `IF needs TRUE or FALSE, got ${JSON.stringify(cell.value)}`
      );
    }
    case "entity":
      return errorCell(
        ERROR_CODES.invalidValue,
        `IF needs TRUE or FALSE, got the card "${cell.text}"`
      );
  }
}

function textOf(value: Cell, format: Cell): Cell {
  if (value.kind === "error") return value;
  if (format.kind === "error") return format;
  const pattern = valueOfCell(format);
  if (isError(pattern)) return pattern;
  const shown = valueOfCell(value);
  if (isError(shown)) return shown;
  const n = value.kind === "empty" ? 0 : numberFrom(shown);
  // Text that is no number is shown as it is, as Excel's TEXT does.
  if (n === undefined) return { kind: "string", value: textFrom(shown) };
  const text = formatText(n, textFrom(pattern));
  return text === undefined
    ? errorCell(
        ERROR_CODES.invalidValue,
        `TEXT: the format ${JSON.stringify(textFrom(pattern))} is not one this sheet shows; it takes ${TEXT_FORMATS_TAKEN} and others like them`
      )
    : { kind: "string", value: text };
}

/** IF, IFERROR and TEXT (special-functions.ts), over single values or cell by cell over spills. */
function specialGrid(name: string, args: readonly Expression[], ctx: ExcelFunctionContext): Grid {
  if (name === "IFERROR") {
    const value = evaluateGrid(args[0], ctx);
    const fallback = evaluateGrid(args[1], ctx);
    if (value.length === 1 && value[0].length === 1 && value[0][0].kind === "error")
      return fallback;
    return broadcast([value, fallback], ([v, f]) => (v.kind === "error" ? f : v));
  }
  if (name === "TEXT")
    return broadcast([evaluateGrid(args[0], ctx), evaluateGrid(args[1], ctx)], ([v, f]) =>
      textOf(v, f)
    );
  // IF
  const condition = evaluateGrid(args[0], ctx);
  const yes = (): Grid => evaluateGrid(args[1], ctx);
  const no = (): Grid =>
    args.length > 2 ? evaluateGrid(args[2], ctx) : [[{ kind: "boolean", value: false }]];
  if (condition.length === 1 && condition[0].length === 1) {
    const t = truth(condition[0][0]);
    return typeof t === "boolean" ? (t ? yes() : no()) : [[t]];
  }
  return broadcast([condition, yes(), no()], ([c, y, n]) => {
    const t = truth(c);
    return typeof t === "boolean" ? (t ? y : n) : t;
  });
}

/** An Excel function of numbers (DATE, ROUND…), computed cell by cell when an argument is a spill. */
function excelGrid(name: string, args: readonly Expression[], ctx: ExcelFunctionContext): Grid {
  const fn = EXCEL_FUNCTIONS[name];
  const grids = args.map((arg) => evaluateGrid(arg, ctx));
  if (grids.length === 0) return [[cellOf(fn.compute([], ctx, name))]];
  return broadcast(grids, (cells) => {
    const numbers: number[] = [];
    for (const [i, cell] of cells.entries()) {
      const n = cellNumber(cell, `${name}'s ${fn.parameters[i]}`);
      if (isError(n)) return n;
      numbers.push(n);
    }
    return cellOf(fn.compute(numbers, ctx, name));
  });
}

export function evaluateExpression(
  expression: Expression,
  ctx: ExcelFunctionContext
): FormulaValue {
  switch (expression.kind) {
    case "string":
    case "number":
    case "boolean":
      return expression.value;
    default:
      return valueOfCells(evaluateGrid(expression, ctx));
  }
}

function arrayGrid(rows: readonly Scalar[][]): Grid {
  return rows.map((row) => row.map((scalar) => toCell(scalar.value)));
}

/** An argument of a plain function: a range stays cells; a value written as the argument is that value. */
function plainArgument(expression: Expression, ctx: ExcelFunctionContext): PlainArgument {
  switch (expression.kind) {
    case "blank":
      return { kind: "value", cell: EMPTY };
    case "resolved":
      return { kind: "range", grid: expression.grid };
    case "array":
      return { kind: "range", grid: arrayGrid(expression.rows) };
    case "call":
      if (plainFunction(expression.name))
        return { kind: "range", grid: evaluateGrid(expression, ctx) };
      break;
    default:
      break;
  }
  const grid = evaluateGrid(expression, ctx);
  return grid.length === 1 && grid[0].length === 1
    ? { kind: "value", cell: grid[0][0] }
    : { kind: "range", grid };
}

/**
 * An expression as the cells it gives: a plain function's table (`INDEX(CRYPTO.METRIC(…),0,2)`), a
 * nested result or an array as they are, an operator or a function over a spill cell by cell, anything
 * else as its one value. Nested calls, references and fields must have been resolved first (nested.ts).
 */
export function evaluateGrid(expression: Expression, ctx: ExcelFunctionContext): Grid {
  switch (expression.kind) {
    case "resolved":
      return expression.grid;
    case "array":
      return arrayGrid(expression.rows);
    case "group":
      return evaluateGrid(expression.inner, ctx);
    case "blank":
      return [[EMPTY]];
    case "string":
    case "number":
    case "boolean":
      return [[toCell(expression.value)]];
    case "unknown":
      return [[errorCell(ERROR_CODES.invalidName, `unknown function ${expression.name}`)]];
    // The recalculation resolves these before computing (nested.ts); reaching here is a caller's slip.
    case "crypto":
    case "field":
    case "reference":
    case "range":
    case "spill":
      return [[errorCell(ERROR_CODES.invalidValue, "a nested value was not computed before use")]];
    case "unary": {
      const op = expression.op;
      return broadcast([evaluateGrid(expression.operand, ctx)], ([cell]) => {
        const n = cellNumber(cell, `'${op}'`);
        if (isError(n)) return n;
        return cellOf(op === "-" ? finite(-n, "'-'") : n);
      });
    }
    case "binary": {
      const op = expression.op;
      return broadcast(
        [evaluateGrid(expression.left, ctx), evaluateGrid(expression.right, ctx)],
        ([a, b]) => binaryCell(op, a, b)
      );
    }
    case "call": {
      const plain = plainFunction(expression.name);
      if (plain)
        return plain.compute(
          expression.args.map((arg) => plainArgument(arg, ctx)),
          expression.name
        );
      if (specialFunction(expression.name))
        return specialGrid(expression.name, expression.args, ctx);
      return excelGrid(expression.name, expression.args, ctx);
    }
  }
}

function asScalar(value: number | string | boolean): Scalar {
  if (typeof value === "number") return { kind: "number", value };
  if (typeof value === "string") return { kind: "string", value };
  return { kind: "boolean", value };
}

/** One cell of a plain function's result as an argument: its value (an empty cell is an omitted one). */
function scalarOf(cell: Cell): ConstantArgument {
  const value = valueOfCell(cell);
  if (cell.kind === "empty") return { kind: "omitted" };
  return typeof value === "object" ? { kind: "cells", grid: [[cell]] } : asScalar(value);
}

/**
 * Every argument as a constant, expressions computed with the recalculation's clock; or the first error an
 * expression gave (left to right, as Excel reports it), which is then the formula's result.
 */
export function computeArguments(
  args: readonly Argument[],
  ctx: ExcelFunctionContext
): { ok: true; args: ConstantArgument[] } | { ok: false; error: ErrorCell } {
  const out: ConstantArgument[] = [];
  for (const arg of args) {
    if (arg.kind !== "expression") {
      out.push(arg);
      continue;
    }
    if (arg.expression.kind === "resolved") {
      // An error among the cells is the formula's result, as Excel never calls a function with one.
      const error = arg.expression.grid
        .flat()
        .find((cell): cell is ErrorCell => cell.kind === "error");
      if (error) return { ok: false, error };
      out.push({ kind: "cells", grid: arg.expression.grid });
      continue;
    }
    if (arg.expression.kind === "call" && plainFunction(arg.expression.name)) {
      // A plain function as the whole argument (`INDEX(CRYPTO.PROJECTS(),0,1)`): its table, as a range.
      const grid = evaluateGrid(arg.expression, ctx);
      const error = grid.flat().find((cell): cell is ErrorCell => cell.kind === "error");
      if (error) return { ok: false, error };
      out.push(
        grid.length === 1 && grid[0].length === 1 && grid[0][0].kind !== "entity"
          ? scalarOf(grid[0][0])
          : { kind: "cells", grid }
      );
      continue;
    }
    // Anything else: one value (`TODAY()-365`), or a table computed cell by cell (`IF(…,A1#,…)`, `A1:A3&""`).
    const grid = evaluateGrid(arg.expression, ctx);
    const error = grid.flat().find((cell): cell is ErrorCell => cell.kind === "error");
    if (error) return { ok: false, error };
    if (grid.length === 1 && grid[0].length === 1 && grid[0][0].kind !== "entity") {
      const value = valueOfCell(grid[0][0]);
      if (isError(value)) return { ok: false, error: value };
      out.push(asScalar(value));
    } else out.push({ kind: "cells", grid });
  }
  return { ok: true, args: out };
}
