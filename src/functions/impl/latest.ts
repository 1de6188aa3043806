/**
 * The latest data of a series and what follows from it: the latest value VALUE shows without a date, and
 * the horizon (min(today, latest day with a value)) that decides which periods are complete
 * (engine/figures/completeness.ts). Reads go through the engine, so cells asking the same series share requests.
 */
import {
  horizonOf,
  lastValueDay,
  lastDataAtOrBefore,
  type DayPoint,
  type SeriesAnswer,
  type SeriesQuery,
} from "../../engine";
import type { FnContext } from "../context";
import type { Options } from "../options";
import { notAvailable } from "../result";
import { recentStart } from "./series-common";
import type { Read } from "./reads";

/** A series without its range. */
export type SeriesBase = Omit<SeriesQuery, "start" | "end">;

/** One VALUE cell's series, as its readings (a day, a period, a window) take it. */
export interface Reading {
  ctx: FnContext;
  options: Readonly<Options>;
  base: SeriesBase;
  label: string;
  metricId: string;
  fill: Options["fill"];
}

/**
 * The points of a series over [start, end] (every breakdown dimension's, by day: for the latest data of a
 * series, any chain's data counts); a series the service does not serve is a #N/A.
 */
export function* pointsRead(
  ctx: FnContext,
  base: SeriesBase,
  label: string,
  start: number,
  end: number
): Read<DayPoint[]> {
  // Spelled out, not spread: a spread copy was the largest cost of this read on a warm cell.
  const query: SeriesQuery = {
    projectId: base.projectId,
    productId: base.productId,
    metricId: base.metricId,
    start,
    end,
    variant: base.variant,
  };
  // The need yielded here, not through a one-step reading of its own: a generator level less on every read.
  return pointsIn((yield { kind: "series", ctx, query, label }) as SeriesAnswer);
}

/** An answer's points by day, every dimension's together; a series the service does not serve is a #N/A. */
export function pointsIn(answer: SeriesAnswer): DayPoint[] {
  if (answer.issue) throw notAvailable(answer.issue.message);
  if (answer.dims.size <= 1) return answer.dims.values().next().value ?? [];
  return [...answer.dims.values()].flat().sort((a, b) => a.day - b.day);
}

/**
 * The last point with data (a value, or a conflict: the service has the day, nobody can vouch for its value):
 * a short recent window first (every latest cell of a workbook shares it), the whole history only for series
 * with nothing recent (archived projects, stopped metrics).
 */
export function* latestRead(
  ctx: FnContext,
  base: SeriesBase,
  label: string
): Read<DayPoint | undefined> {
  const recent = yield* pointsRead(ctx, base, label, recentStart(ctx), Infinity);
  return (
    lastDataAtOrBefore(recent, Infinity) ??
    lastDataAtOrBefore(yield* pointsRead(ctx, base, label, -Infinity, Infinity), Infinity)
  );
}

/**
 * The horizon of a series, exact for every window ending by `upTo`, from the points fetched over
 * [fetchedFrom, upTo] when they tell it, else from the latest data (one more read, shared).
 * - A value on or after min(upTo, today): every window ending by upTo ends by the latest data.
 * - A range reaching today: the last value in it is the latest (none: the latest is before the range).
 */
export function* horizonRead(
  ctx: FnContext,
  base: SeriesBase,
  label: string,
  points: readonly DayPoint[],
  fetchedFrom: number,
  upTo: number
): Read<number> {
  return (
    horizonSeen(ctx, points, fetchedFrom, upTo) ??
    horizonOf(ctx.today, (yield* latestRead(ctx, base, label))?.day)
  );
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
