/**
 * Evaluating one formula the way Excel would take it from the formula bar: a formula Excel refuses to enter
 * (bad syntax, wrong argument count) is refused with the reason; an unknown function is entered and shows
 * #NAME?; anything else runs through the sheet's recalculation (argument coercion, lifting, invocation,
 * result reading), the one the CLI uses too, so the page and the CLI agree on every cell.
 */
import { bindFormula } from "./bind";
import { errorCell, type Grid } from "./cells";
import { SheetError } from "./errors";
import type { ReferenceReader } from "./nested";
import { recalculate } from "./recalculate";
import { parseFormula, type FormulaCall } from "./formula";
import type { Registry } from "./registry";
import { messageOf } from "../client";

export type Evaluation = { kind: "refused"; message: string } | { kind: "result"; grid: Grid };

/** A host with cells (the preview page's sheet) reads the formula's references through `read`. */
interface EvaluationOptions {
  read?: ReferenceReader;
  /** Evaluate as Excel's value preview of a formula being typed (the invocation's isInValuePreview). */
  preview?: boolean;
}

/**
 * Runs a parsed call as the formula of the cell at `address` (a grid cell such as "Sheet1!D4", or a label for
 * previews that are not cells, such as the formula builder's): the diagnostics record it there.
 */
export async function evaluateCall(
  call: FormulaCall,
  registry: Registry,
  address = "Sheet1!A1",
  options: EvaluationOptions = {}
): Promise<Evaluation> {
  let bound;
  try {
    bound = { ...bindFormula(call, registry, 1), address };
  } catch (error) {
    if (error instanceof SheetError && error.kind === "unknown-function") {
      return { kind: "result", grid: [[errorCell("#NAME?", error.message)]] };
    }
    return { kind: "refused", message: messageOf(error) };
  }
  const [grid] = await recalculate([bound], undefined, {
    read: options.read,
    preview: options.preview,
  }).results;
  return { kind: "result", grid };
}

/** Parses `text` and runs it as evaluateCall does (the same address and options, the same defaults). */
export async function evaluateFormula(
  text: string,
  registry: Registry,
  address?: string,
  options?: EvaluationOptions
): Promise<Evaluation> {
  let call: FormulaCall;
  try {
    call = parseFormula(text);
  } catch (error) {
    return { kind: "refused", message: messageOf(error) };
  }
  return evaluateCall(call, registry, address, options);
}
