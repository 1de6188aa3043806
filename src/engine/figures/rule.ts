/**
 * The one rule behind every figure a function shows (VALUE, ASOF, METRIC, PRODUCT_METRIC, COMPS, trailing
 * windows, growth and its bases, cards, STATEMENT's checks): which days a figure covers, what a fill may add,
 * and when the figure stands for its whole window. The functions only choose the window and the words.
 *
 * - A day of a series has a value, no value (a null, or no row at all), or a conflict: the service sent it
 *   twice with different numbers, so nobody can vouch for either (client/data/distinct.ts keeps its key).
 * - The horizon is the last day a figure can cover: min(today, the series' last day with data). The service's
 *   day is the UTC day; "today" is the UTC day of the clock.
 * - A fill only reaches days without a value between the series' first day with data and the horizon:
 *   `zero` counts such a day 0 (flows), `previous` carries the last value of at most FILL_LOOKBACK_DAYS
 *   before (levels). No fill fills a day before the first data (a launch is no gap), after the horizon (a
 *   day not indexed yet is no gap), or a conflict; nor does it carry a value across a conflict.
 * - A window is whole when every one of its days has a value (after the fill) and none is a conflict. A
 *   conflict is never a figure, whatever `partial` says: the window holding it is #N/A. Otherwise a window
 *   that is not whole is #N/A naming "N of M days" by default; `partial=include` rolls up the days it has.
 *
 * Pure: days are day numbers (client/data/days.ts), points sorted by day. Reading the points, the horizon
 * and whether data exists before the points (fill=zero's question) is the caller's part.
 */
import { formatDay } from "../../client";
import type { Aggregation } from "./metric-kinds";
import { aggregate, type DayPoint } from "./series-ops";
import type { Fill } from "./metric-kinds";

/** fill=previous carries a value across gaps of at most this many days (and reads this far back for it). */
export const FILL_LOOKBACK_DAYS = 90;

/** Gap days a figure keeps to name in its message (a hostile series may have millions). */
const MAX_NAMED_GAPS = 3;

/** What a figure knows of its series. */
export interface SeriesDays {
  /** Sorted by day, every dimension together; from FILL_LOOKBACK_DAYS before the window for fill=previous. */
  readonly points: readonly DayPoint[];
  /** min(today, the last day the series has data for). -Infinity: the series has no data. */
  readonly horizon: number;
  /**
   * The series' first day with data (a value or a conflict): a day, null when it has none, undefined when not
   * read. fill=zero needs it for days before the first point here (a missing day before any data is before
   * the launch, not a gap to count 0); without it such a day is "unknown": missing, never filled, never said to
   * be a launch or a gap.
   */
  readonly firstData?: number | null;
}

/** Why a day has no value: before the data, a gap inside it, after the horizon, or not known which. */
export type MissingWhy = "before-data" | "gap" | "after-data" | "unknown";

export type DayState =
  | {
      readonly kind: "value";
      readonly value: number;
      /** The day the value is from: the day itself, or the day fill=previous carried it from. */
      readonly from: number;
      readonly filled: boolean;
    }
  /**
   * `at`: the day sent twice (the day itself, or the day fill=previous would carry from); `split`: its rows
   * were split by a member nobody asked for and could not be told apart, rather than sent twice.
   */
  | {
      readonly kind: "conflict";
      readonly at: number;
      readonly split?: true;
      /** The day's value was sent but is no number: what was sent. */
      readonly unreadable?: string;
      /** Under vintage=: the day was not known then, and why (DayPoint.notKnown). */
      readonly notKnown?: string;
    }
  | { readonly kind: "missing"; readonly why: MissingWhy };

/**
 * The state of every day of [from, to] (to - from + 1 states), the fill applied. Windows of the functions are
 * at most a few thousand days; open bounds are the caller's to close first.
 */
