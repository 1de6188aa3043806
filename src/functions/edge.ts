/**
 * The Excel edge: every custom function runs through `run`, which gives it the shared runtime, wires Excel's
 * cancellation, records the call for the taskpane's diagnostics, turns results into Excel values (real dates,
 * empty cells, error cells) and maps every failure to a CustomFunctions.Error with a message a person can act
 * on. This is the only place that creates CustomFunctions errors; no raw exception ever reaches a cell.
 */
import {
  CELL_WORDS,
  isCryptometricsError,
  type CellHints,
  type CryptometricsError,
  type ExcelErrorName,
} from "../client";
import { createLogger } from "../client";
import { dayOfInstant, formatDay } from "../client";
import { readyRuntime, runtimeIfReady } from "../runtime/runtime";
import { recordAnsweredCall, recordCall, type Call } from "./call-record";
import { CallTrace, NOT_CACHED, type FnContext, type NotCached } from "./context";
import { dayToSerial } from "../sheet/excel-dates";
import { addressHint, retryHint, settingsHint, supportsFormattedNumbers } from "./host";
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
import { messageOf } from "../client";
import { isValuePreview, placeholderFor, PREVIEW_DEADLINE_MS, PreviewCall } from "./preview";
import { userMessage } from "./messages";
import { payloadProblem } from "./payload";

const log = createLogger("functions");

/** Excel shows an error's message in a tooltip; long texts are cut there anyway. */
const MAX_MESSAGE = 250;
export const DATE_FORMAT = "yyyy-mm-dd";
/** Growth ratios: one decimal of a percent, as terminals show growth. */
const PERCENT_FORMAT = "0.0%";

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

/** Where this host's user sets things and asks again, for the table's cell words. */
const HINTS: CellHints = {
  get settings() {
    return settingsHint();
  },
  get address() {
    return addressHint();
  },
  retry: retryHint,
};

/** Excel errors by name (the table's data) as this edge's codes. */
const CODE_OF: Readonly<Record<ExcelErrorName, ErrorCode>> = { "#VALUE!": "value", "#N/A": "na" };

/** A client error in the cell's words: the table's cell column (src/client/error-words/). */
function forKind(error: CryptometricsError): { code: ErrorCode; message: string } {
  const words = CELL_WORDS[error.kind];
  // The client's own call labels ("listProjects(): …") are for developers: a cell says it in words.
  const said = words.says(HINTS, error);
  const message =
    "text" in said
      ? said.text
      : around(said.before, userMessage(error.message, words.call), said.after);
  return { code: CODE_OF[words.excel], message };
}

