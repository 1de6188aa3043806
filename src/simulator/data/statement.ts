/**
 * Financial statements derived from the daily series, so that they agree with them: a period's flow is the
 * sum of its daily values, a level is the period's last value, a user count the period's mean.
 */
import { dayToIso } from "../util/days";
import type { SeriesSource } from "./source";
import { findMetric, STATEMENT_SECTIONS } from "./metrics-catalog";
import {
  intervalStart,
  periodStart,
  periodsBetween,
  type Granularity,
  type Interval,
} from "./periods";
import { ratioChange, rollup } from "./rollup";

export interface StatementRow {
  /** Start of the period, ISO date-time at UTC midnight. */
  timestamp: string;
  heading: string;
  subheading: string;
  granularity: Granularity;
  section: string;
  metricId: string;
  value: number | null;
  /** value / previous period's value - 1; null without a previous value or when it is 0. */
  popChange: number | null;
  definition: string;
}

const nullable = (v: number): number | null => (Number.isNaN(v) ? null : v);

/**
 * Rows ordered by period (oldest first), then section (income statement, key metrics), then the metric order
 * of STATEMENT_SECTIONS. Periods are whole calendar periods overlapping the interval, up to the last day with
 * data; the current period is therefore partial (to date).
 */
export function financialStatement(
  dataset: SeriesSource,
  projectId: string,
  granularity: Granularity,
  interval: Interval
): StatementRow[] {
  const info = dataset.project(projectId);
  if (!info) return [];
  const sections = STATEMENT_SECTIONS.map(({ section, metrics }) => ({
    section,
    metrics: metrics.filter((m) => info.metrics.includes(m)),
  })).filter((s) => s.metrics.length > 0);
  const metricIds = sections.flatMap((s) => s.metrics);
  if (metricIds.length === 0) return [];

  const firstDay = metricIds.reduce(
    (a, m) => Math.min(a, dataset.firstDay(projectId, m)),
    Infinity
  );
  const lastDay = dataset.lastDay(projectId);
  const from = Math.max(firstDay, intervalStart(interval, dataset.todayDay, firstDay));
  if (from > lastDay) return [];

  const periods = periodsBetween(granularity, from, lastDay);
  const rows: StatementRow[] = [];
  for (const p of periods) {
    const before = periodStart(granularity, p.start - 1);
    for (const { section, metrics } of sections) {
      for (const metricId of metrics) {
        const metric = findMetric(metricId);
        if (!metric) continue;
        const series = dataset.series(projectId, metricId);
        const value = rollup(series, metric.kind, p.start, p.end);
        const previous = rollup(series, metric.kind, before, p.start - 1);
        rows.push({
          timestamp: dayToIso(p.start),
          heading: p.heading,
          subheading: p.subheading,
          granularity,
          section,
          metricId,
          value: nullable(value),
          popChange: nullable(ratioChange(value, previous)),
          definition: metric.description,
        });
      }
    }
  }
  return rows;
}
