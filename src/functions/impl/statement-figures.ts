/**
 * STATEMENT's figures checked by the rule of every figure (engine/figures/rule.ts): a statement's figure is the
 * service's, but it is shown only where the line's daily series say the same, so that STATEMENT, VALUE and
 * the card give one figure for one project, metric and period. A period of a line is whole when every one of
 * its days has a value; a launch quarter (ethena's Q1 2024 has 42 of its 91 days), a quarter still running,
 * or one with days without a value is not, and a day the service sent twice with different values (or sent
 * as no number) makes the figure a #N/A in every mode. The period is the one the row declares (its range,
 * statement-periods.ts), and the daily series roll up by the metric's kind (engine/figures/metric-kinds.ts).
 *
 * - values=value: the service's figure where whole and equal to its daily series' (within the service's
 *   rounding: half a unit of the last decimal it sends); where not whole, a #N/A saying "N of M days"
 *   (partial=exclude) or the figure (partial=include); where the two disagree, a #N/A naming both (a line
 *   the service sends as 999 while its days sum to 96,080, daily users summed over a quarter); a figure the
 *   service left empty, sent twice with two values or sent as no number is a #N/A saying so.
 * - values=pop: the change on the previous period, where both figures pass the checks above and the previous
 *   one is above 0 (a change over a loss is "NM"); the service's own change where it agrees with the two
 *   figures, a #N/A naming both where it does not; an empty change is a #N/A, never a blank.
 * - values=yoy: the change on the same period a year earlier, by the same checks.
 * A line without a daily series of its own (a line only the statement has) cannot be checked: its figures are
 * shown as sent, and Diagnostics says so.
 *
 * Under vintage= (asKnownFigure): the statement is a whole answer the record of restatements does not keep, and
 * today's figure holds every restatement seen since. What STATEMENT showed then was the service's figure where
 * it equalled the rule figure of the line's days as known then; so the figure as known then is that rule
 * figure, rebuilt from the days as known then (a day first seen after the vintage is a #N/A "not known on …:
 * first seen …", a period still running then is partial then). It is shown only where the statement is the
 * rule of its days: today's figure agrees with today's days (the service recomputes it from them) or with the
 * days as known then (it has not changed since). Where it agrees with neither, nobody can say what it said
 * then: a #N/A naming the three figures. A line without a daily series cannot be known as of a date: a #N/A.
 * values=pop under vintage= is computed from the two figures as known then (the service's own change is
 * today's). The columns and lines are the statement's as held now.
 */
import type { FinancialStatementRow } from "../../client";
import { formatDay } from "../../client";
import {
  periodLabel,
  type PeriodWindow,
  type StatementGranularity,
  judge,
  windowFigure,
  type Judged,
  type SeriesDays,
  type WindowFigure,
  growthOf,
  type Growth,
  defaultAggregation,
  unknownKindMessage,
  DEFAULT_VARIANT,
  type Vintage,
} from "../../engine";
import type { FnContext } from "../context";
import { FunctionError, type Cell, type ErrorCell } from "../result";
import { horizonRead, pointsIn, pointsRead } from "./latest";
import { run } from "./reads";
import { fetchSeries } from "./series-common";
import { lineKey, type StatementLine } from "./statement-lines";

/** Line key -> the line's days from the first period checked on; undefined: no daily series to check. */
export type LineDays = Map<string, SeriesDays | undefined>;

/** The daily series of the lines, from `from` to the latest data: one planned read for them all. */
export async function readLineDays(
  ctx: FnContext,
  projectId: string,
  lines: readonly StatementLine[],
  from: number
): Promise<LineDays> {
  const out: LineDays = new Map();
  await Promise.all(
    lines.map(async (line) => {
      const base = { projectId, metricId: line.metricId, variant: DEFAULT_VARIANT };
      const label = `${projectId} ${line.metricId}`;
      try {
        const points = await run(pointsRead(ctx, base, label, from, Infinity));
        const horizon = await run(horizonRead(ctx, base, label, points, from, Infinity));
        out.set(lineKey(line), { points, horizon });
      } catch (error) {
        // The service has no daily series for this line: its figures cannot be checked.
        if (error instanceof FunctionError && error.code === "na") {
          out.set(lineKey(line), undefined);
          ctx.trace.warnings.add(
            `${label}: no daily series to check the statement's figures against; shown as the service sent them`
          );
          return;
        }
        throw error;
      }
    })
  );
  return out;
}

/**
 * Under vintage=, the lines' days as known then, from the same reads as `now` (today's days, read first):
 * no request more. A day first seen after the vintage stays in, as a day not known then (DayPoint.notKnown),
 * so that a period holding it is a #N/A saying so; the horizon is the vintage's day or today's, the earlier.
 */
