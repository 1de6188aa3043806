/**
 * STATEMENT: the financial statement pivoted like a real one: `Section`, `Metric`, then one column per
 * period (the service's heading, oldest left by default). layout=long gives one row per period, section and
 * metric instead.
 *
 * - Rows: the standard template by default, so statements of different projects line up; rows=service keeps
 *   the service's own (statement-lines.ts).
 * - Periods: complete ones only by default (engine/completeness.ts), up to the project's latest data (the
 *   latest day of its first line, fees where it has them) and today; partial=include shows the others, their
 *   headers=2 heading stating the days covered.
 * - values=value (default), pop (the service's change on the previous period), yoy (the change on the same
 *   period a year earlier, a ratio; #N/A without a base or with a base of 0; the statement is read a year
 *   further back for the bases), or coverage: the days with a value behind each figure (from the daily
 *   series), so a statement that does not foot can be explained. Changes (pop, yoy) are percentages.
 * - Each line is named as the service's metric catalogue names it ("Supply-side fees"; labels.ts): the
 *   catalogue is asked beside the statement and kept for the day, as every function's is.
 */
import {
  STATEMENT_INTERVALS,
  TIMESTAMP_GRANULARITIES,
  type FinancialStatementRow,
  type StatementInterval,
} from "../../client";
import {
  coveredDays,
  coveredUntil,
  horizonOf,
  incompleteMessage,
  isComplete,
  windowDays,
  windowOf,
  type PeriodWindow,
} from "../../engine/completeness";
import { dayNumber, formatDay, periodStart } from "../../client/data/days";
import { baseStart, growthOf } from "../../engine/growth";
import type { StatementGranularity } from "../../engine/engine";
import { DEFAULT_VARIANT } from "../../engine/series-types";
import { optionalText, requiredText } from "../coerce";
import { traced, type FnContext } from "../context";
import { parseOptions, type OptionKey, type Options } from "../options";
import { FunctionError, invalid, notAvailable, type Cell, type Table } from "../result";
import { latestPoint, pointsOf } from "./latest";
import { metricNamesFrom } from "./labels";
import { metricCatalogue, resolveProject } from "./resolve";
import { lineKey, statementLines, type StatementLine } from "./statement-lines";

export const STATEMENT_OPTIONS: readonly OptionKey[] = [
  "order",
  "headers",
  "layout",
  "values",
  "partial",
  "rows",
];

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

interface Period {
  date: string;
  heading: string;
  subheading: string;
  window: PeriodWindow;
}

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
  const options = parseOptions(optionsArg, "STATEMENT", STATEMENT_OPTIONS);
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
  // The horizon's usual series (fees) is asked beside the statement, not after it: the statements of a
  // recalculation answer at different times, and only asks made together share one request.
  const feesLatest = latestOf(ctx, id, "fees");
  const catalogue = metricCatalogue(ctx);
  // Settled even when the statement fails first: the answer waits to be read below.
  catalogue.catch(() => undefined);
  const rows = await traced(
    ctx,
    `GET /v2/projects/${id}/financial-statement (${granularity}, ${interval})`,
    ctx.engine.statement(id, granularity, interval)
  );
  if (rows.length === 0)
    throw notAvailable(`no ${granularity} statement for ${id} over ${interval}`);
  for (const r of rows) if (r.definition) ctx.trace.definitions[r.metricId] = r.definition;

  const lines = statementLines(rows, options.rows);
  const names = metricNamesFrom(await catalogue);
  const horizon = await projectHorizon(ctx, id, rows, feesLatest);
  const all = periodsOf(rows, granularity);
  const periods = all.filter((p) => options.partial === "include" || isComplete(p.window, horizon));
  if (periods.length === 0) {
    const last = all[all.length - 1].window;
    throw notAvailable(incompleteMessage(last, horizon, `${id}'s statement`));
  }
  const ordered = options.order === "desc" ? [...periods].reverse() : periods;
  const subheading = (p: Period): string => {
    if (isComplete(p.window, horizon)) return p.subheading;
    const last = coveredUntil(p.window, horizon);
    const covered = `${coveredDays(p.window, horizon)} of ${windowDays(p.window)} days`;
    return last === undefined
      ? `no data yet (0 of ${windowDays(p.window)} days)`
      : `${rangeText(p.window.from, last)} (${covered})`;
  };
  const figures =
    options.values === "yoy"
      ? yoyFigures(await basesOf(ctx, id, granularity, interval, rows), rows, granularity)
      : await figuresOf(ctx, id, rows, lines, periods, options, horizon);

  if (options.layout === "long") {
    const out: Table = [];
    if (options.headers === 2) out.push([project.name]);
    if (options.headers >= 1)
      out.push(["Date", "Period", "Section", "Metric", VALUE_HEADINGS[options.values]]);
    for (const p of ordered)
      for (const line of lines)
        out.push([
          { date: dayNumber(p.date) },
          p.heading,
          line.section,
          names(line.metricId),
          figures.get(lineKey(line))?.get(p.date) ?? null,
        ]);
    return out;
  }

  const out: Table = [];
  if (options.headers === 2) out.push([project.name, null, ...ordered.map(subheading)]);
  if (options.headers >= 1) out.push(["Section", "Metric", ...ordered.map((p) => p.heading)]);
  for (const line of lines) {
    const cells = figures.get(lineKey(line));
    out.push([
      line.section,
      names(line.metricId),
      ...ordered.map((p) => cells?.get(p.date) ?? null),
    ]);
  }
  return out;
}

const VALUE_HEADINGS: Readonly<Record<Options["values"], string>> = {
  value: "Value",
  pop: "Change",
  yoy: "Change YoY",
  coverage: "Days with data",
};

