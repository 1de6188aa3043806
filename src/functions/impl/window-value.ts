/**
 * VALUE with `window=`: a metric rolled up over a trailing window (engine/figures/trailing-window.ts) ending on the
 * date, or on the latest value's day when no date is given. The window follows the rule of figures
 * (engine/figures/rule.ts): it is whole when every one of its days has data, so a window running past the latest
 * data or today, starting before the series' first data (a young project's "TTM" would otherwise be a few
 * months passed as twelve) or holding days without a value is a #N/A naming "N of M days" with
 * `partial=exclude` (the default), and rolled up over the days it has with `partial=include`; a day the
 * service sent twice with different values makes it a #N/A whatever `partial` says.
 * The roll-up is the metric's default (flows sum, user counts average, levels last) or `agg=`;
 * `annualize=1` scales a summed window to 365 days of the days it covers (trailing-window.ts).
 */
import {
  horizonOf,
  judge,
  windowFigure,
  annualized,
  windowLabel,
  windowStart,
  type TrailingWindow,
} from "../../engine";
import type { FnContext } from "../context";
import type { Options } from "../options";
import { invalid, notAvailable } from "../result";
import type { Reading } from "./latest";
import type { Read } from "./reads";
import { aggregationOf, daysRead, fillHint } from "./series-days";

/** A figure and the last day it covers. */
interface WindowFigureShown {
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

/** annualize=1 scales a sum: a metric rolled up another way is refused (agg=sum sums it). */
export function checkAnnualize(options: Readonly<Options>, metricId: string): void {
  if (!options.annualize) return;
  const agg = aggregationOf(metricId, options.agg);
  if (agg !== "sum")
    throw invalid(
      `option "annualize=1" scales a summed window; ${metricId} rolls up with ${agg} (agg=sum sums it)`
    );
}

/**
 * The window ending on `end`. `knownHorizon` is the horizon when the caller already knows it (the latest
 * value's day, for a window without a date).
 */
export function* windowRead(
  r: Reading,
  w: TrailingWindow,
  end: number,
  knownHorizon?: number
): Read<WindowFigureShown> {
  const from = windowStart(w, end);
  const agg = aggregationOf(r.metricId, r.options.agg);
  checkAnnualize(r.options, r.metricId);
  const days = yield* daysRead(r, from, end, knownHorizon);
  const figure = windowFigure(days, from, end, r.fill, agg);
  const judged = judge(figure, r.options.partial === "include", {
    label: windowLabel(w, from, end),
    subject: r.label,
    today: r.ctx.today,
    fillHint: fillHint(r.metricId, r.fill, r.options.agg),
  });
  if ("reason" in judged) throw notAvailable(judged.reason);
  return {
    value: r.options.annualize ? annualized(judged.value, figure.covered) : judged.value,
    asOf: judged.asOf,
  };
}

/** The horizon of a window without a date: it ends on the latest value's day. */
export function latestHorizon(ctx: FnContext, latestDay: number): number {
  return horizonOf(ctx.today, latestDay);
}
