/**
 * `vintage=` at the functions' side: a call's context as of an instant, and a series read through it as it was
 * known then (engine/vintage-answer.ts, from the value held now, when it was first seen and the ledger's
 * changes: this computer's, and with a team gateway as the data source, the team's record too). Every series a function reads goes through fetchSeries (series-common.ts), so every function that
 * computes from daily series (VALUE, ASOF, METRIC, PRODUCT_METRIC, COMPS, BREAKDOWN) takes it alike: periods and
 * windows are summed from the values known then, by the same rule of whole periods.
 *
 * Choices:
 * - A call under vintage= answers as on the vintage's day: "today" is that day (the latest value, a period
 *   still running, maxage= are as of then). A read up to the latest data leaves out the days first seen after
 *   the vintage past the last day known then: the series as it ended then. A day asked by date that was not
 *   known then is a #N/A "not known on 2026-11-20: first seen 2026-11-24".
 * - It always reads through the cache and the ledger (never the warm path that answers without waiting): the
 *   ledger is loaded once, on the first vintage= of a session.
 * - The whole answers of the service (statements, its aggregations) are not days of a series and are not kept
 *   (engine/ledger/README.md); today's hold every restatement seen since. STATEMENT and AGGREGATION(S) take the
 *   option all the same, each figure rebuilt from the line's or metric's daily series as known then: STATEMENT
 *   where its figure is the rule of its days (statement-figures.ts), an aggregate where its name says its days
 *   (aggregation-vintage.ts); otherwise a #N/A saying why. Every data function takes it.
 */
import { dayOfInstant } from "../../client";
import {
  parseVintage,
  type Vintage,
  seriesRefOf,
  type DayPoint,
  type SeriesAnswer,
  type SeriesQuery,
  knownAt,
} from "../../engine";
import type { FnContext } from "../context";
import type { Options } from "../options";
import { invalid } from "../result";

/** The call's context as of the options' vintage (the context itself when there is none). */
export function atVintage(ctx: FnContext, options: Readonly<Options>): FnContext {
  if (options.vintage === undefined || ctx.vintage) return ctx;
  const vintage = parseVintage(options.vintage, ctx.runtime.now());
  if ("error" in vintage) throw invalid(vintage.error);
  // A view of the context (its signal getter stays the call's): the vintage, and its day as today.
  const view = Object.create(ctx) as FnContext;
  Object.defineProperties(view, {
    vintage: { value: vintage, enumerable: true },
    today: { value: Math.min(ctx.today, dayOfInstant(vintage.at)), enumerable: true },
  });
  return view;
}

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
