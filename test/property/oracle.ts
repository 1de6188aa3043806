/**
 * The reference oracle: what each function should show, computed from the raw daily rows of the demo dataset
 * (and the days a test makes the service send twice with different values), by a deliberately simple and
 * independent reading of the rules the README states. It shares no code with src/engine or src/functions:
 * dates are its own UTC calendar arithmetic, fills and windows are walked day by day, and every rule is written
 * out once here, plainly, so a property test comparing the two finds where they part.
 *
 * The rules, as a user reads them:
 * - A day has a value, no value (a null row or no row), or a conflict (sent twice with different values).
 * - A series' data runs from its first day with data (a value or a conflict) to its last; its horizon is the
 *   earlier of that last day and today.
 * - fill=zero (flows) counts a day without a value inside the data as 0; fill=previous (levels) carries the
 *   last value of the 90 days before it. Neither reaches before the first data or past the horizon, neither
 *   fills a conflict, and a carried conflict is a conflict.
 * - A window (a calendar period, a trailing window) is whole when every day of it has a value. Whole: its
 *   figure; not whole: #N/A by default, the days it has with partial=include; a conflict: always #N/A.
 * - A table row stands for its whole calendar period; partial=exclude keeps the rows from the first whole
 *   period to the last, the ones between that are not whole as #N/A.
 * - Growth needs both periods whole and a base above 0; a ratio (COMPS, the card's P/S) needs a divisor above
 *   0; a breakdown's shares need every row that counts to have a figure, none of them below 0, and a total
 *   above 0, of figures that add up.
 * - A metric's kind decides its roll-up (flows sum; levels, prices, counts and running totals take the last
 *   value; daily users, averages and rates the mean). An id the reader's table does not hold has no kind:
 *   a single day shows, any period, window, fill or growth needs agg=.
 * - A day the service sent as something that is no number is, like a conflict, never a figure and never
 *   filled; its message names what was sent.
 * - A table row of a period is dated by the last day of its period (dating=end), or the last day it can
 *   cover when the range or the data cut it.
 * - A statement's figure must be what its line's daily series give (within half a unit of its last decimal)
 *   over the days the row declares; a line's period missing or sent twice with two values is no figure.
 */
import type { Dataset } from "../../src/simulator";

export type Fill = "none" | "previous" | "zero";
export type Period = "day" | "week" | "month" | "quarter" | "year";
export type Agg = "sum" | "avg" | "last" | "first" | "min" | "max";

/** What a function should give. */
export type Expected =
  | { kind: "value"; value: number; asOf: number }
  | { kind: "na"; why: NaWhy; covered?: number; days?: number }
  | { kind: "invalid" };

export type NaWhy =
  | "conflict"
  | "unreadable"
  | "incomplete"
  | "missing"
  | "archived"
  | "no-data"
  | "nm"
  | "unavailable"
  | "kind-unknown";

// ---- calendar (its own: day numbers since 1970-01-01 UTC) ----

const DAY = 86_400_000;

export function dayOf(text: string): number {
  return Math.round(Date.parse(`${text}T00:00:00Z`) / DAY);
}

export function textOf(day: number): string {
  return new Date(day * DAY).toISOString().slice(0, 10);
}

function ymd(day: number): [number, number, number] {
  const d = new Date(day * DAY);
  return [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()];
}

function dayFromYmd(y: number, m: number, d: number): number {
  const t = new Date(0);
  t.setUTCFullYear(y, m, d);
  return Math.round(t.getTime() / DAY);
}

function periodFirst(day: number, period: Period): number {
  const [y, m] = ymd(day);
  switch (period) {
    case "day":
      return day;
    case "week":
      // Monday first: 1970-01-05 was a Monday.
      return day - ((((day - 4) % 7) + 7) % 7);
    case "month":
      return dayFromYmd(y, m, 1);
    case "quarter":
      return dayFromYmd(y, m - (m % 3), 1);
    case "year":
      return dayFromYmd(y, 0, 1);
  }
}

