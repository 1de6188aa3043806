/**
 * VALUE and ASOF: one number, a metric on a date (or its latest value), optionally rolled up over the period
 * holding the date, and the date that number is from. Both run the same reading, so ASOF always dates the
 * number VALUE shows with the same arguments. Every figure follows engine/figures/rule.ts's rule.
 *
 * - Without a date: the latest value; an archived project has none (engine/figures/as-of.ts); `maxage=<N>d` refuses
 *   one older than N days; with a period, the latest finished period (`partial=include`: the period holding
 *   the latest data, as far as it goes).
 * - With a date and a period: the period holding the date, if whole (every day with data, no conflict).
 * - With `window=`: the trailing window ending on the date or the latest value's day (window-value.ts).
 * - Fills never reach past the latest data or today, nor before the first data, nor fill a conflict, and only
 *   where the metric admits them (metric-kinds.ts, fillRefusal).
 * - Growth compares whole periods only, and never over a base of 0 or less ("NM").
 *
 * The reading is written once (reads.ts): fed by the service (`value`, `asOf`), or from what the engine holds
 * fresh (`valueNow`, `asOfNow`: a warm workbook's cells answer without a promise). A filter to check, a vintage
 * to read or a series not held makes the second NOT_CACHED, and the edge runs the first.
 */
import {
  archivedMessage,
  tooOldMessage,
  periodLabel,
  previousWindow,
  windowOf,
  type PeriodWindow,
  conflictMessage,
  dayConflict,
  dayStates,
  judge,
  windowFigure,
  type Judged,
  baseStart,
  growthOf,
  type Growth,
  type DayPoint,
} from "../../engine";
import { formatDay } from "../../client";
import type { Metric, Project } from "../../client";
import { isMissing, optionalDate, requiredText } from "../coerce";
import { NOT_CACHED, type FnContext, type NotCached } from "../context";
import { type Options } from "../options";
import { FunctionError, invalid, notAvailable, type Cell, type DateCell } from "../result";
import { horizonRead, latestRead, pointsRead, type Reading } from "./latest";
import { run, runNow, waitRead, type Read } from "./reads";
import { resolvePair, resolvedNow } from "./resolve";
import { variantOf } from "./series-common";
import { optionsFor } from "../function-options";
import {
  aggregationOf,
  checkFill,
  dayReason,
  fillHint,
  daysRead,
  firstDataRead,
  readStart,
} from "./series-days";
import { checkAnnualize, checkWindowOptions, latestHorizon, windowRead } from "./window-value";
import { atVintage } from "./vintage";

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
  return valueCell(await run(datedRead(ctx, "VALUE", projectArg, metricArg, dateArg, optionsArg)));
}

/**
 * VALUE from what is held, without waiting: the same reading as `value`, fed from the engine's fresh cache
 * (reads.ts), or NOT_CACHED at the first series, catalogue or chunk it would have to wait for.
 */
export function valueNow(
  ctx: FnContext,
  projectArg: unknown,
  metricArg: unknown,
  dateArg: unknown,
  optionsArg: unknown
): Cell | NotCached {
  const dated = runNow(datedRead(ctx, "VALUE", projectArg, metricArg, dateArg, optionsArg));
  return dated === NOT_CACHED ? NOT_CACHED : valueCell(dated);
}

/**
 * VALUE of a project's metric on a day (undefined: its latest), with options as a cell would write them:
 * how the panels (COMPS, cards) read each of their figures.
 */
export function datedValueOn(
  ctx: FnContext,
  projectId: string,
  metricId: string,
  day: number | undefined,
  options: string | null
): Promise<Dated> {
  return run(
    datedRead(ctx, "VALUE", projectId, metricId, day === undefined ? null : formatDay(day), options)
  );
}

/** The cell VALUE shows for a dated number: a growth ratio as a percentage. */
function valueCell(dated: Dated): Cell {
  return dated.ratio ? { percent: dated.value } : dated.value;
}

export async function asOf(
  ctx: FnContext,
  projectArg: unknown,
  metricArg: unknown,
  dateArg: unknown,
  optionsArg: unknown
): Promise<DateCell> {
  return {
    date: (await run(datedRead(ctx, "ASOF", projectArg, metricArg, dateArg, optionsArg))).asOf,
  };
}

