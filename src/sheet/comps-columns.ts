/**
 * COMPS columns: what each column of a comps panel computes, read from its text.
 * - `metric`: the metric on the date (or its latest value), as VALUE gives it;
 * - `metric:window`: the metric rolled up over a trailing window (engine/figures/trailing-window.ts), as VALUE with
 *   `window=` gives it (e.g. `revenue:ttm`, `fees:30d`);
 * - `a/b`: the ratio of two such terms (e.g. `market_cap_fully_diluted/revenue:ttm`, a P/S on TTM revenue).
 * Metric ids are resolved later (they may be names); only the form is checked here, so a bad column is a
 * #VALUE! naming it before anything is asked of the service.
 * Formula text, so it lives with the sheet model: COMPS reads it (functions/impl/comps-columns.ts turns a
 * refusal into its #VALUE!, same message) and the taskpane's builder writes and labels it with this parser.
 */
import { parseWindow, WINDOW_FORMS, type TrailingWindow } from "../engine";
import { SheetError } from "./errors";

/** A column text that is no COMPS column: the message names it and says what to write. */
function invalid(message: string): SheetError {
  return new SheetError("comps-column", message);
}

export interface CompsTerm {
  metric: string;
  window?: TrailingWindow;
}

export interface CompsColumn {
  /** The column's text as the header shows it. */
  label: string;
  numerator: CompsTerm;
  /** Present for a ratio column. */
  denominator?: CompsTerm;
}

/** A panel wider than this is a mistake (a range of values passed as columns), not a comps table. */
export const MAX_COMPS_COLUMNS = 64;

function term(text: string, column: string): CompsTerm {
  const colon = text.indexOf(":");
  const metric = (colon < 0 ? text : text.slice(0, colon)).trim();
  if (!metric) throw invalid(`COMPS column "${column}" names no metric`);
  if (colon < 0) return { metric };
  const windowText = text.slice(colon + 1).trim();
  const window = parseWindow(windowText);
  if (!window)
    throw invalid(`COMPS column "${column}": "${windowText}" is not a window; use ${WINDOW_FORMS}`);
  return { metric, window };
}

/**
 * Finance shorthand typed as a column, and the ratio of metrics it stands for in the card (cards P/S and P/F:
 * fully diluted market cap over the trailing twelve months). Read as "P" divided by "S" it named no metric;
 * it is refused with the ratio to write, not guessed: a panel states its own basis.
 */
const SHORTHAND: Readonly<Record<string, string>> = {
  "p/s": "market_cap_fully_diluted/revenue:ttm",
  "p/f": "market_cap_fully_diluted/fees:ttm",
  "p/e": "market_cap_fully_diluted/earnings:ttm",
};

/** One column from its text. */
export function parseColumn(text: string): CompsColumn {
  const label = text.trim();
  const shorthand = SHORTHAND[label.replace(/\s+/g, "").toLowerCase()];
  if (shorthand)
    throw invalid(
      `COMPS column "${label}" is shorthand, not metrics: a ratio column divides two metrics; for ${label.toUpperCase()} on trailing twelve months write "${shorthand}"`
    );
  const parts = label.split("/");
  if (parts.length > 2)
    throw invalid(`COMPS column "${label}" divides more than once; use one ratio a/b per column`);
  const numerator = term(parts[0], label);
  return parts.length === 2
    ? { label, numerator, denominator: term(parts[1], label) }
    : { label, numerator };
}

/** The columns of a comma list or of a range's texts (empty cells skipped), in order. */
export function parseColumns(texts: readonly string[]): CompsColumn[] {
  const items = texts
    .flatMap((t) => t.split(","))
    .map((t) => t.trim())
    .filter(Boolean);
  if (items.length === 0)
    throw invalid('COMPS needs at least one column, e.g. "revenue:ttm, market_cap_fully_diluted"');
  if (items.length > MAX_COMPS_COLUMNS)
    throw invalid(`COMPS takes at most ${MAX_COMPS_COLUMNS} columns, not ${items.length}`);
  return items.map(parseColumn);
}