export async function readLinesAsKnown(
  ctx: FnContext,
  projectId: string,
  lines: readonly StatementLine[],
  now: LineDays,
  from: number
): Promise<LineDays> {
  const out: LineDays = new Map();
  await Promise.all(
    lines.map(async (line) => {
      const today = now.get(lineKey(line));
      if (today === undefined) return out.set(lineKey(line), undefined);
      const base = { projectId, metricId: line.metricId, variant: DEFAULT_VARIANT };
      const query = { ...base, start: from, end: Infinity };
      const points = pointsIn(await fetchSeries(ctx, query, `${projectId} ${line.metricId}`, true));
      return out.set(lineKey(line), { points, horizon: Math.min(ctx.today, today.horizon) });
    })
  );
  return out;
}

/** The coverage of one line's period: its figure of days (undefined: the line cannot be checked). */
export function lineFigure(
  days: LineDays,
  line: StatementLine,
  w: Pick<PeriodWindow, "start" | "end">
): WindowFigure | undefined {
  const d = days.get(lineKey(line));
  return d && windowFigure(d, w.start, w.end, "none", defaultAggregation(line.metricId) ?? "sum");
}

/** The rule applied to a line's period: undefined when it cannot be checked (shown as sent). */
export function lineJudged(
  ctx: FnContext,
  projectId: string,
  days: LineDays,
  line: StatementLine,
  w: PeriodWindow,
  include: boolean
): Judged | undefined {
  const f = lineFigure(days, line, w);
  return (
    f &&
    judge(f, include, {
      label: periodLabel(w),
      subject: `${projectId} ${line.metricId}`,
      today: ctx.today,
    })
  );
}

/** What the figure cells need to know of the statement. */
export interface StatementContext {
  /** Under vintage=, the call's context as of then (its today the vintage's day). */
  ctx: FnContext;
  projectId: string;
  granularity: StatementGranularity;
  /** The lines' days (under vintage=, as known then). */
  days: LineDays;
  include: boolean;
  /** Under vintage=: the vintage, and the lines' days as held now with today's day (readLinesAsKnown). */
  asKnown?: { vintage: Vintage; now: LineDays; today: number };
}

/** Line key -> period start -> the service's row and its period (as the row declares it). */
type RowIndex = Map<string, Map<number, { row: FinancialStatementRow; window: PeriodWindow }>>;

export function rowIndex(
  entries: readonly { row: FinancialStatementRow; window: PeriodWindow }[]
): RowIndex {
  const out: RowIndex = new Map();
  for (const e of entries) {
    const key = lineKey(e.row);
    let byStart = out.get(key);
    if (!byStart)
      out.set(
        key,
        (byStart = new Map<number, { row: FinancialStatementRow; window: PeriodWindow }>())
      );
    byStart.set(e.window.start, e);
  }
  return out;
}

/**
 * Whether the service's figure is its daily series' within the service's rounding: half a unit of the last
 * decimal it sends (a figure sent as 96080 stands for 96079.5..96080.5), or a relative 1e-9 (the same days
 * added in another order).
 */
export function agrees(sent: number, computed: number): boolean {
  const text = String(sent);
  const decimals = /e/i.test(text) ? 20 : (text.split(".")[1]?.length ?? 0);
  const tolerance = Math.max(
    0.5 * 10 ** -decimals,
    1e-9 * Math.max(Math.abs(sent), Math.abs(computed))
  );
  return Math.abs(sent - computed) <= tolerance;
}

/** "96,080.37": a figure named in a message, to two decimals at most. */
function amount(n: number): string {
  return n.toLocaleString("en-US", { maximumFractionDigits: 2 });
}

/** A line's figure for a period, checked, or why there is none. */
type Checked = { value: number } | { error: ErrorCell };

/**
 * The service's figure of a line's period by the rule: a row sent twice with two values or as no number is
 * none; a period not whole is none (partial=include: the days there are); a figure its daily series do not
 * give is none, both named. A line without a daily series is shown as sent.
 */
export function checkedFigure(
  s: StatementContext,
  row: FinancialStatementRow,
  line: StatementLine,
  w: PeriodWindow,
  include: boolean
): Checked {
  const words = figureWords(s, line, w);
  const { label, subject, na } = words;
  if (row.conflicted)
    return na(
      `the service sent ${subject} for ${label} twice with different values; no figure for ${label}`
    );
  if (row.unreadable !== undefined)
    return na(
      `the service sent "${row.unreadable}" for ${subject} in ${label}, which is not a number`
    );
  if (s.asKnown) return asKnownFigure(s, s.asKnown, row, line, w, include, words);
  const d = s.days.get(lineKey(line));
  if (d === undefined) {
    if (row.value === null) return na(`the service sent no ${line.metricId} figure for ${label}`);
    return { value: row.value };
  }
  const agg = defaultAggregation(line.metricId);
  if (agg === undefined)
    return na(
      `${unknownKindMessage(line.metricId)}; the statement's figure for ${label}${row.value === null ? "" : ` (${amount(row.value)})`} cannot be checked against its daily series`
    );
  const figure = windowFigure(d, w.start, w.end, "none", agg);
  const judged = judge(figure, include, { label, subject, today: s.ctx.today });
  if ("reason" in judged) return na(judged.reason);
  if (row.value === null) return na(`the service sent no ${line.metricId} figure for ${label}`);
  if (!agrees(row.value, judged.value))
    return na(
      `the service's ${subject} for ${label} is ${amount(row.value)}, but its daily series give ${amount(judged.value)} (${formatDay(w.start)}..${formatDay(figure.lastCovered ?? w.end)}): no figure rather than either`
    );
  return { value: row.value };
}

