/**
 * Evaluating one formula the way Excel would take it from the formula bar: a formula Excel refuses to enter
 * (bad syntax, wrong argument count) is refused with the reason; an unknown function is entered and shows
 * #NAME?; anything else runs through the CLI's recalculation (argument coercion, lifting, invocation,
 * result reading), so the page and the CLI agree on every cell.
 */
import { coerce, prepareArguments } from "../cli/arguments";
import { bindFormula } from "../cli/bind";
import { errorCell, thrownToCell, toGrid, type Grid } from "../cli/cells";
import { CliError } from "../cli/errors";
import { recalculate } from "../cli/evaluate";
import { parseFormula, type FormulaCall } from "../cli/formula";
import type { Registry } from "../cli/registry";

export type Evaluation = { kind: "refused"; message: string } | { kind: "result"; grid: Grid };

/** Runs a parsed call; `row` places it (the invocation's address is Sheet1!A<row>). */
export async function evaluateCall(
  call: FormulaCall,
  registry: Registry,
  row = 1
): Promise<Evaluation> {
  let bound;
  try {
    bound = bindFormula(call, registry, row);
  } catch (error) {
    if (error instanceof CliError && error.kind === "unknown-function") {
      return { kind: "result", grid: [[errorCell("#NAME?", error.message)]] };
    }
    return { kind: "refused", message: error instanceof Error ? error.message : String(error) };
  }
  const [grid] = await recalculate([bound]).results;
  return { kind: "result", grid };
}

export async function evaluateFormula(
  text: string,
  registry: Registry,
  row = 1
): Promise<Evaluation> {
  let call: FormulaCall;
  try {
    call = parseFormula(text);
  } catch (error) {
    return { kind: "refused", message: error instanceof Error ? error.message : String(error) };
  }
  return evaluateCall(call, registry, row);
}

/**
 * Calls one function directly with a label for its address, for previews that are not cells (the formula
 * builder): arguments prepared and coerced as for a cell, the result read as a cell's. Lifted (array)
 * arguments, which the builder never writes, are left to evaluateCall.
 */
export async function evaluateAt(
  call: FormulaCall,
  registry: Registry,
  address: string
): Promise<Evaluation> {
  let fn;
  try {
    fn = bindFormula(call, registry, 1).fn;
  } catch (error) {
    return { kind: "refused", message: error instanceof Error ? error.message : String(error) };
  }
  const label = `CRYPTO.${fn.meta.name}`;
  const prepared = prepareArguments(call.args, fn.meta.parameters);
  const values: unknown[] = [];
  for (let i = 0; i < prepared.length; i += 1) {
    const argument = prepared[i];
    if (argument.kind === "lifted") return evaluateCall(call, registry);
    const parameter = fn.meta.parameters[i];
    if (Array.isArray(argument.value) || parameter.dimensionality === "matrix") {
      values.push(argument.value);
      continue;
    }
    const coerced = coerce(argument.value, parameter, label);
    if (coerced !== null && typeof coerced === "object")
      return { kind: "result", grid: [[coerced]] };
    values.push(coerced);
  }
  try {
    const value = await fn.implementation(...values, { functionName: fn.meta.name, address });
    return { kind: "result", grid: toGrid(value) };
  } catch (thrown) {
    return { kind: "result", grid: [[thrownToCell(thrown, label)]] };
  }
}
