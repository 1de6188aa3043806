/**
 * The plain Excel functions a model wraps around CRYPTO results, computed as Excel computes them:
 * `=SUM(CRYPTO.METRIC(…))`, `=AVERAGE(…)`, `=MIN(…)`, `=MAX(…)`, `=COUNT(…)`, `=INDEX(table,row,column)`,
 * `=ROWS(table)`, `=COLUMNS(table)`. Their arguments are ranges (a nested call's spill, an array constant,
 * a cell) or single values, so they work on grids of cells; pure, no parsing here (formula.ts reads them,
 * expressions.ts gives them their arguments).
 *
 * Excel's rules kept:
 * - SUM, AVERAGE, MIN, MAX and COUNT read the numbers of a range (dates are their serials) and skip its
 *   text, TRUE/FALSE and empty cells; a value written as an argument itself counts when it reads as a number
 *   (TRUE is 1, "3" is 3) and is #VALUE! when it does not. An error anywhere is the result (the first one,
 *   row by row).
 * - AVERAGE of no numbers is #DIV/0!; MIN and MAX of no numbers are 0.
 * - INDEX is 1-based; a row or column of 0 takes the whole column or row; a one-row table takes its column
 *   from the second argument (INDEX({1,2,3},2) = 2); outside the table is #REF!.
 * - ROWS and COLUMNS count a range's size whatever it holds (errors included).
 */
import { errorCell, type Cell, type ErrorCell, type Grid } from "./cells";
import { numberFrom } from "./excel-functions";
import { ERROR_CODES } from "./host";

/** One argument as the function receives it: a range's cells, or a value written as the argument itself. */
export type PlainArgument = { kind: "range"; grid: Grid } | { kind: "value"; cell: Cell };

interface PlainFunction {
  /** Parameter names as Excel's help writes them (for messages); `repeating` ends in "…". */
  parameters: readonly string[];
  minArgs: number;
  /** Infinity for SUM(number1, [number2], …): Excel allows 255. */
  maxArgs: number;
  compute(args: readonly PlainArgument[], name: string): Grid;
}

/** Excel's own limit on a function's arguments. */
const MAX_PLAIN_ARGUMENTS = 255;

const one = (cell: Cell): Grid => [[cell]];

function firstError(grid: Grid): ErrorCell | undefined {
  for (const row of grid) for (const cell of row) if (cell.kind === "error") return cell;
  return undefined;
}

/** The numbers an aggregate reads, or the error that is its result. */
function numbersOf(args: readonly PlainArgument[], name: string): number[] | ErrorCell {
  const numbers: number[] = [];
  for (const arg of args) {
    if (arg.kind === "range") {
      const error = firstError(arg.grid);
      if (error) return error;
      for (const row of arg.grid)
        for (const cell of row) {
          if (cell.kind === "number") numbers.push(cell.value);
          else if (cell.kind === "date") numbers.push(cell.serial);
        }
      continue;
    }
    const cell = arg.cell;
    switch (cell.kind) {
      case "error":
        return cell;
      case "number":
        numbers.push(cell.value);
        break;
      case "date":
        numbers.push(cell.serial);
        break;
      case "boolean":
        numbers.push(cell.value ? 1 : 0);
        break;
      case "empty":
        // As Excel counts an omitted argument: 0.
        numbers.push(0);
        break;
      case "string": {
        const n = numberFrom(cell.value);
        if (n === undefined)
          return errorCell(
            ERROR_CODES.invalidValue,
            `${name} needs numbers, got ${JSON.stringify(cell.value)}`
          );
        numbers.push(n);
        break;
      }
      case "entity":
        return errorCell(
          ERROR_CODES.invalidValue,
          `${name}: the card "${cell.text}" is not a number: read one of its fields (=A1.Symbol or FIELDVALUE)`
        );
    }
  }
  return numbers;
}

/** SUM, AVERAGE, MIN, MAX: number1, number2… (ranges or values) read as numbers, then reduced to one cell. */
function aggregate(reduce: (numbers: readonly number[]) => Cell): PlainFunction {
  return {
    parameters: ["number1", "number2…"],
    minArgs: 1,
    maxArgs: MAX_PLAIN_ARGUMENTS,
    compute: (args, name) => {
      const numbers = numbersOf(args, name);
      return one(Array.isArray(numbers) ? reduce(numbers) : numbers);
    },
  };
}

/** The numbers' total, added in the order given (SUM and AVERAGE). */
function sumOf(numbers: readonly number[]): number {
  let sum = 0;
  for (const n of numbers) sum += n;
  return sum;
}

/**
 * MIN or MAX: the number no other `beats`, 0 of no numbers (as Excel). Not Math.min(...numbers): a spill of
 * 100,000 cells would overflow the call stack.
 */
function extreme(beats: (n: number, best: number) => boolean): PlainFunction {
  return aggregate((numbers) => ({
    kind: "number",
    value: numbers.length === 0 ? 0 : numbers.reduce((best, n) => (beats(n, best) ? n : best)),
  }));
}