export function periodLast(day: number, period: Period): number {
  const first = periodFirst(day, period);
  const [y, m] = ymd(first);
  switch (period) {
    case "day":
      return day;
    case "week":
      return first + 6;
    case "month":
      return dayFromYmd(y, m + 1, 1) - 1;
    case "quarter":
      return dayFromYmd(y, m + 3, 1) - 1;
    case "year":
      return dayFromYmd(y + 1, 0, 1) - 1;
  }
}

function isMonthEnd(day: number): boolean {
  return ymd(day + 1)[2] === 1;
}

/** The first day of a trailing window ending on `end`: Nd, Nm, ttm, ytd, qtd, mtd. */
function windowFirst(window: string, end: number): number {
  if (window === "ytd") return periodFirst(end, "year");
  if (window === "qtd") return periodFirst(end, "quarter");
  if (window === "mtd") return periodFirst(end, "month");
  const months = window === "ttm" ? 12 : /^(\d+)m$/.exec(window) ? Number(window.slice(0, -1)) : 0;
  if (months > 0) {
    const [y, m, d] = ymd(end);
    if (isMonthEnd(end)) return dayFromYmd(y, m - (months - 1), 1);
    // The same day `months` earlier, or that month's last day when it has no such day; then the day after.
    const lastOfTarget = dayFromYmd(y, m - months + 1, 0);
    return Math.min(dayFromYmd(y, m - months, d), lastOfTarget) + 1;
  }
  const days = Number(window.slice(0, -1));
  return end - days + 1;
}

/** The first day of the period a growth figure compares with. */
function growthBase(first: number, period: Period, growth: "pop" | "yoy"): number {
  if (growth === "pop") return periodFirst(first - 1, period);
  if (period === "week") return first - 364;
  const [y, m, d] = ymd(first);
  // 29 February a year earlier is 28 February.
  const back = m === 1 && d === 29 ? dayFromYmd(y - 1, 1, 28) : dayFromYmd(y - 1, m, d);
  return period === "day" ? back : periodFirst(back, period);
}

// ---- metric kinds (the reader's own table, written from the service's catalogue words) ----

type Kind = "flow" | "level" | "mean";

const FLOWS = new Set([
  "fees",
  "fees_supply_side",
  "revenue",
  "earnings",
  "expenses",
  "gross_profit",
  "token_incentives",
  "trading_volume",
  "token_trading_volume",
  "transaction_count",
  "code_commits",
]);
/** Levels, prices and counts at a point in time: the last value. */
const LEVELS = new Set([
  "tvl",
  "active_loans",
  "treasury",
  "market_cap_circulating",
  "market_cap_fully_diluted",
  "token_supply_circulating",
  "pf_fully_diluted",
  "ps_fully_diluted",
  "price",
  "tokenholders",
  "active_developers",
]);
const USERS = new Set(["user_dau", "user_wau", "user_mau"]);
/** Figures that do not add up into a total: a share of them means nothing. */
const NOT_ADDITIVE = new Set(["price", "pf_fully_diluted", "ps_fully_diluted"]);

function kindOf(metricId: string): Kind | undefined {
  if (FLOWS.has(metricId)) return "flow";
  if (LEVELS.has(metricId)) return "level";
  if (USERS.has(metricId)) return "mean";
  return undefined;
}

/** The roll-up: agg= when given, the kind's otherwise, undefined when neither says. */
function defaultAgg(metricId: string, agg?: Agg): Agg | undefined {
  if (agg) return agg;
  const k = kindOf(metricId);
  return k === "flow" ? "sum" : k === "mean" ? "avg" : k === "level" ? "last" : undefined;
}

/** Whether a fill applies: by the kind, or for an id outside the table by its agg= (sum 0s, last carries). */
function fillAdmitted(fill: Fill, metricId: string, agg?: Agg): boolean {
  if (fill === "none") return true;
  const k = kindOf(metricId);
  if (k === undefined) return fill === "zero" ? agg === "sum" : agg === "last" || agg === "first";
  return fill === "zero" ? k === "flow" : k === "level";
}

/** Whether the metric's kind is known, or an agg= stands for it. */
function kindKnown(metricId: string, agg?: Agg): boolean {
  return agg !== undefined || kindOf(metricId) !== undefined;
}

