/**
 * Lists of ids and ranges of days, for the functions over several projects or metrics (METRIC, COMPS,
 * BREAKDOWN, AGGREGATIONS, CHANGES). Apart from coerce.ts so that they come with those functions' chunks:
 * VALUE and ASOF, in functions.js, take one id each.
 */
import { formatDay } from "../client";
import { isMissing, optionalDate, requiredText } from "./coerce";
import { invalid } from "./result";

/** The most ids (or id positions) one argument takes: a formula over more is a mistake, not a model. */
export const MAX_IDS = 500;

/**
 * Ids from one value, a comma list, or a range of them (blank cells skipped), in order, one per input
 * position: a repeated id keeps its own place, so each position of the range keeps its own output column
 * (requests are de-duplicated further down, with Sets: see uniqueIds and the engine's planner).
 *
 * `maxIds` stops a whole column from becoming a million series, and is checked while reading: a range of
 * 1,000,000 cells is refused after its first `maxIds + 1` ids, in microseconds, before any other work.
 */
export function idList(value: unknown, name: string, maxIds = MAX_IDS): string[] {
  const ids: string[] = [];
  const read = (cell: unknown): void => {
    if (isMissing(cell)) return;
    for (const part of requiredText(cell, name).split(",")) {
      const id = part.trim();
      if (id === "") continue;
      if (ids.length === maxIds)
        throw invalid(
          `${name} lists more than ${maxIds} ids; at most ${maxIds} fit in one formula`
        );
      ids.push(id);
    }
  };
  if (!Array.isArray(value)) read(value);
  else
    for (const row of value as unknown[]) {
      if (Array.isArray(row)) for (const cell of row as unknown[]) read(cell);
      else read(row);
    }
  return ids;
}

/** Each id once (case-insensitively, the first spelling kept), in order: what a request lists. */
export function uniqueIds(ids: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const id of ids) {
    const key = id.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(id);
  }
  return out;
}

/**
 * Ids by position, for results whose columns (or rows) stand for the input: as idList, and an empty cell or
 * an empty part of a comma list keeps its place too, as "" (its column says so), so references into the
 * result never shift when an input changes. At least one id; at most `maxIds` positions, checked while reading.
 */
export function idPositions(value: unknown, name: string, maxIds = MAX_IDS): string[] {
  const ids: string[] = [];
  const add = (id: string): void => {
    if (ids.length === maxIds)
      throw invalid(`${name} lists more than ${maxIds} ids; at most ${maxIds} fit in one formula`);
    ids.push(id);
  };
  const read = (cell: unknown): void => {
    if (isMissing(cell)) add("");
    else for (const part of requiredText(cell, name).split(",")) add(part.trim());
  };
  if (!Array.isArray(value)) read(value);
  else
    for (const row of value as unknown[]) {
      if (Array.isArray(row)) for (const cell of row as unknown[]) read(cell);
      else read(row);
    }
  if (ids.every((id) => id === "")) throw invalid(`${name} is missing`);
  return ids;
}

export function requiredIds(value: unknown, name: string): string[] {
  const ids = idList(value, name);
  if (ids.length === 0) throw invalid(`${name} is missing`);
  return ids;
}

export function checkRange(start: number | undefined, end: number | undefined): void {
  if (start !== undefined && end !== undefined && start > end) {
    throw invalid(`start ${formatDay(start)} is after end ${formatDay(end)}`);
  }
}

/** A start and an end date (each optional: omitted, undefined), the start not after the end. */
export function dayRange(
  startArg: unknown,
  endArg: unknown
): { start: number | undefined; end: number | undefined } {
  const start = optionalDate(startArg, "start");
  const end = optionalDate(endArg, "end");
  checkRange(start, end);
  return { start, end };
}
