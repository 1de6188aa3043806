/**
 * The words STATEMENT and COMPS write where people read, in a finance user's terms:
 * - metric names as the service's catalogue gives them ("Supply-side fees" for `fees_supply_side`), looked
 *   up by id or by name (a formula may name a metric either way); an id the catalogue does not list stays
 *   as the service wrote it;
 * - trailing windows as analysts write them: "TTM", "YTD", "QTD", "MTD", "30d", "3m";
 * - the ratios of a comps table by their names: market cap over revenue is P/S, over fees P/F, over
 *   earnings P/E, on the fully diluted market cap unless the column names the circulating one
 *   ("P/S (TTM)" for `market_cap_fully_diluted/revenue:ttm`), and only where the divisor is a year's figure
 *   (TTM, 12m, 365d) or a window annualised (annualize=1: "P/S (30d annualised)"): a market cap over one
 *   day's or 30 days' revenue is no P/S and says what it divides ("Fully diluted market cap / Revenue
 *   (30d)"); any other ratio as "A / B".
 * Ids stay where formulas need them: in the formulas, and in COMPS's id column (headers=2). The metric
 * resolver takes names as well as ids, so a STATEMENT's names still work as the metric of a VALUE formula.
 * Beside the column syntax (comps-columns.ts), so the taskpane's builder labels its columns as COMPS heads them.
 */
import type { Metric } from "../client";
import type { TrailingWindow } from "../engine";
import type { CompsColumn, CompsTerm } from "./comps-columns";

/** A metric's name for a metric id (or name) as written. */
type MetricNames = (idOrName: string) => string;

export function metricNamesFrom(catalogue: readonly Metric[]): MetricNames {
  const byKey = new Map<string, string>();
  for (const m of catalogue) {
    // Ids first: a name that happens to equal another metric's id never hides that metric.
    if (m.metricName) byKey.set(m.metricId.toLowerCase(), m.metricName);
  }
  for (const m of catalogue) {
    const key = m.metricName?.toLowerCase();
    if (key && !byKey.has(key)) byKey.set(key, m.metricName);
  }
  return (text) => byKey.get(text.trim().toLowerCase()) ?? text.trim();
}

const TO_DATE: Readonly<Record<string, string>> = { ytd: "YTD", qtd: "QTD", mtd: "MTD" };

/** "TTM", "YTD", "30d", "3m": a window as a comps header writes it. */
function windowLabel(window: TrailingWindow): string {
  if (window.text === "ttm") return "TTM";
  return TO_DATE[window.text] ?? window.text;
}

/** "Revenue (TTM)", "Revenue (30d annualised)", "Fully diluted market cap": one term of a comps column. */
function termLabel(term: CompsTerm, names: MetricNames, annualised = false): string {
  const name = names(term.metric);
  return term.window ? `${name} (${windowText(term.window, annualised)})` : name;
}

/** A window as a header writes it, "annualised" when it is scaled to a year (a year's window needs no word). */
function windowText(window: TrailingWindow, annualised: boolean): string {
  return annualised && !isYear(window) ? `${windowLabel(window)} annualised` : windowLabel(window);
}

/** A window of a year: TTM, 12m or 365d (a figure at an annual rate without scaling). */
function isYear(window: TrailingWindow): boolean {
  return (
    (window.kind === "months" && window.n === 12) || (window.kind === "days" && window.n === 365)
  );
}

/** The market caps a price multiple is taken on: fully diluted unless the column says circulating. */
const PRICE_TERMS: Readonly<Record<string, string>> = {
  market_cap_fully_diluted: "",
  market_cap_circulating: " circulating",
};

/** The letter of a price multiple by what divides the market cap (P/S, P/F, P/E). */
const MULTIPLE_LETTERS: Readonly<Record<string, string>> = {
  revenue: "S",
  fees: "F",
  earnings: "E",
};

/** The metric id a term names, when it names one of `ids` (by id or by its catalogue name). */
function idAmong(term: CompsTerm, names: MetricNames, ids: readonly string[]): string | undefined {
  const written = term.metric.trim().toLowerCase();
  return ids.find((id) => id === written || names(id).toLowerCase() === written);
}

/**
 * A comps column's header: "Fully diluted market cap", "Fees (30d)", "P/S (TTM)", "TVL / Fees (TTM)".
 * `annualised`: which terms' windows are scaled to a year (COMPS annualize=1 scales the summed ones only: a
 * TVL over 30 days is no annual rate, and its header does not say "annualised").
 */
export function compsColumnLabel(
  column: CompsColumn,
  names: MetricNames,
  annualised: (term: CompsTerm) => boolean = () => false
): string {
  const { numerator, denominator } = column;
  if (!denominator) return termLabel(numerator, names, annualised(numerator));
  const price = idAmong(numerator, names, Object.keys(PRICE_TERMS));
  const divisor = idAmong(denominator, names, Object.keys(MULTIPLE_LETTERS));
  const scaled = annualised(denominator);
  const yearly = denominator.window !== undefined && (scaled || isYear(denominator.window));
  if (price !== undefined && divisor !== undefined && !numerator.window && yearly) {
    const multiple = `P/${MULTIPLE_LETTERS[divisor]}${PRICE_TERMS[price]}`;
    return `${multiple} (${windowText(denominator.window!, scaled)})`;
  }
  return `${termLabel(numerator, names, annualised(numerator))} / ${termLabel(denominator, names, scaled)}`;
}
