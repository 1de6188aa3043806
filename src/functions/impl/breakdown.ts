/**
 * BREAKDOWN(metric, [projects], [start], [end], [options]): a metric summarised per project over a period,
 * with each project's share. Every figure is VALUE's figure of that project, metric and period: read from
 * the daily series (one planned request for all the projects, as a table of VALUE cells), by the rule of
 * every figure (engine/figures/rule.ts): rows sent twice count once, a period that is not whole is #N/A naming
 * "N of M days" (partial=include shows the days there are), a day sent twice with two values is #N/A, the
 * roll-up is the metric's kind's (or agg=), and a metric whose kind is not known asks for agg=.
 *
 * The service's own breakdown (§4.13) is not read: the interface shows only its usage, neither its rows nor
 * its date parameters, and a service that took other date names and ignored the ones it did not know
 * answered with its default period, which the old BREAKDOWN labelled as the period asked. The daily series
 * say which days they cover; the breakdown's rows do not.
 *
 * - Columns project_id, project_name, metric_id, value, share, start_date, end_date; the dates are the days
 *   the figure covers (the period asked when whole).
 * - Listed projects: one row each in input order (an empty, unknown, archived-without-data or unavailable
 *   position is a row of #N/A with its reason). Omitted: every project of the catalogue with data for the
 *   metric in the period (at most MAX_ALL), largest first.
 * - The period: start..end; omitted, the last 30 days to today.
 * - Share: a figure over the total of the rows, where the total is a figure too: #N/A when a row that counts
 *   has no figure (the total would miss it), NM when a figure is negative or the total is 0 (a share of a
 *   total with losses in it means nothing), NM for metrics whose figures do not add up (prices, averages,
 *   rates, multiples).
 */
import { formatDay } from "../../client";
import type { Project } from "../../client";
import {
  periodLabel,
  windowOf,
  judge,
  windowFigure,
  notMeaningful,
  defaultAggregation,
  metricInfo,
  type Aggregation,
} from "../../engine";
import { requiredText } from "../coerce";
import { dayRange, idList, idPositions, uniqueIds } from "../coerce-lists";
import type { FnContext } from "../context";
import { type Options } from "../options";
import { optionsFor } from "../function-options";
import {
  FunctionError,
  invalid,
  notAvailable,
  type Cell,
  type ErrorCell,
  type Table,
} from "../result";
import { projectCatalogue, resolveMetric, resolveProjects } from "./resolve";
import { variantOf } from "./series-common";
import { atVintage } from "./vintage";
import { aggregationOf, checkFill, daysRead, fillHint } from "./series-days";
import { run } from "./reads";

/** Every project of the catalogue, when none is listed: at most 10 requests of 50 ids. */
export const MAX_ALL = 500;
/** The period when none is given: the last 30 days, today included. */
const DEFAULT_DAYS = 30;

const HEADER: Cell[] = [
  "project_id",
  "project_name",
  "metric_id",
  "value",
  "share",
  "start_date",
  "end_date",
];

/** One project's figure over the period, or why it has none (`noData`: nothing at all in the period). */
type Figure =
  | { project: Project; value: number; from: number; to: number }
  | { project: Project; error: ErrorCell; noData: boolean };

function hasValue(f: Figure): f is Extract<Figure, { value: number }> {
  return "value" in f;
}

/** "February 2024", "Q1 2024", "2024" when the days are one calendar period; else "2024-02-03..2024-03-01". */
function rangeLabel(from: number, to: number): string {
  for (const period of ["month", "quarter", "year"] as const) {
    const w = windowOf(from, period);
    if (w.start === from && w.end === to) return periodLabel(w);
  }
  return from === to ? formatDay(from) : `${formatDay(from)}..${formatDay(to)}`;
}

export async function breakdown(
  ctx: FnContext,
  metricArg: unknown,
  projectsArg: unknown,
  startArg: unknown,
  endArg: unknown,
  optionsArg: unknown = null
): Promise<Table> {
  // Every argument is checked before the first request: a bad one must not cost any.
  const options = optionsFor("BREAKDOWN", optionsArg);
  ctx = atVintage(ctx, options);
  const metricText = requiredText(metricArg, "metric");
  const all = idList(projectsArg, "projects").length === 0;
  const projectTexts = all ? [] : idPositions(projectsArg, "projects");
  const { start, end } = dayRange(startArg, endArg);
  const to = end ?? ctx.today;
  const from = start ?? to - (DEFAULT_DAYS - 1);
  const metric = await resolveMetric(ctx, metricText);
  const metricId = metric.metricId;
  checkFill(options.fill, metricId, options.agg);
  // One day rolls nothing up: its value is the figure whatever the metric's kind.
  const agg: Aggregation =
    from === to
      ? (defaultAggregation(metricId, options.agg) ?? "last")
      : aggregationOf(metricId, options.agg);
  // The catalogue is every project asked when none is listed; listed projects need none of their own.
  const [projects, catalogue] = await Promise.all([
    resolveProjects(ctx, projectTexts),
    all ? projectCatalogue(ctx) : undefined,
  ]);
  if (catalogue && catalogue.length > MAX_ALL)
    throw invalid(
      `BREAKDOWN of every project would ask for ${catalogue.length} projects, more than ${MAX_ALL}; list the projects (a sector's, for example)`
    );
  const asked =
    catalogue ?? uniqueProjects(projects.flatMap((p) => ("value" in p ? [p.value] : [])));
  const figures = new Map<string, Figure>();
  await Promise.all(
    asked.map(async (project) =>
      figures.set(project.projectId, await figureOf(ctx, project, metricId, from, to, agg, options))
    )
  );

  const rows: Figure[] = all
    ? [...figures.values()]
        .filter((f) => hasValue(f) || !f.noData)
        .sort(
          (a, b) =>
            (hasValue(b) ? b.value : -Infinity) - (hasValue(a) ? a.value : -Infinity) ||
            (a.project.projectId < b.project.projectId ? -1 : 1)
        )
    : projects.flatMap((p) => ("value" in p ? [figures.get(p.value.projectId)!] : []));
  if (all && rows.length === 0)
    throw notAvailable(`no ${metricId} breakdown for ${describePeriod(from, to, start, end)}`);
  const share = shares(metricId, options.agg, agg, rows);
  const line = (f: Figure): Cell[] =>
    hasValue(f)
      ? [
          f.project.projectId,
          f.project.name,
          metricId,
          f.value,
          share(f),
          { date: f.from },
          { date: f.to },
        ]
      : [
          f.project.projectId,
          f.project.name,
          metricId,
          f.error,
          null,
          { date: from },
          { date: to },
        ];
  if (all) return [HEADER, ...rows.map(line)];
  // Input order: each position its row, or the reason it has none.
  return [
    HEADER,
    ...projects.map((p) =>
      "error" in p
        ? [p.text, null, metricId, p.error, null, { date: from }, { date: to }]
        : line(figures.get(p.value.projectId)!)
    ),
  ];
}

