/**
 * VALUE and ASOF: one number, a metric on a date (or its latest value), optionally rolled up over the period
 * holding the date, and the date that number is from. Both run the same reading, so ASOF always dates the
 * number VALUE shows with the same arguments.
 *
 * - Without a date: the latest value; an archived project has none (engine/as-of.ts); `maxage=<N>d` refuses
 *   one older than N days; with a period, the latest complete period (`partial=include`: the period holding
 *   the latest data, as far as it goes).
 * - With a date and a period: the period holding the date, if complete (engine/completeness.ts).
 * - With `window=`: the trailing window ending on the date or the latest value's day (window-value.ts).
 * - Fills never reach past the latest data or today, and only where the metric admits them (fill-rules.ts).
 */
import { archivedMessage, tooOldMessage } from "../../engine/as-of";
import {
  coveredUntil,
  horizonOf,
  incompleteMessage,
  isComplete,
  periodLabel,
  previousWindow,
  windowOf,
  type PeriodWindow,
} from "../../engine/completeness";
import { formatDay } from "../../client/data/days";
import { baseStart, growthOf, type Growth } from "../../engine/growth";
import { fillRefusal } from "../../engine/fill-rules";
import { defaultAggregation } from "../../engine/metric-kinds";
import { fillDays, lastValueAtOrBefore, rollUp, type DayPoint } from "../../engine/series-ops";
import type { Metric, Project } from "../../client";
import { isMissing, optionalDate, requiredText } from "../coerce";
import type { FnContext } from "../context";
import { parseOptions, type Options } from "../options";
import { FunctionError, invalid, notAvailable, type Cell, type DateCell } from "../result";
import { checkFilters } from "./filters";
import { horizonFor, latestPoint, pointsOf, type SeriesBase } from "./latest";
import { resolveMetric, resolveProject, resolvedNow } from "./resolve";
import { FILL_LOOKBACK_DAYS, VALUE_OPTIONS, variantOf } from "./series-common";
import { checkWindowOptions, latestHorizon, windowValue } from "./window-value";

/** A number and the day it is from (for a period: the last day its figure covers). */
export interface Dated {
  value: number;
  asOf: number;
  /** A growth ratio (values=pop|yoy), shown as a percentage. */
  ratio?: boolean;
}

export async function value(
  ctx: FnContext,
  projectArg: unknown,
  metricArg: unknown,
  dateArg: unknown,
  optionsArg: unknown
): Promise<Cell> {
  const dated = await datedValue(ctx, "VALUE", projectArg, metricArg, dateArg, optionsArg);
  return valueCell(dated);
}

/** The cell VALUE shows for a dated number: a growth ratio as a percentage. */
export function valueCell(dated: Dated): Cell {
  return dated.ratio ? { percent: dated.value } : dated.value;
}

export async function asOf(
  ctx: FnContext,
  projectArg: unknown,
  metricArg: unknown,
  dateArg: unknown,
  optionsArg: unknown
): Promise<DateCell> {
  return { date: (await datedValue(ctx, "ASOF", projectArg, metricArg, dateArg, optionsArg)).asOf };
}

/** An empty project position is "nothing to show" in a lifted range, like an unknown one (#N/A). */
function projectText(value: unknown): string {
  if (Array.isArray(value) ? value.flat().every(isMissing) : isMissing(value))
    throw notAvailable("no project given (the cell is empty)");
  return requiredText(value, "project");
}

/** What VALUE or ASOF was asked, its arguments checked (in this order) before anything is read. */
export interface Asked {
  options: Readonly<Options>;
  date: number | undefined;
  growth: Growth | undefined;
  metricText: string;
  projectText: string;
}

export function asked(
  functionName: string,
  projectArg: unknown,
  metricArg: unknown,
  dateArg: unknown,
  optionsArg: unknown
): Asked {
  const options = parseOptions(optionsArg, functionName, VALUE_OPTIONS);
  const date = optionalDate(dateArg, "date");
  if (options.maxage !== undefined && date !== undefined)
    throw invalid(
      'option "maxage" applies to the latest value: leave the date out, or drop maxage'
    );
  checkWindowOptions(options);
  const growth = growthOption(options);
  const metricText = requiredText(metricArg, "metric");
  return { options, date, growth, metricText, projectText: projectText(projectArg) };
}

/** Whether the options filter the series (chains, products, sectors): the filters are checked first. */
export function hasFilters(options: Readonly<Options>): boolean {
  return options.chains.length > 0 || options.products.length > 0 || options.sectors.length > 0;
}

