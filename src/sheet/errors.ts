/**
 * The CLI's own errors: everything that stops an invocation before (or instead of) printing results.
 * Formula results that are Excel errors are NOT these: they are cells (see cells.ts) and give exit code 1.
 * `kind` is the stable contract; messages are one line for people.
 */

export const CLI_ERROR_KINDS = [
  "usage", // bad flags, missing subcommand, no formulas, unreadable --file, no base URL
  "syntax", // a formula the parser rejects
  "unknown-function", // a formula naming no registered function (Excel would show #NAME?)
  "arity", // too many arguments, or a required one missing
  "config", // the runtime refused the configuration (e.g. plain http off loopback)
  "broken-build", // functions metadata or module missing/inconsistent: a build problem, not the user's
] as const;

export type CliErrorKind = (typeof CLI_ERROR_KINDS)[number];

export class CliError extends Error {
  readonly kind: CliErrorKind;

  constructor(kind: CliErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "CliError";
    this.kind = kind;
  }

  /** 2 for anything the user can fix on the command line; 1 when the build itself is broken. */
  get exitCode(): 1 | 2 {
    return this.kind === "broken-build" ? 1 : 2;
  }
}

/** The parser's one error type: every malformed formula ends here, with a 1-based column. */
export class FormulaSyntaxError extends CliError {
  readonly column: number;
  /** The message without the position, for callers composing their own. */
  readonly reason: string;

  constructor(reason: string, column: number) {
    super("syntax", `${reason} at column ${column}`);
    this.name = "FormulaSyntaxError";
    this.column = column;
    this.reason = reason;
  }
}

/**
 * The first line of an error's message. Duck-typed, because errors thrown by Node internals or another
 * realm (jest's sandbox, a vm context) are not `instanceof Error` here.
 */
export function firstLineOf(error: unknown): string {
  const message =
    typeof error === "object" &&
    error !== null &&
    typeof (error as { message?: unknown }).message === "string"
      ? (error as { message: string }).message
      : String(error);
  return message.split("\n")[0];
}
