/**
 * Metric aggregations (§4.4, §4.12) and the summarised breakdown (§4.13), all computed from the served daily
 * series so that they agree with what the time-series operations return.
 */
import { AGGREGATION_NAMES } from "../../client";
import type { SeriesSource } from "./source";
import { findMetric, type MetricDef } from "./metrics-catalog";
import { extremes, lastValueDay, ratioChange, rollup } from "./rollup";
import type { Series } from "./series";

export type AggregationName = (typeof AGGREGATION_NAMES)[number];

export interface AggregationRow {
  projectId: string;
  metricId: string;
  name: AggregationName;
  value: number | null;
}

const nullable = (v: number): number | null => (Number.isNaN(v) ? null : v);

/**
 * Aggregations of one series, relative to its last day with a value (L):
 * - latest: the value on L;
 * - sum_30d (flows only, a sum of a level is meaningless): sum over L-29..L;
 * - avg_7d: mean over L-6..L;
 * - change_30d: flows: sum over L-29..L / sum over L-59..L-30 - 1; levels and user counts: value on L /
 *   last value on or before L-30 - 1;
 * - trend_90d: mean over L-89..L / mean over L-179..L-90 - 1;
 * - ath / atl: highest / lowest daily value ever.
 * Null days are skipped; a ratio is null without a previous value or when it is 0.
 */
function aggregateSeries(series: Series, metric: MetricDef): Map<AggregationName, number | null> {
  const result = new Map<AggregationName, number | null>();
  const last = lastValueDay(series);
  if (last === undefined) return result;
  const kind = metric.kind;
  result.set("latest", nullable(rollup(series, "level", last, last)));
  if (kind === "flow") result.set("sum_30d", nullable(rollup(series, "flow", last - 29, last)));
  result.set("avg_7d", nullable(rollup(series, "average", last - 6, last)));
  const change =
    kind === "flow"
      ? ratioChange(
          rollup(series, "flow", last - 29, last),
          rollup(series, "flow", last - 59, last - 30)
        )
      : ratioChange(
          rollup(series, "level", last, last),
          rollup(series, "level", series.start, last - 30)
        );
  result.set("change_30d", nullable(change));
  result.set(
    "trend_90d",
    nullable(
      ratioChange(
        rollup(series, "average", last - 89, last),
        rollup(series, "average", last - 179, last - 90)
      )
    )
  );
  const { max, min } = extremes(series);
  result.set("ath", nullable(max));
  result.set("atl", nullable(min));
  return result;
}

/** Aggregation rows of a project, metrics in catalogue order, names in AGGREGATION_NAMES order. */
export function projectAggregations(
  dataset: SeriesSource,
  projectId: string,
  metricIds?: readonly string[]
): AggregationRow[] {
  const info = dataset.project(projectId);
  if (!info) return [];
  const rows: AggregationRow[] = [];
  for (const metricId of info.metrics) {
    if (metricIds && !metricIds.includes(metricId)) continue;
    const metric = findMetric(metricId);
    if (!metric) continue;
    const values = aggregateSeries(dataset.series(projectId, metricId), metric);
    for (const name of AGGREGATION_NAMES) {
      if (values.has(name))
        rows.push({ projectId, metricId, name, value: values.get(name) ?? null });
    }
  }
  return rows;
}

interface BreakdownRow {
  projectId: string;
  metricId: string;
  /** Flows summed over the range, levels' last value, user counts' mean. */
  value: number | null;
  /** value / the sum of the positive values of all rows; null when it cannot be computed. */
  share: number | null;
  startDate: number;
  endDate: number;
}

/** One row per project with data in [from, to], largest value first. */
export function metricBreakdown(
  dataset: SeriesSource,
  metricId: string,
  projectIds: readonly string[],
  from: number,
  to: number
): BreakdownRow[] {
  const metric = findMetric(metricId);
  if (!metric) return [];
  const rows: BreakdownRow[] = [];
  for (const projectId of projectIds) {
    const series = dataset.series(projectId, metricId);
    if (
      series.values.length === 0 ||
      series.start > to ||
      series.start + series.values.length - 1 < from
    )
      continue;
    const value = rollup(series, metric.kind, from, to);
    rows.push({
      projectId,
      metricId,
      value: nullable(value),
      share: null,
      startDate: from,
      endDate: to,
    });
  }
  const total = rows.reduce((sum, r) => sum + (r.value !== null && r.value > 0 ? r.value : 0), 0);
  for (const row of rows) row.share = total > 0 && row.value !== null ? row.value / total : null;
  return rows.sort(
    (a, b) =>
      (b.value ?? -Infinity) - (a.value ?? -Infinity) || a.projectId.localeCompare(b.projectId)
  );
}
