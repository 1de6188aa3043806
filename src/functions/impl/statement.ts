/**
 * STATEMENT: the financial statement pivoted like a real one: `Section`, `Metric`, then one column per
 * period (the service's heading, oldest left by default). layout=long gives one row per period, section and
 * metric instead.
 *
 * - Rows: the standard template by default, so statements of different projects line up (a section the
 *   service writes in another case, "Income Statement", is the template's); rows=service keeps the service's
 *   own (statement-lines.ts). A line the statement has but not for some period is a #N/A there, never blank.
 * - Columns: the periods the rows declare (their date ranges, statement-periods.ts), whatever day of the
 *   period the service dates a row by and whatever its week convention; lines dated by different ends of one
 *   period share its column.
 * - Figures: the service's, checked against each line's daily series by the rule of every figure
 *   (statement-figures.ts): a period is whole when every one of its days has data. With partial=exclude (the
 *   default) the columns run from the first period some line has whole to the last (a launch quarter and
 *   the quarter still running are left out), and a figure that is not whole is a #N/A naming "N of M days";
 *   partial=include shows every period, its headers=2 heading stating the days covered.
 * - values=value (default), pop (the service's change on the previous period), yoy (the change on the same
 *   period a year earlier, a ratio; the statement is read a year further back for the bases), both #N/A
 *   unless both periods are whole and the base is above 0 ("NM"); or coverage: the days with a value behind
 *   each figure (from the daily series), so a statement that does not foot can be explained. Changes (pop,
 *   yoy) are percentages.
 * - Each line is named as the service's metric catalogue names it ("Supply-side fees"; labels.ts): the
 *   catalogue is asked beside the statement and kept for the day, as every function's is.
 * - vintage=: the statement as held now (its periods and lines), each figure as it was known then, rebuilt
 *   from the line's days as known then where the statement is the rule of its days (statement-figures.ts
 *   says when); the same requests as without it.
 */
import { optionsFor } from "../function-options";
import {
  STATEMENT_INTERVALS,
  TIMESTAMP_GRANULARITIES,
  type FinancialStatementRow,
  type StatementInterval,
} from "../../client";
import {
  horizonOf,
  incompleteMessage,
  isComplete,
  periodLabel,
  type PeriodWindow,
  baseStart,
  type Growth,
  type StatementGranularity,
  DEFAULT_VARIANT,
} from "../../engine";
import { formatDay, periodStart } from "../../client";
import { optionalText, requiredText } from "../coerce";
import { traced, type FnContext } from "../context";
import { type Options } from "../options";
import { FunctionError, invalid, notAvailable, type Cell, type Table } from "../result";
import { latestRead } from "./latest";
import { run } from "./reads";
import { metricNamesFrom } from "../../sheet/metric-labels";
import { metricCatalogue, resolveProject } from "./resolve";
import { atVintage } from "./vintage";
import { lineKey, STANDARD_STATEMENT, statementLines, type StatementLine } from "./statement-lines";
import { canonicalSection, periodOfRow, type StatementPeriod } from "./statement-periods";
import {
  changeCell,
  lineFigure,
  lineJudged,
  readLineDays,
  readLinesAsKnown,
  rowIndex,
  valueCell,
  type LineDays,
  type StatementContext,
} from "./statement-figures";

function choice<T extends string>(
  value: unknown,
  name: string,
  allowed: readonly T[],
  fallback: T
): T {
  const text = optionalText(value, name)?.toLowerCase();
  if (text === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(text))
    throw invalid(`${name} "${text}" is not one of ${allowed.join(", ")}`);
  return text as T;
}

type Period = StatementPeriod;

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "Oct 1 – Nov 23, 2026" (or "Dec 30, 2024 – Jan 5, 2025"), as the service writes its subheadings. */
function rangeText(from: number, to: number): string {
  const part = (day: number, withYear: boolean): string => {
    const text = formatDay(day);
    const md = `${MONTHS[Number(text.slice(5, 7)) - 1]} ${Number(text.slice(8, 10))}`;
    return withYear ? `${md}, ${text.slice(0, 4)}` : md;
  };
  const sameYear = formatDay(from).slice(0, 4) === formatDay(to).slice(0, 4);
  return `${part(from, !sameYear)} – ${part(to, true)}`;
}

