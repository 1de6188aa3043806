/**
 * The command line's own errors, and how every error that stops an invocation maps to an exit code.
 * A formula that cannot be evaluated at all is the spreadsheet model's SheetError; bad flags, no formulas,
 * an unreadable --file or a configuration the runtime refuses are a UsageError. Both carry a stable `kind`.
 */
import { SheetError } from "../sheet/errors";
import { firstLineOf } from "../client";

type UsageErrorKind =
  | "usage" // bad flags, missing subcommand, no formulas, unreadable --file, no base URL
  | "config"; // the runtime refused the configuration (e.g. plain http off loopback)

export class UsageError extends Error {
  readonly kind: UsageErrorKind;

  constructor(kind: UsageErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "UsageError";
    this.kind = kind;
  }
}

/**
 * Why a file the user named (--file, a key file) could not be read, in a few words for a UsageError's
 * message: the common system errors said plainly, any other by the first line of its message.
 */
export function describeReadError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ENOENT") return "no such file";
  if (code === "EISDIR") return "is a directory";
  if (code === "EACCES") return "permission denied";
  return firstLineOf(error);
}

export const EXIT_OK = 0;
/** A formula's whole result is an error, or the build is broken (not something the user typed). */
export const EXIT_FORMULA_ERROR = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERRUPTED = 130;

/** The errors the CLI reports as one line and an exit code; anything else is an internal error. */
export type StopError = UsageError | SheetError;

export function isStopError(error: unknown): error is StopError {
  return error instanceof UsageError || error instanceof SheetError;
}

/** 2 for anything the user can fix on the command line; 1 when the build itself is broken. */
export function exitCodeOf(error: StopError): 1 | 2 {
  return error.kind === "broken-build" ? EXIT_FORMULA_ERROR : EXIT_USAGE;
}

/** The same error, its message prefixed with where the formula came from ("formulas.txt:3: ..."). */
export function withLabel(label: string, error: StopError): StopError {
  const message = `${label}: ${error.message}`;
  return error instanceof UsageError
    ? new UsageError(error.kind, message, { cause: error })
    : new SheetError(error.kind, message, { cause: error });
}
