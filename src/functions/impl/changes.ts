/**
 * CHANGES(projects, metrics, [since]): every restatement recorded for those projects and metrics since a day
 * (default: the last 30 days), newest first, as a table: Project, Metric, Day, Before, After, Seen.
 *
 * - What was recorded is what this computer saw (the saved cache's ledger, src/engine/ledger) and, when the
 *   data source is a team gateway, what the team's gateway saw (runtime/team-record.ts): each change once.
 * - A figure is one series of the service: a product's series names its product beside the project
 *   ("aave (product aave-v3)"), a series asked with options that change its answer names them beside the
 *   metric ("fees (chains=base)"), a breakdown member likewise ("fees (chain: base)").
 * - Before and After are numbers, blank for "no value" (a day the service sent without one, or no longer
 *   sent). Seen is the instant the change was seen, as text that vintage= takes as it is
 *   ("2026-11-24T09:30:12Z"): `vintage=`&F2 shows a figure as it was right then.
 * - Nothing recorded: the headers alone (a model referring to the table keeps working).
 */
import { formatDay } from "../../client";
import type { Change } from "../../engine";
import { optionalDate } from "../coerce";
import { idList } from "../coerce-lists";
import { vintageOf } from "../lineage";
import type { FnContext } from "../context";
import { invalid, notAvailable, type Cell, type Table } from "../result";
import { resolveMetrics, resolveProjects } from "./resolve";

/** What CHANGES looks back when no day is given: the last 30 days (the default). */
export const DEFAULT_CHANGES_DAYS = 30;

/** Rows one CHANGES shows at most: a table a person reads, not the whole ledger (the newest are kept). */
export const MAX_CHANGES_ROWS = 10_000;

export const CHANGES_HEADERS = ["Project", "Metric", "Day", "Before", "After", "Seen"] as const;

/**
 * "2026-11-24T09:30:12Z": the instant as vintage= reads it, rounded up to the whole second (vintageOf, as the
 * lineage writes it): at that instant the change had been seen, so vintage=<Seen> shows its After.
 */
export function seenText(at: number): string {
  return vintageOf(at);
}

function projectLabel(c: Change): string {
  return c.series.productId
    ? `${c.series.projectId} (product ${c.series.productId})`
    : c.series.projectId;
}

function metricLabel(c: Change): string {
  const notes = [
    ...(c.series.filter ? [c.series.filter] : []),
    ...(c.dim ? [`member ${c.dim}`] : []),
  ];
  return notes.length > 0 ? `${c.series.metricId} (${notes.join("; ")})` : c.series.metricId;
}

export function changesTable(changes: readonly Change[]): Table {
  const rows: Table = [[...CHANGES_HEADERS]];
  for (const c of changes.slice(0, MAX_CHANGES_ROWS)) {
    const row: Cell[] = [
      projectLabel(c),
      metricLabel(c),
      { date: c.day },
      c.before,
      c.after,
      seenText(c.seenAt),
    ];
    rows.push(row);
  }
  return rows;
}

export async function changes(
  ctx: FnContext,
  projectsArg: unknown,
  metricsArg: unknown,
  sinceArg: unknown
): Promise<Table> {
  const projectTexts = idList(projectsArg, "projects");
  const metricTexts = idList(metricsArg, "metrics");
  if (projectTexts.length === 0) throw invalid("projects is missing");
  if (metricTexts.length === 0) throw invalid("metrics is missing");
  const since = optionalDate(sinceArg, "since") ?? ctx.today - DEFAULT_CHANGES_DAYS;
  if (since > ctx.today)
    throw invalid(`since ${formatDay(since)} is after today; no change can be seen yet`);
  const [projects, metrics] = await Promise.all([
    resolveProjects(ctx, projectTexts),
    resolveMetrics(ctx, metricTexts),
  ]);
  // The list is the user's filter: one they mistyped would quietly show nothing.
  const projectIds = new Set<string>();
  const metricIds = new Set<string>();
  for (const r of projects) {
    if ("error" in r) throw notAvailable(r.error.message);
    projectIds.add(r.value.projectId);
  }
  for (const r of metrics) {
    if ("error" in r) throw notAvailable(r.error.message);
    metricIds.add(r.value.metricId);
  }
  const found = await ctx.runtime.restatementsSince(since * 86_400_000, {
    projects: projectIds,
    metrics: metricIds,
  });
  ctx.trace.requests.add(`${found.how} (${found.changes.length} recorded)`);
  return changesTable(found.changes);
}
