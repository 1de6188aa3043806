/**
 * The diagnostics record of one custom function call: its arguments as the taskpane shows them, what served
 * it (requests, cache, staleness), its notes and its error. Nothing here holds the API key: arguments are the
 * user's, messages come redacted from the client.
 */
import { formatDay } from "../client";
import { DEFERRED_RECORD_BYTES, recordBytes, type CellRecord } from "../runtime/diagnostics";
import { sharedDiagnostics } from "../runtime/runtime";
import { isEntityValue } from "./coerce";
import type { CallTrace } from "./context";
import type { ErrorCode } from "./result";

/** A call as the diagnostics name it: the cell (or the function, outside a sheet) and its arguments. */
export interface Call {
  address: string;
  functionName: string;
  args: Record<string, unknown>;
}

function hasEntity(value: unknown): boolean {
  return isEntityValue(value) || (Array.isArray(value) && value.some(hasEntity));
}

function brief(value: unknown): unknown {
  if (isEntityValue(value)) return `card "${typeof value.text === "string" ? value.text : ""}"`;
  return Array.isArray(value) ? value.map(brief) : value;
}

/**
 * A range argument past this many cells is recorded by its shape. Walking a range of a million cells for
 * cards (twice: when the call starts and when it ends) cost more than refusing it, and the diagnostics would
 * keep the whole range alive; no one reads a thousand ids in a diagnostics line.
 */
const MAX_RECORDED_CELLS = 1_000;

/**
 * An argument's text past this many characters is recorded cut (a cell may hold 32,767): enough to tell which
 * text it was, and 5,000 records of long texts must not keep megabytes alive.
 */
const MAX_RECORDED_TEXT = 200;

/**
 * Requests and notes listed per record: a table over 500 projects may carry a note per column; the first
 * ones and how many more say what happened, and the record stays small.
 */
const MAX_LISTED = 50;

function cutText(text: string): string {
  return text.length <= MAX_RECORDED_TEXT ? text : `${text.slice(0, MAX_RECORDED_TEXT - 1)}…`;
}

function listed(items: readonly string[]): string[] {
  const kept = items.slice(0, MAX_LISTED).map(cutText);
  if (items.length > MAX_LISTED) kept.push(`… and ${items.length - MAX_LISTED} more`);
  return kept;
}

/** Whether a range holds a text too long to record as it is (checked before anything is copied). */
function hasLongText(rows: readonly unknown[]): boolean {
  for (const row of rows) {
    if (typeof row === "string" && row.length > MAX_RECORDED_TEXT) return true;
    if (Array.isArray(row) && hasLongText(row)) return true;
  }
  return false;
}

function cutTexts(value: unknown): unknown {
  if (typeof value === "string") return cutText(value);
  return Array.isArray(value) ? value.map(cutTexts) : value;
}

/** Whether `rows` holds more than `limit` cells, counted a row at a time and stopping as soon as it does. */
function overCells(rows: readonly unknown[], limit: number): boolean {
  let cells = 0;
  for (const row of rows) {
    cells += Array.isArray(row) ? row.length : 1;
    if (cells > limit) return true;
  }
  return false;
}

function recordedArg(value: unknown): unknown {
  if (!Array.isArray(value)) {
    if (typeof value === "string") return cutText(value);
    return isEntityValue(value) ? brief(value) : value;
  }
  if (overCells(value, MAX_RECORDED_CELLS)) {
    const width = Array.isArray(value[0]) ? value[0].length : 1;
    return `(a range of ${value.length} × ${width} cells)`;
  }
  const cards = hasEntity(value) ? brief(value) : value;
  return Array.isArray(cards) && hasLongText(cards) ? cutTexts(cards) : cards;
}

/**
 * Arguments as the diagnostics keep them: a card passed in is recorded by its text, not as its whole
 * entity (thousands of cells each holding a card's every field would crowd the record), a range of
 * more than MAX_RECORDED_CELLS cells by its shape, a long text cut. The arguments themselves when nothing
 * needs changing.
 */
function recordedArgs(args: Record<string, unknown>): Record<string, unknown> {
  // Every cell passes here: the copy is made only for the rare call with a card or a huge range.
  let out: Record<string, unknown> | undefined;
  for (const name in args) {
    const recorded = recordedArg(args[name]);
    if (recorded !== args[name]) out ??= { ...args };
    if (out) out[name] = recorded;
  }
  return out ?? args;
}

/** Records the call's outcome: `error` when it failed as a whole, `cellErrors` for a table's error cells. */
export function recordCall(
  call: Call,
  trace: CallTrace,
  error?: { code: ErrorCode; message: string },
  cellErrors: string[] = []
): void {
  const diagnostics = sharedDiagnostics();
  diagnostics.recordCell(cellRecord(call, trace, diagnostics.now(), error, cellErrors));
  if (trace.stale && !error) diagnostics.noteStale(call.address, trace.stale);
}

/**
 * Records a call that succeeded synchronously (answered from the cache), its record made only if someone
 * reads it: copying the trace into a record was a large share of a warm cell's cost, and most records are
 * never opened. Nothing else holds the trace of a call that has returned, so the record made later is the
 * record that would have been made now.
 */
export function recordAnsweredCall(call: Call, trace: CallTrace): void {
  const diagnostics = sharedDiagnostics();
  if (trace.stale) diagnostics.noteStale(call.address, trace.stale);
  const at = diagnostics.now();
  // The arguments as recorded now, not later: a waiting record must not keep a huge range alive.
  const args = recordedArgs(call.args);
  const recorded = args === call.args ? call : { ...call, args };
  diagnostics.recordCellLater(
    call.address,
    () => cellRecord(recorded, trace, at),
    DEFERRED_RECORD_BYTES + recordBytes(args)
  );
}

function cellRecord(
  call: Call,
  trace: CallTrace,
  at: number,
  error?: { code: ErrorCode; message: string },
  cellErrors: string[] = []
): CellRecord {
  return {
    address: call.address,
    functionName: call.functionName,
    args: recordedArgs(call.args),
    at,
    requests: listed([...trace.requests]),
    warnings: listed([...trace.warnings, ...cellErrors]),
    stale: trace.stale,
    restored: trace.restored,
    definitions: Object.keys(trace.definitions).length > 0 ? trace.definitions : undefined,
    asOf:
      trace.asOf.size > 0
        ? Object.fromEntries([...trace.asOf].map(([label, day]) => [label, formatDay(day)]))
        : undefined,
    error: error
      ? { code: error.code === "na" ? "#N/A" : "#VALUE!", message: error.message }
      : undefined,
  };
}
