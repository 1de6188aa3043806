/**
 * Financial statements derived from the daily series, so that they agree with them: a period's flow is the
 * sum of its daily values, a level is the period's last value, a user count the period's mean.
 */
import { day, dayToIso } from "../util/days";
import type { SeriesSource } from "./source";
import { findMetric, STATEMENT_SECTIONS } from "./metrics-catalog";
import {
  intervalStart,
  periodStart,
  periodsBetween,
  type Granularity,
  type Interval,
  type WeekStart,
} from "./periods";
import { ratioChange, rollup } from "./rollup";

export interface StatementRow {
  /** Start of the period, ISO date-time at UTC midnight. */
  timestamp: string;
  /** Last day of the period, ISO date-time at UTC midnight. */
  end: string;
  /** The day the row is dated by, when a quirk dates it otherwise than the statementDates reading. */
  datedBy?: "start" | "end";
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

export interface StatementOptions {
  /** The first day of a week (the statementWeeks reading). */
  weekStart?: WeekStart;
}

/**
 * A statement that does not foot, so that a demo user (and the tests) meet one: nova-network's statement
 * titles its sections in another case, leaves one period out of one line, sends one line's figure at odds
 * with its daily series, sends one line's period twice with two values, and dates one line by its periods'
 * other end. Each quirk names a day; the period holding it (at any granularity) is the one touched.
 */
const STATEMENT_QUIRKS = {
  projectId: "nova-network",
  sections: { "Income statement": "Income Statement", "Key metrics": "Key Metrics" } as Record<
    string,
    string
  >,
  /** The line has no row for the period holding the day. */
  missing: { metricId: "expenses", day: "2026-02-15" },
  /** The line's figure for the period holding the day is this number, whatever its daily series say. */
  disagrees: { metricId: "token_incentives", day: "2026-05-15", value: 999 },
  /** The line's period holding the day comes twice, the second time with the figure × factor. */
  twice: { metricId: "fees", day: "2026-08-15", factor: 1.01 },
  /** The line's rows are dated by the other end of their periods than the others'. */
  otherEnd: { metricId: "tvl" },
} as const;

/**
 * Rows ordered by period (oldest first), then section (income statement, key metrics), then the metric order
 * of STATEMENT_SECTIONS. Periods are whole calendar periods overlapping the interval, up to the last day with
 * data; the current period is therefore partial (to date).
 */
export function financialStatement(
  dataset: SeriesSource,
  projectId: string,
  granularity: Granularity,
  interval: Interval,
  options: StatementOptions = {}
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

  const weekStart = options.weekStart ?? "monday";
  const periods = periodsBetween(granularity, from, lastDay, weekStart);
  const quirky = projectId === STATEMENT_QUIRKS.projectId;
  const holds = (p: { start: number; end: number }, text: string): boolean =>
    quirky && day(text) >= p.start && day(text) <= p.end;
  const rows: StatementRow[] = [];
  for (const p of periods) {
    const before = periodStart(granularity, p.start - 1, weekStart);
    for (const { section, metrics } of sections) {
      for (const metricId of metrics) {
        const metric = findMetric(metricId);
        if (!metric) continue;
        const q = STATEMENT_QUIRKS;
        if (metricId === q.missing.metricId && holds(p, q.missing.day)) continue;
        const series = dataset.series(projectId, metricId);
        let value = rollup(series, metric.kind, p.start, p.end);
        if (metricId === q.disagrees.metricId && holds(p, q.disagrees.day))
          value = q.disagrees.value;
        const previous = rollup(series, metric.kind, before, p.start - 1);
        const row: StatementRow = {
          timestamp: dayToIso(p.start),
          end: dayToIso(p.end),
          heading: p.heading,
          subheading: p.subheading,
          granularity,
          section: quirky ? (q.sections[section] ?? section) : section,
          metricId,
          value: nullable(value),
          popChange: nullable(ratioChange(value, previous)),
          definition: metric.description,
          ...(quirky && metricId === q.otherEnd.metricId ? { datedBy: "end" as const } : {}),
        };
        rows.push(row);
        if (metricId === q.twice.metricId && holds(p, q.twice.day))
          rows.push({ ...row, value: nullable(value * q.twice.factor) });
      }
    }
  }
  return rows;
}
