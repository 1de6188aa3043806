/**
 * The values inside a formula that take more than arithmetic: a nested add-in call
 * (`CRYPTO.METRIC(CRYPTO.PROJECT("aave"),"fees")`), a reference to another cell (`A1`, in a host with
 * cells), and a card's field (`FIELDVALUE(A1,"Symbol")`, `A1.[Revenue TTM]`). Before a formula's own call,
 * each is replaced by its result (a grid of cells); the walk starts every nested call at once, in the
 * same recalculation, so the engine batches them with everything else.
 *
 * As in Excel: an error among the values is the formula's result; a field of a value that is not a card is
 * #FIELD!; FIELDVALUE over a range of cards gives each card's field.
 */
import { addressOf, rangePositions } from "./addresses";
import { errorCell, toCell, type Grid } from "./cells";
import { fieldValue } from "./fields";
import type { ExcelFunctionContext } from "./excel-functions";
import { textFrom } from "./excel-functions";
import { evaluateExpression, evaluateGrid } from "./expressions";
import type { Argument, Expression, FormulaCall } from "./formula";
import { ERROR_CODES } from "./host";

/** What a formula reads from a host's cells: one cell (`A1`), a range (`B2:B92`) or a spill (`A1#`). */
export type ReferenceTarget =
  | { kind: "cell"; address: string }
  | { kind: "range"; from: string; to: string }
  | { kind: "spill"; address: string };

/**
 * A host with cells reads them: what they show now (a cell of a spilling formula's result shows its part of
 * it; `A1` alone is the top-left cell, `A1#` the whole result).
 */
export type ReferenceReader = (target: ReferenceTarget) => Grid;

export interface NestedEnvironment {
  /** Starts a nested add-in call now, in this recalculation. */
  start(call: FormulaCall): Promise<Grid>;
  /** Absent where there are no cells (the command line): a reference is then #REF! saying so. */
  read?: ReferenceReader;
  clock: ExcelFunctionContext;
}

/** True when an expression holds a nested call, a reference or a field: the formula waits for them. */
function isDeferred(expression: Expression): boolean {
  switch (expression.kind) {
    case "crypto":
    case "field":
    case "reference":
    case "range":
    case "spill":
      return true;
    default:
      return inside(expression).some(isDeferred);
  }
}

export function hasDeferred(args: readonly Argument[]): boolean {
  return args.some((arg) => arg.kind === "expression" && isDeferred(arg.expression));
}

/** Every add-in call nested in the arguments, outermost first (the binder checks each against the registry). */
export function nestedCalls(args: readonly Argument[]): FormulaCall[] {
  const found: FormulaCall[] = [];
  walk(args, (expression) => {
    if (expression.kind !== "crypto") return true;
    found.push(expression.call);
    return false;
  });
  return found;
}

/**
 * Every cell a formula reads, nested calls included: a sheet recalculates it when one of them changes. A range
 * reads each of its cells (limits.ts bounds how many); a spill reads its formula's cell, whose result it is.
 */
export function referencesIn(call: FormulaCall): string[] {
  const found = new Set<string>();
  walk(call.args, (expression) => {
    if (expression.kind === "reference" || expression.kind === "spill")
      found.add(expression.address);
    if (expression.kind === "range")
      for (const row of rangePositions(expression.from, expression.to))
        for (const at of row) found.add(addressOf(at));
    return true;
  });
  return [...found];
}

/** The expressions an argument list computes (constants and omitted arguments hold none). */
function argumentExpressions(args: readonly Argument[]): Expression[] {
  const found: Expression[] = [];
  for (const arg of args) if (arg.kind === "expression") found.push(arg.expression);
  return found;
}

/** The expressions directly inside one, which computing it computes. */
function inside(expression: Expression): readonly Expression[] {
  switch (expression.kind) {
    case "crypto":
      return argumentExpressions(expression.call.args);
    case "field":
      return [expression.value, expression.field];
    case "group":
      return [expression.inner];
    case "unary":
      return [expression.operand];
    case "binary":
      return [expression.left, expression.right];
    case "call":
      return expression.args;
    // An unknown function is #NAME?, never computed: the calls inside it are not made.
    default:
      return [];
  }
}

/** Visits every expression of the arguments; `enter` returning false skips what is inside one. */
function walk(args: readonly Argument[], enter: (expression: Expression) => boolean): void {
  const visit = (expression: Expression): void => {
    if (enter(expression)) inside(expression).forEach(visit);
  };
  argumentExpressions(args).forEach(visit);
}

function readReference(target: ReferenceTarget, env: NestedEnvironment): Grid {
  if (!env.read) {
    const written =
      target.kind === "range"
        ? `${target.from}:${target.to}`
        : target.kind === "spill"
          ? `${target.address}#`
          : target.address;
    return [
      [
        errorCell(
          ERROR_CODES.invalidReference,
          `no cells to read ${written} from here; nest the call instead, as in FIELDVALUE(CRYPTO.PROJECT("aave"),"Symbol")`
        ),
      ],
    ];
  }
  return env.read(target);
}

