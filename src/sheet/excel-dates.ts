/**
 * Excel's 1900 date system, the one place that knows it. Serial 1 is 1900-01-01, and serial 60 is the
 * fictitious 1900-02-29 that Excel keeps for Lotus 1-2-3 compatibility, so from 1900-03-01 (serial 61) on,
 * serial = days since 1970-01-01 + 25569. Also: telling a date number format from a plain one.
 *
 * Dates going into a function (serialToDay, isoDateToSerial) start at serial 61: no crypto data predates
 * 1900, and the fictitious day has no real date. Dates shown (serialToIsoDate) cover all of Excel's range.
 */
import { formatDay, parseDay } from "../client";

const EPOCH_OFFSET = 25_569;
const FICTITIOUS_LEAP_DAY = 60;
export const MIN_SERIAL = FICTITIOUS_LEAP_DAY + 1;
/** 9999-12-31, Excel's last date. */
export const MAX_SERIAL = 2_958_465;

/** The UTC day number (days since 1970-01-01) of a serial from 1900-03-01 on; the time of day is ignored. */
export function serialToDay(serial: number): number | undefined {
  if (!Number.isFinite(serial)) return undefined;
  const whole = Math.floor(serial);
  if (whole < MIN_SERIAL || whole > MAX_SERIAL) return undefined;
  return whole - EPOCH_OFFSET;
}

export function dayToSerial(day: number): number {
  return day + EPOCH_OFFSET;
}

/** Excel reads date text in a numeric context as its serial; "YYYY-MM-DD" is the one unambiguous spelling. */
export function isoDateToSerial(text: string): number | undefined {
  const day = parseDay(text);
  // (Without this line the range below refuses the NaN serial of no day just the same.)
  // Stryker disable next-line ConditionalExpression: see above
  if (day === undefined) return undefined;
  const serial = dayToSerial(day);
  if (serial < MIN_SERIAL) return undefined;
  // (parseDay reads four-digit years: no text gets past 9999-12-31, the upper bound is a guard.)
  // Stryker disable next-line ConditionalExpression,EqualityOperator: see above
  return serial <= MAX_SERIAL ? serial : undefined;
}

/** "YYYY-MM-DD" for a serial (time of day dropped), or undefined outside 1900-01-01..9999-12-31. */
export function serialToIsoDate(serial: number): string | undefined {
  if (!Number.isFinite(serial)) return undefined;
  const whole = Math.floor(serial);
  if (whole < 1 || whole > MAX_SERIAL) return undefined;
  // Before the fictitious day, serials run one day behind the later ones.
  if (whole < FICTITIOUS_LEAP_DAY) return formatDay(whole - EPOCH_OFFSET + 1);
  if (whole === FICTITIOUS_LEAP_DAY) return "1900-02-29";
  return formatDay(whole - EPOCH_OFFSET);
}

/**
 * Whether a number format shows a date: it has a year or day token, or a month name (mmm). A lone "m" is
 * not enough: "mm:ss" is minutes. Quoted literals, backslash escapes and [bracketed] sections
 * (colours, locales, elapsed time) are not tokens.
 */
export function isDateFormat(format: string): boolean {
  const tokens = format
    .replace(/"[^"]*"/g, "")
    .replace(/\\./g, "")
    .replace(/\[[^\]]*\]/g, "");
  return /[yd]/i.test(tokens) || /mmm/i.test(tokens);
}