/** The Excel error for any failure. Unexpected exceptions become #VALUE! with a short, safe message. */
function classify(error: unknown): { code: ErrorCode; message: string } {
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
function toExcelValue(cell: Cell): unknown {
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
  const matrix = rows.map((row) => row.map(toExcelValue));
  // Refused before Excel fails it: a spill past Excel's 5 MB payload limit (payload.ts).
  const tooLarge = payloadProblem(matrix);
  if (tooLarge) throw new FunctionError("na", tooLarge);
  return matrix;
}

function describeCell(cell: Cell): string {
  if (isDateCell(cell)) return formatDay(cell.date);
  if (isErrorCell(cell)) return cell.message;
  if (isEntityCell(cell)) return cell.entity.text ?? "card";
  if (isPercentCell(cell)) return `${(cell.percent * 100).toFixed(1)}%`;
  return String(cell);
}

/** The call as the diagnostics name it. */
function callOf(
  functionName: string,
  invocation: Invocation | undefined,
  args: Record<string, unknown>
): Call {
  return { address: invocation?.address ?? `${functionName}(…)`, functionName, args };
}

/**
 * An implementation's result as Excel takes it, recorded; an error cell as the whole result is thrown.
 * `answered`: the call answered synchronously, its trace complete, so its record can wait until it is read.
 */
function settle(call: Call, trace: CallTrace, result: Cell | Table, answered = false): unknown {
  if (Array.isArray(result)) {
    const cellErrors = result.flat().filter(isErrorCell).map(describeCell);
    recordCall(call, trace, undefined, [...new Set(cellErrors)]);
    return toExcelMatrix(result);
  }
  if (isErrorCell(result)) throw new FunctionError(result.error, result.message);
  if (answered) recordAnsweredCall(call, trace);
  else recordCall(call, trace);
  return toExcelValue(result);
}

/** A result as settle() gives it, recorded nowhere (a preview's). */
function shown(result: Cell | Table): unknown {
  if (Array.isArray(result)) return toExcelMatrix(result);
  if (isErrorCell(result)) throw new FunctionError(result.error, result.message);
  return toExcelValue(result);
}

/** A failure as failed() gives it, recorded nowhere (a preview's: an argument refused as on Enter). */
function previewError(error: unknown): CustomFunctions.Error {
  const classified = classify(error);
  return excelError(classified.code, classified.message);
}

/**
 * A formula value preview (preview.ts): the implementation over the cache-only engine, so it shows what
 * Enter will show when every answer is held, or the placeholder as soon as one is not; no request, no record.
 */
async function preview(
  functionName: string,
  impl: (ctx: FnContext) => Promise<Cell | Table>
): Promise<unknown> {
  const placeholder = placeholderFor(functionName);
  const runtime = runtimeIfReady();
  if (!runtime) return placeholder; // still reading the settings: nothing is held yet
  const call = new PreviewCall(runtime, dayOfInstant(runtime.now()));
  let timer: unknown;
  const late = new Promise<"late">((resolve) => {
    timer = runtime.timers.setTimeout(() => resolve("late"), PREVIEW_DEADLINE_MS);
  });
  try {
    const result = await Promise.race([impl(call.ctx), late]);
    return result === "late" || call.missed ? placeholder : shown(result);
  } catch (error) {
    if (call.missed) return placeholder;
    // Excel shows a thrown CustomFunctions.Error as the cell's error; office.js does not type it as an Error.
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    throw previewError(error);
  } finally {
    runtime.timers.clearTimeout(timer);
  }
}

/** Any failure, recorded, as the Excel error the cell shows. */
function failed(call: Call, trace: CallTrace, error: unknown): CustomFunctions.Error {
  const classified = classify(error);
  recordCall(call, trace, classified);
  return excelError(classified.code, classified.message);
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
  if (isValuePreview(invocation)) return preview(functionName, impl);
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
  const call = callOf(functionName, invocation, args);
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
    return settle(call, trace, result);
  } catch (error) {
    // Excel shows a thrown CustomFunctions.Error as the cell's error; office.js does not type it as an Error.
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    throw failed(call, trace, error);
  }
}

/**
 * Runs one call synchronously when `cached` can answer it from what the runtime already holds, else as
 * `run` does with `impl` (afresh: nothing `cached` noted is kept). Excel takes a plain return value from a
 * custom function as it takes a promise's; a warm recalculation of thousands of cells then makes no promise,
 * abort signal or cancel handler per cell (there is nothing left to cancel). A failure found synchronously
 * is still delivered as a rejected promise, as from `run`, so every caller meets errors one way.
 */
export function runCached(
  functionName: string,
  invocation: Invocation | undefined,
  args: Record<string, unknown>,
  cached: (ctx: FnContext) => Cell | Table | NotCached,
  impl: (ctx: FnContext) => Promise<Cell | Table>
): unknown {
  const runtime = runtimeIfReady();
  if (!runtime) return run(functionName, invocation, args, impl);
  const trace = new CallTrace();
  if (isValuePreview(invocation)) {
    // The synchronous read is a preview's too: it only reads what is held, and records nothing here.
    try {
      const held = cached({
        runtime,
        engine: runtime.engine,
        trace,
        today: dayOfInstant(runtime.now()),
      });
      return held === NOT_CACHED ? preview(functionName, impl) : shown(held);
    } catch (error) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      return Promise.reject(previewError(error));
    }
  }
  let result: Cell | Table | NotCached;
  try {
    result = cached({
      runtime,
      engine: runtime.engine,
      trace,
      today: dayOfInstant(runtime.now()),
    });
    if (result === NOT_CACHED) return run(functionName, invocation, args, impl);
    return settle(callOf(functionName, invocation, args), trace, result, true);
  } catch (error) {
    // As from run: the CustomFunctions.Error Excel shows (office.js does not type it as an Error).
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
    return Promise.reject(failed(callOf(functionName, invocation, args), trace, error));
  }
}