function rollUp(values: number[], agg: Agg): number {
  switch (agg) {
    case "sum":
      return values.reduce((a, b) => a + b, 0);
    case "avg":
      return values.reduce((a, b) => a + b, 0) / values.length;
    case "first":
      return values[0];
    case "last":
      return values[values.length - 1];
    case "min":
      return values.reduce((a, b) => Math.min(a, b), Infinity);
    case "max":
      return values.reduce((a, b) => Math.max(a, b), -Infinity);
  }
}

// ---- series ----

type Entry = number | null | "conflict" | { unreadable: string };

interface Series {
  days: Map<number, Entry>;
  first?: number;
  last?: number;
  horizon: number;
}

/** A day's state after a fill. */
type State =
  | { kind: "value"; value: number; from: number }
  | { kind: "conflict"; unreadable?: string }
  | { kind: "missing"; where: "before" | "gap" | "after" };

/** What a window holds. */
interface Window {
  from: number;
  to: number;
  values: number[];
  conflict: boolean;
  /** What was sent on a day of the window that is no number (a conflict too). */
  unreadable?: string;
  lastCovered?: number;
  /** The day the last covered value is from (a carried value's own day). */
  lastFrom?: number;
}

export interface ValueOptions {
  period: Period;
  fill: Fill;
  partial: "exclude" | "include";
  window?: string;
  agg?: Agg;
  values?: "value" | "pop" | "yoy";
  annualize?: boolean;
}

/** One row of a breakdown: its figure or why none, and its share. */
interface BreakdownRow {
  projectId: string;
  value: Expected;
  share: number | "na";
}

export class Oracle {
  readonly today: number;
  private readonly cache = new Map<string, Series>();

  constructor(
    private readonly dataset: Dataset,
    private readonly conflictAt: (projectId: string, metricId: string, date: string) => boolean
  ) {
    this.today = dayOf(dataset.today);
  }

  /** The raw rows of a project's metric, conflicts applied (only days with a value can be sent twice). */
  series(projectId: string, metricId: string): Series {
    const key = `${projectId}|${metricId}`;
    let s = this.cache.get(key);
    if (s) return s;
    const days = new Map<number, Entry>();
    let first: number | undefined;
    let last: number | undefined;
    for (const row of this.dataset.daily(projectId, metricId)) {
      const day = dayOf(row.date);
      const sent =
        row.value === null
          ? undefined
          : this.dataset.unreadable(projectId, metricId, day, row.value);
      const entry: Entry =
        row.value !== null && this.conflictAt(projectId, metricId, row.date)
          ? "conflict"
          : sent !== undefined
            ? { unreadable: String(sent) }
            : row.value;
      days.set(day, entry);
      if (entry !== null) {
        first ??= day;
        last = day;
      }
    }
    s = { days, first, last, horizon: last === undefined ? -Infinity : Math.min(this.today, last) };
    this.cache.set(key, s);
    return s;
  }

  state(s: Series, day: number, fill: Fill): State {
    if (day > s.horizon) return { kind: "missing", where: "after" };
    const own = s.days.get(day);
    if (own === "conflict") return { kind: "conflict" };
    if (typeof own === "object" && own !== null)
      return { kind: "conflict", unreadable: own.unreadable };
    if (typeof own === "number") return { kind: "value", value: own, from: day };
    const inside = s.first !== undefined && s.first <= day;
    if (fill === "zero" && inside) return { kind: "value", value: 0, from: day };
    if (fill === "previous" && inside) {
      for (let back = day - 1; back >= day - 90 && back >= s.first!; back--) {
        const e = s.days.get(back);
        if (e === "conflict") return { kind: "conflict" };
        if (typeof e === "object" && e !== null)
          return { kind: "conflict", unreadable: e.unreadable };
        if (typeof e === "number") return { kind: "value", value: e, from: back };
      }
    }
    return { kind: "missing", where: inside ? "gap" : "before" };
  }

