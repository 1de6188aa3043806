/**
 * A series as it was known at a call's vintage (vintage.ts says what vintage= means). Loaded with the first
 * series read under vintage= (series-common.ts): most workbooks never ask what was known on a past day.
 */
import {
  seriesRefOf,
  type DayPoint,
  type SeriesAnswer,
  type SeriesQuery,
  type Vintage,
  knownAt,
} from "../../engine";
import type { FnContext } from "../context";

/** An engine answer as it was known at the context's vintage. */
export async function seriesAtVintage(
  ctx: FnContext,
  vintage: Vintage,
  query: SeriesQuery,
  answer: SeriesAnswer,
  untrimmed = false
): Promise<SeriesAnswer> {
  if (answer.issue) return answer;
  // An answer handed straight from its request has no first sightings: the cache's copy of it has.
  const held = answer.held ?? ctx.engine.seriesNow(query)?.held;
  const fetchedAt =
    held?.fetchedAt ?? answer.stale?.fetchedAt ?? answer.restored?.fetchedAt ?? ctx.runtime.now();
  const series = seriesRefOf(query);
  // This computer's record, and signed in to a team gateway the team's: the figure as the team knew it.
  const view = await ctx.runtime.vintageView(series);
  const known = knownAt(
    view,
    series,
    { dims: answer.dims, ...(held?.seen ? { seen: held.seen } : {}), fetchedAt },
    query.start,
    query.end,
    vintage
  );
  const dims = new Map<string, DayPoint[]>();
  for (const [dim, points] of known.dims) {
    const texts = known.notKnown.get(dim);
    let out = texts
      ? points.map((p) => {
          const text = texts.get(p.day);
          return text === undefined ? p : { ...p, notKnown: text };
        })
      : points;
    // Up to the latest data: the series as it ended then, without the days seen only afterwards.
    if (query.end === Infinity && texts && !untrimmed) {
      let last = out.length;
      while (last > 0 && out[last - 1].notKnown !== undefined) last--;
      out = out.slice(0, last);
    }
    dims.set(dim, out);
  }
  return { ...answer, dims };
}
