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
 *   ledger is loaded once, on the first vintage= of a session, and the reading as of then with it
 *   (vintage-series.ts: a chunk of its own on the Excel page, fetched by series-common.ts).
 * - The whole answers of the service (statements, its aggregations) are not days of a series and are not kept
 *   (engine/ledger/README.md); today's hold every restatement seen since. STATEMENT and AGGREGATION(S) take the
 *   option all the same, each figure rebuilt from the line's or metric's daily series as known then: STATEMENT
 *   where its figure is the rule of its days (statement-figures.ts), an aggregate where its name says its days
 *   (aggregation-vintage.ts); otherwise a #N/A saying why. Every data function takes it.
 */
import { dayOfInstant } from "../../client";
import { parseVintage } from "../../engine";
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
