/** Rolling a daily series up over a range of days, by metric kind. NaN stands for null throughout. */
import type { MetricKind } from "./metrics-catalog";
import type { Series } from "./series";

/**
 * Value of a series over [from, to] (inclusive day numbers): flows are summed, levels take the last value,
 * averages the mean. Null days are skipped; NaN when the range holds no value at all.
 */
export function rollup(series: Series, kind: MetricKind, from: number, to: number): number {
  const lo = Math.max(0, from - series.start);
  const hi = Math.min(series.values.length - 1, to - series.start);
  if (kind === "level") {
    for (let i = hi; i >= lo; i--) if (!Number.isNaN(series.values[i])) return series.values[i];
    return NaN;
  }
  let sum = 0;
  let count = 0;
  for (let i = lo; i <= hi; i++) {
    const v = series.values[i];
    if (!Number.isNaN(v)) {
      sum += v;
      count++;
    }
  }
  if (count === 0) return NaN;
  return kind === "flow" ? sum : sum / count;
}

/** Day number of the last non-null value, or undefined. */
export function lastValueDay(series: Series): number | undefined {
  for (let i = series.values.length - 1; i >= 0; i--)
    if (!Number.isNaN(series.values[i])) return series.start + i;
  return undefined;
}

/** value / previous - 1, NaN when either is missing or the previous one is 0. */
export function ratioChange(value: number, previous: number): number {
  if (Number.isNaN(value) || Number.isNaN(previous) || previous === 0) return NaN;
  return value / previous - 1;
}

export function extremes(series: Series): { max: number; min: number } {
  let max = NaN;
  let min = NaN;
  for (const v of series.values) {
    if (Number.isNaN(v)) continue;
    if (Number.isNaN(max) || v > max) max = v;
    if (Number.isNaN(min) || v < min) min = v;
  }
  return { max, min };
}
