/**
 * Periods and the horizon: the calendar side of the rule behind `partial=exclude|include` (VALUE, METRIC,
 * PRODUCT_METRIC, STATEMENT), so a quarter-to-date never passes as a quarter. Which days of a window have
 * data, and so whether its figure is whole, is figures.ts's rule.
 *
 * - A period is its calendar days. A row of a table stands for the whole period: a period the user's start
 *   or end cuts is not whole, whether the end was written TODAY(), "2026-12-31" or left out, so a period's
 *   showing never depends on how the end date is written; partial=include shows the part in the range.
 * - The horizon of a series is the last day a figure can cover: min(today, its latest day with data).
 * - With `exclude` (the default, as terminals report fundamentals) a period that is not whole is left out of
 *   the ends of a table, a #N/A inside it (a hole never shifts the rows), and a #N/A naming the days covered
 *   in VALUE; with `include` it is shown, and headings state the days actually covered.
 *
 * Pure: days are day numbers (days.ts). Reading the horizon (it may need the service) is the caller's part.
 */
import { formatDay, periodEnd, periodStart, type Period } from "../../client";
import type { DayPoint } from "./series-ops";

export type PartialPeriods = "exclude" | "include";

/** The default: only complete periods, as Bloomberg and FactSet report fundamentals. */
export const DEFAULT_PARTIAL: PartialPeriods = "exclude";

/** A period as a figure covers it. */
export interface PeriodWindow {
  period: Period;
  /** First and last day of the calendar period. */
  start: number;
  end: number;
  /** The days asked of it: the calendar period cut by the user's start and end. */
  from: number;
  to: number;
}

/** The window of the period holding `day`, cut by the user's bounds (undefined: not cut). */
export function windowOf(
  day: number,
  period: Period,
  userStart?: number,
  userEnd?: number
): PeriodWindow {
  const start = periodStart(day, period);
  const end = periodEnd(day, period);
  return {
    period,
    start,
    end,
    from: userStart === undefined ? start : Math.max(start, userStart),
    to: userEnd === undefined ? end : Math.min(end, userEnd),
  };
}

/** The window of the period before `w`'s period (uncut). */
export function previousWindow(w: PeriodWindow): PeriodWindow {
  return windowOf(w.start - 1, w.period);
}

/** The last day a figure can cover: today, or the latest day with a value when that is earlier. */
export function horizonOf(today: number, latest: number | undefined): number {
  return latest === undefined ? -Infinity : Math.min(today, latest);
}

/**
 * The last day with data among sorted points (a value, or a conflict: the service has the day even though
 * nobody can vouch for its value), or undefined.
 */
export function lastValueDay(points: readonly DayPoint[]): number | undefined {
  for (let i = points.length - 1; i >= 0; i--)
    if (points[i].value !== null || points[i].conflict) return points[i].day;
  return undefined;
}

export function isComplete(w: PeriodWindow, horizon: number): boolean {
  return w.to <= horizon;
}

/** Days of the window. */
export function windowDays(w: PeriodWindow): number {
  return w.to - w.from + 1;
}

/** Days of the window up to the horizon: what a figure of an incomplete period covers. */
export function coveredDays(w: PeriodWindow, horizon: number): number {
  return Math.max(0, Math.min(w.to, horizon) - w.from + 1);
}

/** The last day the figure of `w` covers, or undefined when it covers none. */
export function coveredUntil(w: PeriodWindow, horizon: number): number | undefined {
  const last = Math.min(w.to, horizon);
  return last >= w.from ? last : undefined;
}

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** "Q4 2026", "November 2026", "2026", "the week of 2026-11-16", "2026-11-23". */
export function periodLabel(w: Pick<PeriodWindow, "period" | "start">): string {
  const text = formatDay(w.start);
  const year = text.slice(0, 4);
  const month = Number(text.slice(5, 7));
  switch (w.period) {
    case "year":
      return year;
    case "quarter":
      return `Q${Math.ceil(month / 3)} ${year}`;
    case "month":
      return `${MONTHS[month - 1]} ${year}`;
    case "week":
      return `the week of ${text}`;
    case "day":
      return text;
  }
}

/** Why an incomplete period is not shown, and how to see it anyway. */
export function incompleteMessage(w: PeriodWindow, horizon: number, subject?: string): string {
  const label = periodLabel(w);
  const of = subject ? ` for ${subject}` : "";
  const covered = coveredDays(w, horizon);
  const days = windowDays(w);
  return covered === 0
    ? `${label} has no data yet${of} (0 of ${days} days); partial=include shows it as it fills`
    : `${label} is not complete${of}: ${covered} of ${days} days; partial=include shows it`;
}
