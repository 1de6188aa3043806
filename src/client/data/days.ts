/**
 * Calendar days as integers (days since 1970-01-01, UTC) and as "YYYY-MM-DD" text, the one date
 * representation of the service's inputs and of the client's normalised outputs. Integer days keep the hot
 * paths (cache look-ups, roll-ups) free of Date objects and time zones.
 */
type Day = string;

const MS_PER_DAY = 86_400_000;

/** The value of the ASCII digit at `i`, or -1 (a regular expression's `\d` is ASCII 0-9 only, as here). */
function digitAt(text: string, i: number): number {
  const c = text.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1;
}

/**
 * The day number of "YYYY-MM-DD", or undefined when the text is not a real calendar day.
 *
 * Read by hand, not by a regular expression and a Date: every row of every answer passes here (twice: when
 * its date is checked and when its day is taken), and the regular expression, three Number()s and a Date
 * were a twentieth of a large answer's reading time. The day count is the proleptic Gregorian calendar's
 * (Hinnant's days_from_civil), as Date's is; the tests check the two agree from year 0 to 9999.
 */
export function parseDay(text: string): number | undefined {
  if (text.length !== 10 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45)
    return undefined;
  let y = 0;
  for (let i = 0; i < 4; i++) {
    const digit = digitAt(text, i);
    if (digit < 0) return undefined;
    y = y * 10 + digit;
  }
  const m1 = digitAt(text, 5);
  const m2 = digitAt(text, 6);
  const d1 = digitAt(text, 8);
  const d2 = digitAt(text, 9);
  if (m1 < 0 || m2 < 0 || d1 < 0 || d2 < 0) return undefined;
  const mo = m1 * 10 + m2;
  const d = d1 * 10 + d2;
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return undefined;
  // Years counted from March, so that the leap day is the last of its year.
  const year = mo <= 2 ? y - 1 : y;
  const era = Math.floor(year / 400);
  const yearOfEra = year - era * 400;
  const dayOfYear = Math.floor((153 * (mo > 2 ? mo - 3 : mo + 9) + 2) / 5) + d - 1;
  const dayOfEra =
    yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  // 719,468: the days from 0000-03-01 to 1970-01-01.
  return era * 146_097 + dayOfEra - 719_468;
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
