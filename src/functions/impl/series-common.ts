/** What VALUE, METRIC and PRODUCT_METRIC share: their options, series variants and the engine call. */
import { formatDay, keptFor } from "../../client";
import type { SeriesAnswer, SeriesQuery, SeriesVariant } from "../../engine";
import type { FnContext } from "../context";
import type { Options } from "../options";

/** "Latest" looks this far back first; a project with nothing that recent gets its whole history read. */
export const LATEST_LOOKBACK_DAYS = 35;

/** Where "latest" looks first: a short recent window that every latest cell of a workbook shares. */
export function recentStart(ctx: FnContext): number {
  return ctx.today - LATEST_LOOKBACK_DAYS;
}

/** One variant object per options object, so cells with the same (usually default) options share its key. */
const variants = new WeakMap<Readonly<Options>, SeriesVariant>();

function variantFrom(o: Readonly<Options>): SeriesVariant {
  return {
    bridged: o.bridged,
    chains: o.chains,
    products: o.products,
    sectors: o.sectors,
    breakdown: o.breakdown,
  };
}

export function variantOf(o: Readonly<Options>): SeriesVariant {
  return keptFor(variants, o, variantFrom);
}

/**
 * A series through the engine; under vintage= as it was known then (impl/vintage-series.ts). `untrimmed`: a read up to
 * the latest data keeps the days first seen after the vintage as days not known then, rather than ending the
 * series where it ended then (what a caller needs to say why nothing was known).
 */
export async function fetchSeries(
  ctx: FnContext,
  query: SeriesQuery,
  label: string,
  untrimmed = false
): Promise<SeriesAnswer> {
  // A getter, so the signal is made only if the engine has to wait (it reads it after its cache look-up).
  const answer = await ctx.engine.series(query, {
    get signal() {
      return ctx.signal;
    },
  });
  ctx.trace.noteSeries(label, answer);
  if (!ctx.vintage) return answer;
  const { seriesAtVintage } = await import(/* webpackChunkName: "fn-vintage" */ "./vintage-series");
  return seriesAtVintage(ctx, ctx.vintage, query, answer, untrimmed);
}

/**
 * The series from the engine's fresh cache without waiting, noted in the trace as fetchSeries notes it; or
 * undefined when the engine would have to wait (the caller then takes the path that awaits fetchSeries).
 */
export function cachedSeries(
  ctx: FnContext,
  query: SeriesQuery,
  label: string
): SeriesAnswer | undefined {
  // Under vintage= the ledger is read: never without waiting.
  if (ctx.vintage) return undefined;
  const answer = ctx.engine.seriesNow(query);
  if (answer) ctx.trace.noteSeries(label, answer);
  return answer;
}

export function describeRange(start: number | undefined, end: number | undefined): string {
  if (start === undefined && end === undefined) return "";
  if (start === end) return ` on ${formatDay(start!)}`;
  return ` between ${start === undefined ? "launch" : formatDay(start)} and ${end === undefined ? "the latest data" : formatDay(end)}`;
}