  window(s: Series, from: number, to: number, fill: Fill): Window {
    const w: Window = { from, to, values: [], conflict: false };
    for (let day = from; day <= to; day++) {
      const st = this.state(s, day, fill);
      if (st.kind === "conflict") {
        w.conflict = true;
        w.unreadable ??= st.unreadable;
      }
      if (st.kind === "value") {
        w.values.push(st.value);
        w.lastCovered = day;
        w.lastFrom = st.from;
      }
    }
    return w;
  }

  private whole(w: Window): boolean {
    return !w.conflict && w.values.length === w.to - w.from + 1;
  }

  /** A window shown by the rule. */
  judge(w: Window, agg: Agg, include: boolean): Expected {
    if (w.conflict)
      return { kind: "na", why: w.unreadable !== undefined ? "unreadable" : "conflict" };
    const days = w.to - w.from + 1;
    if (w.values.length === days || (include && w.values.length > 0))
      return { kind: "value", value: rollUp(w.values, agg), asOf: w.lastFrom! };
    return { kind: "na", why: "incomplete", covered: w.values.length, days };
  }

  /** VALUE (and ASOF: its asOf) of a project's metric. `date` undefined: the latest. */
  value(projectId: string, metricId: string, date: number | undefined, o: ValueOptions): Expected {
    const growth = o.values === "pop" || o.values === "yoy" ? o.values : undefined;
    if (o.window && o.period !== "day") return { kind: "invalid" };
    if (o.window && growth) return { kind: "invalid" };
    if (growth && o.period === "day") return { kind: "invalid" };
    if (o.annualize && !o.window) return { kind: "invalid" };
    if (o.annualize && o.agg && o.agg !== "sum") return { kind: "invalid" };
    // A metric of no known kind: asked (agg=), never rolled up or filled by a guess.
    const rolls = o.period !== "day" || o.window !== undefined || growth !== undefined;
    if (!kindKnown(metricId, o.agg) && (rolls || o.fill !== "none"))
      return { kind: "na", why: "kind-unknown" };
    if (!fillAdmitted(o.fill, metricId, o.agg)) return { kind: "invalid" };
    const agg = defaultAgg(metricId, o.agg) ?? "last";
    if (o.annualize && agg !== "sum") return { kind: "invalid" };
    if (!this.dataset.hasMetric(projectId, metricId)) return { kind: "na", why: "unavailable" };
    const s = this.series(projectId, metricId);
    const include = o.partial === "include";
    let end = date;
    if (date === undefined) {
      if (this.dataset.project(projectId)!.isArchived) return { kind: "na", why: "archived" };
      if (s.last === undefined) return { kind: "na", why: "no-data" };
      const latest = s.days.get(s.last);
      if (latest === "conflict") return { kind: "na", why: "conflict" };
      if (typeof latest === "object" && latest !== null) return { kind: "na", why: "unreadable" };
      end = s.last;
    }
    if (o.window) {
      const w = this.window(s, windowFirst(o.window, end!), end!, o.fill);
      const shown = this.judge(w, agg, include);
      if (shown.kind === "value" && o.annualize)
        return { ...shown, value: (shown.value * 365) / w.values.length };
      return shown;
    }
    if (o.period !== "day") {
      let first = periodFirst(end!, o.period);
      if (date === undefined && periodLast(first, o.period) > s.horizon && !include)
        first = periodFirst(first - 1, o.period);
      const last = periodLast(first, o.period);
      if (growth) return this.growth(s, first, last, o.period, growth, o.fill, agg);
      return this.judge(this.window(s, first, last, o.fill), agg, include);
    }
    if (date === undefined) return { kind: "value", value: s.days.get(end!) as number, asOf: end! };
    const st = this.state(s, end!, o.fill);
    if (st.kind === "value") return { kind: "value", value: st.value, asOf: st.from };
    if (st.kind === "conflict")
      return { kind: "na", why: st.unreadable !== undefined ? "unreadable" : "conflict" };
    return { kind: "na", why: "missing" };
  }

