/**
 * The `table` format, for people: each result under its formula, columns aligned (numbers to the right),
 * error codes in the cells and their messages listed below.
 */
import { cellText } from "../../sheet/cell-display";
import { Cell, Grid, isWholeError } from "../../sheet/cells";
import { displayNumber, errorMessages, singleLine } from "./cells-text";
import type { FormattedResult } from "./cells-text";

const GAP = "  ";

function tableText(cell: Cell): string {
  return singleLine(cellText(cell, displayNumber));
}

// Width in code points, so accented project names do not push columns out of line.
function width(text: string): number {
  return [...text].length;
}

function pad(text: string, size: number, right: boolean): string {
  const fill = " ".repeat(Math.max(0, size - width(text)));
  return right ? fill + text : text + fill;
}

/** The grid's lines, aligned: every cell's text is needed first for the widths, the lines come one by one. */
function* renderGrid(grid: Grid): Generator<string> {
  const texts = grid.map((row) => row.map(tableText));
  // Folded, never spread into Math.max: a result may have more rows than a call takes arguments.
  const widths = grid[0].map((_, c) => texts.reduce((w, row) => Math.max(w, width(row[c])), 0));
  for (const [r, row] of grid.entries())
    yield row
      .map((cell, c) => pad(texts[r][c], widths[c], cell.kind === "number"))
      .join(GAP)
      .trimEnd();
}

/** One line per chunk, each with its newline; a blank line between results. */
export function* tableChunks(results: readonly FormattedResult[]): Generator<string> {
  for (const [i, { formula, grid }] of results.entries()) {
    if (i > 0) yield "\n";
    yield `${singleLine(formula)}\n`;
    // A whole-result error reads best as one line: its code and message, nothing to align.
    if (!isWholeError(grid)) for (const line of renderGrid(grid)) yield `${line}\n`;
    for (const line of errorMessages(grid)) yield `${line}\n`;
  }
}
