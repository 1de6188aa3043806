/**
 * Calendar days as integers (days since 1970-01-01, UTC) and as "YYYY-MM-DD" text, the one date
 * representation of the service's inputs and of the client's normalised outputs. Integer days keep the hot
 * paths (cache look-ups, roll-ups) free of Date objects and time zones.
 */
type Day = string;

const MS_PER_DAY = 86_400_000;
const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The day number of "YYYY-MM-DD", or undefined when the text is not a real calendar day. */
export function parseDay(text: string): number | undefined {
  const m = DAY_RE.exec(text);
  if (!m) return undefined;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return undefined;
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0..99 as 1900..1999.
  return new Date(0).setUTCFullYear(y, mo - 1, d) / MS_PER_DAY;
}

/** True for a real calendar date written YYYY-MM-DD (2024-02-30 is not). */
export function isIsoDate(text: string): boolean {
  return parseDay(text) !== undefined;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

export function dayNumber(day: Day): number {
  const n = parseDay(day);
  if (n === undefined) throw new RangeError(`not a calendar day: "${day}"`);
  return n;
}

export function formatDay(n: number): Day {
  return new Date(n * MS_PER_DAY).toISOString().slice(0, 10);
}

/** The UTC calendar day of an instant (ms since epoch). */
export function dayOfInstant(ms: number): number {
  return Math.floor(ms / MS_PER_DAY);
}

export function addDays(day: Day, n: number): Day {
  return formatDay(dayNumber(day) + n);
}

export type Period = "day" | "week" | "month" | "quarter" | "year";

/** The first day of the period holding day n. Weeks start on Monday (ISO 8601), as the service's weeks do. */
export function periodStart(n: number, period: Period): number {
  if (period === "day") return n;
  if (period === "week") {
    const weekday = (new Date(n * MS_PER_DAY).getUTCDay() + 6) % 7; // Monday = 0
    return n - weekday;
  }
  const d = new Date(n * MS_PER_DAY);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const firstMonth = period === "month" ? m : period === "quarter" ? m - (m % 3) : 0;
  return Date.UTC(y, firstMonth, 1) / MS_PER_DAY;
}

/** The last day of the period holding day n. */
export function periodEnd(n: number, period: Period): number {
  if (period === "day") return n;
  if (period === "week") return periodStart(n, "week") + 6;
  const d = new Date(periodStart(n, period) * MS_PER_DAY);
  const months = period === "month" ? 1 : period === "quarter" ? 3 : 12;
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1) / MS_PER_DAY - 1;
}
