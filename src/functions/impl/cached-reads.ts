/**
 * The reads of latest.ts answered without waiting: from the engine's fresh cache, or NOT_CACHED as soon as a
 * series they need is not held fresh (the caller then takes the async path, which waits for the service).
 * They make the same reads in the same order and decide with the same steps (pointsIn, lastDataAtOrBefore),
 * so a cell answered here shows what the async path would have shown, with the same trace.
 */
import { horizonOf, lastDataAtOrBefore, type DayPoint, type SeriesQuery } from "../../engine";
import { NOT_CACHED, type FnContext, type NotCached } from "../context";
import { horizonSeen, pointsIn, recentStart, type SeriesBase } from "./latest";
import { cachedSeries } from "./series-common";

/** pointsOf from the cache. */
export function cachedPoints(
  ctx: FnContext,
  base: SeriesBase,
  label: string,
  start: number,
  end: number
): DayPoint[] | NotCached {
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
}

/** latestPoint from the cache. */
export function cachedLatestPoint(
  ctx: FnContext,
  base: SeriesBase,
  label: string
): DayPoint | undefined | NotCached {
  const recent = cachedPoints(ctx, base, label, recentStart(ctx), Infinity);
  if (recent === NOT_CACHED) return NOT_CACHED;
  const found = lastDataAtOrBefore(recent, Infinity);
  if (found) return found;
  const whole = cachedPoints(ctx, base, label, -Infinity, Infinity);
  return whole === NOT_CACHED ? NOT_CACHED : lastDataAtOrBefore(whole, Infinity);
}

/** horizonFor from the cache. */
export function cachedHorizon(
  ctx: FnContext,
  base: SeriesBase,
  label: string,
  points: readonly DayPoint[],
  fetchedFrom: number,
  upTo: number
): number | NotCached {
  const seen = horizonSeen(ctx, points, fetchedFrom, upTo);
  if (seen !== undefined) return seen;
  const latest = cachedLatestPoint(ctx, base, label);
  return latest === NOT_CACHED ? NOT_CACHED : horizonOf(ctx.today, latest?.day);
}
