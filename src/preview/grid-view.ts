/**
 * The preview sheet on screen: a table of cells with column letters and row numbers, a roving focus moved
 * with the arrow keys, and typing on a cell starting an edit in the formula bar. Values go in as text; a
 * card (a data type) shows a card icon before its text, as in Excel.
 */
import { displayCell } from "../sheet/cell-display";
import { cardIcon } from "../ui/card-view";
import { h, replaceChildren } from "../ui/dom";
import { addressOf, columnName, positionKey, type Position, type ShownCell } from "./sheet-model";

interface GridCallbacks {
  select(at: Position): void;
  /** A key typed on a cell starts editing it (Enter/F2: edit the current formula). */
  edit(at: Position, initial?: string): void;
}

export function renderGrid(
  table: HTMLTableElement,
  extent: { rows: number; columns: number },
  shown: Map<string, ShownCell>,
  selected: Position,
  callbacks: GridCallbacks
): void {
  const header = h(
    "tr",
    {},
    // The corner heads nothing: an empty cell, not an empty header (axe's empty-table-header).
    h("td", { class: "corner" }),
    ...Array.from({ length: extent.columns }, (_, c) => h("th", { scope: "col" }, columnName(c)))
  );
  const rows = Array.from({ length: extent.rows }, (_, r) =>
    h(
      "tr",
      {},
      h("th", { scope: "row" }, String(r + 1)),
      ...Array.from({ length: extent.columns }, (_, c) => {
        const at = { row: r, column: c };
        const content = shown.get(positionKey(at));
        const display =
          content === undefined
            ? { text: "", kind: "empty" as const, message: undefined }
            : content.cell === "pending"
              ? { text: "#BUSY!", kind: "pending" as const, message: "waiting for the service" }
              : displayCell(content.cell);
        const isSelected = at.row === selected.row && at.column === selected.column;
        const td = h(
          "td",
          {
            id: `cell-${addressOf(at)}`,
            role: "gridcell",
            "data-address": addressOf(at),
            class: `cell ${display.kind}${content?.spilled ? " spilled" : ""}`,
            title: display.message,
            tabindex: isSelected ? 0 : -1,
            "aria-selected": String(isSelected),
          },
          display.kind === "entity" ? cardIcon() : null,
          display.text
        );
        td.addEventListener("click", () => callbacks.select(at));
        td.addEventListener("dblclick", () => callbacks.edit(at));
        td.addEventListener("keydown", (event) => onKey(event, at, extent, callbacks));
        return td;
      })
    )
  );
  replaceChildren(table, h("thead", {}, header), h("tbody", {}, ...rows));
}

function onKey(
  event: KeyboardEvent,
  at: Position,
  extent: { rows: number; columns: number },
  callbacks: GridCallbacks
): void {
  const moves: Record<string, [number, number]> = {
    ArrowUp: [-1, 0],
    ArrowDown: [1, 0],
    ArrowLeft: [0, -1],
    ArrowRight: [0, 1],
  };
  const move = moves[event.key];
  if (move) {
    event.preventDefault();
    callbacks.select({
      row: Math.min(extent.rows - 1, Math.max(0, at.row + move[0])),
      column: Math.min(extent.columns - 1, Math.max(0, at.column + move[1])),
    });
  } else if (event.key === "Enter" || event.key === "F2") {
    event.preventDefault();
    callbacks.edit(at);
  } else if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
    event.preventDefault();
    callbacks.edit(at, event.key);
  }
}
