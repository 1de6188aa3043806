/**
 * Summaries computed from the daily series: project aggregations (§4.4), multi-project aggregations (§4.12),
 * financial statements (§4.5) and the metrics breakdown (§4.13).
 */
import { metricBreakdown, projectAggregations } from "../data/aggregations";
import type { ProjectInfo } from "../data/dataset";
import { STATEMENT_INTERVALS, TIMESTAMP_GRANULARITIES } from "../../client";
import { day, dayToDate } from "../util/days";
import { requireMetric, requireProject, type HandlerContext } from "./context";
import { selectProjects } from "./handlers-metric";
import { badRequest } from "./params";
import { clip, Errors, resolveSectors } from "./selection";
import {
  envelope,
  nullableNumber,
  valuesAsText,
  wireDay,
  type Envelope,
  type WireValue,
} from "./wire";

function aggregationRows(
  ctx: HandlerContext,
  project: ProjectInfo,
  metricIds?: readonly string[]
): Record<string, WireValue>[] {
  return projectAggregations(ctx.dataset, project.id, metricIds).map((row) => ({
    project_name: project.name,
    project_id: project.id,
    metric_id: row.metricId,
    metric_aggregation_name: row.name,
    value: nullableNumber(row.value, asText(ctx, project.id, row.metricId)),
  }));
}

const asText = (ctx: HandlerContext, projectId: string, metricId: string): boolean =>
  valuesAsText(ctx.knobs.readings, ctx.dataset, projectId, metricId);

/**
 * §4.12's rows in the shape the aggregationsRows reading says (the interface does not show it): the rows
 * of §2.6; one row per project and metric with a member per aggregation name; or an object keyed by
 * project id, each holding its metrics' aggregations by name.
 */
function shapedAggregations(ctx: HandlerContext, rows: Record<string, WireValue>[]): unknown {
  const shape = ctx.knobs.readings.aggregationsRows;
  if (shape === "rows") return rows;
  if (shape === "wide") {
    const wide = new Map<string, Record<string, WireValue>>();
    for (const r of rows) {
      const key = `${String(r.project_id)}\u0000${String(r.metric_id)}`;
      let row = wide.get(key);
      if (!row) {
        row = { project_name: r.project_name, project_id: r.project_id, metric_id: r.metric_id };
        wide.set(key, row);
      }
      row[String(r.metric_aggregation_name)] = r.value;
    }
    return [...wide.values()];
  }
  const opaque: Record<string, Record<string, Record<string, WireValue>>> = {};
  for (const r of rows) {
    const project = (opaque[String(r.project_id)] ??= {});
    const metric = (project[String(r.metric_id)] ??= {});
    metric[String(r.metric_aggregation_name)] = r.value;
  }
  return opaque;
}

export function getProjectMetricAggregations(ctx: HandlerContext): Envelope {
  return envelope(aggregationRows(ctx, requireProject(ctx, ctx.params[0])));
}

/**
 * GET /v2/metric-aggregations: project_ids and metric_ids both optional (omitted or `all` = every one).
 * Unknown ids are NOT_FOUND entries (the only entries the interface names here); with knob
 * `reportUnavailable`, a project and a metric both listed explicitly but not matching give a
 * METRIC_NOT_AVAILABLE entry.
 */
export function getMetricAggregations(ctx: HandlerContext): Envelope {
  const { dataset, query } = ctx;
  const errors = new Errors();
  // Declared required, described optional (§4.12): the aggregationsProjects reading decides.
  if (
    ctx.knobs.readings.aggregationsProjects === "required" &&
    query.list("project_ids") === undefined
  )
    throw badRequest("project_ids is required (a comma list of project ids, or all).");
  const projectIds = query.listOrAll("project_ids");
  const metricIds = query.listOrAll("metric_ids");
  let projects: ProjectInfo[] = [];
  if (projectIds === "all") projects = [...dataset.projects];
  else
    for (const id of projectIds) {
      const project = dataset.project(id);
      if (project) projects.push(project);
      else errors.notFound("project_ids", id);
    }
  let metrics: string[] | undefined;
  if (metricIds !== "all") {
    metrics = [];
    for (const id of metricIds) {
      if (dataset.metric(id)) metrics.push(id);
      else errors.notFound("metric_ids", id);
    }
  }
  const rows: Record<string, WireValue>[] = [];
  for (const project of projects) {
    if (ctx.knobs.reportUnavailable && projectIds !== "all" && metrics) {
      for (const m of metrics) if (!project.metrics.includes(m)) errors.unavailable(project.id, m);
    }
    for (const row of aggregationRows(ctx, project, metrics)) rows.push(row);
  }
  return envelope(shapedAggregations(ctx, rows), errors.entries);
}