/** ASOF from what is held, as valueNow. */
export function asOfNow(
  ctx: FnContext,
  projectArg: unknown,
  metricArg: unknown,
  dateArg: unknown,
  optionsArg: unknown
): DateCell | NotCached {
  const dated = runNow(datedRead(ctx, "ASOF", projectArg, metricArg, dateArg, optionsArg));
  return dated === NOT_CACHED ? NOT_CACHED : { date: dated.asOf };
}

/** An empty project position is "nothing to show" in a lifted range, like an unknown one (#N/A). */
function projectText(value: unknown): string {
  if (Array.isArray(value) ? value.flat().every(isMissing) : isMissing(value))
    throw notAvailable("no project given (the cell is empty)");
  return requiredText(value, "project");
}

/** What VALUE or ASOF was asked, its arguments checked (in this order) before anything is read. */
interface Asked {
  options: Readonly<Options>;
  date: number | undefined;
  growth: Growth | undefined;
  metricText: string;
  projectText: string;
}

function asked(
  functionName: string,
  projectArg: unknown,
  metricArg: unknown,
  dateArg: unknown,
  optionsArg: unknown
): Asked {
  const options = optionsFor(functionName, optionsArg);
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
function hasFilters(options: Readonly<Options>): boolean {
  return options.chains.length > 0 || options.products.length > 0 || options.sectors.length > 0;
}

/**
 * The reading of a resolved project and metric. What the metric does not admit (a fill, annualize=1 on a
 * roll-up that is no sum) is refused here, before any data is read: the same #VALUE! whatever the data.
 * `ctx` is the call's, already at its vintage (datedRead).
 */
function readingOf(ctx: FnContext, a: Asked, project: Project, metric: Metric): Reading {
  checkFill(a.options.fill, metric.metricId, a.options.agg);
  // A period, a window or growth rolls days up: a metric of no known kind needs agg= (asked, not guessed).
  if (a.options.period !== "day" || a.options.window || a.growth)
    aggregationOf(metric.metricId, a.options.agg);
  checkAnnualize(a.options, metric.metricId);
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
    fill: a.options.fill,
  };
}

/** The reading of VALUE and ASOF: its arguments checked (in this order), then its figure read. */
function* datedRead(
  ctx: FnContext,
  functionName: string,
  projectArg: unknown,
  metricArg: unknown,
  dateArg: unknown,
  optionsArg: unknown
): Read<Dated> {
  const a = asked(functionName, projectArg, metricArg, dateArg, optionsArg);
  ctx = atVintage(ctx, a.options);
  const { options, date, growth } = a;
  const [project, metric] =
    resolvedNow(ctx, a.projectText, a.metricText) ??
    (yield* waitRead(() => resolvePair(ctx, a.projectText, a.metricText)));
  let reading = readingOf(ctx, a, project, metric);
  // Without filters there is nothing to check: no wait (most cells). With them, their checks (the project's
  // chains, products and sectors, with "did you mean") are loaded with the first filtered cell.
  if (hasFilters(options)) {
    const { checkFilters, withFilters } = yield* waitRead(
      () => import(/* webpackChunkName: "fn-filters" */ "./filters")
    );
    const filtered = yield* waitRead(() => checkFilters(ctx, project, options));
    if ("error" in filtered) throw new FunctionError(filtered.error.error, filtered.error.message);
    // The filters in the project's own spelling (they were matched without case).
    const spelled = withFilters(options, filtered.filters);
    if (spelled !== options)
      reading = {
        ...reading,
        options: spelled,
        base: { ...reading.base, variant: variantOf(spelled) },
      };
  }
  const label = reading.label;

  if (date === undefined) {
    const latest = latestWithValue(project, metric, yield* latestRead(ctx, reading.base, label));
    const horizon = latestHorizon(ctx, latest.day);
    if (growth)
      return shownLatest(
        reading,
        yield* growthRead(reading, latestPeriod(reading, latest.day, horizon), growth)
      );
    const dated = options.window
      ? yield* windowRead(reading, options.window, latest.day, horizon)
      : yield* latestValueRead(reading, latest, horizon);
    return shownLatest(reading, dated);
  }
  if (options.window) return yield* windowRead(reading, options.window, date);
  if (growth) return yield* growthRead(reading, windowOf(date, options.period), growth);
  if (options.period !== "day") return yield* periodRead(reading, windowOf(date, options.period));
  return yield* dayRead(reading, date);
}