export function dayStates(s: SeriesDays, from: number, to: number, fill: Fill): DayState[] {
  const out: DayState[] = [];
  const points = s.points;
  const isData = (p: DayPoint): boolean => p.conflict === true || p.value !== null;
  // Binary search for the window's first point: tables ask for hundreds of windows of one long series.
  let i = firstAtOrAfter(points, from);
  // The last day with data (value or conflict) at or before the day being read.
  let lastData: DayPoint | undefined;
  for (let k = i - 1; k >= 0 && lastData === undefined; k--)
    if (isData(points[k])) lastData = points[k];
  for (let day = from; day <= to; day++) {
    let own: DayPoint | undefined;
    for (; i < points.length && points[i].day <= day; i++) {
      if (isData(points[i])) lastData = points[i];
      if (points[i].day === day) own = points[i];
    }
    if (day > s.horizon) {
      out.push({ kind: "missing", why: "after-data" });
      continue;
    }
    if (own?.conflict) {
      out.push(conflictState(own));
      continue;
    }
    if (own && own.value !== null) {
      out.push({ kind: "value", value: own.value, from: day, filled: false });
      continue;
    }
    const seenData =
      lastData !== undefined || (typeof s.firstData === "number" && s.firstData <= day);
    const why: MissingWhy = seenData
      ? "gap"
      : s.firstData === undefined
        ? "unknown"
        : "before-data";
    if (fill === "zero" && seenData) {
      out.push({ kind: "value", value: 0, from: day, filled: true });
    } else if (
      fill === "previous" &&
      lastData !== undefined &&
      day - lastData.day <= FILL_LOOKBACK_DAYS
    ) {
      out.push(
        lastData.conflict
          ? conflictState(lastData)
          : { kind: "value", value: lastData.value!, from: lastData.day, filled: true }
      );
    } else {
      out.push({ kind: "missing", why });
    }
  }
  return out;
}

function conflictState(p: DayPoint): DayState {
  if (p.notKnown !== undefined) return { kind: "conflict", at: p.day, notKnown: p.notKnown };
  if (p.split) return { kind: "conflict", at: p.day, split: true };
  if (p.unreadable !== undefined) return { kind: "conflict", at: p.day, unreadable: p.unreadable };
  return { kind: "conflict", at: p.day };
}

