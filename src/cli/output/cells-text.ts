/**
 * Pieces the text formats (table, csv) share: A1 addresses inside a result, the list of error messages
 * printed below it, and how numbers read for people.
 */
import { Grid, isWholeError } from "../../sheet/cells";
import { BIDI_CONTROL_CLASS, PLACEHOLDER } from "../../sheet/safe-text";

/** One formula's outcome as the output formats receive it. */
export interface FormattedResult {
  /** The canonical formula text, `=CRYPTO.NAME(args)`. */
  formula: string;
  grid: Grid;
}

/** 0 -> A, 25 -> Z, 26 -> AA: spreadsheet column letters. */
export function columnLetters(index: number): string {
  let letters = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

/** Address of a cell relative to the result's top-left corner, which is A1. */
function cellAddress(row: number, column: number): string {
  return `${columnLetters(column)}${row + 1}`;
}

/**
 * The messages to print below a result: for a whole-result error its code and message; otherwise one line
 * per error cell that carries a message ("B3: #N/A unknown project 'foo'"). Codes alone are already in
 * the cells.
 */
export function errorMessages(grid: Grid): string[] {
  if (isWholeError(grid)) {
    const cell = grid[0][0];
    return cell.kind === "error" ? [joinCodeAndMessage(cell.code, cell.message)] : [];
  }
  const lines: string[] = [];
  grid.forEach((row, r) =>
    row.forEach((cell, c) => {
      if (cell.kind === "error" && cell.message !== "") {
        lines.push(`${cellAddress(r, c)}: ${joinCodeAndMessage(cell.code, cell.message)}`);
      }
    })
  );
  return lines;
}

function joinCodeAndMessage(code: string, message: string): string {
  return message === "" ? code : `${code} ${singleLine(message)}`;
}

/**
 * What a terminal would act on rather than show: C0 controls (ESC starts escape sequences that set the
 * title or clear the screen, BEL rings, NUL hides what follows), DEL, C1 controls (0x9B is an 8-bit ESC [)
 * and the bidirectional formatting characters (an RLO makes "exe.txt" read "txt.exe").
 */
const UNSAFE = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f${BIDI_CONTROL_CLASS}]`, "g");

/** Shown in place of each unsafe character: visible, so nothing is hidden, and inert. */
/** Text from the service or a formula, safe to print on a terminal: unsafe characters shown as �. */
export function printable(text: string): string {
  return text.replace(UNSAFE, PLACEHOLDER);
}

/**
 * Messages and cell text must not break the line structure of the output (line breaks and tabs become
 * spaces) nor drive the terminal (other controls become the placeholder).
 */
export function singleLine(text: string): string {
  return printable(text.replace(/\r\n|\r|\n|\t/g, " "));
}

function trimFraction(text: string): string {
  return text.includes(".") && !/e/i.test(text) ? text.replace(/\.?0+$/, "") : text;
}

/**
 * A number as the table shows it: integers in full, other values with up to six decimals (six significant
 * digits below 1), no exponent between 1e-6 and 1e15; beyond that JavaScript's shortest form.
 */
export function displayNumber(value: number): string {
  const magnitude = Math.abs(value);
  if (value === 0) return "0";
  if (magnitude >= 1e15 || magnitude < 1e-6) return String(value);
  if (Number.isInteger(value)) return value.toFixed(0);
  const text = magnitude >= 1 ? value.toFixed(6) : value.toPrecision(6);
  return trimFraction(text);
}
