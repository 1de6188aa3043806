/**
 * A function result (a grid of cells) as a small table, errors listed with their messages below it.
 * The caller may say which rows head the columns (drawn as `<th scope="col">`, not counted as rows), which
 * column names the rows (`<th scope="row">`, kept in view while the table scrolls sideways), and which rows to
 * show when there are more than fit: the first ones, or the last ones (a series' newest days). A line above
 * the table says which rows are shown of how many.
 */
import type { Grid } from "../sheet/cells";
import { displayCell } from "../sheet/cell-display";
import { h } from "./dom";

interface ResultTableOptions {
  id?: string;
  /** Rows shown besides the header rows (default 12). */
  maxRows?: number;
  /** The scroll region's name (it is a landmark: give each table a name of its own). */
  label?: string;
  /** Rows at the top that head the columns (default 0). */
  headerRows?: number;
  /** The column whose cells name the rows. */
  rowHeadingColumn?: number;
  /** Which rows to show when not all fit: the first (default) or the last (a series' newest, so said). */
  show?: "first" | "last";
  /** A column heading in words (and what the cell holds, when that differs); undefined: as it is. */
  heading?: (text: string, column: number) => { name: string; cell?: string } | undefined;
  /** What a row is, for the line saying how many there are (default "row"). */
  rowWord?: string;
}

const plural = (n: number, word: string): string =>
  `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

export function resultTable(grid: Grid, options: ResultTableOptions = {}): HTMLElement {
  const maxRows = options.maxRows ?? 12;
  const headerRows = Math.min(options.headerRows ?? 0, grid.length);
  const word = options.rowWord ?? "row";
  const body = grid.slice(headerRows);
  const shownFrom = options.show === "last" && body.length > maxRows ? body.length - maxRows : 0;
  const shown = body.slice(shownFrom, shownFrom + maxRows);
  const messages: string[] = [];
  const single = grid.length === 1 && grid[0].length === 1;

  const heads = grid.slice(0, headerRows).map((row) =>
    h(
      "tr",
      {},
      ...row.map((cell, c) => {
        const shownCell = displayCell(cell);
        const words =
          shownCell.kind === "string" ? options.heading?.(shownCell.text, c) : undefined;
        return h(
          "th",
          {
            scope: "col",
            class: `cell heading${c === options.rowHeadingColumn ? " row-heading" : ""}`,
          },
          words ? words.name : shownCell.text,
          words?.cell ? h("span", { class: "cell-id" }, words.cell) : null
        );
      })
    )
  );
  const rows = shown.map((row, i) =>
    h(
      "tr",
      {},
      ...row.map((cell, c) => {
        const displayed = displayCell(cell);
        if (displayed.kind === "error" && displayed.message) {
          // Counted as the sheet counts: the header rows are rows of the spill too.
          const r = headerRows + shownFrom + i;
          messages.push(
            single
              ? `${displayed.text} ${displayed.message}`
              : `Row ${r + 1}, column ${c + 1}: ${displayed.text} ${displayed.message}`
          );
        }
        const heading = c === options.rowHeadingColumn;
        return h(
          heading ? "th" : "td",
          {
            ...(heading ? { scope: "row" } : {}),
            class: `cell ${displayed.kind}${heading ? " row-heading" : ""}`,
            title: displayed.message,
          },
          displayed.text
        );
      })
    )
  );
  const hidden = body.length - shown.length;
  const which =
    hidden <= 0
      ? null
      : shownFrom > 0
        ? `The newest ${plural(shown.length, word)} of ${body.length.toLocaleString("en-US")}: the formula spills them all.`
        : `The first ${plural(shown.length, word)} of ${body.length.toLocaleString("en-US")}: the formula spills them all.`;
  return h(
    "div",
    { class: "result", id: options.id },
    which ? h("p", { class: "hint result-rows" }, which) : null,
    // A wide result scrolls sideways inside its box: the box is a named region keyboard users can focus
    // and scroll with the arrow keys.
    h(
      "div",
      {
        class: "result-scroll",
        role: "region",
        tabindex: 0,
        "aria-label": options.label ?? "Result",
      },
      h(
        "table",
        { class: "result-table" },
        heads.length > 0 ? h("thead", {}, ...heads) : null,
        h("tbody", {}, ...rows)
      )
    ),
    messages.length > 0
      ? h("ul", { class: "errors" }, ...messages.slice(0, 5).map((m) => h("li", {}, m)))
      : null
  );
}
