/**
 * The latest data of a series and what follows from it: the latest value VALUE shows without a date, and
 * the horizon (min(today, latest day with a value)) that decides which periods are complete
 * (engine/figures/completeness.ts). Reads go through the engine, so cells asking the same series share requests.
 *
 * One reading path: a reading that needs series (readLatestPoint, readHorizon, value.ts's readDay) is written
 * once, synchronously, against `Reads` that answer a value or NOT_CACHED. The preview (and a warm cell) runs
 * it over `cacheReads` (the engine's fresh cache, never waiting): NOT_CACHED there sends the cell to the async
 * path. The async path runs the same reading through `fetched`: each NOT_CACHED names the read it lacks, which
 * is fetched (fetchSeries, as before) and kept, and the reading runs again, until it answers. The reads are
 * made in the order the reading needs them, one at a time, as an async reading would make them.
 */
import {
  horizonOf,
  lastValueDay,
  lastDataAtOrBefore,
  type DayPoint,
  type SeriesAnswer,
  type SeriesQuery,
} from "../../engine";
import { NOT_CACHED, type FnContext, type NotCached } from "../context";
import { notAvailable } from "../result";
import { LATEST_LOOKBACK_DAYS, cachedSeries, fetchSeries } from "./series-common";

/** A series without its range. */
export type SeriesBase = Omit<SeriesQuery, "start" | "end">;

/** What a reading reads: answered now, or NOT_CACHED (the async path then fetches it and reads again). */
export interface Reads {
  /** pointsOf's points of the series over [start, end]. */
  points(base: SeriesBase, label: string, start: number, end: number): DayPoint[] | NotCached;
  /** The first day with data of a project's unfiltered metric (the engine's history starts); null: none. */
  historyStart(base: SeriesBase): number | null | NotCached;
}

/** The series as it is held fresh now, never waiting (the preview, a warm recalculation). */
export function cacheReads(ctx: FnContext): Reads {
  return {
    points(base, label, start, end) {
      // Spelled out, not spread: a spread copy was the largest cost of this read on a warm cell.
      const query: SeriesQuery = {
        projectId: base.projectId,
        productId: base.productId,
        metricId: base.metricId,
        start,
        end,
        variant: base.variant,
      };
      const answer = cachedSeries(ctx, query, label);
      return answer ? pointsIn(answer) : NOT_CACHED;
    },
    historyStart(base) {
      const known = ctx.engine.historyStartNow(base.metricId, base.projectId);
      return known === undefined ? NOT_CACHED : known;
    },
  };
}

/**
 * The most reads one reading makes (a day: its points, the recent and whole series for the horizon, the
 * first day with data): a reading that keeps asking for more is a bug, refused rather than looped on.
 */
const MAX_READS = 8;

/** A series read for `fetched`, and its answer. */
interface Kept {
  base: SeriesBase;
  start: number;
  end: number;
  answer: SeriesAnswer;
}

const sameSeries = (a: SeriesBase, b: SeriesBase): boolean =>
  a.projectId === b.projectId &&
  a.productId === b.productId &&
  a.metricId === b.metricId &&
  a.variant === b.variant;

/**
 * A reading run against the service: every read it lacks is fetched (waiting as long as the call may), kept,
 * and the reading run again. A read that fails fails the reading as pointsOf would.
 */
export async function fetched<T>(
  ctx: FnContext,
  reading: (reads: Reads) => T | NotCached
): Promise<T> {
  const kept: Kept[] = [];
  const starts: { base: SeriesBase; day: number | null }[] = [];
  // The read the last run lacked (a run stops at its first NOT_CACHED, so there is at most one).
  const missing: (() => Promise<void>)[] = [];
  const find = (base: SeriesBase, start: number, end: number) =>
    kept.find((k) => sameSeries(k.base, base) && k.start === start && k.end === end);
  const reads: Reads = {
    points(base, label, start, end) {
      const answer = find(base, start, end)?.answer;
      if (answer) return pointsIn(answer);
      missing.push(async () => {
        kept.push({
          base,
          start,
          end,
          answer: await fetchSeries(ctx, { ...base, start, end }, label),
        });
      });
      return NOT_CACHED;
    },
    historyStart(base) {
      const known = starts.find((k) => sameSeries(k.base, base));
      if (known) return known.day;
      missing.push(async () => {
        const keepFrom = recentStart(ctx);
        const days = await ctx.engine.historyStarts(
          base.metricId,
          [base.projectId],
          () => keepFrom
        );
        starts.push({ base, day: days.get(base.projectId) ?? null });
      });
      return NOT_CACHED;
    },
  };
  for (let runs = 0; runs <= MAX_READS; runs++) {
    missing.length = 0;
    const out = reading(reads);
    if (out !== NOT_CACHED) return out;
    const read = missing.pop();
    if (!read) break;
    await read();
  }
  throw new Error("a reading asked for more reads than it can need, or for none it lacked");
}

