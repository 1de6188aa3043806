/** A function result (a grid of cells) as a small table, errors listed with their messages below it. */
import type { Grid } from "../sheet/cells";
import { displayCell } from "../sheet/cell-display";
import { h } from "./dom";

export function resultTable(
  grid: Grid,
  options: { id?: string; maxRows?: number; label?: string } = {}
): HTMLElement {
  const maxRows = options.maxRows ?? 12;
  const messages: string[] = [];
  const rows = grid.slice(0, maxRows).map((row, r) =>
    h(
      "tr",
      {},
      ...row.map((cell, c) => {
        const shown = displayCell(cell);
        if (shown.kind === "error" && shown.message) {
          messages.push(
            grid.length === 1 && row.length === 1
              ? `${shown.text} ${shown.message}`
              : `Row ${r + 1}, column ${c + 1}: ${shown.text} ${shown.message}`
          );
        }
        return h("td", { class: `cell ${shown.kind}`, title: shown.message }, shown.text);
      })
    )
  );
  const more = grid.length - maxRows;
  return h(
    "div",
    { class: "result", id: options.id },
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
      h("table", { class: "result-table" }, h("tbody", {}, ...rows))
    ),
    more > 0 ? h("p", { class: "hint" }, `… ${more} more row${more === 1 ? "" : "s"}`) : null,
    messages.length > 0
      ? h("ul", { class: "errors" }, ...messages.slice(0, 5).map((m) => h("li", {}, m)))
      : null
  );
}
