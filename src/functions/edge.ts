/**
 * The Excel edge: every custom function runs through `run`, which gives it the shared runtime, wires Excel's
 * cancellation, records the call for the taskpane's diagnostics, turns results into Excel values (real dates,
 * empty cells, error cells) and maps every failure to a CustomFunctions.Error with a message a person can act
 * on. This is the only place that creates CustomFunctions errors; no raw exception ever reaches a cell.
 */
import { isCryptometricsError, type CryptometricsError } from "../client";
import { createLogger } from "../client";
import { dayOfInstant, formatDay } from "../client/data/days";
import { readyRuntime, runtimeIfReady, sharedDiagnostics } from "../runtime/runtime";
import { CallTrace, type FnContext } from "./context";
import { dayToSerial } from "../sheet/excel-dates";
import { retryHint, settingsHint, supportsFormattedNumbers } from "./host";
import {
  FunctionError,
  isDateCell,
  isPercentCell,
  isEntityCell,
  isErrorCell,
  rectangular,
  type Cell,
  type ErrorCode,
  type Table,
} from "./result";
import { messageOf } from "../client/errors";

const log = createLogger("functions");

/** Excel shows an error's message in a tooltip; long texts are cut there anyway. */
const MAX_MESSAGE = 250;
export const DATE_FORMAT = "yyyy-mm-dd";
/** Growth ratios: one decimal of a percent, as terminals show growth. */
export const PERCENT_FORMAT = "0.0%";

type Invocation = CustomFunctions.Invocation & { onCanceled?: () => void };

function clip(message: string): string {
  return message.length <= MAX_MESSAGE ? message : `${message.slice(0, MAX_MESSAGE - 1)}…`;
}

/**
 * `before` + the client's message + `after`, the message cut to fit so that the whole stays within
 * MAX_MESSAGE: the advice around it (what to do) must survive the clipping, the details may not.
 */
function around(before: string, message: string, after: string): string {
  const room = Math.max(1, MAX_MESSAGE - before.length - after.length);
  const fitted = message.length <= room ? message : `${message.slice(0, room - 1)}…`;
  return `${before}${fitted}${after}`;
}

function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function forKind(e: CryptometricsError): { code: ErrorCode; message: string } {
  switch (e.kind) {
    case "invalid-input":
      return { code: "value", message: e.message };
    case "unauthorized":
      return { code: "value", message: around("", e.message, `: ${settingsHint()}.`) };
    case "subscription":
      return {
        code: "value",
        message: around(
          "",
          e.message,
          `: your plan does not cover this call; check the key (${settingsHint()}).`
        ),
      };
    case "not-found":
      return { code: "na", message: e.message };
    case "rate-limited":
      return {
        code: "na",
        message: around(
          `The service is still rate-limiting after retries; ${retryHint("in a minute")}. (`,
          e.message,
          ")"
        ),
      };
    case "cancelled":
      return { code: "na", message: "Cancelled." };
    case "too-large":
      // Not the service being down: the same request would be refused again, so no advice to ask again.
      return { code: "na", message: e.message };
    default:
      return {
        code: "na",
        message: around(
          "The service could not be reached: ",
          e.message,
          `. ${sentence(retryHint("once it is back"))}.`
        ),
      };
  }
}

/** The Excel error for any failure. Unexpected exceptions become #VALUE! with a short, safe message. */
export function classify(error: unknown): { code: ErrorCode; message: string } {
  if (error instanceof FunctionError) return { code: error.code, message: error.message };
  if (isCryptometricsError(error)) return forKind(error);
  log.error("unexpected failure in a custom function", {
    error: messageOf(error),
  });
  return {
    code: "value",
    message: `Cryptometrics hit an internal error (${messageOf(error)}); see Diagnostics.`,
  };
}

function excelError(code: ErrorCode, message: string): CustomFunctions.Error {
  const errorCode =
    code === "na" ? CustomFunctions.ErrorCode.notAvailable : CustomFunctions.ErrorCode.invalidValue;
  return new CustomFunctions.Error(errorCode, clip(message));
}

/** One Excel value. Dates are real dates (formatted numbers where the host shows them, serials elsewhere). */
export function toExcelValue(cell: Cell): unknown {
  if (cell === null) return "";
  if (typeof cell === "number") {
    return Number.isFinite(cell)
      ? cell
      : excelError("na", "the service sent a value that is not a finite number");
  }
  if (typeof cell === "string" || typeof cell === "boolean") return cell;
  if (isErrorCell(cell)) return excelError(cell.error, cell.message);
  if (isEntityCell(cell)) return cell.entity;
  if (isPercentCell(cell)) {
    if (!Number.isFinite(cell.percent))
      return excelError("na", "the change is not a finite number");
    return supportsFormattedNumbers()
      ? { type: "Double", basicValue: cell.percent, numberFormat: PERCENT_FORMAT }
      : cell.percent;
  }
  if (isDateCell(cell)) {
    const serial = dayToSerial(cell.date);
    return supportsFormattedNumbers()
      ? { type: "Double", basicValue: serial, numberFormat: DATE_FORMAT }
      : serial;
  }
  return "";
}

