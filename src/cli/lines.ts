/**
 * The lines of a run (--file lines and FORMULA arguments) through their life: read (every line parsed
 * before anything is loaded, so a typo needs no build), bound to the functions, evaluated, printed.
 *
 * Memory is what bounds a run of 100,000 lines, so a line holds as little as its stage needs: once read
 * and found good, only its text and what the evaluation plans with (the key that groups it with the lines
 * one request serves, the calls it makes); it is parsed and bound again when its turn comes (parsing is
 * cheap: about 10 µs a line), and once evaluated, only what is printed (its formula's text, its grid).
 * Holding every line's parsed and bound form took about 0.8 kB a line.
 *
 * A --file line that cannot be evaluated at all (it does not parse, names no function, has the wrong number
 * of arguments) costs only itself: it is refused with a #USAGE result at its place. FORMULA arguments on
 * the command line are still refused as a whole, before any request.
 */
import { bindFormula, type BoundFormula } from "../sheet/bind";
import { errorCell, isWholeError, type Grid } from "../sheet/cells";
import { parseFormula, printFormula, type FormulaCall } from "../sheet/formula";
import type { Registry } from "../sheet/registry";
import { firstLineOf } from "../client";
import {
  EXIT_USAGE,
  exitCodeOf,
  isStopError,
  type StopError,
  UsageError,
  withLabel,
} from "./errors";
import { planOf, type Planned } from "./evaluation";
import type { FormattedResult } from "./output";
import type { FormulaSource } from "./sources";

/** The error code of a --file line that could not be evaluated (json: {"error":"#USAGE","message":…}). */
export const USAGE_CODE = "#USAGE";

/** A line refused on its own (its message labelled with file and line). */
export interface Refused {
  source: FormulaSource;
  refused: StopError;
}

/** A line read and found good, waiting for its turn: its text and what the evaluation plans with. */
export interface Ready {
  source: FormulaSource;
  /** Its place among the run's lines: the formula sits in Sheet1!A<row>. */
  row: number;
  plan: Planned;
}

/** A line evaluated: what is printed, and where it came from (for the stale marks). */
export interface Evaluated {
  from: FormulaSource;
  result: FormattedResult;
}

/** A line as the run holds it: ready to evaluate, evaluated, or refused. */
export type Line = Ready | Evaluated | Refused;

type Parsed = { source: FormulaSource; call: FormulaCall } | Refused;

/**
 * Command-line FORMULA arguments stop the run; a --file line's error stays with that line. So does anything
 * else reading one line throws (the parser bounds depth and size, so a RangeError here would be a gap in
 * those bounds): one bad line of a model file never hides the others.
 */
function refuseOrStop(source: FormulaSource, error: unknown): Refused {
  if (!isStopError(error)) {
    if (!source.fromFile) throw error;
    const reason = new UsageError(
      "usage",
      `the formula could not be read (${firstLineOf(error)})`,
      {
        cause: error,
      }
    );
    return { source, refused: withLabel(source.label, reason) };
  }
  const labelled = withLabel(source.label, error);
  if (source.fromFile && exitCodeOf(error) === EXIT_USAGE) return { source, refused: labelled };
  throw labelled;
}

function parseAll(sources: readonly FormulaSource[]): Parsed[] {
  return sources.map((source) => {
    try {
      return { source, call: parseFormula(source.text) };
    } catch (error) {
      return refuseOrStop(source, error);
    }
  });
}

/**
 * Every line parsed (syntax first: `load` is called only once all parse), then bound, and kept as its text
 * and plan only. Formula n sits in Sheet1!A<n>, a refused line keeping its cell, as in a sheet.
 */
export function readLines(
  sources: readonly FormulaSource[],
  load: () => Registry
): { lines: Line[]; registry: Registry } {
  const parsed = parseAll(sources);
  const registry = load();
  const lines = parsed.map((item, i): Line => {
    if ("refused" in item) return item;
    try {
      const bound = bindFormula(item.call, registry, i + 1);
      return { source: item.source, row: i + 1, plan: planOf(bound) };
    } catch (error) {
      return refuseOrStop(item.source, error);
    }
  });
  return { lines, registry };
}

/** The line bound again for its evaluation (read once already, it parses and binds as it did). */
export function bindLine(line: Ready, registry: Registry): BoundFormula {
  return bindFormula(parseFormula(line.source.text), registry, line.row);
}

/**
 * A copy of the text as one flat string: a printed formula is built by concatenation, and V8 keeps such a
 * string as a tree of its parts (four or five nodes for a VALUE formula) until it is read.
 */
function flat(text: string): string {
  return Buffer.from(text, "utf8").toString("utf8");
}

/** The line once evaluated: what is printed, nothing more. */
export function evaluatedLine(line: Ready, bound: BoundFormula, grid: Grid): Evaluated {
  const formula = flat(printFormula({ ...bound.call, name: bound.fn.meta.name }));
  return { from: line.source, result: { formula, grid } };
}

/** What each line prints, in input order: a refused line its #USAGE, an evaluated one its result. */
export function resultsOf(lines: readonly Line[]): FormattedResult[] {
  return lines.map((line) => {
    if ("refused" in line)
      return {
        formula: line.source.text.trim(),
        grid: [[errorCell(USAGE_CODE, firstLineOf(line.refused))]],
      };
    if ("result" in line) return line.result;
    // Not evaluated (the run stopped before it): printed as not computed.
    return { formula: line.source.text.trim(), grid: [[errorCell("#N/A", "not evaluated")]] };
  });
}

export function refusedCount(lines: readonly Line[]): number {
  return lines.filter((line) => "refused" in line).length;
}

export function anyWholeError(lines: readonly Line[]): boolean {
  return lines.some((line) => "result" in line && isWholeError(line.result.grid));
}

export function labelOf(line: Line): string {
  return "from" in line ? line.from.label : line.source.label;
}
