/**
 * STATEMENT: the financial statement pivoted like a real one: `Section`, `Metric`, then one column per
 * period (the service's heading, oldest left by default), one row per section and metric in the service's
 * order. layout=long gives one row per period, section and metric instead.
 */
import {
  STATEMENT_INTERVALS,
  TIMESTAMP_GRANULARITIES,
  type FinancialStatementRow,
  type StatementInterval,
} from "../../client";
import { dayNumber } from "../../client/data/days";
import type { StatementGranularity } from "../../engine/engine";
import { optionalText, requiredText } from "../coerce";
import { traced, type FnContext } from "../context";
import { parseOptions, type OptionKey } from "../options";
import { invalid, notAvailable, type Cell, type Table } from "../result";
import { resolveProject } from "./resolve";

export const STATEMENT_OPTIONS: readonly OptionKey[] = ["order", "headers", "layout", "values"];

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
  const rows = await traced(
    ctx,
    `GET /v2/projects/${project.projectId}/financial-statement (${granularity}, ${interval})`,
    ctx.engine.statement(project.projectId, granularity, interval)
  );
  if (rows.length === 0)
    throw notAvailable(`no ${granularity} statement for ${project.projectId} over ${interval}`);
  for (const r of rows) if (r.definition) ctx.trace.definitions[r.metricId] = r.definition;

  const periods = new Map<string, Period>();
  for (const r of [...rows].sort((a, b) => a.date.localeCompare(b.date))) {
    if (!periods.has(r.date))
      periods.set(r.date, { date: r.date, heading: r.heading, subheading: r.subheading });
  }
  const ordered = [...periods.values()];
  if (options.order === "desc") ordered.reverse();
  const pick = (r: FinancialStatementRow): Cell =>
    options.values === "pop" ? r.popChange : r.value;

  if (options.layout === "long") {
    const out: Table = [];
    if (options.headers === 2) out.push([project.name]);
    if (options.headers >= 1)
      out.push([
        "Date",
        "Period",
        "Section",
        "Metric",
        options.values === "pop" ? "Change" : "Value",
      ]);
    const order = new Map(ordered.map((p, i) => [p.date, i]));
    const sorted = rows
      .map((r, i) => ({ r, i }))
      .sort((a, b) => order.get(a.r.date)! - order.get(b.r.date)! || a.i - b.i);
    for (const { r } of sorted)
      out.push([{ date: dayNumber(r.date) }, r.heading, r.section, r.metricId, pick(r)]);
    return out;
  }

  // One row per (section, metric) in the order the service lists them.
  const lines = new Map<string, { section: string; metricId: string; cells: Map<string, Cell> }>();
  for (const r of rows) {
    const key = `${r.section}\u0000${r.metricId}`;
    let line = lines.get(key);
    if (!line)
      lines.set(key, (line = { section: r.section, metricId: r.metricId, cells: new Map() }));
    line.cells.set(r.date, pick(r));
  }
  const out: Table = [];
  if (options.headers === 2) out.push([project.name, null, ...ordered.map((p) => p.subheading)]);
  if (options.headers >= 1) out.push(["Section", "Metric", ...ordered.map((p) => p.heading)]);
  for (const line of lines.values()) {
    out.push([line.section, line.metricId, ...ordered.map((p) => line.cells.get(p.date) ?? null)]);
  }
  return out;
}
