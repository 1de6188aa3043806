/**
 * AGGREGATION and AGGREGATIONS: the service's own aggregates (§4.4, §4.12); BREAKDOWN (§4.13) is in
 * ./breakdown.ts.
 *
 * - An archived project has no latest figure: its aggregates (latest, sum_30d, …) describe its last days,
 *   not now, so they are a #N/A naming the archive (engine/figures/as-of.ts); its history reads with dates.
 * - Stable shapes when projects are listed: every input position keeps its rows, in input order (a repeated
 *   id repeats them; an empty, unknown, archived or unavailable one is a row of #N/A with the reason).
 *   Omitted projects mean all of them, in the service's order.
 * - §2.6's columns whatever shape §4.12's rows take (the interface does not show it); an answer the client
 *   cannot read is asked of §4.4 per project instead (engine/aggregation-fallback.ts).
 * - `vintage=` (their one option): each aggregate as it would have been then, rebuilt from the daily series
 *   as known then; the service's value today is never shown under it (./aggregation-vintage.ts).
 */
import { formatDay } from "../../client";
import { DEFAULT_VARIANT, judge, windowFigure } from "../../engine";
import {
  openText,
  type JsonValue,
  type MetricAggregationRow,
  type OpenRow,
  type Project,
} from "../../client";
import { optionsFor } from "../function-options";
import { requiredText } from "../coerce";
import { idList, idPositions, uniqueIds } from "../coerce-lists";
import { traced, type FnContext } from "../context";
import { FunctionError, notAvailable, type Cell, type ErrorCell, type Table } from "../result";
import { aggregateAsKnown } from "./aggregation-vintage";
import { archivedCell } from "./archived";
import { latestRead, pointsRead } from "./latest";
import { run } from "./reads";
import { atVintage } from "./vintage";
import {
  projectCatalogue,
  resolveMetric,
  resolveMetrics,
  resolveProject,
  resolveProjects,
  type Resolved,
} from "./resolve";

export { breakdown } from "./breakdown";