export async function statement(
  ctx: FnContext,
  projectArg: unknown,
  granularityArg: unknown,
  intervalArg: unknown,
  optionsArg: unknown
): Promise<Table> {
  const options = optionsFor("STATEMENT", optionsArg);
  // Under vintage=, `ctx` answers as of then; the statement and today's days are read as without it.
  const plain = ctx;
  ctx = atVintage(ctx, options);
  const projectText = requiredText(projectArg, "project");
  const granularity = choice<StatementGranularity>(
    granularityArg,
    "granularity",
    TIMESTAMP_GRANULARITIES,
    "quarter"
  );
  const interval = choice<StatementInterval>(intervalArg, "interval", STATEMENT_INTERVALS, "1y");
  const project = await resolveProject(ctx, projectText);
  const id = project.projectId;
  const catalogue = metricCatalogue(ctx);
  // Settled even when the statement fails first: the answer waits to be read below.
  catalogue.catch(() => undefined);
  const growth: Growth | undefined =
    options.values === "pop" || options.values === "yoy" ? options.values : undefined;
  // The standard lines' daily series are asked beside the statement, not after it: every statement of a
  // recalculation asks them in the same window, so 20 statements' lines are one request per line metric
  // (§4.11, for all the projects), not one per statement as each answer arrives. The reads below find them
  // in the cache; a line the template does not know is read when the answer names it.
  void readLineDays(
    plain,
    id,
    STANDARD_STATEMENT,
    lineReadStart(plain.today, granularity, interval, growth)
  ).catch(() => undefined);
  const sent = await traced(
    ctx,
    `GET /v2/projects/${id}/financial-statement (${granularity}, ${interval})`,
    ctx.engine.statement(id, granularity, interval)
  );
  if (sent.length === 0)
    throw notAvailable(`no ${granularity} statement for ${id} over ${interval}`);
  for (const r of sent) if (r.definition) ctx.trace.definitions[r.metricId] = r.definition;
  const rows = sent.map(canonicalRow);

  const lines = statementLines(rows, options.rows);
  const names = metricNamesFrom(await catalogue);
  const present = lines.filter((line) => rows.some((r) => lineKey(r) === lineKey(line)));
  const all = periodsOf(rows, granularity);
  const bases = growth
    ? (await basesOf(ctx, id, granularity, interval, sent)).map(canonicalRow)
    : [];
  const checkFrom = growth
    ? periodsOf(bases, granularity).reduce(
        (a, p) => Math.min(a, p.window.start),
        all[0].window.start
      )
    : all[0].window.start;
  const now = await readLineDays(plain, id, present, checkFrom);
  const days = ctx.vintage ? await readLinesAsKnown(ctx, id, present, now, checkFrom) : now;
  const include = options.partial === "include";
  const periods = await shownPeriods(ctx, id, rows, present, days, all, include);
  const anchor = present.find((line) => days.get(lineKey(line)) !== undefined);
  const ordered = options.order === "desc" ? [...periods].reverse() : periods;
  const subheading = (p: Period): string => {
    const f = anchor && lineFigure(days, anchor, p.window);
    if (!f || f.covered === f.days) return p.subheading;
    const covered = `${f.covered} of ${f.days} days`;
    return f.firstCovered === undefined || f.lastCovered === undefined
      ? `no data yet (0 of ${f.days} days)`
      : `${rangeText(f.firstCovered, f.lastCovered)} (${covered})`;
  };
  const s: StatementContext = {
    ctx,
    projectId: id,
    granularity,
    days,
    include,
    ...(ctx.vintage ? { asKnown: { vintage: ctx.vintage, now, today: plain.today } } : {}),
  };
  const figures = await figuresOf(s, rows, bases, lines, periods, options);

  if (options.layout === "long") {
    const out: Table = [];
    if (options.headers === 2) out.push([project.name]);
    if (options.headers >= 1)
      out.push([
        options.dating === "end" ? "Period end" : "Period start",
        "Period",
        "Section",
        "Metric",
        VALUE_HEADINGS[options.values],
      ]);
    for (const p of ordered)
      for (const line of lines)
        out.push([
          { date: options.dating === "end" ? p.window.end : p.window.start },
          p.heading,
          line.section,
          names(line.metricId),
          figureOf(figures, line, p),
        ]);
    return out;
  }

  const out: Table = [];
  if (options.headers === 2) out.push([project.name, null, ...ordered.map(subheading)]);
  if (options.headers >= 1) out.push(["Section", "Metric", ...ordered.map((p) => p.heading)]);
  const cellOf = (cells: Map<string, Cell> | undefined, line: StatementLine, p: Period): Cell =>
    figureOf(figures, line, p, cells);
  for (const line of lines) {
    const cells = figures.get(lineKey(line));
    out.push([line.section, names(line.metricId), ...ordered.map((p) => cellOf(cells, line, p))]);
  }
  return out;
}