export function getFinancialStatement(ctx: HandlerContext): Envelope {
  const project = requireProject(ctx, ctx.params[0]);
  const granularity =
    ctx.query.oneOf("timestamp_granularity", TIMESTAMP_GRANULARITIES) ?? "quarter";
  const interval = ctx.query.oneOf("interval", STATEMENT_INTERVALS) ?? "1y";
  const { readings } = ctx.knobs;
  const weekStart = readings.statementWeeks === "sunday" ? "sunday" : "monday";
  return envelope(
    ctx.dataset.statement(project.id, granularity, interval, { weekStart }).map((row) => {
      const asString = asText(ctx, project.id, row.metricId);
      // The statementDates reading dates a row by its period's first or last day; a quirk the other one.
      const byEnd = (readings.statementDates === "end") !== (row.datedBy === "end");
      const dated = (byEnd ? row.end : row.timestamp).slice(0, 10);
      return {
        timestamp: wireDay(day(dated), readings),
        timestamp_label_heading: row.heading,
        timestamp_label_subheading: row.subheading,
        timestamp_granularity: row.granularity,
        project_name: project.name,
        project_id: project.id,
        section: row.section,
        metric_id: row.metricId,
        value: nullableNumber(row.value, asString),
        pop_change: nullableNumber(row.popChange, asString),
        definition: row.definition,
      };
    })
  );
}

/**
 * GET /v2/metrics-breakdown/{metric_id}: one row per project over a date range (default: the last 30 days),
 * largest value first. Everything here is a reading (the interface shows only the usage): the date names
 * (breakdownDates), whether `all` or no project_ids selects every project (breakdownProjects), and the rows
 * (breakdownRows: {project_name, metric_id, value}, or {project_id, project_name, metric_id, value, share,
 * start_date, end_date}). A listed project without the metric is absent (METRIC_NOT_AVAILABLE with knob
 * `reportUnavailable`).
 */
export function getMetricsBreakdown(ctx: HandlerContext): Envelope {
  const { dataset } = ctx;
  const { readings } = ctx.knobs;
  const metric = requireMetric(ctx, ctx.params[0]);
  const errors = new Errors();
  const listed = ctx.query.list("project_ids");
  if (readings.breakdownProjects === "listed" && listed === undefined)
    throw badRequest("project_ids is required (a comma list of project ids).");
  const sectors = resolveSectors(ctx, errors);
  const selected =
    readings.breakdownProjects === "listed"
      ? listedProjects(ctx, errors, metric.id, listed ?? [])
      : selectProjects(ctx, errors, metric.id, ctx.knobs.reportUnavailable);
  const projects = selected.filter((p) => !sectors || sectors.some((s) => p.sectors.includes(s)));
  const range = ctx.query.dateRange();
  const today = dataset.todayDay;
  const defaultStart = (range.end ?? today) - 29;
  const { from, to } = clip(
    { start: range.start ?? defaultStart, end: range.end ?? today },
    -Infinity,
    today
  );
  const names = new Map(projects.map((p) => [p.id, p.name]));
  const rows =
    from > to
      ? []
      : metricBreakdown(
          dataset,
          metric.id,
          projects.map((p) => p.id),
          from,
          to
        );
  // breakdownRepeats "twice": every row sent twice, identical (beyond the interface).
  const sent = readings.breakdownRepeats === "twice" ? rows.flatMap((r) => [r, r]) : rows;
  return envelope(
    sent.map((row) => {
      const value = nullableNumber(row.value, asText(ctx, row.projectId, metric.id));
      const name = names.get(row.projectId) ?? row.projectId;
      if (readings.breakdownRows === "names")
        return { project_name: name, metric_id: metric.id, value };
      return {
        project_id: row.projectId,
        project_name: name,
        metric_id: metric.id,
        value,
        share: row.share,
        start_date: dayToDate(row.startDate),
        end_date: dayToDate(row.endDate),
      };
    }),
    errors.entries
  );
}

/** The listed projects (`all` is no keyword here: an unknown id like any other). */
function listedProjects(
  ctx: HandlerContext,
  errors: Errors,
  metricId: string,
  ids: readonly string[]
): ProjectInfo[] {
  const out: ProjectInfo[] = [];
  for (const id of ids) {
    const project = ctx.dataset.project(id);
    if (!project) errors.notFound("project_ids", id);
    else if (!project.metrics.includes(metricId)) {
      if (ctx.knobs.reportUnavailable) errors.unavailable(id, metricId);
    } else out.push(project);
  }
  return out;
}
