/**
 * Pure operations on daily series: slicing, rolling values up, finding the last data. Points are sorted by
 * day (ascending) and carry integer day numbers (see days.ts). Which days a figure covers, and what a fill
 * adds, is figures.ts's rule.
 */
import type { Aggregation } from "./metric-kinds";

export interface DayPoint {
  day: number;
  /** Null: the service has no value for the day (a null, or a conflict). */
  value: number | null;
  /**
   * The service sent the day twice with different numbers: its value is null, and unlike a plain null it is
   * never filled, never counted as a day without data, and makes every figure holding it a #N/A.
   */
  conflict?: true;
  /**
   * With `conflict`: the day came in rows split by a breakdown member nobody asked for that cannot be told
   * apart (partition.ts), not as one row sent twice. A conflict all the same; only its message differs.
   */
  split?: true;
  /**
   * With `conflict`: the service sent a value that is present but no number ("1,234.50", true, "Infinity"),
   * this text. A conflict all the same (never filled, never a figure); its message names what was sent.
   */
  unreadable?: string;
  /**
   * With `conflict`: under vintage= (vintage-answer.ts), the day's value was not known at that instant, and
   * why ("not known on 2026-11-20: first seen 2026-11-24"). No figure all the same; its message is this.
   */
  notKnown?: string;
}

/** Points with start <= day <= end (either bound may be open). */
export function slicePoints(points: readonly DayPoint[], start: number, end: number): DayPoint[] {
  return points.filter((p) => p.day >= start && p.day <= end);
}

/** Decimals a service's value is taken to have at most: beyond, it is a full-precision float. */
const MAX_EXACT_DECIMALS = 10;

/** The decimals a value is written with (0 for a whole number), or undefined past MAX_EXACT_DECIMALS. */
function decimalsOf(v: number): number | undefined {
  let scale = 1;
  for (let d = 0; d <= MAX_EXACT_DECIMALS; d++, scale *= 10)
    if (Math.round(v * scale) / scale === v) return d;
  return undefined;
}

/**
 * The sum of values as exact as their decimals: values the service sends with two decimals add up to a
 * figure with two decimals (95,292.76, not 95292.76000000001, floating point's noise). Values of full
 * precision are added as they are.
 */
export function exactSum(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  if (Number.isInteger(sum)) return sum;
  let decimals = 0;
  for (const v of values) {
    const d = decimalsOf(v);
    if (d === undefined) return sum;
    if (d > decimals) decimals = d;
  }
  return Number(sum.toFixed(decimals));
}

/** The values rolled up with `agg` (null when there are none). */
export function aggregate(values: readonly number[], agg: Aggregation): number | null {
  if (values.length === 0) return null;
  switch (agg) {
    case "sum":
      return exactSum(values);
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

/**
 * The last point at or before `day` that the service has data for: a value, or a conflict (the service
 * has the day, though nobody can vouch for its value). The latest day of a series is this one.
 */
export function lastDataAtOrBefore(points: readonly DayPoint[], day: number): DayPoint | undefined {
  for (let i = points.length - 1; i >= 0; i--) {
    const p = points[i];
    if (p.day <= day && (p.value !== null || p.conflict)) return p;
  }
  return undefined;
}
