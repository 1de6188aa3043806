/**
 * The ready formulas the catalogue's insert buttons write, spelled as the function reference spells them.
 * Ids, not names, go into formulas: ids are stable and never need more than quoting.
 */
import { formulaText, text, type FormulaArg } from "./formula-text";

/** A year back from today, recalculated daily: TODAY()-365. */
const LAST_YEAR_DAYS = 365;

export function valueFormula(projectId: string, metricId: string): string {
  return formulaText("VALUE", [text(projectId), text(metricId)]);
}

export function metricLastYearFormula(projectId: string, metricId: string): string {
  const start: FormulaArg = { kind: "today-minus", days: LAST_YEAR_DAYS };
  return formulaText("METRIC", [text(projectId), text(metricId), start]);
}

export function statementFormula(
  projectId: string,
  granularity = "quarter",
  interval = "1y"
): string {
  return formulaText("STATEMENT", [text(projectId), text(granularity), text(interval)]);
}

export function projectFormula(projectId: string): string {
  return formulaText("PROJECT", [text(projectId)]);
}

export function sectorFormula(sectorId: string): string {
  return formulaText("SECTOR", [text(sectorId)]);
}

const PREFERRED_METRICS = ["revenue", "fees", "tvl", "price", "user_dau", "trading_volume"];

/** The metric a project's insert buttons start with: a headline one it has, else its first. */
export function defaultMetric(available: readonly string[]): string | undefined {
  return PREFERRED_METRICS.find((m) => available.includes(m)) ?? available[0];
}