  private growth(
    s: Series,
    first: number,
    last: number,
    period: Period,
    growth: "pop" | "yoy",
    fill: Fill,
    agg: Agg
  ): Expected {
    const why = (w: Window): NaWhy =>
      w.unreadable !== undefined ? "unreadable" : w.conflict ? "conflict" : "incomplete";
    const current = this.window(s, first, last, fill);
    if (!this.whole(current)) return { kind: "na", why: why(current) };
    const bf = growthBase(first, period, growth);
    const base = this.window(s, bf, periodLast(bf, period), fill);
    if (!this.whole(base)) return { kind: "na", why: why(base) };
    const b = rollUp(base.values, agg);
    if (b <= 0) return { kind: "na", why: "nm" };
    return { kind: "value", value: rollUp(current.values, agg) / b - 1, asOf: last };
  }

  /**
   * METRIC of one project and one metric: [row date, cell] where a cell is a number, null (an empty cell) or
   * "na"; undefined when the whole result is a #N/A (no row to show).
   */
  metric(
    projectId: string,
    metricId: string,
    start: number | undefined,
    end: number | undefined,
    o: ValueOptions
  ): Array<[number, number | null | "na"]> | Expected {
    const growth = o.values === "pop" || o.values === "yoy" ? o.values : undefined;
    if (growth && o.period === "day") return { kind: "invalid" };
    if (kindKnown(metricId, o.agg) && !fillAdmitted(o.fill, metricId, o.agg))
      return { kind: "invalid" };
    if (!kindKnown(metricId, o.agg) && (o.period !== "day" || o.fill !== "none"))
      return { kind: "na", why: "kind-unknown" };
    if (!this.dataset.hasMetric(projectId, metricId)) return { kind: "na", why: "unavailable" };
    const s = this.series(projectId, metricId);
    const agg = defaultAgg(metricId, o.agg) ?? "last";
    const include = o.partial === "include";
    const rows: Array<[number, number | null | "na"]> = [];
    const lo = start ?? -Infinity;
    const hi = end ?? Infinity;
    if (o.period === "day") {
      if (o.fill === "none") {
        for (const [day, e] of [...s.days].sort((a, b) => a[0] - b[0]))
          if (day >= lo && day <= hi)
            rows.push([day, e === "conflict" || (typeof e === "object" && e !== null) ? "na" : e]);
      } else if (s.first !== undefined) {
        for (let day = Math.max(lo, s.first); day <= Math.min(hi, s.horizon); day++) {
          const st = this.state(s, day, o.fill);
          if (st.kind === "value") rows.push([day, st.value]);
          else if (st.kind === "conflict") rows.push([day, "na"]);
          else if (st.where === "gap") rows.push([day, null]);
        }
      }
      return rows.length > 0 ? rows : { kind: "na", why: "no-data" };
    }
    const from = start ?? s.first;
    if (from === undefined) return { kind: "na", why: "no-data" };
    const upTo = Math.min(hi, s.horizon);
    const periods: Array<{ first: number; cell?: number | "na"; whole: boolean }> = [];
    for (let p = periodFirst(from, o.period); p <= upTo; p = periodLast(p, o.period) + 1) {
      const last = periodLast(p, o.period);
      const cut = p < lo || last > hi;
      const calendar = this.window(s, p, last, o.fill);
      const whole = !cut && this.whole(calendar);
      let cell: number | "na" | undefined;
      if (include) {
        const part = cut ? this.window(s, Math.max(p, lo), Math.min(last, hi), o.fill) : calendar;
        cell = part.conflict ? "na" : part.values.length > 0 ? rollUp(part.values, agg) : undefined;
      } else cell = whole ? rollUp(calendar.values, agg) : "na";
      periods.push({ first: p, cell, whole });
    }
    let a = 0;
    let b = periods.length - 1;
    if (!include) {
      while (a <= b && !periods[a].whole) a++;
      while (b >= a && !periods[b].whole) b--;
    }
    // A row is dated by its period's last day, or the last day the range or the data let it cover.
    const dated = (first: number): number =>
      Math.min(periodLast(first, o.period), hi, Math.max(first, s.horizon));
    for (let k = a; k <= b; k++) {
      const p = periods[k];
      if (p.cell === undefined) continue;
      if (!growth) {
        rows.push([dated(p.first), p.cell]);
        continue;
      }
      const g = p.whole
        ? this.growth(s, p.first, periodLast(p.first, o.period), o.period, growth, o.fill, agg)
        : undefined;
      rows.push([dated(p.first), g?.kind === "value" ? g.value : "na"]);
    }
    return rows.length > 0 ? rows : { kind: "na", why: "incomplete" };
  }

