/**
 * The `csv` format: RFC 4180 records with CRLF line ends (what the RFC prescribes, and what spreadsheet
 * programs expect). One table per formula, separated by a blank line, each labelled by a first line "# " and
 * its formula (several tables in one file say which is which); below each table the error messages as lines
 * starting with "# ". Numbers as the table format shows them: six decimals, six significant digits below 1
 * (what a figure of the service means, without the float noise of 0.1 + 0.2); `--format json` keeps every
 * digit for programs. Dates are YYYY-MM-DD; errors show their code. Text that a spreadsheet would run as a
 * formula is made inert (sheet/safe-text.ts).
 */
import { cellText } from "../../sheet/cell-display";
import type { Cell } from "../../sheet/cells";
import { inertText } from "../../sheet/safe-text";
import { displayNumber, errorMessages, singleLine } from "./cells-text";
import type { FormattedResult } from "./cells-text";

const CRLF = "\r\n";

/** Quote a field when it holds a comma, a quote, CR or LF; quotes inside are doubled (RFC 4180, 2.6-2.7). */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Numbers as the table shows them; text made inert (see inertText) while numbers, -5 included, stay numbers. */
function fieldText(cell: Cell): string {
  return cell.kind === "string" ? inertText(cell.value) : cellText(cell, displayNumber);
}

function renderRow(row: readonly Cell[]): string {
  return row.map((cell) => csvField(fieldText(cell))).join(",");
}

/** One record per chunk, each with its CRLF; a blank line between results. */
export function* csvChunks(results: readonly FormattedResult[]): Generator<string> {
  for (const [i, { formula, grid }] of results.entries()) {
    if (i > 0) yield CRLF;
    // The label is one field, as a message line: the formula's commas cannot start new fields.
    yield csvField(`# ${singleLine(formula)}`) + CRLF;
    for (const row of grid) yield renderRow(row) + CRLF;
    // A message line is one quoted field when it needs to be: its commas cannot start new fields.
    for (const message of errorMessages(grid)) yield csvField(`# ${message}`) + CRLF;
  }
}
