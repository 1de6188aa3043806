/**
 * What the rule of figures (engine/figures/rule.ts) needs of a series, read through the engine: its points over a
 * window (from the fill's lookback), its horizon, and, when a fill of zeros or a message needs it, the
 * series' first day with data. Every function reads its figures through here, so they read alike.
 */
import { formatDay } from "../../client";
import {
  defaultAggregation,
  fillRefusal,
  metricKind,
  unknownKindMessage,
  type Aggregation,
  FILL_LOOKBACK_DAYS,
  conflictMessage,
  dataEnd,
  dayConflict,
  type DayState,
  type SeriesDays,
  type DayPoint,
  type Fill,
  DEFAULT_VARIANT,
  variantKey,
} from "../../engine";
import type { FnContext } from "../context";
import { invalid, notAvailable } from "../result";
import { horizonRead, pointsRead, type SeriesBase } from "./latest";
import { historyStartRead, type Read } from "./reads";

/** A series read for figures. */
export interface DaysReading {
  ctx: FnContext;
  base: SeriesBase;
  /** "aave revenue": what messages call the series. */
  label: string;
  metricId: string;
  fill: Fill;
}

/** The first day a read for [from, …] starts at: fill=previous reads back for the value it carries. */
export function readStart(fill: Fill, from: number): number {
  return fill === "previous" ? from - FILL_LOOKBACK_DAYS : from;
}

/**
 * The series over [from, to] as figures.ts reads it. `knownHorizon`: the horizon when the caller knows it (a
 * window ending on the latest value's day). With fill=zero, when the window starts with days without data and
 * nothing before them was read, the series' first day with data is read too (one read per metric, shared):
 * fill=zero counts such a day 0 only inside the data. Without fill=zero those days stay "unknown" (missing,
 * called neither a launch nor a gap, no fill hinted): the read would cost a request per metric for a message.
 */
export function* daysRead(
  r: DaysReading,
  from: number,
  to: number,
  knownHorizon?: number
): Read<SeriesDays> {
  const readFrom = readStart(r.fill, from);
  const points = yield* pointsRead(r.ctx, r.base, r.label, readFrom, to);
  const horizon =
    knownHorizon ?? (yield* horizonRead(r.ctx, r.base, r.label, points, readFrom, to));
  if (r.fill !== "zero" || from > horizon || startsWithData(points, from))
    return { points, horizon };
  return { points, horizon, firstData: yield* firstDataRead(r) };
}

/** Whether the points have data on or before `day`: then no day from `day` on is before the launch. */
function startsWithData(points: readonly DayPoint[], day: number): boolean {
  for (const p of points) {
    if (p.day > day) return false;
    if (p.value !== null || p.conflict) return true;
  }
  return false;
}

/**
 * The series' first day with data, or null when it has none. The default variant of a project's metric
 * uses the engine's history starts (one read of the metric's whole history, shared with the cards and kept
 * a catalogue lifetime); a filtered or product series reads its own whole history.
 */
export function* firstDataRead(r: DaysReading): Read<number | null> {
  const { ctx, base } = r;
  if (usesHistoryStarts(base)) return yield* historyStartRead(ctx, base.metricId, base.projectId);
  const points = yield* pointsRead(ctx, base, r.label, -Infinity, Infinity);
  return points.find((p) => p.value !== null || p.conflict)?.day ?? null;
}

/** Whether a series' first day comes from the engine's history starts (a project's unfiltered metric). */
function usesHistoryStarts(base: SeriesBase): boolean {
  return base.productId === undefined && variantKey(base.variant) === variantKey(DEFAULT_VARIANT);
}

/** The hint for days without a value, when a fill the metric admits would fill them; undefined otherwise. */
export function fillHint(metricId: string, fill: Fill, agg?: Aggregation): string | undefined {
  if (fill !== "none") return undefined;
  if (fillRefusal("previous", metricId, agg) === undefined)
    return 'option "fill=previous" takes the last earlier value';
  if (fillRefusal("zero", metricId, agg) === undefined)
    return 'option "fill=zero" counts a missing day as 0';
  return undefined;
}

/**
 * The roll-up of a figure over several days: `agg=`, else the metric's kind's (engine/figures/metric-kinds.ts). A
 * metric whose kind is not known and no agg= says is #N/A asking for one: never guessed.
 */
export function aggregationOf(metricId: string, agg: Aggregation | undefined): Aggregation {
  const chosen = defaultAggregation(metricId, agg);
  if (chosen === undefined) throw notAvailable(unknownKindMessage(metricId));
  return chosen;
}

/** Whether a metric's kind is known, or an agg= stands for it: a roll-up or a fill may then proceed. */
export function kindKnown(metricId: string, agg: Aggregation | undefined): boolean {
  return agg !== undefined || metricKind(metricId) !== undefined;
}

/**
 * A fill checked against the metric before anything is read: #N/A when its kind is not known (and no agg=
 * says), #VALUE! when it would invent figures (a flow carried forward, a level counted 0).
 */
export function checkFill(fill: Fill, metricId: string, agg: Aggregation | undefined): void {
  if (fill === "none") return;
  if (!kindKnown(metricId, agg)) throw notAvailable(unknownKindMessage(metricId));
  const refusal = fillRefusal(fill, metricId, agg);
  if (refusal) throw invalid(refusal);
}

/** Why a day has no figure, in the user's words (VALUE and ASOF on a date). */
export function dayReason(
  r: DaysReading,
  date: number,
  state: Exclude<DayState, { kind: "value" }>,
  horizon: number,
  firstData: number | null | undefined
): string {
  const what = `no ${r.label} value on ${formatDay(date)}`;
  const today = r.ctx.today;
  if (state.kind === "conflict")
    return state.at === date
      ? conflictMessage(dayConflict(date, state), {
          label: formatDay(date),
          subject: r.label,
          today,
        })
      : state.notKnown !== undefined
        ? `${what}: the last value before it, on ${formatDay(state.at)}, was ${state.notKnown}; no fill carries it`
        : `${what}: the last value before it, on ${formatDay(state.at)}, was sent ${state.split ? "in rows split by a member nobody asked for that cannot be told apart" : state.unreadable !== undefined ? `as "${state.unreadable}", which is not a number` : "twice with different values"}; no fill carries it`;
  const noFill = r.fill === "none" ? "" : `; fill=${r.fill} never reaches past the data`;
  switch (state.why) {
    case "after-data":
      return date > today
        ? `${what}: ${formatDay(date)} is after the service's latest day, today ${formatDay(today)} (UTC)${noFill}`
        : `${what}: ${dataEnd(horizon, today)}${noFill}`;
    case "unknown":
      return what;
    case "before-data":
      return typeof firstData !== "number"
        ? `${what}: the series has no data on or before it`
        : `${what}: the data starts on ${formatDay(firstData)}${r.fill === "none" ? "" : "; no fill reaches before the data"}`;
    case "gap": {
      if (r.fill === "previous")
        return `${what}: no value in the ${FILL_LOOKBACK_DAYS} days before it for fill=previous to carry`;
      const hint = fillHint(r.metricId, r.fill);
      return hint ? `${what} (${hint})` : what;
    }
  }
}
