/**
 * The spreadsheet model's own errors: a formula that cannot be evaluated at all (it does not parse, names
 * no function, has the wrong number of arguments), a COMPS column text that is no column, or a functions
 * build that cannot be loaded. Formula results that are Excel errors are NOT these: they are cells (see
 * cells.ts).
 * `kind` is the stable contract; messages are one line for people.
 */

type SheetErrorKind =
  | "syntax" // a formula the parser rejects
  | "unknown-function" // a formula naming no registered function (Excel would show #NAME?)
  | "arity" // too many arguments, or a required one missing
  | "comps-column" // a COMPS column text that is no column (comps-columns.ts): COMPS's #VALUE!
  | "broken-build"; // functions metadata or module missing/inconsistent: a build problem, not the user's

export class SheetError extends Error {
  readonly kind: SheetErrorKind;

  constructor(kind: SheetErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "SheetError";
    this.kind = kind;
  }
}

/** The parser's one error type: every malformed formula ends here, with a 1-based column. */
export class FormulaSyntaxError extends SheetError {
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