/**
 * The points of a series over [start, end] (every breakdown dimension's, by day: for the latest data of a
 * series, any chain's data counts); a series the service does not serve is a #N/A.
 */
export async function pointsOf(
  ctx: FnContext,
  base: SeriesBase,
  label: string,
  start: number,
  end: number
): Promise<DayPoint[]> {
  return pointsIn(await fetchSeries(ctx, { ...base, start, end }, label));
}

/** An answer's points by day, every dimension's together; a series the service does not serve is a #N/A. */
export function pointsIn(answer: SeriesAnswer): DayPoint[] {
  if (answer.issue) throw notAvailable(answer.issue.message);
  if (answer.dims.size <= 1) return answer.dims.values().next().value ?? [];
  return [...answer.dims.values()].flat().sort((a, b) => a.day - b.day);
}

/** Where "latest" looks first: a short recent window that every latest cell of a workbook shares. */
export function recentStart(ctx: FnContext): number {
  return ctx.today - LATEST_LOOKBACK_DAYS;
}

/**
 * The last point with data (a value, or a conflict: the service has the day, nobody can vouch for its value):
 * a short recent window first (every latest cell of a workbook shares it), the whole history only for series
 * with nothing recent (archived projects, stopped metrics).
 */
export function readLatestPoint(
  reads: Reads,
  ctx: FnContext,
  base: SeriesBase,
  label: string
): DayPoint | undefined | NotCached {
  const recent = reads.points(base, label, recentStart(ctx), Infinity);
  if (recent === NOT_CACHED) return NOT_CACHED;
  const found = lastDataAtOrBefore(recent, Infinity);
  if (found) return found;
  const whole = reads.points(base, label, -Infinity, Infinity);
  return whole === NOT_CACHED ? NOT_CACHED : lastDataAtOrBefore(whole, Infinity);
}

/** readLatestPoint against the service. */
export function latestPoint(
  ctx: FnContext,
  base: SeriesBase,
  label: string
): Promise<DayPoint | undefined> {
  return fetched(ctx, (reads) => readLatestPoint(reads, ctx, base, label));
}

/**
 * The horizon of a series, exact for every window ending by `upTo`, from the points fetched over
 * [fetchedFrom, upTo] when they tell it, else from the latest data (one more read, shared).
 * - A value on or after min(upTo, today): every window ending by upTo ends by the latest data.
 * - A range reaching today: the last value in it is the latest (none: the latest is before the range).
 */
export function readHorizon(
  reads: Reads,
  ctx: FnContext,
  base: SeriesBase,
  label: string,
  points: readonly DayPoint[],
  fetchedFrom: number,
  upTo: number
): number | NotCached {
  const seen = horizonSeen(ctx, points, fetchedFrom, upTo);
  if (seen !== undefined) return seen;
  const latest = readLatestPoint(reads, ctx, base, label);
  return latest === NOT_CACHED ? NOT_CACHED : horizonOf(ctx.today, latest?.day);
}

/** readHorizon against the service. */
export function horizonFor(
  ctx: FnContext,
  base: SeriesBase,
  label: string,
  points: readonly DayPoint[],
  fetchedFrom: number,
  upTo: number
): Promise<number> {
  return fetched(ctx, (reads) => readHorizon(reads, ctx, base, label, points, fetchedFrom, upTo));
}

/**
 * The horizon when the points fetched over [fetchedFrom, upTo] tell it; undefined: the latest data decides.
 * A read reaching today with nothing in it does not tell: the latest data is somewhere before it, and a
 * message naming the day the data goes up to must name that day, not the day before the read.
 */
function horizonSeen(
  ctx: FnContext,
  points: readonly DayPoint[],
  fetchedFrom: number,
  upTo: number
): number | undefined {
  const seen = lastValueDay(points);
  if (seen === undefined) return undefined;
  if (seen >= Math.min(upTo, ctx.today)) return Math.min(ctx.today, seen);
  if (upTo >= ctx.today && fetchedFrom <= ctx.today) return Math.min(ctx.today, seen);
  return undefined;
}