/** The interval one year longer, so every shown period has its base a year earlier. */
const LONGER: Readonly<Record<StatementInterval, StatementInterval>> = {
  "1m": "1y",
  "1y": "2y",
  "2y": "3y",
  "3y": "5y",
  "5y": "max",
  max: "max",
};

/** The statement rows a year further back than `rows` (the bases of values=yoy). */
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
    `GET /v2/projects/${id}/financial-statement (${granularity}, ${longer}) for the yoy bases`,
    ctx.engine.statement(id, granularity, longer)
  );
}

/** Line -> period date -> the change on the same period a year earlier (an error cell where there is none). */
function yoyFigures(
  bases: readonly FinancialStatementRow[],
  rows: readonly FinancialStatementRow[],
  granularity: StatementGranularity
): Map<string, Map<string, Cell>> {
  const valueOf = new Map<string, number | null>();
  const startOf = (date: string): number => periodStart(dayNumber(date), granularity);
  for (const r of [...bases, ...rows]) valueOf.set(`${lineKey(r)}|${startOf(r.date)}`, r.value);
  const out = new Map<string, Map<string, Cell>>();
  for (const r of rows) {
    const key = lineKey(r);
    let cells = out.get(key);
    if (!cells) out.set(key, (cells = new Map<string, Cell>()));
    const base = baseStart(startOf(r.date), granularity, "yoy");
    const g = growthOf(r.value, valueOf.get(`${key}|${base}`));
    cells.set(
      r.date,
      "value" in g
        ? { percent: g.value }
        : { error: "na", message: `${r.metricId} ${r.date}: ${g.missing}` }
    );
  }
  return out;
}

/** The periods of the statement, oldest first, each with its window. */
function periodsOf(
  rows: readonly FinancialStatementRow[],
  granularity: StatementGranularity
): Period[] {
  const periods = new Map<string, Period>();
  for (const r of [...rows].sort((a, b) => a.date.localeCompare(b.date))) {
    if (!periods.has(r.date))
      periods.set(r.date, {
        date: r.date,
        heading: r.heading,
        subheading: r.subheading,
        window: windowOf(dayNumber(r.date), granularity),
      });
  }
  return [...periods.values()];
}

type LatestOutcome = { ok: true; day: number | undefined } | { ok: false; error: unknown };

/** A series' latest day, settled as a value so that an ask whose answer goes unused rejects nothing. */
function latestOf(ctx: FnContext, projectId: string, metricId: string): Promise<LatestOutcome> {
  return latestPoint(
    ctx,
    { projectId, metricId, variant: DEFAULT_VARIANT },
    `${projectId} ${metricId}`
  ).then(
    (latest): LatestOutcome => ({ ok: true, day: latest?.day }),
    (error: unknown): LatestOutcome => ({ ok: false, error })
  );
}

/**
 * The horizon of the project's statement: today, or its latest data when earlier (an archived project, a
 * lagging one), read from its first line's series (fees where it has them, asked beside the statement:
 * one request serves every statement of a recalculation).
 */
async function projectHorizon(
  ctx: FnContext,
  projectId: string,
  rows: readonly FinancialStatementRow[],
  feesLatest: Promise<LatestOutcome>
): Promise<number> {
  const outcome = rows.some((r) => r.metricId === "fees")
    ? await feesLatest
    : await latestOf(ctx, projectId, rows[0].metricId);
  if (outcome.ok) return horizonOf(ctx.today, outcome.day);
  // A first line without a series of its own: only today bounds the periods.
  if (outcome.error instanceof FunctionError && outcome.error.code === "na") return ctx.today;
  throw outcome.error;
}

/** The service's change ratio, shown as the percentage it is (-0.158 reads -15.8 %). */
function asPercent(ratio: number | null): Cell {
  return ratio === null ? null : { percent: ratio };
}

/** Line -> period date -> the figure the `values` option asks for. */
async function figuresOf(
  ctx: FnContext,
  projectId: string,
  rows: readonly FinancialStatementRow[],
  lines: readonly StatementLine[],
  periods: readonly Period[],
  options: Readonly<Options>,
  horizon: number
): Promise<Map<string, Map<string, Cell>>> {
  const out = new Map<string, Map<string, Cell>>();
  const cellsOf = (line: StatementLine): Map<string, Cell> => {
    let cells = out.get(lineKey(line));
    if (!cells) out.set(lineKey(line), (cells = new Map<string, Cell>()));
    return cells;
  };
  if (options.values !== "coverage") {
    for (const r of rows)
      cellsOf({ section: r.section, metricId: r.metricId }).set(
        r.date,
        options.values === "pop" ? asPercent(r.popChange) : r.value
      );
    return out;
  }
  // Days with a value behind each figure, from the daily series of the lines the project has.
  const present = new Set(rows.map((r) => lineKey({ section: r.section, metricId: r.metricId })));
  const from = periods[0].window.from;
  await Promise.all(
    lines
      .filter((line) => present.has(lineKey(line)))
      .map(async (line) => {
        const base = { projectId, metricId: line.metricId, variant: DEFAULT_VARIANT };
        let points;
        try {
          points = await pointsOf(ctx, base, `${projectId} ${line.metricId}`, from, Infinity);
        } catch (error) {
          if (error instanceof FunctionError && error.code === "na") return;
          throw error;
        }
        const cells = cellsOf(line);
        for (const p of periods) {
          const last = Math.min(p.window.to, horizon);
          cells.set(
            p.date,
            points.filter((x) => x.day >= p.window.from && x.day <= last && x.value !== null).length
          );
        }
      })
  );
  return out;
}