export function toExcelMatrix(table: Table): unknown[][] {
  const rows = rectangular(table.length === 0 ? [[null]] : table);
  return rows.map((row) => row.map(toExcelValue));
}

function describeCell(cell: Cell): string {
  if (isDateCell(cell)) return formatDay(cell.date);
  if (isErrorCell(cell)) return cell.message;
  if (isEntityCell(cell)) return cell.entity.text ?? "card";
  if (isPercentCell(cell)) return `${(cell.percent * 100).toFixed(1)}%`;
  return String(cell);
}

function isEntityArgument(value: unknown): value is { text?: unknown } {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    (value as { type?: unknown }).type === "Entity"
  );
}

function hasEntity(value: unknown): boolean {
  return isEntityArgument(value) || (Array.isArray(value) && value.some(hasEntity));
}

function brief(value: unknown): unknown {
  if (isEntityArgument(value)) return `card "${typeof value.text === "string" ? value.text : ""}"`;
  return Array.isArray(value) ? value.map(brief) : value;
}

/**
 * A range argument past this many cells is recorded by its shape. Walking a range of a million cells for
 * cards (twice: when the call starts and when it ends) cost more than refusing it, and the diagnostics would
 * keep the whole range alive; no one reads a thousand ids in a diagnostics line.
 */
const MAX_RECORDED_CELLS = 1_000;

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
  if (!Array.isArray(value)) return isEntityArgument(value) ? brief(value) : value;
  if (overCells(value, MAX_RECORDED_CELLS)) {
    const width = Array.isArray(value[0]) ? value[0].length : 1;
    return `(a range of ${value.length} × ${width} cells)`;
  }
  return hasEntity(value) ? brief(value) : value;
}

/**
 * Arguments as the diagnostics keep them: a card passed in is recorded by its text, not as its whole
 * entity (thousands of cells each holding a card's every field would crowd the record), and a range of
 * more than MAX_RECORDED_CELLS cells by its shape. The arguments themselves when nothing needs changing.
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

/**
 * Runs one custom function call. `args` are the arguments as Excel passed them (for diagnostics); `impl`
 * returns one cell or a table.
 */
export async function run(
  functionName: string,
  invocation: Invocation | undefined,
  args: Record<string, unknown>,
  impl: (ctx: FnContext) => Promise<Cell | Table>
): Promise<unknown> {
  const trace = new CallTrace();
  // The abort signal is made only when a call has to wait for the service: a warm workbook answers from the
  // cache and never needs one (an AbortController per cell costs more than the cached look-up).
  let controller: AbortController | undefined;
  let cancelled = false;
  const signal = (): AbortSignal => {
    if (!controller) {
      controller = new AbortController();
      if (cancelled) controller.abort();
    }
    return controller.signal;
  };
  if (invocation) {
    invocation.onCanceled = () => {
      cancelled = true;
      controller?.abort();
    };
  }
  const address = invocation?.address ?? `${functionName}(…)`;
  const diagnostics = sharedDiagnostics();
  const record = (error?: { code: ErrorCode; message: string }, cellErrors: string[] = []): void =>
    diagnostics.recordCell({
      address,
      functionName,
      args: recordedArgs(args),
      at: diagnostics.now(),
      requests: [...trace.requests],
      warnings: [...trace.warnings, ...cellErrors],
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
    });
  try {
    const runtime = runtimeIfReady() ?? (await readyRuntime());
    const result = await impl({
      runtime,
      engine: runtime.engine,
      trace,
      get signal() {
        return signal();
      },
      today: dayOfInstant(runtime.now()),
    });
    if (Array.isArray(result)) {
      const cellErrors = result.flat().filter(isErrorCell).map(describeCell);
      record(undefined, [...new Set(cellErrors)]);
      return toExcelMatrix(result);
    }
    if (isErrorCell(result)) throw new FunctionError(result.error, result.message);
    record();
    return toExcelValue(result);
  } catch (error) {
    const classified = classify(error);
    record(classified);
    // Excel shows a thrown CustomFunctions.Error as the cell's error; office.js does not type it as an Error.
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    throw excelError(classified.code, classified.message);
  }
}
