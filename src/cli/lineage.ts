/**
 * `eval --format json --lineage`: beside each result, where its values came from, as Freeze's lineage sheet
 * says it in Excel (src/functions/lineage.ts): the formula, the vintage its values were known at (`vintage=`
 * of that instant gives them again, from this cache directory's record of restatements), the service's
 * address (never the key, a query or a user name), and the definition and source the service gives of every
 * project and metric it reads.
 *
 * The CLI has no diagnostics record per line (every call of a line shares its cell, and a lifted call makes
 * many): the projects and metrics come from the line's text, its CRYPTO call and every CRYPTO call nested in
 * it (`VALUE(CRYPTO.PROJECT("aave"),"tvl")` reads aave through PROJECT). One written as an expression
 * (`"aa"&"ve"`) is said in the row's note, never guessed. The vintage is when the line's recalculation
 * ended: every value it shows was known then.
 *
 * What it costs: the catalogues the run resolved its ids with (already held), and each project's (or
 * product's) detail, which holds metric_definitions and metric_sources: one request per project the run had
 * not read within the catalogue lifetime (24 hours, in the saved cache), exactly as Freeze's lineage costs.
 */
import {
  callArguments,
  lineageOf,
  serviceAddress,
  vintageOf,
  type Lineage,
  type LineageFormula,
  type LineageSource,
} from "../functions/lineage";
import type { BoundFormula } from "../sheet/bind";
import type { FormulaCall } from "../sheet/formula";
import { firstLineOf } from "../client";
import { labelOf, resultsOf, type Line } from "./lines";

/** What a line contributes to the lineage: one traced call each, and what its text could not name. */
export interface LineTrace {
  calls: LineageFormula[];
  computed: string[];
  at: number;
}

/** The CRYPTO calls of a bound formula, once each: itself (unless the sheet computes it) and every nested one. */
function cryptoCalls(bound: BoundFormula, into = new Set<FormulaCall>()): Set<FormulaCall> {
  if (!bound.call.builtin) into.add(bound.call);
  for (const nested of bound.nested?.values() ?? []) cryptoCalls(nested, into);
  return into;
}

/** A line once evaluated, traced from its text; `at` is when its recalculation ended. */
export function traceLine(
  bound: BoundFormula,
  range: string,
  formula: string,
  at: number
): LineTrace {
  const computed: string[] = [];
  const calls = [...cryptoCalls(bound)].map((call): LineageFormula => {
    const traced = callArguments(call);
    for (const name of traced.computed) computed.push(`${traced.functionName}'s ${name}`);
    return {
      range,
      formula,
      functionName: traced.functionName,
      args: traced.args,
      computedAt: at,
    };
  });
  return { calls, computed, at };
}

/** A line as the lineage sees it: traced, or not evaluated (refused, or the run stopped before it). */
export type LineageInput =
  | { range: string; formula: string; trace: LineTrace }
  | { range: string; formula: string; notEvaluated: string };

/** Said of every row when the run keeps no record of what it saw (--no-cache, or no usable directory). */
export const NOT_KEPT =
  "this run kept no record of what it fetched (no cache directory): vintage= re-derives these values only where a record of the same answers is kept";

/**
 * One lineage row per line, in input order (the `lineage` beside `results`); never rejects. Each row is
 * the union of its calls' rows: one formula, its projects and metrics once each.
 */
export async function runLineage(
  source: LineageSource,
  inputs: readonly LineageInput[],
  kept: boolean
): Promise<Lineage[]> {
  const flat: { line: number; call: LineageFormula }[] = [];
  inputs.forEach((input, line) => {
    if ("trace" in input) for (const call of input.trace.calls) flat.push({ line, call });
  });
  const traced = await lineageOf(
    source,
    flat.map((f) => f.call)
  );
  const byLine = new Map<number, Lineage[]>();
  flat.forEach((f, i) => byLine.set(f.line, [...(byLine.get(f.line) ?? []), traced[i]]));
  const service = serviceAddress(source.baseUrl);
  return inputs.map((input, line): Lineage => {
    const row: Lineage = {
      range: input.range,
      formula: input.formula,
      vintage: "trace" in input ? vintageOf(input.trace.at) : "",
      service,
      via: source.via,
      metrics: [],
    };
    if ("notEvaluated" in input) return { ...row, note: input.notEvaluated };
    const rows = byLine.get(line) ?? [];
    const seen = new Set<string>();
    for (const m of rows.flatMap((r) => r.metrics)) {
      const key = JSON.stringify([m.projectId, m.productId ?? "", m.metricId]);
      if (seen.has(key)) continue;
      seen.add(key);
      row.metrics.push(m);
    }
    const notes = [
      ...(input.trace.computed.length > 0
        ? [`not named here, as computed in the formula: ${input.trace.computed.join(", ")}`]
        : []),
      ...(kept ? [] : [NOT_KEPT]),
    ];
    return notes.length > 0 ? { ...row, note: notes.join("; ") } : row;
  });
}

/** What the lineage is given of each line: its trace, or why it was not evaluated. */
export function lineageInputs(
  lines: readonly Line[],
  traces: ReadonlyMap<number, LineTrace>
): LineageInput[] {
  return lines.map((line, i): LineageInput => {
    const trace = traces.get(i);
    if ("result" in line && trace)
      return { range: line.from.label, formula: line.result.formula, trace };
    if ("refused" in line)
      return {
        range: line.source.label,
        formula: line.source.text.trim(),
        notEvaluated: `not evaluated: ${firstLineOf(line.refused)}`,
      };
    return {
      range: labelOf(line),
      formula: resultsOf([line])[0].formula,
      notEvaluated: "not evaluated",
    };
  });
}

/** A lineage row for a line no runtime traced (every line refused: nothing was configured). */
export function unTraced(input: LineageInput): Lineage {
  return {
    range: input.range,
    formula: input.formula,
    vintage: "",
    service: "",
    via: "service",
    metrics: [],
    note: "notEvaluated" in input ? input.notEvaluated : "not evaluated",
  };
}