/**
 * The periods shown: every one with partial=include; by default those from the first period some checked
 * line has whole to the last (a launch quarter, the quarter still running are left out; a period in between
 * stays, its figures that are not whole a #N/A). With no line to check, the project's horizon decides, as
 * for any series: the periods that end by it.
 */
async function shownPeriods(
  ctx: FnContext,
  id: string,
  rows: readonly FinancialStatementRow[],
  present: readonly StatementLine[],
  days: LineDays,
  all: readonly Period[],
  include: boolean
): Promise<Period[]> {
  if (include) return [...all];
  const checked = present.filter((line) => days.get(lineKey(line)) !== undefined);
  if (checked.length === 0) {
    const horizon = await projectHorizon(ctx, id, rows);
    const periods = all.filter((p) => isComplete(p.window, horizon));
    if (periods.length === 0)
      throw notAvailable(
        incompleteMessage(all[all.length - 1].window, horizon, `${id}'s statement`)
      );
    return periods;
  }
  const whole = (p: Period): boolean =>
    checked.some((line) => {
      const f = lineFigure(days, line, p.window);
      return f !== undefined && f.covered === f.days && f.conflicts.length === 0;
    });
  let lo = 0;
  let hi = all.length - 1;
  while (lo <= hi && !whole(all[lo])) lo++;
  while (hi >= lo && !whole(all[hi])) hi--;
  if (lo > hi) {
    const last = all[all.length - 1];
    // Under vintage=: the period of the vintage's day (or the last before it) says why, a day not known then
    // ("not known on 2026-11-19: first seen 2026-11-20 …") rather than a count of days.
    if (ctx.vintage) {
      const then = [...all].reverse().find((p) => p.window.start <= ctx.today) ?? last;
      const judged = lineJudged(ctx, id, days, checked[0], then.window, false);
      if (judged && "reason" in judged && judged.conflict) throw notAvailable(judged.reason);
    }
    const f = lineFigure(days, checked[0], last.window)!;
    throw notAvailable(
      `no period of ${id}'s statement is whole: ${last.heading} has ${checked[0].metricId} data on ${f.covered} of ${f.days} days; partial=include shows it`
    );
  }
  return all.slice(lo, hi + 1);
}

const VALUE_HEADINGS: Readonly<Record<Options["values"], string>> = {
  value: "Value",
  pop: "Change",
  yoy: "Change YoY",
  coverage: "Days with data",
};

/** Months an interval reaches back from today ("max": the whole history). */
const INTERVAL_MONTHS: Readonly<Record<StatementInterval, number>> = {
  "1m": 1,
  "1y": 12,
  "2y": 24,
  "3y": 36,
  "5y": 60,
  max: Infinity,
};

/**
 * The first day the lines of a statement over `interval` are read from, before its answer says which periods
 * it holds: a period before the interval's start (the service's first period may overlap it), and with a change
 * the statement of the interval a year longer (its bases).
 */
export function lineReadStart(
  today: number,
  granularity: StatementGranularity,
  interval: StatementInterval,
  growth: Growth | undefined
): number {
  const months = INTERVAL_MONTHS[growth ? LONGER[interval] : interval];
  if (!Number.isFinite(months)) return -Infinity;
  const d = new Date(today * 86_400_000);
  const back = new Date(0).setUTCFullYear(
    d.getUTCFullYear(),
    d.getUTCMonth() - months,
    d.getUTCDate()
  );
  return periodStart(periodStart(back / 86_400_000, granularity) - 1, granularity);
}

/** The interval one year longer, so every shown period has its base a year earlier. */
const LONGER: Readonly<Record<StatementInterval, StatementInterval>> = {
  "1m": "1y",
  "1y": "2y",
  "2y": "3y",
  "3y": "5y",
  "5y": "max",
  max: "max",
};

/** The statement rows a year further back than `rows`: the bases of values=yoy and of the first pop. */
async function basesOf(
  ctx: FnContext,
  id: string,
  granularity: StatementGranularity,
  interval: StatementInterval,
  rows: readonly FinancialStatementRow[]
): Promise<readonly FinancialStatementRow[]> {
  const longer = LONGER[interval];
  if (longer === interval) return rows;
  return traced(
    ctx,
    `GET /v2/projects/${id}/financial-statement (${granularity}, ${longer}) for the change bases`,
    ctx.engine.statement(id, granularity, longer)
  );
}

/** The periods of the statement as its rows declare them, oldest first (one per range, whatever dates it). */
function periodsOf(
  rows: readonly FinancialStatementRow[],
  granularity: StatementGranularity
): Period[] {
  const periods = new Map<string, Period>();
  for (const r of rows) {
    const p = periodOfRow(r, granularity);
    if (!periods.has(p.key)) periods.set(p.key, p);
  }
  return [...periods.values()].sort((a, b) => a.window.start - b.window.start);
}

