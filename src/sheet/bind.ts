/**
 * Matching a parsed formula to a registered function and checking its argument count, as Excel does when
 * a formula is entered: an unknown name or a wrong count never reaches the function.
 */
import { closest, distance } from "fastest-levenshtein";
import { SheetError } from "./errors";
import { EXPRESSION_ROOT, FIELDVALUE, FormulaCall } from "./formula";
import { nestedCalls } from "./nested";
import { NAMESPACE, RegisteredFunction, Registry, signature } from "./registry";

export interface BoundFormula {
  call: FormulaCall;
  fn: RegisteredFunction;
  /** 1-based position among the invocation's formulas: the formula sits in cell Sheet1!A<row>. */
  row: number;
  /** The cell the formula sits in when a host places it elsewhere (the preview page's grid). */
  address?: string;
  /** The add-in calls nested in its arguments, each bound (by the parsed call it binds). */
  nested?: ReadonlyMap<FormulaCall, BoundFormula>;
}

/**
 * FIELDVALUE at a formula's root (or dot access, `=A1.Symbol`): Excel's own function, computed by the
 * sheet (nested.ts), never called as an add-in function; it only names the formula in outputs.
 */
const FIELDVALUE_FUNCTION: RegisteredFunction = {
  meta: {
    id: FIELDVALUE,
    name: FIELDVALUE,
    parameters: [{ name: "value" }, { name: "field_name" }],
  },
  functionName: FIELDVALUE,
  implementation: () => {
    throw new SheetError("broken-build", `${FIELDVALUE} is computed by the sheet, not called`);
  },
};

/**
 * A formula that is an expression around plain functions (`=SUM(CRYPTO.METRIC(…))`): computed by the sheet
 * (plain-functions.ts), never called as an add-in function; it names the formula by its first function.
 */
function expressionFunction(name: string): RegisteredFunction {
  return {
    meta: { id: EXPRESSION_ROOT, name, parameters: [{ name: "expression" }] },
    functionName: EXPRESSION_ROOT,
    implementation: () => {
      throw new SheetError("broken-build", `${name} is computed by the sheet, not called`);
    },
  };
}

/** Binds every add-in call nested in the arguments, as Excel checks each when the formula is entered. */
function bindNested(
  call: FormulaCall,
  registry: Registry,
  row: number
): Map<FormulaCall, BoundFormula> | undefined {
  const calls = nestedCalls(call.args);
  if (calls.length === 0) return undefined;
  return new Map(calls.map((nested) => [nested, bindFormula(nested, registry, row)]));
}

function unknownFunction(name: string, registry: Registry, written?: string): SheetError {
  const known = registry.list().map((f) => f.meta.name);
  const wanted = name.toUpperCase();
  const nearest = known.length > 0 ? closest(wanted, known) : undefined;
  // Only a near miss is worth suggesting; "did you mean VALUE?" for "PRICEZ" would mislead.
  const near = nearest !== undefined && distance(wanted, nearest) <= Math.max(2, wanted.length / 3);
  const hint = near ? ` (did you mean ${NAMESPACE}.${nearest}?)` : "";
  // The name as the user wrote it: `=ROUNDUP(…)` is not called "CRYPTO.ROUNDUP" back to them.
  return new SheetError(
    "unknown-function",
    `unknown function ${written ?? `${NAMESPACE}.${name}`}${hint}`
  );
}

/** Required parameters are those up to the last one not marked optional (Excel puts them first). */
function requiredCount(fn: RegisteredFunction): number {
  const parameters = fn.meta.parameters;
  for (let i = parameters.length - 1; i >= 0; i -= 1) if (!parameters[i].optional) return i + 1;
  return 0;
}

export function bindFormula(call: FormulaCall, registry: Registry, row: number): BoundFormula {
  const withNested = (): { nested?: ReadonlyMap<FormulaCall, BoundFormula> } => {
    const nested = bindNested(call, registry, row);
    return nested ? { nested } : {};
  };
  if (call.builtin?.name === EXPRESSION_ROOT)
    return { call, fn: expressionFunction(call.name), row, ...withNested() };
  if (call.builtin) return { call, fn: FIELDVALUE_FUNCTION, row, ...withNested() };
  const fn = registry.lookup(call.name);
  if (!fn) throw unknownFunction(call.name, registry, call.written);
  const parameters = fn.meta.parameters;
  if (parameters.some((p) => p.repeating)) {
    throw new SheetError(
      "broken-build",
      `${signature(fn.meta)}: repeating parameters are not supported outside Excel`
    );
  }
  const given = call.args.length;
  const required = requiredCount(fn);
  if (given > parameters.length) {
    const most =
      parameters.length === 0
        ? "no arguments"
        : `at most ${parameters.length} argument${parameters.length === 1 ? "" : "s"}`;
    throw new SheetError(
      "arity",
      `too many arguments (${given}) for ${signature(fn.meta)}: it takes ${most}`
    );
  }
  if (given < required) {
    throw new SheetError(
      "arity",
      `missing required argument '${parameters[given].name}' of ${signature(fn.meta)}`
    );
  }
  return { call, fn, row, ...withNested() };
}