/** How a line's figure for a period is named in its messages, and its #N/A. */
interface LineWords {
  /** "Q1 2024". */
  label: string;
  /** "aave revenue". */
  subject: string;
  na: (message: string) => Checked;
}

function figureWords(s: StatementContext, line: StatementLine, w: PeriodWindow): LineWords {
  return {
    label: periodLabel(w),
    subject: `${s.projectId} ${line.metricId}`,
    na: (message) => ({ error: { error: "na", message } }),
  };
}

/** A line's figure for a period as known at a vintage (the module comment says the rule). */
function asKnownFigure(
  s: StatementContext,
  asKnown: NonNullable<StatementContext["asKnown"]>,
  row: FinancialStatementRow,
  line: StatementLine,
  w: PeriodWindow,
  include: boolean,
  { label, subject, na }: LineWords
): Checked {
  const asOf = `as of ${asKnown.vintage.label}`;
  const then = s.days.get(lineKey(line));
  const now = asKnown.now.get(lineKey(line));
  if (then === undefined || now === undefined)
    return na(
      `${subject} for ${label} cannot be known ${asOf}: the line has no daily series of its own, and the service's statements are not kept`
    );
  const agg = defaultAggregation(line.metricId);
  if (agg === undefined)
    return na(
      `${unknownKindMessage(line.metricId)}; ${subject} for ${label} cannot be known ${asOf}`
    );
  const judged = judge(windowFigure(then, w.start, w.end, "none", agg), include, {
    label,
    subject,
    today: s.ctx.today,
  });
  if ("reason" in judged) return na(judged.reason);
  if (row.value === null)
    return na(
      `the service sent no ${line.metricId} figure for ${label}, so it cannot be rebuilt ${asOf}`
    );
  // The same statement as then: what STATEMENT showed then.
  if (agrees(row.value, judged.value)) return { value: row.value };
  const today = judge(windowFigure(now, w.start, w.end, "none", agg), include, {
    label,
    subject,
    today: asKnown.today,
  });
  // Recomputed since from the days as they are now: then, it was the rule of the days as they were then.
  if ("value" in today && agrees(row.value, today.value)) return { value: judged.value };
  return na(
    `the service's ${subject} for ${label} is ${amount(row.value)}, but its daily series give ${"value" in today ? amount(today.value) : "no whole figure"} now and ${amount(judged.value)} ${asOf}: it is not the rule of its days, so it cannot be rebuilt ${asOf}`
  );
}

/** The service's figure of a line's period, by the rule. */
export function valueCell(
  s: StatementContext,
  row: FinancialStatementRow,
  line: StatementLine,
  w: PeriodWindow
): Cell {
  const checked = checkedFigure(s, row, line, w, s.include);
  return "error" in checked ? checked.error : checked.value;
}

/**
 * A change where both figures pass the checks and the base is above 0, otherwise why not: yoy computed here,
 * pop the service's own where it agrees with the two figures (a #N/A naming both where it does not).
 */
export function changeCell(
  s: StatementContext,
  index: RowIndex,
  row: FinancialStatementRow,
  line: StatementLine,
  w: PeriodWindow,
  growth: Growth,
  baseOf: (w: PeriodWindow) => number
): Cell {
  const what = `no ${growth} change for ${s.projectId} ${line.metricId} ${periodLabel(w)}`;
  const current = checkedFigure(s, row, line, w, false);
  if ("error" in current) return { error: "na", message: `${what}: ${current.error.message}` };
  const base = index.get(lineKey(line))?.get(baseOf(w));
  if (!base) return { error: "na", message: `${what}: the service sent no base period` };
  const baseFigure = checkedFigure(s, base.row, line, base.window, false);
  if ("error" in baseFigure)
    return { error: "na", message: `${what}: its base: ${baseFigure.error.message}` };
  const g = growthOf(current.value, baseFigure.value);
  if (!("value" in g)) return { error: "na", message: `${what}: ${g.missing}` };
  // Under vintage= the service's own change is today's: the change of the two figures as known then.
  if (growth === "yoy" || s.asKnown) return { percent: g.value };
  if (row.popChange === null)
    return { error: "na", message: `${what}: the service sent no change` };
  if (!agrees(row.popChange, g.value) && Math.abs(row.popChange - g.value) > 1e-6)
    return {
      error: "na",
      message: `${what}: the service's change is ${row.popChange}, but its figures give ${g.value}`,
    };
  return { percent: row.popChange };
}