/** A row with its section as the template spells it ("Income Statement" is the Income statement). */
function canonicalRow(r: FinancialStatementRow): FinancialStatementRow {
  const section = canonicalSection(r.section);
  return section === r.section ? r : { ...r, section };
}

/**
 * A line's cell for a period: its figure; for a line the statement has but not for this period, a #N/A
 * saying so (a blank would read as 0 in a SUM); a line the project does not have stays empty.
 */
function figureOf(
  figures: Map<string, Map<string, Cell>>,
  line: StatementLine,
  p: Period,
  cells = figures.get(lineKey(line))
): Cell {
  if (!cells) return null;
  const cell = cells.get(p.key);
  if (cell !== undefined) return cell;
  return {
    error: "na",
    message: `the service sent no ${line.metricId} row for ${periodLabel(p.window)} (${p.subheading || `${formatDay(p.window.start)}..${formatDay(p.window.end)}`})`,
  };
}

type LatestOutcome = { ok: true; day: number | undefined } | { ok: false; error: unknown };

/** A series' latest day, settled as a value so that an ask whose answer goes unused rejects nothing. */
function latestOf(ctx: FnContext, projectId: string, metricId: string): Promise<LatestOutcome> {
  return run(
    latestRead(ctx, { projectId, metricId, variant: DEFAULT_VARIANT }, `${projectId} ${metricId}`)
  ).then(
    (latest): LatestOutcome => ({ ok: true, day: latest?.day }),
    (error: unknown): LatestOutcome => ({ ok: false, error })
  );
}

/**
 * The horizon of a statement none of whose lines has a daily series to check: today, or its latest data when
 * earlier, read from its first line's series (fees where it has them).
 */
async function projectHorizon(
  ctx: FnContext,
  projectId: string,
  rows: readonly FinancialStatementRow[]
): Promise<number> {
  const first = rows.some((r) => r.metricId === "fees") ? "fees" : rows[0].metricId;
  const outcome = await latestOf(ctx, projectId, first);
  if (outcome.ok) return horizonOf(ctx.today, outcome.day);
  // A first line without a series of its own: only today bounds the periods.
  if (outcome.error instanceof FunctionError && outcome.error.code === "na") return ctx.today;
  throw outcome.error;
}

/** Line -> period date -> the figure the `values` option asks for. */
async function figuresOf(
  s: StatementContext,
  rows: readonly FinancialStatementRow[],
  bases: readonly FinancialStatementRow[],
  lines: readonly StatementLine[],
  periods: readonly Period[],
  options: Readonly<Options>
): Promise<Map<string, Map<string, Cell>>> {
  const out = new Map<string, Map<string, Cell>>();
  const cellsOf = (line: StatementLine): Map<string, Cell> => {
    let cells = out.get(lineKey(line));
    if (!cells) out.set(lineKey(line), (cells = new Map<string, Cell>()));
    return cells;
  };
  const shown = new Map(periods.map((p) => [p.key, p]));
  if (options.values !== "coverage") {
    const entries = [...bases, ...rows].map((row) => ({
      row,
      window: periodOfRow(row, s.granularity).window,
    }));
    const index = rowIndex(entries);
    const starts = [...new Set(entries.map((e) => e.window.start))].sort((a, b) => a - b);
    const ends = new Map(entries.map((e) => [e.window.end, e.window.start]));
    // A change's base: the period ending the day before (pop), or the same period a year earlier (yoy),
    // as the rows declare them.
    const baseOf = (w: PeriodWindow): number =>
      options.values === "pop"
        ? (ends.get(w.start - 1) ?? starts.filter((x) => x < w.start).pop() ?? NaN)
        : baseStart(w.start, s.granularity, "yoy");
    for (const r of rows) {
      const p = shown.get(periodOfRow(r, s.granularity).key);
      if (!p) continue;
      const line = { section: r.section, metricId: r.metricId };
      cellsOf(line).set(
        p.key,
        options.values === "value"
          ? valueCell(s, r, line, p.window)
          : changeCell(s, index, r, line, p.window, options.values, baseOf)
      );
    }
    return out;
  }
  // Days with a value behind each figure, from the daily series of the lines the project has.
  const present = new Set(rows.map((r) => lineKey({ section: r.section, metricId: r.metricId })));
  for (const line of lines) {
    if (!present.has(lineKey(line)) || s.days.get(lineKey(line)) === undefined) continue;
    const cells = cellsOf(line);
    for (const p of periods) cells.set(p.key, lineFigure(s.days, line, p.window)!.covered);
  }
  return Promise.resolve(out);
}