/** A finite result, or #NUM! as Excel shows a number too large. */
function finite(value: number, name: string): Cell {
  return Number.isFinite(value)
    ? { kind: "number", value: value === 0 ? 0 : value }
    : errorCell(ERROR_CODES.invalidNumber, `${name} gives a number too large`);
}

/** The table of an argument: a range as it is, a single value as a 1×1 table. */
function tableOf(arg: PlainArgument): Grid {
  return arg.kind === "range" ? arg.grid : one(arg.cell);
}

/** A position argument of INDEX: a whole number ≥ 0 (Excel truncates), or the error why not. */
function position(arg: PlainArgument | undefined, name: string, what: string): number | ErrorCell {
  if (arg === undefined) return 0;
  const grid = tableOf(arg);
  if (grid.length !== 1 || grid[0].length !== 1)
    return errorCell(ERROR_CODES.invalidValue, `${name}'s ${what} must be one number`);
  const cell = grid[0][0];
  if (cell.kind === "error") return cell;
  if (cell.kind === "empty") return 0;
  const n =
    cell.kind === "number"
      ? cell.value
      : cell.kind === "boolean"
        ? Number(cell.value)
        : cell.kind === "string"
          ? numberFrom(cell.value)
          : cell.kind === "date"
            ? cell.serial
            : undefined;
  if (n === undefined)
    return errorCell(ERROR_CODES.invalidValue, `${name}'s ${what} must be a number`);
  const whole = Math.trunc(n);
  return whole < 0
    ? errorCell(ERROR_CODES.invalidValue, `${name}'s ${what} must not be negative`)
    : whole;
}

function index(args: readonly PlainArgument[], name: string): Grid {
  const table = tableOf(args[0]);
  const height = table.length;
  const width = table[0]?.length ?? 0;
  let row = position(args[1], name, "row_num");
  let column = position(args[2], name, "column_num");
  if (typeof row !== "number") return one(row);
  if (typeof column !== "number") return one(column);
  // A one-row table read with one position: the position is the column, as Excel reads INDEX({1,2,3},2).
  if (args.length === 2 && height === 1 && width > 1) [row, column] = [1, row];
  const outside =
    row > height
      ? `row ${row} is outside the table (${height} row${height === 1 ? "" : "s"})`
      : column > width
        ? `column ${column} is outside the table (${width} column${width === 1 ? "" : "s"})`
        : undefined;
  if (outside) return one(errorCell(ERROR_CODES.invalidReference, `${name}: ${outside}`));
  const rows = row === 0 ? table : [table[row - 1]];
  return rows.map((r) => (column === 0 ? [...r] : [r[column - 1]]));
}

const PLAIN_FUNCTIONS: Readonly<Record<string, PlainFunction>> = {
  SUM: aggregate((numbers) => finite(sumOf(numbers), "SUM")),
  AVERAGE: aggregate((numbers) =>
    numbers.length === 0
      ? errorCell(ERROR_CODES.divisionByZero, "AVERAGE of no numbers")
      : finite(sumOf(numbers) / numbers.length, "AVERAGE")
  ),
  MIN: extreme((n, best) => n < best),
  MAX: extreme((n, best) => n > best),
  COUNT: {
    parameters: ["value1", "value2…"],
    minArgs: 1,
    maxArgs: MAX_PLAIN_ARGUMENTS,
    // COUNT never fails: errors and text are what it does not count.
    compute: (args) => {
      let count = 0;
      for (const arg of args) {
        for (const row of tableOf(arg))
          for (const cell of row) {
            if (cell.kind === "number" || cell.kind === "date") count += 1;
            else if (arg.kind === "value" && cell.kind === "boolean") count += 1;
            else if (
              arg.kind === "value" &&
              cell.kind === "string" &&
              numberFrom(cell.value) !== undefined
            )
              count += 1;
          }
      }
      return one({ kind: "number", value: count });
    },
  },
  INDEX: {
    parameters: ["array", "row_num", "column_num"],
    minArgs: 2,
    maxArgs: 3,
    compute: index,
  },
  ROWS: {
    parameters: ["array"],
    minArgs: 1,
    maxArgs: 1,
    compute: ([arg]) => one({ kind: "number", value: tableOf(arg).length }),
  },
  COLUMNS: {
    parameters: ["array"],
    minArgs: 1,
    maxArgs: 1,
    compute: ([arg]) => one({ kind: "number", value: tableOf(arg)[0]?.length ?? 0 }),
  },
};

export const PLAIN_FUNCTION_NAMES: readonly string[] = Object.keys(PLAIN_FUNCTIONS);

/** The plain function of that name (any case), or undefined. */
export function plainFunction(name: string): PlainFunction | undefined {
  const upper = name.toUpperCase();
  return Object.prototype.hasOwnProperty.call(PLAIN_FUNCTIONS, upper)
    ? PLAIN_FUNCTIONS[upper]
    : undefined;
}
