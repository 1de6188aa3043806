/**
 * AGGREGATION and AGGREGATIONS under `vintage=`: the service's aggregate as it would have been on that day,
 * rebuilt from the daily series as this computer (or the team's gateway) knew them then.
 *
 * The service's aggregates are whole answers, not days of a series: the record of restatements keeps no
 * earlier copy of them, and the value the service gives today is today's figure, not the figure as known then
 * (its window ends on today's latest day, and it holds every restatement seen since). So under vintage= the
 * service's value is never shown. Instead:
 *
 * - An aggregate whose name says its days (aggregationSpan: latest, sum_Nd, avg_Nd, change_Nd, trend_Nd) is
 *   computed from the series as known then, ending on the latest day with data known then, by the formula the
 *   name promises and the simulator serves (src/simulator/data/aggregations.ts): latest the value of that day;
 *   sum_Nd and avg_Nd the sum and mean of its N days; change_Nd of a flow the sum of the N days over the sum of
 *   the N before, minus 1, of any other kind the value of that day over the value N days earlier, minus 1;
 *   trend_Nd the mean of the N days over the mean of the N before, minus 1. Every day of the window must be
 *   known then and have data, by the rule of whole windows the service's own figure is held to
 *   (aggregationCheck): a day first seen after the vintage is a #N/A "not known on …: first seen …". A change
 *   over a base of 0 or below is "NM" (engine/figures/growth.ts), where the simulator's formula gives a number for a
 *   negative base: never a figure that means nothing.
 * - One whose name says no window (ath, atl, a name the interface does not list) cannot be rebuilt from
 *   days: a #N/A saying so.
 *
 * It reads what the same cell reads without vintage= (the latest days of the series, then its window): no
 * request more than the check of the service's figure costs.
 */
import { formatDay } from "../../client";
import {
  judge,
  windowFigure,
  type SeriesDays,
  growthOf,
  type Vintage,
  metricKind,
  unknownKindMessage,
  type Aggregation,
  type DayPoint,
  DEFAULT_VARIANT,
} from "../../engine";
import type { FnContext } from "../context";
import { notAvailable } from "../result";
import { latestRead, pointsIn, pointsRead, type SeriesBase } from "./latest";
import { run } from "./reads";
import { fetchSeries, recentStart } from "./series-common";

/** "as of 2026-11-20" (or of an instant), as the messages name a vintage. */
function asOfText(vintage: Vintage): string {
  return `as of ${vintage.label}`;
}

/** The aggregate's window: its days and how its figure comes from them (undefined: the name says none). */
interface Formula {
  /** Days back from the latest day, the latest included. */
  span: number;
  compute: (days: SeriesDays, last: number) => { value: number } | { missing: string };
}

function formulaOf(name: string, metricId: string): Formula | { refused: string } | undefined {
  const n = name.toLowerCase();
  const roll = (days: SeriesDays, from: number, to: number, agg: Aggregation): number =>
    windowFigure(days, from, to, "none", agg).value!;
  const change = (current: number, base: number): { value: number } | { missing: string } => {
    const g = growthOf(current, base);
    return "value" in g ? { value: g.value } : { missing: g.missing };
  };
  if (n === "latest")
    return { span: 1, compute: (d, last) => ({ value: roll(d, last, last, "last") }) };
  const m = /^(sum|avg|change|trend)_(\d{1,4})d$/.exec(n);
  if (!m || Number(m[2]) < 1) return undefined;
  const k = Number(m[2]);
  switch (m[1]) {
    case "sum":
      return { span: k, compute: (d, last) => ({ value: roll(d, last - k + 1, last, "sum") }) };
    case "avg":
      return { span: k, compute: (d, last) => ({ value: roll(d, last - k + 1, last, "avg") }) };
    case "trend":
      return {
        span: 2 * k,
        compute: (d, last) =>
          change(roll(d, last - k + 1, last, "avg"), roll(d, last - 2 * k + 1, last - k, "avg")),
      };
    default: {
      const kind = metricKind(metricId);
      if (kind === undefined) return { refused: unknownKindMessage(metricId) };
      if (kind === "flow")
        return {
          span: 2 * k,
          compute: (d, last) =>
            change(roll(d, last - k + 1, last, "sum"), roll(d, last - 2 * k + 1, last - k, "sum")),
        };
      return {
        span: 2 * k,
        compute: (d, last) =>
          change(roll(d, last, last, "last"), roll(d, last - k, last - k, "last")),
      };
    }
  }
}

/** The last point with data known then (a conflict counts: the service had the day), or why there is none. */
async function latestKnown(
  ctx: FnContext,
  base: SeriesBase,
  label: string
): Promise<DayPoint | { notKnown: string; day: number } | undefined> {
  // The recent window every latest cell shares, with the days first seen after the vintage kept as such.
  const recent = pointsIn(
    await fetchSeries(ctx, { ...base, start: recentStart(ctx), end: Infinity }, label, true)
  );
  let unknown: DayPoint | undefined;
  for (let i = recent.length - 1; i >= 0; i--) {
    const p = recent[i];
    if (p.notKnown !== undefined) {
      unknown ??= p;
      continue;
    }
    if (p.value !== null || p.conflict) return p;
  }
  if (unknown) return { notKnown: unknown.notKnown!, day: unknown.day };
  // Nothing recent at all (an archived project, a stopped metric): the whole history, as without vintage=.
  return run(latestRead(ctx, base, label));
}

/** The aggregate `name` of a project's metric as known at the context's vintage; a #N/A when it cannot be. */
export async function aggregateAsKnown(
  ctx: FnContext,
  vintage: Vintage,
  projectId: string,
  metricId: string,
  name: string
): Promise<number> {
  const what = `${name} of ${metricId} for ${projectId}`;
  const formula = formulaOf(name, metricId);
  if (formula === undefined)
    throw notAvailable(
      `${what} cannot be known ${asOfText(vintage)}: the service's aggregates are not kept, and its name says no window of days to rebuild it from (only latest, sum_Nd, avg_Nd, change_Nd and trend_Nd can be)`
    );
  if ("refused" in formula)
    throw notAvailable(`${formula.refused}; ${what} cannot be known ${asOfText(vintage)}`);
  const base = { projectId, metricId, variant: DEFAULT_VARIANT };
  const label = `${projectId} ${metricId}`;
  const latest = await latestKnown(ctx, base, label);
  if (latest === undefined)
    throw notAvailable(`no ${metricId} data for ${projectId} ${asOfText(vintage)}`);
  if ("notKnown" in latest)
    throw notAvailable(`${latest.notKnown} (${label}, ${formatDay(latest.day)}); no ${what}`);
  const last = latest.day;
  const from = last - formula.span + 1;
  const points = await run(pointsRead(ctx, base, label, from, last));
  const days: SeriesDays = { points, horizon: last };
  const judged = judge(windowFigure(days, from, last, "none", "sum"), false, {
    label: `${name} (${formatDay(from)}..${formatDay(last)}, ${asOfText(vintage)})`,
    subject: label,
    today: ctx.today,
    noPartial: true,
  });
  if ("reason" in judged) throw notAvailable(judged.reason);
  const figure = formula.compute(days, last);
  if ("missing" in figure) throw notAvailable(`no ${what} ${asOfText(vintage)}: ${figure.missing}`);
  // Not the service's window: say which days it rolls up, as every computed aggregate should.
  ctx.trace.warnings.add(
    `${what} ${asOfText(vintage)}: computed from the days known then, ${formatDay(from)}..${formatDay(last)} (the service's own figure is today's)`
  );
  return figure.value;
}
