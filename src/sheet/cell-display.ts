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

/**
 * The formats, made on first use: a process's first Intl object costs about 14 ms (ICU's data), which a CLI run
 * that prints JSON, or a gateway, would pay at start for nothing.
 */
let formats:
  | {
      big: Intl.NumberFormat;
      medium: Intl.NumberFormat;
      small: Intl.NumberFormat;
      percent: Intl.NumberFormat;
    }
  | undefined;

function numberFormats(): NonNullable<typeof formats> {
  return (formats ??= {
    big: new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 }),
    medium: new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 }),
    small: new Intl.NumberFormat("en-US", { maximumSignificantDigits: 4 }),
    // A ratio as a percentage, one decimal, as the functions format it in Excel (0.0%).
    percent: new Intl.NumberFormat("en-US", {
      style: "percent",
      minimumFractionDigits: 1,
      maximumFractionDigits: 1,
    }),
  });
}

export function formatNumber(value: number): string {
  const abs = Math.abs(value);
  const { big, medium, small } = numberFormats();
  if (abs >= 1000) return big.format(value);
  if (abs >= 1 || abs === 0) return medium.format(value);
  return small.format(value);
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

export function displayCell(cell: Cell): CellDisplay {
  const text =
    cell.kind === "number" && cell.percent
      ? numberFormats().percent.format(cell.value)
      : cellText(cell);
  return cell.kind === "error"
    ? { text, kind: cell.kind, message: cell.message }
    : { text, kind: cell.kind };
}
