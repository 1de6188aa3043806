/**
 * The Excel functions of numbers a model writes around or inside CRYPTO calls (`TODAY()-365`,
 * `DATE(2024,3,31)`, `EOMONTH(TODAY(),-1)`, `ROUND(…,0)`), computed as Excel computes them in its 1900 date system: arguments converted to
 * numbers as Excel converts them ("2024-03-31" is that date's serial, TRUE is 1), truncated to whole days
 * where Excel truncates, and out-of-range results as #NUM!. Anything else stays out: the parser refuses
 * other names, so a formula never gives a figure from a function computed differently from Excel.
 *
 * TODAY() and NOW() read the recalculation's clock in this computer's time zone, as Excel does.
 */
import { parseDay } from "../client";
import { errorCell, type ErrorCell } from "./cells";
import { dayToSerial, isoDateToSerial, MAX_SERIAL, serialToIsoDate } from "./excel-dates";
import { ERROR_CODES } from "./host";

/** A value inside a formula: what cells hold (an error travels as itself). */
export type FormulaValue = number | string | boolean | ErrorCell;

export interface ExcelFunctionContext {
  /** The recalculation's instant (ms since the epoch), read once for all its TODAY() and NOW(). */
  now: number;
  /** Minutes to add to UTC to get local time at `now` (Date#getTimezoneOffset with the sign flipped). */
  utcOffsetMinutes: number;
}

interface ExcelFunction {
  /** Parameter names, as Excel's own help names them; all required. */
  parameters: readonly string[];
  compute(args: readonly number[], ctx: ExcelFunctionContext, name: string): number | ErrorCell;
}

const MS_PER_DAY = 86_400_000;
/** 1900-03-01, the first day after Excel's fictitious 1900-02-29 (serial 61). */
const FIRST_REAL_SERIAL_DAY = parseDay("1900-03-01") as number;

function numError(name: string, why: string): ErrorCell {
  return errorCell(ERROR_CODES.invalidNumber, `${name}: ${why}`);
}

/** The serial of a UTC day number over Excel's whole range; before 1900-03-01 serials run one behind. */
function serialOfDay(day: number): number {
  return day >= FIRST_REAL_SERIAL_DAY ? dayToSerial(day) : dayToSerial(day) - 1;
}

/** Year, month (1-12) and day of a serial, or undefined outside 0..9999-12-31 (Excel's #NUM!). */
function partsOf(serial: number): { year: number; month: number; day: number } | undefined {
  const whole = Math.floor(serial);
  // Serial 0 is Excel's "1900-01-00": year 1900, month 1, day 0.
  if (whole === 0) return { year: 1900, month: 1, day: 0 };
  const iso = serialToIsoDate(whole);
  if (iso === undefined) return undefined;
  return {
    year: Number(iso.slice(0, 4)),
    month: Number(iso.slice(5, 7)),
    day: Number(iso.slice(8, 10)),
  };
}

/** DATE's arithmetic: months and days beyond their range roll over, as in Excel (DATE(2024,13,1) = 2025-01-01). */
function dateSerial(year: number, month: number, day: number): number | undefined {
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0..99 as 1900..1999.
  const ms = new Date(0).setUTCFullYear(year, month - 1, day);
  if (!Number.isFinite(ms)) return undefined;
  const serial = serialOfDay(Math.round(ms / MS_PER_DAY));
  return serial >= 0 && serial <= MAX_SERIAL ? serial : undefined;
}

function daysInMonth(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one.
  return new Date(new Date(0).setUTCFullYear(year, month, 0)).getUTCDate();
}

/** The local calendar day of the recalculation's instant, as a serial. */
function todaySerial(ctx: ExcelFunctionContext): number {
  return serialOfDay(Math.floor((ctx.now + ctx.utcOffsetMinutes * 60_000) / MS_PER_DAY));
}

/** Whole months after a serial's month: EDATE keeps the day (clamped to the month's end), EOMONTH takes the end. */
function shiftMonths(
  name: string,
  start: number,
  months: number,
  endOfMonth: boolean
): number | ErrorCell {
  const parts = start >= 0 ? partsOf(start) : undefined;
  if (!parts) return numError(name, "the start date is outside Excel's dates");
  const index = parts.year * 12 + (parts.month - 1) + Math.trunc(months);
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const last = daysInMonth(year, month);
  const serial = dateSerial(year, month, endOfMonth ? last : Math.min(parts.day, last));
  return serial === undefined || serial < 1
    ? numError(name, "the result is outside Excel's dates")
    : serial;
}

