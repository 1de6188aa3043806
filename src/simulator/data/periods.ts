/**
 * Calendar periods of the financial statement (weeks, months, quarters, years) and their labels. Weeks are ISO
 * weeks (Monday to Sunday) unless the statementWeeks reading says Sunday to Saturday.
 */
import type { StatementInterval, TimestampGranularity } from "../../client";
import { addMonths, civilFromDays, daysFromCivil, weekday } from "../util/days";

/** The statement's closed sets (§4.5) are the interface table's. */
export type Granularity = TimestampGranularity;
export type Interval = StatementInterval;

interface Period {
  start: number;
  /** Inclusive. */
  end: number;
  heading: string;
  subheading: string;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** The first day of a week: Monday (ISO) or Sunday. */
export type WeekStart = "monday" | "sunday";

export function periodStart(g: Granularity, d: number, weekStart: WeekStart = "monday"): number {
  if (g === "week") return weekStart === "monday" ? d - weekday(d) : d - ((weekday(d) + 1) % 7);
  const { year, month } = civilFromDays(d);
  if (g === "year") return daysFromCivil(year, 1, 1);
  if (g === "quarter") return daysFromCivil(year, month - ((month - 1) % 3), 1);
  return daysFromCivil(year, month, 1);
}

export function nextPeriodStart(g: Granularity, start: number): number {
  if (g === "week") return start + 7;
  return addMonths(start, g === "year" ? 12 : g === "quarter" ? 3 : 1);
}

function shortYear(year: number): string {
  return `'${String(year % 100).padStart(2, "0")}`;
}

/** "Jan 1 – Mar 31, 2024"; both years shown when the range crosses a new year. */
function rangeLabel(start: number, end: number): string {
  const a = civilFromDays(start);
  const b = civilFromDays(end);
  const first = `${MONTHS[a.month - 1]} ${a.day}`;
  const last = `${MONTHS[b.month - 1]} ${b.day}, ${b.year}`;
  return a.year === b.year ? `${first} – ${last}` : `${first}, ${a.year} – ${last}`;
}

function period(g: Granularity, start: number): Period {
  const end = nextPeriodStart(g, start) - 1;
  const { year, month } = civilFromDays(start);
  let heading: string;
  if (g === "year") heading = String(year);
  else if (g === "quarter") heading = `Q${Math.floor((month - 1) / 3) + 1} ${shortYear(year)}`;
  else if (g === "month") heading = `${MONTHS[month - 1]} ${shortYear(year)}`;
  else {
    // ISO week: the week belongs to the year of its Thursday (a Sunday week: the Thursday after it starts).
    const thursday = start + (weekday(start) === 6 ? 4 : 3);
    const isoYear = civilFromDays(thursday).year;
    const week = Math.floor((thursday - daysFromCivil(isoYear, 1, 1)) / 7) + 1;
    heading = `W${String(week).padStart(2, "0")} ${shortYear(isoYear)}`;
  }
  return { start, end, heading, subheading: rangeLabel(start, end) };
}

/** First day covered by an interval that ends today: 1m = the last month, 1y = the last 12 months... */
export function intervalStart(interval: Interval, today: number, firstDay: number): number {
  if (interval === "max") return firstDay;
  const months = interval === "1m" ? 1 : Number(interval.slice(0, -1)) * 12;
  return addMonths(today, -months) + 1;
}

/** The calendar periods that overlap [from, to], oldest first. */
export function periodsBetween(
  g: Granularity,
  from: number,
  to: number,
  weekStart: WeekStart = "monday"
): Period[] {
  const periods: Period[] = [];
  for (let start = periodStart(g, from, weekStart); start <= to; start = nextPeriodStart(g, start))
    periods.push(period(g, start));
  return periods;
}
