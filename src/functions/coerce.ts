/**
 * From what Excel passes to what implementations use. Omitted optional arguments arrive as null (never
 * undefined), empty cells as null or "", dates as serial numbers or text, ranges as 2D arrays. Every refusal
 * is a #VALUE! naming the argument and saying what is expected.
 */
import { formatDay, parseDay } from "../client/data/days";
import { MAX_SERIAL, MIN_SERIAL, serialToDay } from "../sheet/excel-dates";
import { invalid } from "./result";

/** Longest text accepted in one argument: ids and option strings are short; megabytes are a mistake. */
const MAX_TEXT = 10_000;

export function isMissing(value: unknown): boolean {
  return (
    value === null || value === undefined || (typeof value === "string" && value.trim() === "")
  );
}

function describe(value: unknown): string {
  if (typeof value === "string") return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  if (Array.isArray(value)) return "a range";
  return String(value);
}

/** One text value: a non-empty string, or a number written as text (ids like "0x" stay as typed). */
export function requiredText(value: unknown, name: string): string {
  if (Array.isArray(value)) {
    const cells = value.flat();
    if (cells.length !== 1)
      throw invalid(`${name} must be one value, not a range of ${cells.length} cells`);
    return requiredText(cells[0], name);
  }
  if (isMissing(value)) throw invalid(`${name} is missing`);
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value !== "string") throw invalid(`${name} must be text, got ${describe(value)}`);
  if (value.length > MAX_TEXT) throw invalid(`${name} is too long (${value.length} characters)`);
  return value.trim();
}

export function optionalText(value: unknown, name: string): string | undefined {
  if (Array.isArray(value) ? value.flat().every(isMissing) : isMissing(value)) return undefined;
  return requiredText(value, name);
}

/**
 * Ids from one value, a comma list, or a range of them (blank cells skipped), de-duplicated in order.
 * `maxIds` stops a whole column of 100,000 cells from becoming 100,000 series.
 */
export function idList(value: unknown, name: string, maxIds = 500): string[] {
  const cells = Array.isArray(value) ? value.flat() : [value];
  const ids: string[] = [];
  for (const cell of cells) {
    if (isMissing(cell)) continue;
    const text = requiredText(cell, name);
    for (const part of text.split(",")) {
      const id = part.trim();
      if (id && !ids.some((x) => x.toLowerCase() === id.toLowerCase())) ids.push(id);
    }
  }
  if (ids.length > maxIds)
    throw invalid(`${name} lists ${ids.length} ids; at most ${maxIds} fit in one formula`);
  return ids;
}

export function requiredIds(value: unknown, name: string): string[] {
  const ids = idList(value, name);
  if (ids.length === 0) throw invalid(`${name} is missing`);
  return ids;
}

/**
 * A date: an Excel date serial (a cell holding a date, DATE(), TODAY()) or text "YYYY-MM-DD". Returns the day
 * number, or undefined when omitted.
 */
export function optionalDate(value: unknown, name: string): number | undefined {
  if (Array.isArray(value)) {
    const cells = value.flat();
    if (cells.length === 1) return optionalDate(cells[0], name);
    throw invalid(`${name} must be one date, not a range`);
  }
  if (isMissing(value)) return undefined;
  if (typeof value === "number") {
    const day = serialToDay(value);
    if (day === undefined) {
      throw invalid(
        `${name} ${describe(value)} is not a date Excel can show (serials ${MIN_SERIAL}..${MAX_SERIAL}, 1900-03-01..9999-12-31)`
      );
    }
    return day;
  }
  if (typeof value === "string") {
    const day = parseDay(value.trim());
    if (day === undefined)
      throw invalid(
        `${name} ${describe(value)} is not a date: use a date cell or text like "2024-01-31"`
      );
    return day;
  }
  throw invalid(`${name} must be a date, got ${describe(value)}`);
}

export function checkRange(start: number | undefined, end: number | undefined): void {
  if (start !== undefined && end !== undefined && start > end) {
    throw invalid(`start ${formatDay(start)} is after end ${formatDay(end)}`);
  }
}
