/**
 * Excel's 1900 date system, as the cell model needs it: telling a date number format from a plain one, and turning
 * a serial into the "YYYY-MM-DD" text every output format uses for dates.
 */

const MS_PER_DAY = 86_400_000;
// Serials from 61 on count from 1899-12-30 because Excel keeps Lotus 1-2-3's fictitious 1900-02-29 (60).
const EPOCH_AFTER_LEAP_BUG = Date.UTC(1899, 11, 30);
const EPOCH_BEFORE_LEAP_BUG = Date.UTC(1899, 11, 31);
const FICTITIOUS_LEAP_DAY = 60;
/** 9999-12-31, the last date Excel can show. */
const MAX_SERIAL = 2_958_465;

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

/** "YYYY-MM-DD" for a 1900-system serial (time of day dropped), or undefined outside 1900-01-01..9999-12-31. */
export function serialToIsoDate(serial: number): string | undefined {
  if (!Number.isFinite(serial)) return undefined;
  const day = Math.floor(serial);
  if (day < 1 || day > MAX_SERIAL) return undefined;
  if (day === FICTITIOUS_LEAP_DAY) return "1900-02-29";
  const epoch = day < FICTITIOUS_LEAP_DAY ? EPOCH_BEFORE_LEAP_BUG : EPOCH_AFTER_LEAP_BUG;
  return new Date(epoch + day * MS_PER_DAY).toISOString().slice(0, 10);
}