/** Index of the first point whose day is >= day (points sorted by day). */
function firstAtOrAfter(points: readonly DayPoint[], day: number): number {
  let lo = 0;
  let hi = points.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (points[mid].day < day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A window's figure and what it covers. */
export interface WindowFigure {
  readonly from: number;
  readonly to: number;
  /** The series' horizon (SeriesDays.horizon). */
  readonly horizon: number;
  /** Days of the window. */
  readonly days: number;
  /** Days with a value (after the fill). */
  readonly covered: number;
  /** The covered values rolled up, in day order; null when no day is covered. */
  readonly value: number | null;
  readonly firstCovered?: number;
  readonly lastCovered?: number;
  /** The day the last covered value is from (a carried value's own day). */
  readonly lastFrom?: number;
  /** Days sent twice with different numbers that the window holds (or would carry from). */
  readonly conflicts: readonly number[];
  /** Of `conflicts`, the days whose rows were split unasked and could not be told apart. */
  readonly splits?: readonly number[];
  /** Of `conflicts`, the days whose value was sent but is no number, with what was sent. */
  readonly unreadable?: ReadonlyMap<number, string>;
  /** Of `conflicts`, under vintage=, the days not known then, with why (DayPoint.notKnown). */
  readonly notKnown?: ReadonlyMap<number, string>;
  readonly beforeData: number;
  readonly afterData: number;
  /** Days without a value inside the data, or of which it is not known whether the data had begun. */
  readonly gapCount: number;
  /** The first few of them. */
  readonly gaps: readonly number[];
  /** Of gapCount, the days known to be inside the data: a fill would count them (the hint is true). */
  readonly knownGaps: number;
  /**
   * Of gapCount, the days before the window's first value: the message names that first value's day, which
   * the window's own days show (no read, and the same words whichever cells fetched the series).
   */
  readonly leadingGaps: number;
}

export function windowFigure(
  s: SeriesDays,
  from: number,
  to: number,
  fill: Fill,
  agg: Aggregation
): WindowFigure {
  const states = dayStates(s, from, to, fill);
  const values: number[] = [];
  const conflicts: number[] = [];
  const splits: number[] = [];
  const unreadable = new Map<number, string>();
  const notKnown = new Map<number, string>();
  const gaps: number[] = [];
  let gapCount = 0;
  let knownGaps = 0;
  let leadingGaps = 0;
  let beforeData = 0;
  let afterData = 0;
  let firstCovered: number | undefined;
  let lastCovered: number | undefined;
  let lastFrom: number | undefined;
  states.forEach((state, k) => {
    const day = from + k;
    if (state.kind === "value") {
      values.push(state.value);
      firstCovered ??= day;
      lastCovered = day;
      lastFrom = state.from;
    } else if (state.kind === "conflict") {
      if (!conflicts.includes(state.at)) {
        conflicts.push(state.at);
        if (state.split) splits.push(state.at);
        if (state.unreadable !== undefined) unreadable.set(state.at, state.unreadable);
        if (state.notKnown !== undefined) notKnown.set(state.at, state.notKnown);
      }
    } else if (state.why === "gap" || state.why === "unknown") {
      gapCount++;
      if (state.why === "gap") knownGaps++;
      if (firstCovered === undefined) leadingGaps++;
      if (gaps.length < MAX_NAMED_GAPS) gaps.push(day);
    } else if (state.why === "before-data") beforeData++;
    else afterData++;
  });
  return {
    from,
    to,
    horizon: s.horizon,
    days: to - from + 1,
    covered: values.length,
    value: aggregate(values, agg),
    firstCovered,
    lastCovered,
    lastFrom,
    conflicts,
    splits,
    ...(unreadable.size > 0 ? { unreadable } : {}),
    ...(notKnown.size > 0 ? { notKnown } : {}),
    beforeData,
    afterData,
    gapCount,
    gaps,
    knownGaps,
    leadingGaps,
  };
}

/** Every day has a value and none is a conflict: the figure stands for its whole window. */
export function isWhole(f: WindowFigure): boolean {
  return f.covered === f.days && f.conflicts.length === 0;
}

/** How a figure is named in its message. */
export interface FigureWords {
  /** "Q1 2024", "ttm to 2024-03-31 (2023-04-01..2024-03-31)", "2024-03-31". */
  label: string;
  /** "aave revenue", or "aave" in a one-metric table. */
  subject: string;
  /** The service's day (UTC): a day after it is "after today". */
  today: number;
  /**
   * The hint for gaps, when a fill the metric admits would fill them (metric-kinds.ts, fillRefusal): given only for days known
   * to be inside the data, never for days before a launch or for conflicts.
   */
  fillHint?: string;
  /** The figure has no partial=include (a service's aggregate): the message does not offer it. */
  noPartial?: boolean;
}

/** The figure as shown: its value and last day, or why there is none. */
export type Judged =
  | { readonly value: number; readonly asOf: number; readonly whole: boolean }
  | { readonly reason: string; readonly conflict: boolean };

/**
 * The rule applied: a conflict is never a figure; a whole window is; a part of one only with
 * partial=include, and only when it covers a day.
 */
export function judge(f: WindowFigure, include: boolean, words: FigureWords): Judged {
  if (f.conflicts.length > 0) return { reason: conflictMessage(f, words), conflict: true };
  const whole = isWhole(f);
  // As of the day its last value is from: a value fill=previous carried is as old as the day it came from.
  if (f.value !== null && f.lastCovered !== undefined && (whole || include))
    return { value: f.value, asOf: f.lastFrom ?? f.lastCovered, whole };
  return { reason: incompleteReason(f, words), conflict: false };
}

/** One conflicting day as conflictMessage reads it (a point, or a day's state). */
export function dayConflict(
  day: number,
  p: { readonly split?: true; readonly unreadable?: string; readonly notKnown?: string }
): Pick<WindowFigure, "conflicts" | "splits" | "unreadable" | "notKnown"> {
  return {
    conflicts: [day],
    splits: p.split ? [day] : [],
    ...(p.unreadable !== undefined ? { unreadable: new Map([[day, p.unreadable]]) } : {}),
    ...(p.notKnown !== undefined ? { notKnown: new Map([[day, p.notKnown]]) } : {}),
  };
}

/** "the service sent aave tvl for 2024-01-15 twice with different values; no figure for that day or Q1 2024". */
export function conflictMessage(
  f: Pick<WindowFigure, "conflicts" | "splits" | "unreadable" | "notKnown">,
  words: FigureWords
): string {
  const days = f.conflicts.map(formatDay);
  // Under vintage=, a day not known then: "not known on 2026-11-20: first seen 2026-11-24 (aave fees,
  // 2024-02-15)", and for a period or window, which figure it leaves without one.
  const unknown = f.conflicts.find((d) => f.notKnown?.has(d));
  if (unknown !== undefined) {
    const day = formatDay(unknown);
    const more =
      f.conflicts.length > 1
        ? ` and ${f.conflicts.length - 1} more day${f.conflicts.length === 2 ? "" : "s"}`
        : "";
    const figure = words.label === day ? "" : `; no figure for ${words.label}`;
    return `${f.notKnown!.get(unknown)!} (${words.subject}, ${day}${more})${figure}`;
  }
  // A value sent that is no number: named as it came, so the user sees why no figure is right.
  const first = f.conflicts.find((d) => f.unreadable?.has(d));
  if (first !== undefined) {
    const day = formatDay(first);
    const what = words.label === day ? "that day" : words.label;
    const more =
      f.conflicts.length > 1
        ? ` (and ${f.conflicts.length - 1} more day${f.conflicts.length === 2 ? "" : "s"} it cannot vouch for)`
        : "";
    return `the service sent "${f.unreadable!.get(first)!}" for ${words.subject} on ${day}, which is not a number${more}; no figure for ${what}`;
  }
  const which =
    days.length === 1 ? days[0] : `${days.length} days (${days.slice(0, 2).join(", ")}, …)`;
  const what = words.label === days[0] && days.length === 1 ? "that day" : `${words.label}`;
  const split = f.splits?.length ?? 0;
  // The reason as it happened: one row sent twice, or rows split by a member nobody asked for (chain,
  // product, ...) that do not add up to one figure (Diagnostics names the member and the values).
  const how =
    split === 0
      ? "twice with different values"
      : split === f.conflicts.length
        ? "in rows split by a member nobody asked for that cannot be told apart"
        : "twice with different values, or in rows split by a member nobody asked for that cannot be told apart";
  return `the service sent ${words.subject} for ${which} ${how}; no figure for ${what}`;
}

/** "Q2 2024 is not complete for aave fees: 90 of 91 days (no value on 2024-05-15); partial=include shows it". */
export function incompleteReason(f: WindowFigure, words: FigureWords): string {
  const facts: string[] = [];
  if (f.afterData > 0) facts.push(dataEnd(f.horizon, words.today));
  if (f.beforeData > 0)
    facts.push(
      f.firstCovered === undefined
        ? "no data before it"
        : `no data before ${formatDay(f.firstCovered)}`
    );
  if (f.gapCount > 0)
    facts.push(
      f.gapCount === 1
        ? `no value on ${formatDay(f.gaps[0])}`
        : `no value on ${f.gapCount} days from ${formatDay(f.gaps[0])}`
    );
  // Days without a value at the window's start (often a launch within it, which only a read of the whole
  // history could tell from a gap): the window's first value says where its data starts.
  if (f.leadingGaps > 0 && f.firstCovered !== undefined)
    facts.push(`the first value is on ${formatDay(f.firstCovered)}`);
  const detail = facts.length > 0 ? ` (${facts.join("; ")})` : "";
  const hint = f.knownGaps > 0 && words.fillHint ? `; ${words.fillHint}` : "";
  if (f.covered === 0)
    return f.afterData === f.days && f.horizon >= words.today
      ? `${words.label} has no data yet for ${words.subject} (0 of ${f.days} days; ${dataEnd(f.horizon, words.today)})`
      : `no ${words.subject} data in ${words.label} (0 of ${f.days} days${facts.length > 0 ? `; ${facts.join("; ")}` : ""})${hint}`;
  const partial = words.noPartial ? "" : "; partial=include shows it";
  return `${words.label} is not complete for ${words.subject}: ${f.covered} of ${f.days} days${detail}${partial}${hint}`;
}

/** Where a series' data ends, in words: "the data goes up to 2023-07-14". */
export function dataEnd(horizon: number, today: number): string {
  if (horizon === -Infinity) return "the series has no data";
  return horizon >= today
    ? `the data goes up to today, ${formatDay(today)} (UTC)`
    : `the data goes up to ${formatDay(horizon)}`;
}
