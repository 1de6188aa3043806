/** AGGREGATION, AGGREGATIONS and BREAKDOWN: the service's own aggregates (§4.4, §4.12, §4.13). */
import { formatDay } from "../../client/data/days";
import { openText, type JsonValue, type OpenRow } from "../../client";
import { checkRange, idList, optionalDate, requiredText, uniqueIds } from "../coerce";
import { traced, type FnContext } from "../context";
import { notAvailable, type Cell, type Table } from "../result";
import {
  resolveMetric,
  resolveMetrics,
  resolveProject,
  resolveProjects,
  type Resolved,
} from "./resolve";

export async function aggregation(
  ctx: FnContext,
  projectArg: unknown,
  metricArg: unknown,
  nameArg: unknown
): Promise<Cell> {
  const projectText = requiredText(projectArg, "project");
  const metricText = requiredText(metricArg, "metric");
  const name = requiredText(nameArg, "aggregation name").toLowerCase();
  const [p, m] = await Promise.all([
    resolveProject(ctx, projectText),
    resolveMetric(ctx, metricText),
  ]);
  // The cells of one recalculation share one metric-aggregations request (engine/aggregation-batcher.ts).
  const pair = await traced(
    ctx,
    "GET /v2/metric-aggregations",
    ctx.engine.aggregation(p.projectId, m.metricId)
  );
  if (pair.issue) throw notAvailable(pair.issue);
  const ofMetric = pair.rows.flatMap((r) =>
    r.aggregation === undefined ? [] : [{ aggregation: r.aggregation, value: r.value }]
  );
  if (ofMetric.length === 0)
    throw notAvailable(`no aggregations of ${m.metricId} for ${p.projectId}`);
  const row = ofMetric.find((r) => r.aggregation.toLowerCase() === name);
  if (!row) {
    throw notAvailable(
      `no aggregation "${name}" of ${m.metricId} for ${p.projectId}; available: ${ofMetric.map((r) => r.aggregation).join(", ")}`
    );
  }
  if (row.value === null || row.value === undefined)
    throw notAvailable(`${name} of ${m.metricId} for ${p.projectId} is empty`);
  return row.value;
}

function cellOf(value: JsonValue | undefined): Cell {
  if (value === undefined || value === null) return null;
  // Rendered with a depth and length limit: an open member may be nested thousands deep.
  if (typeof value === "object") return openText(value);
  return value;
}

/**
 * Most columns an open table gets: real rows have a handful of members; rows that each bring new ones
 * (a broken or hostile service) would make a table of rows × members cells.
 */
const MAX_OPEN_COLUMNS = 256;

/** Rows of an open shape (§2.12): columns are the union of their members, in first-seen order. */
function openTable(
  rows: readonly OpenRow[],
  unresolved: ReadonlyArray<{ column: string; text: string; message: string }>
): Table {
  const seen = new Set<string>();
  const columns: string[] = [];
  const add = (k: string): void => {
    if (seen.has(k)) return;
    if (columns.length === MAX_OPEN_COLUMNS)
      throw notAvailable(
        `the service's rows have more than ${MAX_OPEN_COLUMNS} different members; not shown as a table`
      );
    seen.add(k);
    columns.push(k);
  };
  for (const r of rows) for (const k of Object.keys(r.fields)) add(k);
  for (const u of unresolved) add(u.column);
  add("value");
  const out: Table = [columns];
  for (const r of rows) {
    // The client normalises `value` (number, numeric string or null); other members are shown as sent.
    out.push(
      columns.map((c) => (c === "value" && r.value !== undefined ? r.value : cellOf(r.fields[c])))
    );
  }
  // Unknown ids stay visible as rows with their reason, never silently dropped.
  for (const u of unresolved) {
    out.push(
      columns.map((c): Cell =>
        c === u.column ? u.text : c === "value" ? { error: "na", message: u.message } : null
      )
    );
  }
  return out;
}

function failures<T>(
  resolved: readonly Resolved<T>[],
  column: string
): Array<{ column: string; text: string; message: string }> {
  return resolved.flatMap((r) =>
    "error" in r ? [{ column, text: r.text, message: r.error.message }] : []
  );
}

/** The ids to request: each once, however often the range repeats it. */
function ids<T>(resolved: readonly Resolved<T>[], id: (v: T) => string): string[] {
  return uniqueIds(resolved.flatMap((r) => ("value" in r ? [id(r.value)] : [])));
}

export async function aggregations(
  ctx: FnContext,
  projectsArg: unknown,
  metricsArg: unknown
): Promise<Table> {
  const projectTexts = idList(projectsArg, "projects");
  const metricTexts = idList(metricsArg, "metrics");
  const [projects, metrics] = await Promise.all([
    resolveProjects(ctx, projectTexts),
    resolveMetrics(ctx, metricTexts),
  ]);
  const projectIds = projectTexts.length === 0 ? "all" : ids(projects, (p) => p.projectId);
  const metricIds = metricTexts.length === 0 ? "all" : ids(metrics, (m) => m.metricId);
  const unresolved = [...failures(projects, "project_id"), ...failures(metrics, "metric_id")];
  if (
    (projectIds !== "all" && projectIds.length === 0) ||
    (metricIds !== "all" && metricIds.length === 0)
  ) {
    throw notAvailable(unresolved.map((u) => u.message).join("; "));
  }
  const loaded = await traced(
    ctx,
    "GET /v2/metric-aggregations",
    ctx.engine.metricAggregations(projectIds, metricIds)
  );
  loaded.errors.forEach((e) => ctx.trace.warnings.add(e));
  if (loaded.rows.length === 0 && unresolved.length === 0)
    throw notAvailable("no aggregations for these projects and metrics");
  return openTable(loaded.rows, unresolved);
}

export async function breakdown(
  ctx: FnContext,
  metricArg: unknown,
  projectsArg: unknown,
  startArg: unknown,
  endArg: unknown
): Promise<Table> {
  // Every argument is checked before the first request: a bad one must not cost any.
  const metricText = requiredText(metricArg, "metric");
  const projectTexts = idList(projectsArg, "projects");
  const start = optionalDate(startArg, "start");
  const end = optionalDate(endArg, "end");
  checkRange(start, end);
  const metric = await resolveMetric(ctx, metricText);
  const projects = await resolveProjects(ctx, projectTexts);
  const projectIds = projectTexts.length === 0 ? "all" : ids(projects, (p) => p.projectId);
  const unresolved = failures(projects, "project_id");
  if (projectIds !== "all" && projectIds.length === 0)
    throw notAvailable(unresolved.map((u) => u.message).join("; "));
  const rows = await traced(
    ctx,
    `GET /v2/metrics-breakdown/${metric.metricId}`,
    ctx.engine.breakdown(
      metric.metricId,
      projectIds,
      start === undefined ? undefined : formatDay(start),
      end === undefined ? undefined : formatDay(end)
    )
  );
  if (rows.length === 0 && unresolved.length === 0)
    throw notAvailable(`no ${metric.metricId} breakdown for these projects`);
  return openTable(rows, unresolved);
}