  /**
   * A statement line's cell: the service's figure when the period is whole by the line's daily series (or
   * shown anyway with partial=include), else "na". `value`: the service's figure.
   */
  statementCell(
    projectId: string,
    metricId: string,
    first: number,
    last: number,
    value: number | null,
    include: boolean
  ): number | "na" {
    const w = this.window(this.series(projectId, metricId), first, last, "none");
    if (w.conflict) return "na";
    if (!this.whole(w) && !include) return "na";
    if (value === null || w.values.length === 0) return "na";
    const agg = defaultAgg(metricId);
    if (agg === undefined) return "na";
    // The service's figure must be its daily series', within half a unit of its last decimal.
    const computed = rollUp(w.values, agg);
    const decimals = String(value).split(".")[1]?.length ?? 0;
    const tolerance = Math.max(0.5 * 10 ** -decimals, 1e-9 * Math.abs(computed));
    return Math.abs(value - computed) <= tolerance ? value : "na";
  }

  /** Whether a statement line's period is whole (for which columns a statement shows). */
  statementWhole(projectId: string, metricId: string, first: number, last: number): boolean {
    return this.whole(this.window(this.series(projectId, metricId), first, last, "none"));
  }

  /**
   * BREAKDOWN of a metric over [from, to]: each listed project's figure of the period (VALUE's), and its
   * share of the total of the rows that count (those with data in the period).
   */
  breakdown(
    metricId: string,
    projectIds: readonly string[],
    from: number,
    to: number,
    o: { partial: "exclude" | "include"; agg?: Agg }
  ): BreakdownRow[] | Expected {
    const agg = from === to ? (defaultAgg(metricId, o.agg) ?? "last") : defaultAgg(metricId, o.agg);
    if (agg === undefined) return { kind: "na", why: "kind-unknown" };
    const rows = projectIds.map(
      (projectId): { projectId: string; value: Expected; counts: boolean } => {
        if (!this.dataset.hasMetric(projectId, metricId))
          return { projectId, value: { kind: "na", why: "unavailable" }, counts: false };
        const w = this.window(this.series(projectId, metricId), from, to, "none");
        const value = this.judge(w, agg, o.partial === "include");
        return { projectId, value, counts: w.values.length > 0 || w.conflict };
      }
    );
    const additive =
      agg !== "min" &&
      agg !== "max" &&
      (kindOf(metricId) === undefined
        ? o.agg === "sum" || o.agg === "last" || o.agg === "first"
        : !NOT_ADDITIVE.has(metricId));
    const counted = rows.filter((r) => r.counts);
    const shared =
      additive &&
      counted.every((r) => r.value.kind === "value") &&
      counted.every((r) => r.value.kind === "value" && r.value.value >= 0);
    const total = counted.reduce((t, r) => t + (r.value.kind === "value" ? r.value.value : 0), 0);
    return rows.map((r) => ({
      projectId: r.projectId,
      value: r.value,
      share: shared && total > 0 && r.value.kind === "value" ? r.value.value / total : "na",
    }));
  }

  /**
   * A service aggregate by the rule: its figure when the days its name covers (back from the series' last
   * day) all have a value, else "na".
   */
  aggregation(projectId: string, metricId: string, name: string, value: number): number | "na" {
    const m = /^(sum|avg|change|trend)_(\d+)d$/.exec(name);
    const span =
      name === "latest"
        ? 1
        : m
          ? Number(m[2]) * (m[1] === "change" || m[1] === "trend" ? 2 : 1)
          : 0;
    if (span === 0) return value;
    const s = this.series(projectId, metricId);
    if (s.last === undefined) return value;
    return this.whole(this.window({ ...s, horizon: s.last }, s.last - span + 1, s.last, "none"))
      ? value
      : "na";
  }
}