function datePart(
  name: string,
  serial: number,
  part: "year" | "month" | "day"
): number | ErrorCell {
  const parts = serial >= 0 ? partsOf(serial) : undefined;
  return parts ? parts[part] : numError(name, "not a date Excel knows");
}

/**
 * ROUND as Excel computes it: half away from zero, on the number as Excel holds it (15 significant digits),
 * so ROUND(2.675,2) is 2.68 where binary floating point alone gives 2.67. Negative digits round to tens,
 * hundreds…; digits are truncated to whole numbers.
 */
export function roundHalfAway(value: number, digits: number): number {
  if (!Number.isFinite(value) || value === 0) return value === 0 ? 0 : value;
  const d = Math.max(-308, Math.min(308, Math.trunc(digits)));
  const [mantissa, exponent] = Math.abs(value).toExponential(14).split("e");
  const shifted = Number(`${mantissa}e${Number(exponent) + d}`);
  const rounded = Number(`${Math.round(shifted)}e${-d}`);
  const signed = value < 0 ? -rounded : rounded;
  return signed === 0 ? 0 : signed;
}

export const EXCEL_FUNCTIONS: Readonly<Record<string, ExcelFunction>> = {
  ROUND: {
    parameters: ["number", "num_digits"],
    compute: ([number, digits], _, name) => {
      const rounded = roundHalfAway(number, digits);
      return Number.isFinite(rounded) ? rounded : numError(name, "the result is too large");
    },
  },
  TODAY: { parameters: [], compute: (_, ctx) => todaySerial(ctx) },
  NOW: {
    parameters: [],
    compute: (_, ctx) => {
      const local = ctx.now + ctx.utcOffsetMinutes * 60_000;
      const day = Math.floor(local / MS_PER_DAY);
      return serialOfDay(day) + (local - day * MS_PER_DAY) / MS_PER_DAY;
    },
  },
  DATE: {
    parameters: ["year", "month", "day"],
    compute: ([year, month, day], _, name) => {
      let y = Math.trunc(year);
      // Excel adds 1900 to years 0..1899, and refuses negative years and years past 9999.
      if (y >= 0 && y < 1900) y += 1900;
      if (y < 0 || y > 9999) return numError(name, `year ${y} is outside 1900..9999`);
      const serial = dateSerial(y, Math.trunc(month), Math.trunc(day));
      return serial === undefined || serial < 1
        ? numError(name, "the date is outside Excel's dates")
        : serial;
    },
  },
  EDATE: {
    parameters: ["start_date", "months"],
    compute: ([start, months], _, name) => shiftMonths(name, Math.trunc(start), months, false),
  },
  EOMONTH: {
    parameters: ["start_date", "months"],
    compute: ([start, months], _, name) => shiftMonths(name, Math.trunc(start), months, true),
  },
  YEAR: { parameters: ["serial_number"], compute: ([s], _, name) => datePart(name, s, "year") },
  MONTH: { parameters: ["serial_number"], compute: ([s], _, name) => datePart(name, s, "month") },
  DAY: { parameters: ["serial_number"], compute: ([s], _, name) => datePart(name, s, "day") },
};

export const EXCEL_FUNCTION_NAMES: readonly string[] = Object.keys(EXCEL_FUNCTIONS);

/**
 * A value as a number, the way Excel converts an operand of + - * / or a numeric argument: numbers as they
 * are, TRUE/FALSE as 1/0, numeric text, and date text in the one unambiguous spelling, "YYYY-MM-DD".
 */
export function numberFrom(value: number | string | boolean): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  const text = value.trim();
  if (text !== "" && Number.isFinite(Number(text))) return Number(text);
  return isoDateToSerial(text);
}

/** A value as text, the way `&` converts it: numbers in Excel's General format (15 significant digits). */
export function textFrom(value: number | string | boolean): string {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  const general = String(Number(value.toPrecision(15)));
  return general.replace(/e\+?/, (e) => (e === "e+" ? "E+" : "E"));
}
