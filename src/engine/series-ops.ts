/**
 * Pure operations on daily series: slicing, filling missing days, rolling up into periods. Points are sorted
 * by day (ascending) and carry integer day numbers (see days.ts).
 */
import { periodStart, type Period } from "../client/data/days";
import type { Aggregation } from "./metric-kinds";

export interface DayPoint {
  day: number;
  value: number | null;
}

export type Fill = "none" | "previous" | "zero";

/** Points with start <= day <= end (either bound may be open). */
export function slicePoints(points: readonly DayPoint[], start: number, end: number): DayPoint[] {
  return points.filter((p) => p.day >= start && p.day <= end);
}

/**
 * Every day of [start, end] when fill is `previous` (the last non-null value at or before the day, from points
 * before the range too) or `zero` (missing days and nulls become 0); `none` keeps the service's rows as they
 * are (like STOCKHISTORY), nulls included.
 */
export function fillDays(
  points: readonly DayPoint[],
  start: number,
  end: number,
  fill: Fill
): DayPoint[] {
  if (fill === "none") return slicePoints(points, start, end);
  const byDay = new Map(points.map((p) => [p.day, p.value]));
  let carried: number | null = null;
  // Stryker disable next-line ConditionalExpression: equivalent, fill=zero never reads `carried`.
  if (fill === "previous") {
    // Stryker disable next-line EqualityOperator: equivalent, the start day's own value replaces the carried one.
    for (const p of points) if (p.day < start && p.value !== null) carried = p.value;
  }
  const out: DayPoint[] = [];
  for (let day = start; day <= end; day++) {
    const value = byDay.get(day) ?? null;
    if (fill === "zero") {
      out.push({ day, value: value ?? 0 });
    } else {
      if (value !== null) carried = value;
      out.push({ day, value: carried });
    }
  }
  return out;
}

/** The values rolled up with `agg` (null when there are none). */
export function aggregate(values: readonly number[], agg: Aggregation): number | null {
  if (values.length === 0) return null;
  switch (agg) {
    case "sum":
      return values.reduce((a, b) => a + b, 0);
    case "avg":
      return values.reduce((a, b) => a + b, 0) / values.length;
    case "first":
      return values[0];
    case "last":
      return values[values.length - 1];
    case "min":
      // Folded, never spread: a series may hold more points than a call takes arguments.
      return values.reduce((a, b) => Math.min(a, b), Infinity);
    case "max":
      return values.reduce((a, b) => Math.max(a, b), -Infinity);
  }
}

/**
 * One point per period, dated by the period's first day. Nulls are skipped; a period with no value is null.
 * Callers slice to the requested range first, so edge periods roll up only the days inside the range.
 */
export function rollUp(points: readonly DayPoint[], period: Period, agg: Aggregation): DayPoint[] {
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent, a day's period starts on the day; a shortcut.
  if (period === "day") return points.slice();
  const groups = new Map<number, number[]>();
  const order: number[] = [];
  for (const p of points) {
    const key = periodStart(p.day, period);
    let values = groups.get(key);
    if (!values) {
      values = [];
      groups.set(key, values);
      order.push(key);
    }
    if (p.value !== null) values.push(p.value);
  }
  // Stryker disable next-line ArrayDeclaration: never reached, every key in `order` has its group.
  return order.map((day) => ({ day, value: aggregate(groups.get(day) ?? [], agg) }));
}

/** The last non-null point at or before `day`, or undefined. */
export function lastValueAtOrBefore(
  points: readonly DayPoint[],
  day: number
): DayPoint | undefined {
  for (let i = points.length - 1; i >= 0; i--) {
    const p = points[i];
    if (p.day <= day && p.value !== null) return p;
  }
  return undefined;
}