/**
 * The latest point, if it has a value and the project is not archived (whose "latest" is no figure). A latest
 * day the service sent twice with different values is no figure either: nothing says which one is right.
 */
function latestWithValue(
  project: Project,
  metric: Metric,
  latest: DayPoint | undefined
): { day: number; value: number } {
  if (project.isArchived) throw notAvailable(archivedMessage(project, latest?.day));
  if (latest?.conflict) {
    const subject = `${project.projectId} ${metric.metricId}`;
    const day = formatDay(latest.day);
    throw notAvailable(
      `no latest value: ${conflictMessage(dayConflict(latest.day, latest), { label: day, subject, today: latest.day })}`
    );
  }
  if (latest?.value === null || latest?.value === undefined)
    throw notAvailable(`no ${metric.metricId} data for ${project.projectId}`);
  return { day: latest.day, value: latest.value };
}

/** A latest figure as shown: its day noted for the diagnostics, refused when older than maxage. */
function shownLatest(r: Reading, dated: Dated): Dated {
  r.ctx.trace.noteAsOf(r.label, dated.asOf);
  if (r.options.maxage !== undefined) {
    const old = tooOldMessage(`${r.label} value`, dated.asOf, r.ctx.today, r.options.maxage);
    if (old) throw notAvailable(old);
  }
  return dated;
}

/**
 * The period a latest figure stands for: the one holding the latest data, or, when it is not finished (its
 * days run past the horizon) and partial=exclude, the one before it. A finished period with a hole stays: it
 * is a #N/A saying so, never silently an older period.
 */
function latestPeriod(r: Reading, latestDay: number, horizon: number): PeriodWindow {
  const w = windowOf(latestDay, r.options.period);
  return w.end > horizon && r.options.partial === "exclude" ? previousWindow(w) : w;
}

/** The latest value, or with a period the latest finished period (or, partial=include, the latest one). */
function* latestValueRead(
  r: Reading,
  latest: { day: number; value: number },
  horizon: number
): Read<Dated> {
  if (r.options.period === "day") return { value: latest.value, asOf: latest.day };
  return yield* periodRead(r, latestPeriod(r, latest.day, horizon), horizon);
}

/** The figure of the period `w` by the rule (figures.ts): whole, or a part with partial=include. */
function* periodRead(r: Reading, w: PeriodWindow, knownHorizon?: number): Read<Dated> {
  const judged = yield* periodJudged(r, w, r.options.partial === "include", knownHorizon);
  if ("reason" in judged) throw notAvailable(judged.reason);
  return { value: judged.value, asOf: judged.asOf };
}

function* periodJudged(
  r: Reading,
  w: PeriodWindow,
  include: boolean,
  knownHorizon?: number
): Read<Judged> {
  const days = yield* daysRead(r, w.from, w.to, knownHorizon);
  const agg = aggregationOf(r.metricId, r.options.agg);
  const figure = windowFigure(days, w.from, w.to, r.fill, agg);
  return judge(figure, include, {
    label: periodLabel(w),
    subject: r.label,
    today: r.ctx.today,
    fillHint: fillHint(r.metricId, r.fill, r.options.agg),
  });
}

function* dayRead(r: Reading, date: number): Read<Dated> {
  // The first day read: fill=previous looks back for the last earlier value.
  const from = readStart(r.fill, date);
  const points = yield* pointsRead(r.ctx, r.base, r.label, from, date);
  return foundOn(points, date) ?? (yield* dayByRule(r, date, points, from));
}

/** The day's own value among the points read (no fill needed), when it has one. */
function foundOn(points: readonly DayPoint[], date: number): Dated | undefined {
  for (let i = points.length - 1; i >= 0; i--) {
    const p = points[i];
    if (p.day < date) return undefined;
    if (p.day === date)
      return p.value !== null && !p.conflict ? { value: p.value, asOf: date } : undefined;
  }
  return undefined;
}