export async function aggregation(
  ctx: FnContext,
  projectArg: unknown,
  metricArg: unknown,
  nameArg: unknown,
  optionsArg?: unknown
): Promise<Cell> {
  const options = optionsFor("AGGREGATION", optionsArg);
  ctx = atVintage(ctx, options);
  const projectText = requiredText(projectArg, "project");
  const metricText = requiredText(metricArg, "metric");
  const name = requiredText(nameArg, "aggregation name").toLowerCase();
  const [p, m] = await Promise.all([
    resolveProject(ctx, projectText),
    resolveMetric(ctx, metricText),
  ]);
  if (p.isArchived) throw notAvailable((await archivedCell(ctx, p, m.metricId)).message);
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
  // Under vintage= the service's value is today's: the figure as known then is rebuilt from its days.
  if (ctx.vintage)
    return aggregateAsKnown(ctx, ctx.vintage, p.projectId, m.metricId, row.aggregation);
  if (row.value === null || row.value === undefined)
    throw notAvailable(`${name} of ${m.metricId} for ${p.projectId} is empty`);
  const refused = await aggregationCheck(ctx, p.projectId, m.metricId, row.aggregation);
  if (refused) throw notAvailable(refused);
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

/** A row of the output: a service row, or a position that has none, with the reason in `value`. */
type Line =
  | { kind: "row"; row: OpenRow; value?: ErrorCell | number }
  | { kind: "reason"; fields: Record<string, string>; error: ErrorCell };

/** Rows of an open shape (§2.12): columns are the union of their members, in first-seen order. */
function openTable(lines: readonly Line[]): Table {
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
  for (const l of lines) Object.keys(l.kind === "row" ? l.row.fields : l.fields).forEach(add);
  add("value");
  const out: Table = [columns];
  for (const l of lines) {
    if (l.kind === "reason") {
      out.push(columns.map((c): Cell => (c === "value" ? l.error : (l.fields[c] ?? null))));
      continue;
    }
    // The client normalises `value` (number, numeric string or null); other members are shown as sent.
    out.push(
      columns.map((c) =>
        c === "value"
          ? (l.value ?? (l.row.value !== undefined ? l.row.value : cellOf(l.row.fields[c])))
          : cellOf(l.row.fields[c])
      )
    );
  }
  return out;
}

function errorOf<T>(r: Resolved<T>): ErrorCell | undefined {
  return "error" in r ? r.error : undefined;
}

/** The ids to request: each once, however often the range repeats it. */
function ids<T>(resolved: readonly Resolved<T>[], id: (v: T) => string): string[] {
  return uniqueIds(resolved.flatMap((r) => ("value" in r ? [id(r.value)] : [])));
}

/** A row of §4.12 with §2.6's members, in §2.6's order, as AGGREGATIONS shows it. */
function asAggregationRow(row: MetricAggregationRow): MetricAggregationRow {
  return {
    ...row,
    fields: {
      project_name: row.projectName ?? row.projectId ?? null,
      project_id: row.projectId ?? null,
      metric_id: row.metricId ?? null,
      metric_aggregation_name: row.aggregation ?? null,
      value: row.value ?? null,
    },
  };
}

export async function aggregations(
  ctx: FnContext,
  projectsArg: unknown,
  metricsArg: unknown,
  optionsArg?: unknown
): Promise<Table> {
  const options = optionsFor("AGGREGATIONS", optionsArg);
  ctx = atVintage(ctx, options);
  const all = idList(projectsArg, "projects").length === 0;
  const projectTexts = all ? [] : idPositions(projectsArg, "projects");
  const metricTexts =
    idList(metricsArg, "metrics").length === 0 ? [] : idPositions(metricsArg, "metrics");
  const [projects, metrics] = await Promise.all([
    resolveProjects(ctx, projectTexts),
    resolveMetrics(ctx, metricTexts),
  ]);
  const projectIds = all ? "all" : ids(projects, (p) => p.projectId);
  const metricIds = metricTexts.length === 0 ? "all" : ids(metrics, (m) => m.metricId);
  const nothingValid =
    (projectIds !== "all" && projectIds.length === 0) ||
    (metricIds !== "all" && metricIds.length === 0);
  const answer = nothingValid
    ? { rows: [], errors: [] }
    : await traced(
        ctx,
        "GET /v2/metric-aggregations",
        ctx.engine.metricAggregations(projectIds, metricIds)
      );
  answer.errors.forEach((e) => ctx.trace.warnings.add(e));
  // §2.6's columns whatever shape §4.12's rows came in (the interface does not show it).
  const loaded = { rows: answer.rows.map(asAggregationRow) };

  // An archived project's reason, once per project (dated by one of its metrics), read concurrently.
  const catalogue = new Map((await projectCatalogue(ctx)).map((p) => [p.projectId, p] as const));
  const archivedProjects = new Map<string, { project: Project; metricId?: string }>();
  const firstMetric = metricIds === "all" ? undefined : metricIds[0];
  for (const r of loaded.rows) {
    const project = r.projectId ? catalogue.get(r.projectId) : undefined;
    if (project?.isArchived && !archivedProjects.has(project.projectId))
      archivedProjects.set(project.projectId, { project, metricId: firstMetric ?? r.metricId });
  }
  for (const p of projects)
    if ("value" in p && p.value.isArchived && !archivedProjects.has(p.value.projectId))
      archivedProjects.set(p.value.projectId, { project: p.value, metricId: firstMetric });
  const archived = new Map(
    await Promise.all(
      [...archivedProjects.values()].map(
        async ({ project, metricId }) =>
          [project.projectId, await archivedCell(ctx, project, metricId)] as const
      )
    )
  );

  if (all) {
    // Every project, in the service's order; an archived project's figures are its reason.
    const lines: Line[] = [];
    for (const row of loaded.rows)
      lines.push({
        kind: "row",
        row,
        value: row.projectId ? archived.get(row.projectId) : undefined,
      });
    for (const m of metrics) {
      const e = errorOf(m);
      if (e) lines.push({ kind: "reason", fields: { metric_id: m.text }, error: e });
    }
    if (lines.length === 0) throw notAvailable("no aggregations for these projects and metrics");
    return openTable(await checkedLines(ctx, lines));
  }

  const lines: Line[] = [];
  for (const p of projects) {
    const pError = errorOf(p);
    const project = "value" in p ? p.value : undefined;
    const ofProject = project ? loaded.rows.filter((r) => r.projectId === project.projectId) : [];
    const wanted = metricTexts.length === 0 ? [undefined] : metrics;
    for (const m of wanted) {
      const fields = {
        project_id: project?.projectId ?? p.text,
        ...(m ? { metric_id: "value" in m ? m.value.metricId : m.text } : {}),
      };
      const mError = m ? errorOf(m) : undefined;
      if (pError || mError) {
        lines.push({ kind: "reason", fields, error: (pError ?? mError)! });
        continue;
      }
      const metricId = m && "value" in m ? m.value.metricId : undefined;
      const rows = metricId ? ofProject.filter((r) => r.metricId === metricId) : ofProject;
      const reason = project ? archived.get(project.projectId) : undefined;
      if (reason) {
        if (rows.length === 0) lines.push({ kind: "reason", fields, error: reason });
        for (const row of rows) lines.push({ kind: "row", row, value: reason });
        continue;
      }
      if (rows.length === 0) {
        const what = metricId ? `${metricId} ` : "";
        lines.push({
          kind: "reason",
          fields,
          error: { error: "na", message: `no ${what}aggregations for ${fields.project_id}` },
        });
        continue;
      }
      for (const row of rows) lines.push({ kind: "row", row });
    }
  }
  return openTable(await checkedLines(ctx, lines));
}

/**
 * Each aggregate's line with its value refused where its days are not all there (aggregationCheck); under
 * vintage=, its value as known then instead of the service's (aggregateAsKnown), or why there is none.
 */
async function checkedLines(ctx: FnContext, lines: readonly Line[]): Promise<Line[]> {
  const vintage = ctx.vintage;
  return Promise.all(
    lines.map(async (l): Promise<Line> => {
      if (l.kind !== "row" || l.value !== undefined || !l.row.projectId || !l.row.metricId)
        return l;
      // The lines of AGGREGATIONS hold aggregation rows (§4.12), their name read by the client.
      const name = (l.row as MetricAggregationRow).aggregation;
      if (vintage && name !== undefined) {
        try {
          const value = await aggregateAsKnown(ctx, vintage, l.row.projectId, l.row.metricId, name);
          return { ...l, value };
        } catch (error) {
          if (error instanceof FunctionError && error.code === "na")
            return { ...l, value: { error: "na", message: error.message } };
          throw error;
        }
      }
      if (name === undefined || l.row.value === null || l.row.value === undefined) return l;
      const refused = await aggregationCheck(ctx, l.row.projectId, l.row.metricId, name);
      return refused ? { ...l, value: { error: "na", message: refused } } : l;
    })
  );
}

/**
 * The days a named aggregate rolls up, back from the series' latest day, when its name says so: `sum_30d` and
 * `avg_7d` the N days to the latest data, `change_30d` and `trend_90d` two such windows back to back (the
 * simulator's formulas, and what the names promise), `latest` the latest day. Undefined: the name does not
 * say (ath, atl, a name the interface does not list), and the service's figure is shown as sent.
 */
export function aggregationSpan(name: string): number | undefined {
  const n = name.toLowerCase();
  if (n === "latest") return 1;
  const m = /^(sum|avg|change|trend)_(\d{1,4})d$/.exec(n);
  if (!m) return undefined;
  const days = Number(m[2]);
  if (days < 1) return undefined;
  return m[1] === "change" || m[1] === "trend" ? 2 * days : days;
}

/**
 * Why a service's aggregate is no figure by the rule every figure follows (engine/figures/rule.ts), or undefined
 * when it is one: its days, back from the series' latest day, must all have data, none of them sent twice
 * with different values. A sum_30d of a project launched 10 days ago, or of 30 days holding a day without a
 * value, passes a part as the whole.
 */
export async function aggregationCheck(
  ctx: FnContext,
  projectId: string,
  metricId: string,
  name: string
): Promise<string | undefined> {
  const span = aggregationSpan(name);
  if (span === undefined) return undefined;
  const base = { projectId, metricId, variant: DEFAULT_VARIANT };
  const label = `${projectId} ${metricId}`;
  let latest;
  try {
    latest = await run(latestRead(ctx, base, label));
  } catch (error) {
    // The series cannot be read (the service has no daily series for it): nothing to check against.
    if (error instanceof FunctionError) return undefined;
    throw error;
  }
  if (latest === undefined) return undefined;
  const from = latest.day - span + 1;
  const points = await run(pointsRead(ctx, base, label, from, latest.day));
  const figure = windowFigure({ points, horizon: latest.day }, from, latest.day, "none", "sum");
  const judged = judge(figure, false, {
    label: `the service's ${name} (${formatDay(from)}..${formatDay(latest.day)})`,
    subject: label,
    today: ctx.today,
    noPartial: true,
  });
  return "reason" in judged ? judged.reason : undefined;
}
