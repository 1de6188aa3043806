/**
 * Evaluates a sheet as Excel does: one recalculation calls every cell's custom function without waiting in
 * between, then waits for them all. Arguments arrive as Excel passes them (dates as serial numbers, omitted
 * arguments as null, range parameters as 2D arrays, an invocation last). The functions run over the shared
 * runtime, so this is the engine, cache and client a workbook gets.
 */
import { dayNumber } from "../../client";
import { messageOf } from "../../client";
import { dayToSerial } from "../../sheet/excel-dates";
import { EXCEL_STAND_IN, installHost } from "../../sheet/host";
import * as fns from "../../functions/functions";
import type { CellOutcome } from "./outcomes";
import type { BenchCell } from "./workloads";

/** Excel's CustomFunctions error type and the host flag: the only stand-in, at the Office boundary. */
export function installExcelHost(): void {
  installHost(EXCEL_STAND_IN);
}

/**
 * A date cell's value as Excel passes it: the serial number the cell already holds. Excel does not parse date
 * text on every call, so neither does the stand-in: each workload day is converted once and then looked up.
 */
const serials = new Map<string, number>();

function serial(day: string): number {
  let n = serials.get(day);
  if (n === undefined) {
    n = dayToSerial(dayNumber(day));
    serials.set(day, n);
  }
  return n;
}

function invocation(index: number, functionName: string): CustomFunctions.CancelableInvocation {
  return { address: `Bench!A${index + 1}`, functionName };
}

/** What the function returned: a value (answered from the cache) or a promise of one, as Excel accepts. */
function call(cell: BenchCell, index: number): unknown {
  const inv = invocation(index, cell.fn);
  switch (cell.fn) {
    case "VALUE":
      return fns.value_(cell.project, cell.metric, serial(cell.date), null, inv);
    case "METRIC":
      return fns.metric_(
        [[cell.project]],
        [[cell.metric]],
        serial(cell.start),
        serial(cell.end),
        null,
        inv
      );
    case "STATEMENT":
      return fns.statement_(cell.project, null, null, null, inv);
  }
}

interface RichNumber {
  type: string;
  basicValue: number;
}

function isRichNumber(value: unknown): value is RichNumber {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as RichNumber).basicValue === "number"
  );
}

/** What Excel would show, reduced to an outcome. */
export function outcomeOfResult(value: unknown): CellOutcome {
  if (typeof value === "number") return { kind: "number", value };
  if (isRichNumber(value)) return { kind: "number", value: value.basicValue };
  if (Array.isArray(value))
    return {
      kind: "table",
      rows: value.length,
      columns: Array.isArray(value[0]) ? (value[0] as unknown[]).length : 1,
    };
  return { kind: "error", code: "unexpected", message: `result of type ${typeof value}` };
}

export function outcomeOfError(error: unknown): CellOutcome {
  const e = error as { code?: unknown };
  return {
    kind: "error",
    code: typeof e?.code === "string" ? e.code : "thrown",
    message: messageOf(error),
  };
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return value instanceof Promise;
}

/** A cell's outcome now when its function answered synchronously, else once its promise settles. */
function outcomeOf(cell: BenchCell, index: number): CellOutcome | Promise<CellOutcome> {
  try {
    const returned = call(cell, index);
    return isPromise(returned)
      ? returned.then(outcomeOfResult, outcomeOfError)
      : outcomeOfResult(returned);
  } catch (error) {
    return outcomeOfError(error); // Excel shows a synchronous throw as the cell's error too
  }
}

/** One recalculation of the sheet through the custom functions: over when the last pending cell settles. */
export async function recalculate(cells: readonly BenchCell[]): Promise<CellOutcome[]> {
  const outcomes = new Array<CellOutcome>(cells.length);
  const pending: Promise<void>[] = [];
  cells.forEach((cell, i) => {
    const outcome = outcomeOf(cell, i);
    if (isPromise(outcome)) pending.push(outcome.then((o) => void (outcomes[i] = o)));
    else outcomes[i] = outcome;
  });
  await Promise.all(pending);
  return outcomes;
}