/**
 * A day without a value of its own, by the rule: filled where a fill reaches it (a flow's gap inside the data
 * is 0, a level carries its last value of the 90 days before), else a #N/A saying why: after the data or
 * today, before the first data, a gap, or a day the service sent twice with different values.
 */
function* dayByRule(
  r: Reading,
  date: number,
  points: readonly DayPoint[],
  from: number
): Read<Dated> {
  if (r.fill === "none") throw unfilledDay(r, date, points);
  const horizon = yield* horizonRead(r.ctx, r.base, r.label, points, from, date);
  const firstData = needsFirstData(points, date, horizon) ? yield* firstDataRead(r) : undefined;
  return dayOutcome(r, date, points, horizon, firstData);
}

/**
 * A day without a value of its own and no fill: #N/A, from what the read of the day tells alone. Without a fill
 * nothing more decides the figure, and a model's cells on one date cost one request per metric: the reads
 * that could tell a launch from a gap or name where the data ends (a request or two per metric) are not made,
 * so the message claims neither, and suggests no fill (which before a launch would fill nothing).
 */
function unfilledDay(r: Reading, date: number, points: readonly DayPoint[]): FunctionError {
  const own = points.find((p) => p.day === date);
  const today = r.ctx.today;
  const day = formatDay(date);
  if (own?.conflict)
    return notAvailable(
      conflictMessage(dayConflict(date, own), { label: day, subject: r.label, today })
    );
  const what = `no ${r.label} value on ${day}`;
  return notAvailable(
    date > today
      ? `${what}: ${day} is after the service's latest day, today ${formatDay(today)} (UTC)`
      : what
  );
}

/**
 * Whether a day without a value needs the series' first day with data: only a day the data reaches, with no
 * data before it among the points read, can be before the launch (no fill, no fill hint) or a gap.
 */
function needsFirstData(points: readonly DayPoint[], date: number, horizon: number): boolean {
  return date <= horizon && !points.some((p) => p.day < date && (p.value !== null || p.conflict));
}

/** The day by the rule, its facts read: the figure, or the #N/A saying why (thrown). */
function dayOutcome(
  r: Reading,
  date: number,
  points: readonly DayPoint[],
  horizon: number,
  firstData: number | null | undefined
): Dated {
  const [state] = dayStates({ points, horizon, firstData }, date, date, r.fill);
  if (state.kind === "value") return { value: state.value, asOf: state.from };
  throw notAvailable(dayReason(r, date, state, horizon, firstData));
}

function growthOption(options: Readonly<Options>): Growth | undefined {
  // values=coverage is refused by parseOptions (VALUE and ASOF do not take it).
  if (options.values === "value" || options.values === "coverage") return undefined;
  if (options.period === "day")
    throw invalid(
      `option "values=${options.values}" compares a period with an earlier one, and a day is no period: use period=week, month, quarter or year, e.g. "period=quarter; values=${options.values}"`
    );
  return options.values;
}

/**
 * The change of the period `w` on its base (the previous period, or the same period a year earlier). Growth
 * compares like with like: both periods whole (every day with data, not a launch quarter, not one still
 * running), whatever `partial` says; a base of 0 or less has no meaningful change ("NM").
 */
function* growthRead(r: Reading, w: PeriodWindow, growth: Growth): Read<Dated> {
  const what = `no ${growth} change for ${r.label} ${periodLabel(w)}`;
  const current = yield* periodJudged(r, w, false);
  if ("reason" in current) throw notAvailable(`${what}: ${current.reason}`);
  const bw = windowOf(baseStart(w.start, w.period, growth), w.period);
  const base = yield* periodJudged(r, bw, false);
  if ("reason" in base) throw notAvailable(`${what}: its base: ${base.reason}`);
  const g = growthOf(current.value, base.value);
  if (!("value" in g)) throw notAvailable(`${what}: ${g.missing}`);
  return { value: g.value, asOf: current.asOf, ratio: true };
}