/** The reading of a resolved project and metric; a fill the metric does not admit is refused here. */
export function readingOf(ctx: FnContext, a: Asked, project: Project, metric: Metric): Reading {
  const refusal = fillRefusal(a.options.fill, metric.metricId);
  if (refusal) throw invalid(refusal);
  return {
    ctx,
    options: a.options,
    base: {
      projectId: project.projectId,
      metricId: metric.metricId,
      variant: variantOf(a.options),
    },
    label: `${project.projectId} ${metric.metricId}`,
    metricId: metric.metricId,
  };
}

async function datedValue(
  ctx: FnContext,
  functionName: string,
  projectArg: unknown,
  metricArg: unknown,
  dateArg: unknown,
  optionsArg: unknown
): Promise<Dated> {
  const a = asked(functionName, projectArg, metricArg, dateArg, optionsArg);
  const { options, date, growth } = a;
  const [project, metric] =
    resolvedNow(ctx, a.projectText, a.metricText) ??
    (await Promise.all([resolveProject(ctx, a.projectText), resolveMetric(ctx, a.metricText)]));
  const reading = readingOf(ctx, a, project, metric);
  // Without filters there is nothing to check: no await (most cells).
  const filtered = hasFilters(options) ? await checkFilters(ctx, project, options) : undefined;
  if (filtered) throw new FunctionError(filtered.error, filtered.message);
  const label = reading.label;

  if (date === undefined) {
    const latest = latestWithValue(project, metric, await latestPoint(ctx, reading.base, label));
    const dated = options.window
      ? await windowValue(reading, options.window, latest.day, latestHorizon(ctx, latest.day))
      : await latestValue(reading, latest);
    if (growth) {
      const shown = await growthValue(reading, windowOf(dated.asOf, options.period), growth, dated);
      ctx.trace.noteAsOf(label, shown.asOf);
      return shown;
    }
    return shownLatest(reading, dated);
  }
  if (options.window) return windowValue(reading, options.window, date);
  if (growth) return growthValue(reading, windowOf(date, options.period), growth);
  if (options.period !== "day") return periodValue(reading, windowOf(date, options.period));
  return dayValue(reading, date);
}

/** The latest point, if it has a value and the project is not archived (whose "latest" is no figure). */
export function latestWithValue(
  project: Project,
  metric: Metric,
  latest: DayPoint | undefined
): { day: number; value: number } {
  if (project.isArchived) throw notAvailable(archivedMessage(project, latest?.day));
  if (latest?.value === null || latest?.value === undefined)
    throw notAvailable(`no ${metric.metricId} data for ${project.projectId}`);
  return { day: latest.day, value: latest.value };
}

/** A latest figure as shown: its day noted for the diagnostics, refused when older than maxage. */
export function shownLatest(r: Reading, dated: Dated): Dated {
  r.ctx.trace.noteAsOf(r.label, dated.asOf);
  if (r.options.maxage !== undefined) {
    const old = tooOldMessage(`${r.label} value`, dated.asOf, r.ctx.today, r.options.maxage);
    if (old) throw notAvailable(old);
  }
  return dated;
}

export interface Reading {
  ctx: FnContext;
  options: Readonly<Options>;
  base: SeriesBase;
  label: string;
  metricId: string;
}

/** The latest value, or with a period the latest complete period (or, partial=include, the latest one). */
async function latestValue(r: Reading, latest: { day: number; value: number }): Promise<Dated> {
  if (r.options.period === "day") return { value: latest.value, asOf: latest.day };
  const horizon = horizonOf(r.ctx.today, latest.day);
  let w = windowOf(latest.day, r.options.period);
  if (!isComplete(w, horizon) && r.options.partial === "exclude") w = previousWindow(w);
  return rolledUp(r, w, horizon);
}

/** The period `w`, if complete (or partial=include). */
async function periodValue(r: Reading, w: PeriodWindow): Promise<Dated> {
  const from = r.options.fill === "previous" ? w.from - FILL_LOOKBACK_DAYS : w.from;
  const points = await pointsOf(r.ctx, r.base, r.label, from, w.to);
  const inWindow = points.filter((p) => p.day >= w.from);
  const horizon = await horizonFor(r.ctx, r.base, r.label, inWindow, w.from, w.to);
  if (!isComplete(w, horizon) && r.options.partial === "exclude")
    throw notAvailable(incompleteMessage(w, horizon, r.label));
  return rolledUp(r, w, horizon, points);
}

