/**
 * Repeats in the summaries' rows (the statement, a project's aggregations) collapsed to one, by the rule of
 * distinct.ts; apart from the daily series' so that they are loaded with the summaries (operations.ts).
 */
import { distinct, mergeValue, resolve, type RepeatCounter } from "./distinct";
import type { FinancialStatementRow, ProjectMetricAggregation } from "./types";

/** §4.5 rows: one per period, section and metric (value and change resolved alike). */
export function distinctStatementRows(
  rows: readonly FinancialStatementRow[],
  counter: RepeatCounter
): FinancialStatementRow[] {
  return distinct(
    rows,
    (r) => JSON.stringify([r.date, r.section, r.metricId]),
    (kept, next, fold) => {
      const merged = mergeValue(kept, next, fold, `${kept.metricId} for ${kept.date}`, {
        date: kept.date,
        section: kept.section,
        metricId: kept.metricId,
      });
      if (fold.stuck.has("value")) return { ...merged, popChange: null, conflicted: true };
      const change = resolve(merged.popChange, next.popChange);
      return change.value === merged.popChange ? merged : { ...merged, popChange: change.value };
    },
    counter
  );
}

/** §4.4 rows: one per metric and aggregation name. */
export function distinctAggregationRows(
  rows: readonly ProjectMetricAggregation[],
  counter: RepeatCounter
): ProjectMetricAggregation[] {
  return distinct(
    rows,
    (r) => JSON.stringify([r.projectId, r.metricId, r.aggregation]),
    (kept, next, fold) =>
      mergeValue(kept, next, fold, `${kept.aggregation} of ${kept.metricId}`, {
        projectId: kept.projectId,
        metricId: kept.metricId,
        aggregation: kept.aggregation,
      }),
    counter
  );
}
