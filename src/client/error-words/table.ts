import { ERROR_KINDS, type ErrorKind } from "../errors";
import { CELL_WORDS } from "./cell";
import { CONNECTION_WORDS } from "./connection";
import { GATEWAY_WORDS } from "./gateway";
import { LABELS } from "./labels";
import { PANE_WORDS } from "./pane";
import type { KindWords } from "./words";

/**
 * The table by rows, for reading and for its test: each kind with every audience's words. The bundles read
 * the columns above (a bundle that read this would carry every audience's words).
 */
export const ERROR_WORDS: { readonly [K in ErrorKind]: KindWords } = /*#__PURE__*/ byRows();

function byRows(): { readonly [K in ErrorKind]: KindWords } {
  const rows = {} as Record<ErrorKind, KindWords>;
  for (const kind of ERROR_KINDS)
    rows[kind] = {
      label: LABELS[kind],
      cell: CELL_WORDS[kind],
      taskpane: PANE_WORDS[kind],
      gateway: GATEWAY_WORDS[kind],
      connection: CONNECTION_WORDS[kind],
    };
  return rows;
}
