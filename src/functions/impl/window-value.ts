/**
 * VALUE with `window=`: a metric rolled up over a trailing window (engine/trailing-window.ts) ending on the
 * date, or on the latest value's day when no date is given. The window follows the rules of complete periods
 * (engine/completeness.ts):
 * - a window running past the series' horizon (its latest data, or today) is a #N/A with `partial=exclude`
 *   (the default), or rolled up over the days it covers with `partial=include`;
 * - a window starting before the series' first data is incomplete the same way: a young project's "TTM"
 *   would otherwise be a few months passed as twelve.
 * The roll-up is the metric's default (flows sum, user counts average, levels last) or `agg=`;
 * `annualize=1` scales a summed window to 365 days (of the days it covers).
 */
import { formatDay } from "../../client/data/days";
import { horizonOf } from "../../engine/completeness";
import { defaultAggregation } from "../../engine/metric-kinds";
import { aggregate, fillDays, type DayPoint } from "../../engine/series-ops";
import {
  annualized,
  windowLabel,
  windowStart,
  type TrailingWindow,
} from "../../engine/trailing-window";
import type { FnContext } from "../context";
import type { Options } from "../options";
import { invalid, notAvailable } from "../result";
import { horizonFor, pointsOf, type SeriesBase } from "./latest";
import { FILL_LOOKBACK_DAYS } from "./series-common";

export interface WindowReading {
  ctx: FnContext;
  options: Readonly<Options>;
  base: SeriesBase;
  label: string;
  metricId: string;
}

/** A figure and the last day it covers. */
export interface WindowFigure {
  value: number;
  asOf: number;
}

/** Options that cannot go with a window, refused before anything is read. */
export function checkWindowOptions(options: Readonly<Options>): void {
  if (options.annualize && !options.window)
    throw invalid('option "annualize" scales a window: add e.g. "window=30d"');
  if (!options.window) return;
  if (options.period !== "day")
    throw invalid(
      `options "window" and "period" both choose the days to roll up: use one (window=${options.window.text} or period=${options.period})`
    );
  if (options.values !== "value")
    throw invalid(`option "values=${options.values}" does not apply with "window"`);
  if (options.annualize && options.agg !== undefined && options.agg !== "sum")
    throw invalid(`option "annualize=1" scales a summed window; agg=${options.agg} is not a sum`);
}

/**
 * The window ending on `end`. `knownHorizon` is the horizon when the caller already knows it (the latest
 * value's day, for a window without a date).
 */
export async function windowValue(
  r: WindowReading,
  w: TrailingWindow,
  end: number,
  knownHorizon?: number
): Promise<WindowFigure> {
  const from = windowStart(w, end);
  const what = `${r.label} ${windowLabel(w, from, end)}`;
  const agg = r.options.agg ?? defaultAggregation(r.metricId);
  if (r.options.annualize && agg !== "sum")
    throw invalid(
      `option "annualize=1" scales a summed window; ${r.metricId} rolls up with ${agg} (agg=sum sums it)`
    );
  const readFrom = r.options.fill === "previous" ? from - FILL_LOOKBACK_DAYS : from;
  const points = await pointsOf(r.ctx, r.base, r.label, readFrom, end);
  const horizon = knownHorizon ?? (await horizonFor(r.ctx, r.base, r.label, points, readFrom, end));
  const partial = r.options.partial === "include";
  const last = Math.min(end, horizon);
  if (last < from) throw notAvailable(`no data in ${what}`);
  if (end > horizon && !partial)
    throw notAvailable(
      `${what} is not complete: the data goes up to ${formatDay(horizon)}; partial=include rolls up the days it has`
    );
  const first = firstDay(points, r.options.fill === "previous" ? readFrom : from);
  if (first === undefined) throw notAvailable(`no data in ${what}`);
  if (first > from && !partial)
    throw notAvailable(
      `${what} is not complete: the data starts on ${formatDay(first)}; partial=include rolls up the days it has`
    );
  const values: number[] = [];
  for (const p of fillDays(points, from, last, r.options.fill))
    if (p.value !== null) values.push(p.value);
  const rolled = aggregate(values, agg);
  if (rolled === null) throw notAvailable(`no ${r.label} value in ${what}`);
  const start = Math.max(from, first);
  return {
    value: r.options.annualize ? annualized(rolled, start, last) : rolled,
    asOf: last,
  };
}

/** The first day the series has a row on or after `from` (a null row counts: the service knows the day). */
function firstDay(points: readonly DayPoint[], from: number): number | undefined {
  for (const p of points) if (p.day >= from) return p.day;
  return undefined;
}

/** The horizon of a window without a date: it ends on the latest value's day. */
export function latestHorizon(ctx: FnContext, latestDay: number): number {
  return horizonOf(ctx.today, latestDay);
}
