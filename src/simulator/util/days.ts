/**
 * Calendar arithmetic on "day numbers" (whole days since 1970-01-01, UTC).
 *
 * The dataset walks thousands of days per series; integers keep those loops free of Date objects,
 * and every conversion to text goes through one cache.
 */

const MS_PER_DAY = 86_400_000;

/** Day number of an instant (ms since epoch), UTC. */
export function dayFromMs(ms: number): number {
  return Math.floor(ms / MS_PER_DAY);
}

/** Day number of a civil date (month 1-12). Howard Hinnant's days_from_civil. */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

interface Civil {
  year: number;
  month: number;
  day: number;
}

/** Civil date of a day number. Howard Hinnant's civil_from_days. */
export function civilFromDays(dayNumber: number): Civil {
  const z = dayNumber + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

const dateCache = new Map<number, string>();
const isoCache = new Map<number, string>();

function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}

/** "YYYY-MM-DD" of a day number. */
export function dayToDate(dayNumber: number): string {
  let text = dateCache.get(dayNumber);
  if (text === undefined) {
    const { year, month, day } = civilFromDays(dayNumber);
    text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
    dateCache.set(dayNumber, text);
  }
  return text;
}

/** "YYYY-MM-DDT00:00:00.000Z" of a day number: how the service writes project metric timestamps. */
export function dayToIso(dayNumber: number): string {
  let text = isoCache.get(dayNumber);
  if (text === undefined) {
    text = `${dayToDate(dayNumber)}T00:00:00.000Z`;
    isoCache.set(dayNumber, text);
  }
  return text;
}

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Day number of a strict "YYYY-MM-DD" (a real calendar date), or undefined. */
export function parseDate(text: string): number | undefined {
  const match = DATE_PATTERN.exec(text);
  if (!match) return undefined;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return daysFromCivil(year, month, day);
}

/** Like parseDate, for literals in the catalogue that are known to be valid. */
export function day(text: string): number {
  const value = parseDate(text);
  if (value === undefined) throw new Error(`Not a date: ${text}`);
  return value;
}

function daysInMonth(year: number, month: number): number {
  return (
    daysFromCivil(month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1, 1) -
    daysFromCivil(year, month, 1)
  );
}

/** Same day of month `months` later (negative: earlier), clamped to the month's last day. */
export function addMonths(dayNumber: number, months: number): number {
  const { year, month, day: dom } = civilFromDays(dayNumber);
  const index = year * 12 + (month - 1) + months;
  const y = Math.floor(index / 12);
  const m = (index % 12) + 1;
  return daysFromCivil(y, m, Math.min(dom, daysInMonth(y, m)));
}

/** 0 = Monday ... 6 = Sunday (1970-01-01 was a Thursday). */
export function weekday(dayNumber: number): number {
  return (((dayNumber + 3) % 7) + 7) % 7;
}
