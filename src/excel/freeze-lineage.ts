/**
 * Where Freeze's lineage comes from inside Excel: each frozen range's formula and the diagnostics record of the
 * cell it was in (its arguments as the function received them, and when it was computed), traced by
 * src/functions/lineage.ts through the shared runtime. A range this session did not compute (a workbook opened
 * with its values) has no record: its arguments are read from the formula's text (literal ones; one from a
 * cell is said to be so), and its vintage is said to be unknown rather than guessed.
 */
import { callArguments, lineageOf, type Lineage, type LineageFormula } from "../functions/lineage";
import type { Runtime } from "../runtime/runtime";
import { parseFormula } from "../sheet/formula";
import type { FrozenRange } from "./port";

/** What the formula's text says of its call, for a range without a record. */
function fromText(f: FrozenRange): Pick<LineageFormula, "functionName" | "args"> {
  try {
    const { functionName, args } = callArguments(parseFormula(f.formula));
    return { functionName, args };
  } catch {
    // A formula the command line's reader does not take: its projects and metrics go unnamed.
    return { functionName: "", args: {} };
  }
}

export function officeLineage(
  runtime: () => Promise<Runtime>
): (frozen: readonly FrozenRange[]) => Promise<Lineage[]> {
  return async (frozen) => {
    const rt = await runtime();
    const formulas = frozen.map((f): LineageFormula => {
      const record = rt.diagnostics.cell(f.anchor);
      return record
        ? {
            range: f.range,
            formula: f.formula,
            functionName: record.functionName,
            args: record.args,
            computedAt: record.at,
          }
        : { range: f.range, formula: f.formula, ...fromText(f) };
    });
    return lineageOf(
      {
        engine: rt.engine,
        baseUrl: rt.config.baseUrl,
        // Signed in to a team gateway, the cache is keyed by the account: that is the gateway's answer.
        via: rt.config.cacheIdentity ? "team gateway" : "service",
      },
      formulas
    );
  };
}
