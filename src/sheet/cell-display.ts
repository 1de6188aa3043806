/**
 * How a result cell reads on a page (the builder's preview, the preview grid): numbers with thousands
 * separators and sensible decimals, ratios the function formats as percentages as percentages (-15.8%), dates as YYYY-MM-DD, errors by their code with the message kept for
 * display beside them. Always text: the caller puts it in a text node. The CLI's table and CSV use cellText
 * with their own number formats.
 */
import type { Cell } from "./cells";

interface CellDisplay {
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

/**
 * A cell as text, the one place that spells each kind: numbers as `number` writes them (the pages' format
 * unless told otherwise), text and dates (YYYY-MM-DD) as they are, TRUE/FALSE, nothing for an empty cell,
 * an error by its code (its message goes beside the cell, not in it), a card by its text.
 */
export function cellText(cell: Cell, number: (value: number) => string = formatNumber): string {
  switch (cell.kind) {
    case "number":
      return number(cell.value);
    case "string":
    case "date":
      return cell.value;
    case "boolean":
      return cell.value ? "TRUE" : "FALSE";
    case "empty":
      return "";
    case "error":
      return cell.code;
    case "entity":
      return cell.text;
  }
}

/** A ratio as a percentage, one decimal, as the functions format it in Excel (0.0%). */
const PERCENT = new Intl.NumberFormat("en-US", {
  style: "percent",
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});

export function displayCell(cell: Cell): CellDisplay {
  const text = cell.kind === "number" && cell.percent ? PERCENT.format(cell.value) : cellText(cell);
  return cell.kind === "error"
    ? { text, kind: cell.kind, message: cell.message }
    : { text, kind: cell.kind };
}