async function rolledUp(
  r: Reading,
  w: PeriodWindow,
  horizon: number,
  fetched?: readonly DayPoint[]
): Promise<Dated> {
  const last = coveredUntil(w, horizon);
  if (last === undefined) throw notAvailable(incompleteMessage(w, horizon, r.label));
  const points =
    fetched ??
    (await pointsOf(
      r.ctx,
      r.base,
      r.label,
      r.options.fill === "previous" ? w.from - FILL_LOOKBACK_DAYS : w.from,
      w.to
    ));
  const agg = r.options.agg ?? defaultAggregation(r.metricId);
  // Filled up to the last day the period's figure covers: never past the latest data or today.
  const value = rollUp(fillDays(points, w.from, last, r.options.fill), r.options.period, agg)[0]
    ?.value;
  if (value === null || value === undefined)
    throw notAvailable(`no ${r.label} value in ${periodLabel(w)}`);
  return { value, asOf: last };
}

async function dayValue(r: Reading, date: number): Promise<Dated> {
  const from = dayFrom(r, date);
  const points = await pointsOf(r.ctx, r.base, r.label, from, date);
  const found = foundOn(r, points, date);
  if (found) return found;
  if (r.options.fill === "zero")
    return zeroOn(r, date, await horizonFor(r.ctx, r.base, r.label, points, from, date));
  throw missingOn(r, date);
}

/** The first day a day's value is read from: fill=previous looks back for the last earlier value. */
export function dayFrom(r: Reading, date: number): number {
  return r.options.fill === "previous" ? date - FILL_LOOKBACK_DAYS : date;
}

/** The day's value (fill=previous: the last one at or before it) among the points read from dayFrom. */
export function foundOn(r: Reading, points: readonly DayPoint[], date: number): Dated | undefined {
  const found =
    r.options.fill === "previous"
      ? lastValueAtOrBefore(points, date)
      : points.find((p) => p.day === date && p.value !== null);
  return found && found.value !== null ? { value: found.value, asOf: found.day } : undefined;
}

/** fill=zero: a missing day counts 0 only inside the data: a day not indexed yet is no zero. */
export function zeroOn(r: Reading, date: number, horizon: number): Dated {
  if (date <= horizon) return { value: 0, asOf: date };
  throw notAvailable(`no ${r.label} value on ${formatDay(date)} yet: ${afterData(horizon)}`);
}

/** A day without a value (and no fill=zero): #N/A, with the option that would fill it when one would. */
export function missingOn(r: Reading, date: number): FunctionError {
  const { ctx, options, label } = r;
  const hint =
    date > ctx.today
      ? ` (${formatDay(date)} is after today)`
      : options.fill !== "none"
        ? ""
        : fillRefusal("previous", r.metricId) === undefined
          ? ' (option "fill=previous" takes the last earlier value)'
          : fillRefusal("zero", r.metricId) === undefined
            ? ' (option "fill=zero" counts a missing day as 0)'
            : "";
  return notAvailable(`no ${label} value on ${formatDay(date)}${hint}`);
}

function afterData(horizon: number): string {
  return Number.isFinite(horizon)
    ? `the data goes up to ${formatDay(horizon)}`
    : "the series has no data";
}

function growthOption(options: Readonly<Options>): Growth | undefined {
  // values=coverage is refused by parseOptions (VALUE and ASOF do not take it).
  if (options.values === "value" || options.values === "coverage") return undefined;
  if (options.period === "day")
    throw invalid(
      `option "values=${options.values}" compares periods: add a period, e.g. "period=quarter; values=${options.values}"`
    );
  return options.values;
}

/**
 * The change of the period `w` on its base (the previous period, or the same period a year earlier), both
 * complete: the base also from its first day (a launch quarter is a part of a quarter).
 */
async function growthValue(
  r: Reading,
  w: PeriodWindow,
  growth: Growth,
  current?: Dated
): Promise<Dated> {
  const shown = current ?? (await periodValue(r, w));
  const bw = windowOf(baseStart(w.start, w.period, growth), w.period);
  let base: Dated;
  try {
    base = await periodValue(r, bw);
  } catch (error) {
    if (error instanceof FunctionError && error.code === "na")
      throw notAvailable(`no ${growth} change for ${r.label} ${periodLabel(w)}: ${error.message}`);
    throw error;
  }
  const points = await pointsOf(r.ctx, r.base, r.label, bw.from, bw.to);
  const first = points[0]?.day;
  if (first === undefined || first > bw.from)
    throw notAvailable(
      `no ${growth} change for ${r.label} ${periodLabel(w)}: its base ${periodLabel(bw)} is not complete (the data starts on ${first === undefined ? "a later day" : formatDay(first)})`
    );
  const g = growthOf(shown.value, base.value);
  if (!("value" in g))
    throw notAvailable(`no ${growth} change for ${r.label} ${periodLabel(w)}: ${g.missing}`);
  return { value: g.value, asOf: shown.asOf, ratio: true };
}
