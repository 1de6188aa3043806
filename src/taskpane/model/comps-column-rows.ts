/**
 * The formula builder's COMPS columns as rows a user edits: each row a metric over an optional trailing
 * window, optionally divided by a second such term (a ratio: P/S on TTM revenue is
 * market_cap_fully_diluted / revenue:ttm). Rows → the column texts COMPS parses (sheet/comps-columns.ts)
 * and back; both directions go through COMPS's own parser, so the builder cannot write a column COMPS
 * would read differently. The rows start at the comps a sector's *Insert comps* writes (sector-comps.ts).
 */
import { MAX_COMPS_COLUMNS, parseColumns } from "../../sheet/comps-columns";
import { OPTION_CHOICES } from "../../functions/options";
import { compsColumnsFor } from "./sector-comps";
import { idListArg, type FormulaArg } from "./formula-text";

export interface CompsTermRow {
  /** A metric id from the catalogue; "" while none is chosen. */
  metric: string;
  /** A trailing window as COMPS reads it (`ttm`, `30d`, ...); "" for the value on the date. */
  window: string;
}

export interface CompsColumnRow {
  term: CompsTermRow;
  /** Present for a ratio: the term the first one is divided by. */
  divisor?: CompsTermRow;
}

/** The window presets offered, the same as `window=` takes (the option table's own list). */
export const COMPS_WINDOW_CHOICES: readonly string[] = OPTION_CHOICES.window ?? [];

export { MAX_COMPS_COLUMNS };

/** A window in words for the choice's label: "ttm: trailing twelve months". */
export function windowWords(window: string): string {
  const todate: Record<string, string> = {
    ttm: "trailing twelve months",
    ytd: "year to date",
    qtd: "quarter to date",
    mtd: "month to date",
  };
  const n = /^(\d+)([dm])$/.exec(window);
  const words = n ? `last ${n[1]} ${n[2] === "d" ? "days" : "months"}` : todate[window];
  return words ? `${window}: ${words}` : window;
}

const termText = (t: CompsTermRow): string => (t.window ? `${t.metric}:${t.window}` : t.metric);

/** One column's text as COMPS reads it: `metric`, `metric:window`, or `a/b` of two such terms. */
export function columnText(row: CompsColumnRow): string {
  return row.divisor ? `${termText(row.term)}/${termText(row.divisor)}` : termText(row.term);
}

/** A row's own copy (rows are handed out and kept; neither side's edits may reach the other). */
export function copyRow(row: CompsColumnRow): CompsColumnRow {
  return row.divisor
    ? { term: { ...row.term }, divisor: { ...row.divisor } }
    : { term: { ...row.term } };
}

/**
 * The columns argument: one comma list while it fits a text of a formula (255 characters), else a column
 * of texts, one per column (COMPS reads both the same way).
 */
export function columnsArg(rows: readonly CompsColumnRow[]): FormulaArg {
  return idListArg(rows.map(columnText));
}

/** Column texts (a comma list, or a range's texts) → rows, read by COMPS's parser; throws what COMPS says. */
export function columnRows(texts: readonly string[]): CompsColumnRow[] {
  return parseColumns(texts).map((column) => {
    const term = (t: { metric: string; window?: { text: string } }): CompsTermRow => ({
      metric: t.metric,
      window: t.window?.text ?? "",
    });
    return column.denominator
      ? { term: term(column.numerator), divisor: term(column.denominator) }
      : { term: term(column.numerator) };
  });
}

/** The rows the builder starts at: *Insert comps*'s default columns the catalogue has the metrics of. */
export function defaultColumnRows(hasMetric: (metricId: string) => boolean): CompsColumnRow[] {
  const columns = compsColumnsFor(hasMetric);
  return columns.length === 0 ? [] : columnRows(columns.map((c) => c.column));
}

/**
 * A metric id that would not read back as itself once written into a column: `,` `:` `/` are the column
 * grammar, and COMPS trims each term.
 */
const UNWRITABLE = /[,:/]|^\s|\s$/;

interface RowProblem {
  /** The row (0-based) and the part of it the problem is in. */
  row: number;
  part: "metric" | "divisor";
  message: string;
  /** Nothing chosen yet (guidance), rather than a choice that is wrong (an error). */
  unchosen?: true;
}

/** What keeps each row from being a COMPS column (for inline errors; the count is the caller's check). */
export function rowProblems(rows: readonly CompsColumnRow[]): RowProblem[] {
  const problems: RowProblem[] = [];
  rows.forEach((row, i) => {
    const check = (t: CompsTermRow, part: RowProblem["part"], what: string): void => {
      if (t.metric === "")
        problems.push({
          row: i,
          part,
          message: `Column ${i + 1}: choose ${what}.`,
          unchosen: true,
        });
      else if (UNWRITABLE.test(t.metric))
        problems.push({
          row: i,
          part,
          message: `Column ${i + 1}: the metric "${t.metric}" cannot be written as a COMPS column.`,
        });
    };
    check(row.term, "metric", "a metric");
    if (row.divisor) check(row.divisor, "divisor", "the metric to divide by");
  });
  return problems;
}
