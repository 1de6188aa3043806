/**
 * BREAKDOWN: the service's breakdown of a metric per project over a period (§4.13), of which the interface
 * shows only the usage (`project_ids`, `start_date`, `end_date`): its other parameters and its rows are
 * readings. So the table is the add-in's, the same whatever the service's reading:
 *
 * - columns project_id, project_name, metric_id, value, share, start_date, end_date, whatever members the
 *   rows carry; a row names its project by `project_id` or, failing that, by its name in the catalogue;
 * - the projects are always listed (`project_ids=all` is documented for §4.11 and §4.12 only): omitted,
 *   every project of the catalogue, at most MAX_ALL (50 per request);
 * - the period is always sent: omitted, the last 30 days to today (the usage's default is not shown);
 * - share is computed here, over every project asked (a service's own share is over one request's projects);
 * - partial-success errors reach the diagnostics; a listed project without a row says why.
 */
import { notAvailableIssue } from "../../engine/availability";
import { formatDay } from "../../client";
import type { MetricsBreakdownRow, Project } from "../../client";
import { checkRange, idList, idPositions, optionalDate, requiredText, uniqueIds } from "../coerce";
import { traced, type FnContext } from "../context";
import { invalid, notAvailable, type Cell, type ErrorCell, type Table } from "../result";
import { archivedCell } from "./archived";
import { projectCatalogue, resolveMetric, resolveProjects } from "./resolve";

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

/** A row of the answer, placed on its project. */
interface Placed {
  project: Project;
  value: number | null;
}

/**
 * The project each row is about: by id, or by a name the catalogue gives to one project only. Rows that
 * name no project it can tell make the whole answer unusable (their figures would be missing from shares).
 */
function place(rows: readonly MetricsBreakdownRow[], catalogue: readonly Project[]): Placed[] {
  const byId = new Map(catalogue.map((p) => [p.projectId, p]));
  const byName = new Map<string, Project | null>();
  for (const p of catalogue) byName.set(p.name, byName.has(p.name) ? null : p);
  const placed: Placed[] = [];
  const unplaced: string[] = [];
  for (const row of rows) {
    const project =
      (row.projectId !== undefined ? byId.get(row.projectId) : undefined) ??
      (row.projectName !== undefined ? byName.get(row.projectName) : undefined);
    if (project) placed.push({ project, value: row.value ?? null });
    else unplaced.push(row.projectId ?? row.projectName ?? "(no project named)");
  }
  if (unplaced.length > 0)
    throw notAvailable(
      `the service's breakdown rows do not say which project ${unplaced.length === 1 ? "one is" : `${unplaced.length} are`} (${unplaced.slice(0, 3).join(", ")}): no breakdown is shown rather than one with rows missing`
    );
  return placed;
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
  const all = idList(projectsArg, "projects").length === 0;
  const projectTexts = all ? [] : idPositions(projectsArg, "projects");
  const start = optionalDate(startArg, "start");
  const end = optionalDate(endArg, "end");
  checkRange(start, end);
  const to = end ?? ctx.today;
  const from = start ?? to - (DEFAULT_DAYS - 1);
  const metric = await resolveMetric(ctx, metricText);
  const [projects, catalogue] = await Promise.all([
    resolveProjects(ctx, projectTexts),
    projectCatalogue(ctx),
  ]);
  const asked = all
    ? catalogue.map((p) => p.projectId)
    : uniqueIds(projects.flatMap((p) => ("value" in p ? [p.value.projectId] : [])));
  if (all && asked.length > MAX_ALL)
    throw invalid(
      `BREAKDOWN of every project would ask for ${asked.length} projects, more than ${MAX_ALL}; list the projects (a sector's, for example)`
    );
  const answer =
    asked.length === 0 || from > to
      ? { rows: [], errors: [] }
      : await traced(
          ctx,
          `GET /v2/metrics-breakdown/${metric.metricId}`,
          ctx.engine.breakdown(metric.metricId, asked, formatDay(from), formatDay(to))
        );
  answer.errors.forEach((e) => ctx.trace.warnings.add(e));
  const placed = place(answer.rows, catalogue);
  let total = 0;
  for (const p of placed) if (p.value !== null && p.value > 0) total += p.value;
  const line = (p: Placed): Cell[] => [
    p.project.projectId,
    p.project.name,
    metric.metricId,
    p.value,
    p.value === null || total <= 0 ? null : p.value / total,
    { date: from },
    { date: to },
  ];

  if (all) {
    if (placed.length === 0)
      throw notAvailable(
        `no ${metric.metricId} breakdown for ${describePeriod(from, to, start, end)}`
      );
    // Largest first (no value last), as a breakdown reads; ties by id, so the order is the same every time.
    const sorted = [...placed].sort(
      (a, b) =>
        (b.value ?? -Infinity) - (a.value ?? -Infinity) ||
        (a.project.projectId < b.project.projectId ? -1 : 1)
    );
    return [HEADER, ...sorted.map(line)];
  }
  // Input order: each position its row, or the reason it has none.
  const lines: Cell[][] = [HEADER];
  for (const p of projects) {
    const reasonLine = (error: ErrorCell, id: string, name: string | null): Cell[] => [
      id,
      name,
      metric.metricId,
      error,
      null,
      { date: from },
      { date: to },
    ];
    if ("error" in p) {
      lines.push(reasonLine(p.error, p.text, null));
      continue;
    }
    const found = placed.find((x) => x.project.projectId === p.value.projectId);
    if (found) {
      lines.push(line(found));
      continue;
    }
    const why = await missingReason(ctx, p.value, metric.metricId, from, to, start, end);
    lines.push(reasonLine(why, p.value.projectId, p.value.name));
  }
  return lines;
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

/** Why the breakdown has no row for a listed project. */
async function missingReason(
  ctx: FnContext,
  project: Project,
  metricId: string,
  from: number,
  to: number,
  start: number | undefined,
  end: number | undefined
): Promise<ErrorCell> {
  const id = project.projectId;
  if (project.isArchived)
    return archivedCell(
      ctx,
      project,
      metricId,
      start === undefined && end === undefined
        ? "give start and end dates to read its history"
        : `no ${metricId} data in this period`
    );
  if ((await ctx.engine.published(id, undefined, metricId)) === false)
    return { error: "na", message: notAvailableIssue(id, metricId).message };
  return {
    error: "na",
    message: `no ${metricId} data for ${id} in ${describePeriod(from, to, start, end)}`,
  };
}
