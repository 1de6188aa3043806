/**
 * Formula text, written the way the function reference (help.html) spells calls: `=CRYPTO.NAME(arg,...)`,
 * text in double quotes with `"` doubled, omitted optional arguments left empty and trailing ones dropped.
 * Besides constants, an argument may be a rolling date (`TODAY()-365`), which Excel recalculates daily; for
 * the builder's live preview it stands for today's serial minus the days.
 */
import { dayToSerial } from "../../sheet/excel-dates";
import type { Argument, FormulaCall, Scalar } from "../../sheet/formula";

export type FormulaArg =
  | Scalar
  | { kind: "omitted" }
  /** TODAY()-days: a date that moves with the calendar. */
  | { kind: "today-minus"; days: number }
  /** An array constant, `{"a";"b"}`: rows separated by `;`, cells by `,` (as Range.formulas takes it). */
  | { kind: "array"; rows: Scalar[][] };

export const NAMESPACE = "CRYPTO";

/** Excel refuses a text constant longer than this inside a formula (counted as written, quotes doubled). */
export const EXCEL_MAX_FORMULA_TEXT = 255;

export function text(value: string): FormulaArg {
  return { kind: "string", value };
}

export function num(value: number): FormulaArg {
  return { kind: "number", value };
}

export const OMITTED: FormulaArg = { kind: "omitted" };

/**
 * A list of ids as one comma-list text, `"a,b"`, while it fits Excel's limit for a text in a formula; past
 * it, a column of texts (`{"a";"b"}`), which the functions read the same way.
 */
export function idListArg(ids: readonly string[]): FormulaArg {
  const joined = ids.join(",");
  return quote(joined).length - 2 <= EXCEL_MAX_FORMULA_TEXT ? text(joined) : textColumn(ids);
}

/** A column of texts as an array constant: `{"a";"b"}`. */
export function textColumn(values: readonly string[]): FormulaArg {
  return { kind: "array", rows: values.map((value) => [{ kind: "string", value }]) };
}

/** A string literal: `"` doubled, as Excel reads it back. */
export function quote(value: string): string {
  return `"${value.replace(/"/g, '""')}"`;
}

function argText(arg: FormulaArg): string {
  switch (arg.kind) {
    case "omitted":
      return "";
    case "string":
      return quote(arg.value);
    case "number":
      return String(arg.value);
    case "boolean":
      return arg.value ? "TRUE" : "FALSE";
    case "today-minus":
      return arg.days === 0 ? "TODAY()" : `TODAY()-${arg.days}`;
    case "array":
      return `{${arg.rows.map((row) => row.map(argText).join(",")).join(";")}}`;
  }
}

/** Drops trailing omitted arguments: `f(a,,)` is `f(a)`. */
function trimArgs(args: readonly FormulaArg[]): FormulaArg[] {
  let end = args.length;
  while (end > 0 && args[end - 1].kind === "omitted") end -= 1;
  return args.slice(0, end);
}

export function formulaText(name: string, args: readonly FormulaArg[]): string {
  return `=${NAMESPACE}.${name}(${trimArgs(args).map(argText).join(",")})`;
}

/**
 * The call as the sheet model evaluates it, rolling dates resolved against `today` (a UTC day number), so
 * the preview computes what the cell will show today.
 */
export function callForPreview(
  name: string,
  args: readonly FormulaArg[],
  today: number
): FormulaCall {
  return {
    name,
    args: trimArgs(args).map((arg): Argument => {
      if (arg.kind === "today-minus")
        return { kind: "number", value: dayToSerial(today - arg.days) };
      return arg;
    }),
  };
}
