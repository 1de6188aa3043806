/**
 * Computing the expressions inside a formula's arguments (`TODAY()-365`, `DATE(2024,1,1)+30`,
 * `"period="&"month"`) before the add-in function is called, as Excel computes them before calling a
 * custom function. An error anywhere (text where a number is needed, a division by zero, a date outside
 * Excel's range) is the formula's result, as in Excel, where an error argument makes the cell that error.
 */
import { errorCell, toCell, type Cell, type ErrorCell, type Grid } from "./cells";
import {
  EXCEL_FUNCTIONS,
  numberFrom,
  textFrom,
  type ExcelFunctionContext,
  type FormulaValue,
} from "./excel-functions";
import type { Argument, Expression, Scalar } from "./formula";
import { ERROR_CODES } from "./host";
import { plainFunction, type PlainArgument } from "./plain-functions";

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

function arithmetic(op: "+" | "-" | "*" | "/", left: number, right: number): number | ErrorCell {
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

export function valueOfCell(cell: Cell): FormulaValue {
  switch (cell.kind) {
    case "number":
    case "string":
    case "boolean":
      return cell.value;
    case "date":
      return cell.serial;
    // An empty cell reads as "" here: text joins as Excel's would; arithmetic refuses it rather than guess.
    case "empty":
      return "";
    case "error":
      return cell;
    case "entity":
      return errorCell(
        ERROR_CODES.invalidValue,
        `the card "${cell.text}" is not a number or text here: read one of its fields (=A1.Symbol or FIELDVALUE)`
      );
  }
}

export function evaluateExpression(
  expression: Expression,
  ctx: ExcelFunctionContext
): FormulaValue {
  switch (expression.kind) {
    case "resolved":
      return valueOfCells(expression.grid);
    // The recalculation resolves these before computing (nested.ts); reaching here is a caller's slip.
    case "crypto":
    case "field":
    case "reference":
      return errorCell(ERROR_CODES.invalidValue, "a nested value was not computed before use");
    case "string":
    case "number":
    case "boolean":
      return expression.value;
    case "group":
      return evaluateExpression(expression.inner, ctx);
    case "unary": {
      const operand = evaluateExpression(expression.operand, ctx);
      if (isError(operand)) return operand;
      const n = needNumber(operand, `'${expression.op}'`);
      if (isError(n)) return n;
      return expression.op === "-" ? finite(-n, "'-'") : n;
    }
    case "binary": {
      const left = evaluateExpression(expression.left, ctx);
      if (isError(left)) return left;
      const right = evaluateExpression(expression.right, ctx);
      if (isError(right)) return right;
      if (expression.op === "&") return textFrom(left) + textFrom(right);
      const where = `'${expression.op}'`;
      const a = needNumber(left, where);
      if (isError(a)) return a;
      const b = needNumber(right, where);
      if (isError(b)) return b;
      return arithmetic(expression.op, a, b);
    }
    case "array":
      return valueOfCells(arrayGrid(expression.rows));
    case "call": {
      // A plain function (SUM, INDEX…) in a single value's place: its one cell.
      if (plainFunction(expression.name)) return valueOfCells(evaluateGrid(expression, ctx));
      const fn = EXCEL_FUNCTIONS[expression.name];
      const numbers: number[] = [];
      for (const [i, arg] of expression.args.entries()) {
        const value = evaluateExpression(arg, ctx);
        if (isError(value)) return value;
        const n = needNumber(value, `${expression.name}'s ${fn.parameters[i]}`);
        if (isError(n)) return n;
        numbers.push(n);
      }
      return fn.compute(numbers, ctx, expression.name);
    }
  }
}

function arrayGrid(rows: readonly Scalar[][]): Grid {
  return rows.map((row) => row.map((scalar) => toCell(scalar.value)));
}

/** An argument of a plain function: a range stays cells; anything else is one value it computes to. */
function plainArgument(expression: Expression, ctx: ExcelFunctionContext): PlainArgument {
  switch (expression.kind) {
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
  const value = evaluateExpression(expression, ctx);
  return { kind: "value", cell: isError(value) ? value : toCell(value) };
}

/**
 * An expression as the cells it gives: a plain function's table (`INDEX(CRYPTO.METRIC(…),0,2)`), a
 * nested result or an array as they are, anything else as its one value. Nested calls, references and
 * fields must have been resolved first (nested.ts).
 */
export function evaluateGrid(expression: Expression, ctx: ExcelFunctionContext): Grid {
  if (expression.kind === "resolved") return expression.grid;
  if (expression.kind === "array") return arrayGrid(expression.rows);
  if (expression.kind === "group") return evaluateGrid(expression.inner, ctx);
  if (expression.kind === "call") {
    const fn = plainFunction(expression.name);
    if (fn) {
      const args = expression.args.map((arg) => plainArgument(arg, ctx));
      return fn.compute(args, expression.name);
    }
  }
  const value = evaluateExpression(expression, ctx);
  return [[isError(value) ? value : toCell(value)]];
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
    const value = evaluateExpression(arg.expression, ctx);
    if (isError(value)) return { ok: false, error: value };
    out.push(asScalar(value));
  }
  return { ok: true, args: out };
}
