/**
 * The `csv` format: RFC 4180 records with CRLF line ends (what the RFC prescribes, and what spreadsheet
 * programs expect). One table per formula, separated by a blank line; below each table the error messages
 * as lines starting with "# ". Numbers keep full precision; dates are YYYY-MM-DD; errors show their code.
 */
import { cellText } from "../../sheet/cell-display";
import { Grid } from "../../sheet/cells";
import { errorMessages } from "./cells-text";
import { FormattedResult } from "./types";

export const CRLF = "\r\n";

/** Quote a field when it holds a comma, a quote, CR or LF; quotes inside are doubled (RFC 4180, 2.6-2.7). */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Full precision: String() is the shortest text that reads back as the same number. */
function renderGrid(grid: Grid): string[] {
  return grid.map((row) => row.map((cell) => csvField(cellText(cell, String))).join(","));
}

export function formatCsv(results: readonly FormattedResult[]): string {
  return results
    .map(({ grid }) => {
      const lines = [...renderGrid(grid), ...errorMessages(grid).map((message) => `# ${message}`)];
      return lines.map((line) => line + CRLF).join("");
    })
    .join(CRLF);
}