function uniqueProjects(projects: readonly Project[]): Project[] {
  const ids = uniqueIds(projects.map((p) => p.projectId));
  return ids.map((id) => projects.find((p) => p.projectId === id)!);
}

/** VALUE's figure of the project's metric over [from, to], by the rule of every figure. */
async function figureOf(
  ctx: FnContext,
  project: Project,
  metricId: string,
  from: number,
  to: number,
  agg: Aggregation,
  options: Readonly<Options>
): Promise<Figure> {
  const label = `${project.projectId} ${metricId}`;
  const reading = {
    ctx,
    base: { projectId: project.projectId, metricId, variant: variantOf(options) },
    label,
    metricId,
    fill: options.fill,
  };
  try {
    const days = await run(daysRead(reading, from, to));
    const figure = windowFigure(days, from, to, options.fill, agg);
    const judged = judge(figure, options.partial === "include", {
      label: rangeLabel(from, to),
      subject: label,
      today: ctx.today,
      fillHint: fillHint(metricId, options.fill, options.agg),
    });
    if ("value" in judged)
      return { project, value: judged.value, from: figure.firstCovered!, to: judged.asOf };
    const noData = figure.covered === 0 && figure.conflicts.length === 0;
    // An archived project's period after its data: the days, and that no more will come.
    const message =
      noData && project.isArchived
        ? `${judged.reason}; ${project.projectId} is archived`
        : judged.reason;
    return { project, error: { error: "na", message }, noData };
  } catch (error) {
    // A series the service does not serve (a metric the project lacks): its reason (an #N/A: the only
    // FunctionError a read throws), no data.
    if (error instanceof FunctionError)
      return { project, error: { error: error.code, message: error.message }, noData: true };
    throw error;
  }
}

/**
 * Each row's share of the total of the rows, where the total is a figure too (NM rule, engine/figures/growth.ts):
 * #N/A when a row that counts has no figure, NM when a figure is negative or the total 0, NM when the
 * metric's figures do not add up.
 */
function shares(
  metricId: string,
  askedAgg: Aggregation | undefined,
  agg: Aggregation,
  rows: readonly Figure[]
): (f: Figure) => Cell {
  const notAdditive = additiveReason(metricId, askedAgg, agg);
  if (notAdditive) return () => ({ error: "na", message: notAdditive });
  const missing = rows.find((f) => !hasValue(f) && !f.noData);
  if (missing)
    return () => ({
      error: "na",
      message: `no share: the total lacks ${missing.project.projectId}, whose figure is #N/A`,
    });
  const valued = rows.filter(hasValue);
  const negative = valued.find((f) => f.value < 0);
  if (negative)
    return () => ({
      error: "na",
      message: `NM: ${negative.project.projectId}'s ${metricId} is negative (${Math.round(negative.value).toLocaleString("en-US")}), so shares of the total mean nothing`,
    });
  const total = valued.reduce((sum, f) => sum + f.value, 0);
  const nm = notMeaningful(`the total ${metricId}`, total, "a share");
  return (f) => (nm ? { error: "na", message: nm } : hasValue(f) ? f.value / total : null);
}

/** Why a metric's figures do not add up into a total (a share needs one), or undefined when they do. */
function additiveReason(
  metricId: string,
  askedAgg: Aggregation | undefined,
  agg: Aggregation
): string | undefined {
  const info = metricInfo(metricId);
  const adds =
    agg === "min" || agg === "max"
      ? false
      : info === undefined
        ? askedAgg === "sum" || askedAgg === "last" || askedAgg === "first"
        : info.unit !== "multiple" &&
          (info.kind === "flow" ||
            info.kind === "level" ||
            info.kind === "count" ||
            info.kind === "users" ||
            info.kind === "cumulative");
  return adds
    ? undefined
    : `NM: ${metricId} figures${agg === "min" || agg === "max" ? ` rolled up with agg=${agg}` : ""} do not add up into a total, so shares of it mean nothing`;
}

function describePeriod(
  from: number,
  to: number,
  start: number | undefined,
  end: number | undefined
): string {
  const range = `${formatDay(from)} to ${formatDay(to)}`;
  return start === undefined && end === undefined ? `the last 30 days (${range})` : range;
}
