/**
 * The periods of a statement as its rows declare them. A row's `timestamp` is "the timestamp of the data
 * point" (§2.7): the period's first day or its last, in whatever week convention the service keeps (ISO
 * weeks from Monday, weeks from Sunday). Its subheading is "a date range label" (`Jan 1 – Mar 31, 2025`,
 * `Dec 30, 2024 – Jan 5, 2025`): the days the figure covers, said by the service. So a period is the range
 * its subheading declares; only when that is no readable range is it the calendar period holding the
 * timestamp (ISO weeks for weeks). Columns are periods, not timestamps: lines dated by different ends of one
 * quarter are one column.
 */
import type { FinancialStatementRow, Period } from "../../client";
import { dayNumber } from "../../client";
import { windowOf, type PeriodWindow } from "../../engine";
import { STANDARD_STATEMENT } from "./statement-lines";

const MONTHS: Readonly<Record<string, number>> = {
  jan: 0,
  feb: 1,
  mar: 2,
  apr: 3,
  may: 4,
  jun: 5,
  jul: 6,
  aug: 7,
  sep: 8,
  oct: 9,
  nov: 10,
  dec: 11,
};

/** "Jan 1", "January 1, 2025", "Sept 30": a month, a day and maybe a year. */
const PART = /^([A-Za-z]{3,9})\.?\s+(\d{1,2})(?:,?\s+(\d{4}))?$/;

/** The longest period a statement has (a year, with a leap day): a longer "range" is no period. */
const MAX_PERIOD_DAYS = 366;

/**
 * The day, or undefined when there is no such day. Date.UTC rolls a day past its month's end into the next
 * month (which always changes the day of the month: the month is read from a name, the day has two digits)
 * and reads the years 0..99 as 1900..1999: the day and the year, read back, say whether it was real.
 */
function dayOf(year: number, month: number, day: number): number | undefined {
  const t = Date.UTC(year, month, day);
  const d = new Date(t);
  if (d.getUTCFullYear() !== year || d.getUTCDate() !== day) return undefined;
  return Math.round(t / 86_400_000);
}

/**
 * The days a subheading declares, or undefined when it declares none: `Jan 1 – Mar 31, 2025` (the first part
 * takes the last part's year, the year before when its month comes later), `Dec 30, 2024 – Jan 5, 2025`.
 */
export function declaredRange(text: string): { from: number; to: number } | undefined {
  const parts = text.trim().split(/\s+(?:–|—|-|to)\s+/);
  if (parts.length !== 2) return undefined;
  const a = PART.exec(parts[0]);
  const b = PART.exec(parts[1]);
  if (!a || !b || b[3] === undefined) return undefined;
  const monthA = MONTHS[a[1].slice(0, 3).toLowerCase()];
  const monthB = MONTHS[b[1].slice(0, 3).toLowerCase()];
  if (monthA === undefined || monthB === undefined) return undefined;
  const yearB = Number(b[3]);
  const yearA = a[3] !== undefined ? Number(a[3]) : monthA > monthB ? yearB - 1 : yearB;
  const from = dayOf(yearA, monthA, Number(a[2]));
  const to = dayOf(yearB, monthB, Number(b[2]));
  if (from === undefined || to === undefined || to < from || to - from + 1 > MAX_PERIOD_DAYS)
    return undefined;
  return { from, to };
}

/** A statement period: its days and the service's words for it. */
export interface StatementPeriod {
  /** "<first day>..<last day>": what a column is. */
  key: string;
  heading: string;
  subheading: string;
  window: PeriodWindow;
  /** Whether the days are the service's own (its subheading), or the calendar period of its timestamp. */
  declared: boolean;
}

/** The period a row stands for: its declared range, else the calendar period holding its timestamp. */
export function periodOfRow(r: FinancialStatementRow, granularity: Period): StatementPeriod {
  const range = declaredRange(r.subheading);
  const window: PeriodWindow = range
    ? { period: granularity, start: range.from, end: range.to, from: range.from, to: range.to }
    : windowOf(dayNumber(r.date), granularity);
  return {
    key: `${window.start}..${window.end}`,
    heading: r.heading,
    subheading: r.subheading,
    window,
    declared: range !== undefined,
  };
}

/** Text compared as a person reads it: case, spacing and dashes aside. */
function folded(text: string): string {
  return text.trim().replace(/\s+/g, " ").toLowerCase();
}

const STANDARD_SECTIONS = [...new Set(STANDARD_STATEMENT.map((l) => l.section))];

/**
 * A section as the standard template spells it when it is the same words in another case ("Income
 * Statement" is the Income statement), so the line lands on its standard row; any other section as sent.
 */
export function canonicalSection(section: string): string {
  const f = folded(section);
  return STANDARD_SECTIONS.find((s) => folded(s) === f) ?? section.trim();
}