/** The cells a (resolved) expression stands for: a result as it is, anything else computed to one cell. */
function cellsOf(expression: Expression, clock: ExcelFunctionContext): Grid {
  if (expression.kind === "resolved") return expression.grid;
  const value = evaluateExpression(expression, clock);
  return [[typeof value === "object" ? value : toCell(value)]];
}

/** FIELDVALUE(value, field): one card's field, or each card's field over a range of them. */
function fieldOf(value: Grid, field: Expression, clock: ExcelFunctionContext): Grid {
  const name = evaluateExpression(field, clock);
  if (typeof name === "object") return [[name]];
  const text = textFrom(name);
  if (value.length === 1 && value[0].length === 1) return fieldValue(value[0][0], text);
  return value.map((row) =>
    row.map((cell) => {
      const grid = fieldValue(cell, text);
      return grid.length === 1 && grid[0].length === 1
        ? grid[0][0]
        : errorCell(
            ERROR_CODES.invalidValue,
            `the field "${text}" is a table: read it from one card`
          );
    })
  );
}

/**
 * The expression with every nested call, reference and field replaced by its result. The synchronous part
 * runs now for the whole tree, so every nested call starts before any result is awaited.
 */
function resolveExpression(expression: Expression, env: NestedEnvironment): Promise<Expression> {
  switch (expression.kind) {
    case "crypto":
      return env.start(expression.call).then((grid) => ({ kind: "resolved", grid }));
    case "reference":
      return Promise.resolve({
        kind: "resolved",
        grid: readReference({ kind: "cell", address: expression.address }, env),
      });
    case "range":
      return Promise.resolve({ kind: "resolved", grid: readReference(expression, env) });
    case "spill":
      return Promise.resolve({ kind: "resolved", grid: readReference(expression, env) });
    case "field": {
      const value = resolveExpression(expression.value, env);
      const field = resolveExpression(expression.field, env);
      return Promise.all([value, field]).then(([v, f]) => ({
        kind: "resolved",
        grid: fieldOf(cellsOf(v, env.clock), f, env.clock),
      }));
    }
    case "group":
      return resolveExpression(expression.inner, env).then((inner) => ({ kind: "group", inner }));
    case "unary":
      return resolveExpression(expression.operand, env).then((operand) => ({
        ...expression,
        operand,
      }));
    case "binary": {
      const left = resolveExpression(expression.left, env);
      const right = resolveExpression(expression.right, env);
      return Promise.all([left, right]).then(([l, r]) => ({ ...expression, left: l, right: r }));
    }
    case "call":
      return Promise.all(expression.args.map((arg) => resolveExpression(arg, env))).then(
        (args) => ({ ...expression, args })
      );
    default:
      return Promise.resolve(expression);
  }
}

/** An argument as the expression it stands for (FIELDVALUE's two are never omitted or arrays: see formula.ts). */
function argumentExpression(arg: Argument | undefined): Expression {
  if (arg === undefined || arg.kind === "omitted") return { kind: "string", value: "" };
  if (arg.kind === "expression") return arg.expression;
  if (arg.kind === "array")
    return { kind: "resolved", grid: arg.rows.map((row) => row.map((s) => toCell(s.value))) };
  return arg;
}

/** A formula that is FIELDVALUE(value, field) (or dot access) itself: the field, or the error why not. */
export function fieldValueFormula(
  args: readonly Argument[],
  env: NestedEnvironment
): Promise<Grid> {
  const [value, field] = args;
  return resolveExpression(argumentExpression(value), env).then((resolved) =>
    fieldOf(cellsOf(resolved, env.clock), argumentExpression(field), env.clock)
  );
}

/**
 * A formula that is an expression around plain functions (`=SUM(CRYPTO.METRIC(…))`): its nested calls
 * first, then the cells the expression gives.
 */
export function expressionFormula(
  args: readonly Argument[],
  env: NestedEnvironment
): Promise<Grid> {
  return resolveExpression(argumentExpression(args[0]), env).then((resolved) =>
    evaluateGrid(resolved, env.clock)
  );
}

/** The arguments with their nested values resolved (see resolveExpression). */
export function resolveArguments(
  args: readonly Argument[],
  env: NestedEnvironment
): Promise<Argument[]> {
  return Promise.all(
    args.map((arg) =>
      arg.kind === "expression" && isDeferred(arg.expression)
        ? resolveExpression(arg.expression, env).then((expression): Argument => ({
            kind: "expression",
            expression,
          }))
        : Promise.resolve(arg)
    )
  );
}
