/** VALUE: one number, a metric on a date (or its latest value), optionally rolled up over the period. */
import { formatDay, periodEnd, periodStart } from "../../client/data/days";
import { defaultAggregation } from "../../engine/metric-kinds";
import {
  fillDays,
  lastValueAtOrBefore,
  rollUp,
  slicePoints,
  type DayPoint,
} from "../../engine/series-ops";
import { optionalDate, requiredText } from "../coerce";
import type { FnContext } from "../context";
import { parseOptions } from "../options";
import { notAvailable, type Cell } from "../result";
import { resolveMetric, resolveProject } from "./resolve";
import {
  FILL_LOOKBACK_DAYS,
  LATEST_LOOKBACK_DAYS,
  VALUE_OPTIONS,
  fetchSeries,
  plainPoints,
  variantOf,
} from "./series-common";

export async function value(
  ctx: FnContext,
  projectArg: unknown,
  metricArg: unknown,
  dateArg: unknown,
  optionsArg: unknown
): Promise<Cell> {
  const options = parseOptions(optionsArg, "VALUE", VALUE_OPTIONS);
  const projectText = requiredText(projectArg, "project");
  const metricText = requiredText(metricArg, "metric");
  const date = optionalDate(dateArg, "date");
  const [project, metric] = await Promise.all([
    resolveProject(ctx, projectText),
    resolveMetric(ctx, metricText),
  ]);
  const label = `${project.projectId} ${metric.metricId}`;
  const agg = options.agg ?? defaultAggregation(metric.metricId);
  const base = {
    projectId: project.projectId,
    metricId: metric.metricId,
    variant: variantOf(options),
  };
  const ask = async (start: number, end: number): Promise<DayPoint[]> => {
    const answer = await fetchSeries(ctx, { ...base, start, end }, label);
    if (answer.issue) throw notAvailable(answer.issue.message);
    return plainPoints(answer);
  };

  if (date === undefined) {
    // Latest: a short recent window first (every latest-cell of a workbook shares it); the whole history only
    // for series with nothing recent (archived projects).
    let points = await ask(ctx.today - LATEST_LOOKBACK_DAYS, Infinity);
    let last = lastValueAtOrBefore(points, Infinity);
    if (!last) {
      points = await ask(-Infinity, Infinity);
      last = lastValueAtOrBefore(points, Infinity);
    }
    if (!last) throw notAvailable(`no ${metric.metricId} data for ${project.projectId}`);
    if (options.period === "day") return last.value;
    const from = periodStart(last.day, options.period);
    const rolled = rollUp(
      slicePoints(await ask(from, Infinity), from, Infinity),
      options.period,
      agg
    );
    return rolled[rolled.length - 1]?.value ?? null;
  }

  if (options.period !== "day") {
    const from = periodStart(date, options.period);
    const to = periodEnd(date, options.period);
    const points = await ask(options.fill === "previous" ? from - FILL_LOOKBACK_DAYS : from, to);
    const filled = fillDays(points, from, Math.min(to, ctx.today), options.fill);
    const rolled = rollUp(filled, options.period, agg)[0]?.value ?? null;
    if (rolled === null) {
      if (options.fill === "zero") return 0;
      throw notAvailable(`no ${label} value in the ${options.period} of ${formatDay(date)}`);
    }
    return rolled;
  }

  const points = await ask(options.fill === "previous" ? date - FILL_LOOKBACK_DAYS : date, date);
  const found =
    options.fill === "previous"
      ? lastValueAtOrBefore(points, date)
      : points.find((p) => p.day === date);
  if (found === undefined || found.value === null) {
    if (options.fill === "zero") return 0;
    const hint =
      options.fill === "none" ? ' (option "fill=previous" takes the last earlier value)' : "";
    throw notAvailable(`no ${label} value on ${formatDay(date)}${hint}`);
  }
  return found.value;
}
