/**
 * Summaries computed from the daily series: project aggregations (§4.4), multi-project aggregations (§4.12),
 * financial statements (§4.5) and the metrics breakdown (§4.13).
 */
import { metricBreakdown, projectAggregations } from "../data/aggregations";
import type { ProjectInfo } from "../data/dataset";
import { GRANULARITIES, INTERVALS } from "../data/periods";
import { dayToDate } from "../util/days";
import { requireProject, type HandlerContext } from "./context";
import { selectProjects } from "./handlers-metric";
import { notFound } from "./params";
import { clip, Errors, resolveSectors } from "./selection";
import { envelope, nullableNumber, type Envelope, type WireValue } from "./wire";

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
    value: nullableNumber(row.value, ctx.dataset.valuesAsStrings(project.id, row.metricId)),
  }));
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
  return envelope(rows, errors.entries);
}

export function getFinancialStatement(ctx: HandlerContext): Envelope {
  const project = requireProject(ctx, ctx.params[0]);
  const granularity = ctx.query.oneOf("timestamp_granularity", GRANULARITIES) ?? "quarter";
  const interval = ctx.query.oneOf("interval", INTERVALS) ?? "1y";
  return envelope(
    ctx.dataset.statement(project.id, granularity, interval).map((row) => {
      const asString = ctx.dataset.valuesAsStrings(project.id, row.metricId);
      return {
        timestamp: row.timestamp,
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
 * {project_id, project_name, metric_id, value, share, start_date, end_date}, largest value first. A listed
 * project without the metric is absent (METRIC_NOT_AVAILABLE with knob `reportUnavailable`).
 */
export function getMetricsBreakdown(ctx: HandlerContext): Envelope {
  const { dataset } = ctx;
  const metric = dataset.metric(ctx.params[0]);
  if (!metric) throw notFound(`Metric not found: ${ctx.params[0]}`);
  const errors = new Errors();
  const sectors = resolveSectors(ctx, errors);
  const projects = selectProjects(ctx, errors, metric.id, ctx.knobs.reportUnavailable).filter(
    (p) => !sectors || sectors.some((s) => p.sectors.includes(s))
  );
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
  return envelope(
    rows.map((row) => {
      const asString = dataset.valuesAsStrings(row.projectId, metric.id);
      return {
        project_id: row.projectId,
        project_name: names.get(row.projectId) ?? row.projectId,
        metric_id: metric.id,
        value: nullableNumber(row.value, asString),
        share: row.share,
        start_date: dayToDate(row.startDate),
        end_date: dayToDate(row.endDate),
      };
    }),
    errors.entries
  );
}
