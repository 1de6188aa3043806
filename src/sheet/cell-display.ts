/**
 * How a result cell reads on a page (the builder's preview, the preview grid): numbers with thousands
 * separators and sensible decimals, dates as YYYY-MM-DD, errors by their code with the message kept for
 * display beside them. Always text: the caller puts it in a text node.
 */
import type { Cell } from "./cells";

export interface CellDisplay {
  text: string;
  kind: Cell["kind"];
  /** The error's message, for errors. */
  message?: string;
}

const BIG = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const MEDIUM = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
const SMALL = new Intl.NumberFormat("en-US", { maximumSignificantDigits: 4 });

export function formatNumber(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1000) return BIG.format(value);
  if (abs >= 1 || abs === 0) return MEDIUM.format(value);
  return SMALL.format(value);
}

export function displayCell(cell: Cell): CellDisplay {
  switch (cell.kind) {
    case "number":
      return { text: formatNumber(cell.value), kind: cell.kind };
    case "string":
    case "date":
      return { text: cell.value, kind: cell.kind };
    case "boolean":
      return { text: cell.value ? "TRUE" : "FALSE", kind: cell.kind };
    case "empty":
      return { text: "", kind: cell.kind };
    case "error":
      return { text: cell.code, kind: cell.kind, message: cell.message };
  }
}
