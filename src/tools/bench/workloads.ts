/**
 * The workbooks the bench refreshes, as plain cell lists: what each cell's formula asks, independent of how
 * it is evaluated (through the custom functions, or by the naive per-cell baseline). Sizes are parameters so
 * the tests can run small versions of the same sheets; the defaults are the sizes the README's performance table reports.
 */
import { addDays } from "../../client";
import { createDataset } from "../../simulator";

/** The dataset's "today" in every run, so every run sees the same numbers. */
export const BENCH_TODAY = "2026-11-20";
/** Noon of BENCH_TODAY: far from the cache's daily-update instant (midnight UTC). */
export const BENCH_NOW = Date.UTC(2026, 10, 20, 12);
/** The model's date: a quarter end, every live project has data then. */
export const MODEL_DATE = "2026-09-30";

/**
 * The 20 metrics most of the demo projects have (each by 36 to 46 of 46 projects), in the catalogue's
 * spirit: flows, levels, users, token and developer figures. Missing pairs show #N/A, as on a real sheet.
 */
export const MODEL_METRICS: readonly string[] = [
  "fees",
  "revenue",
  "earnings",
  "expenses",
  "fees_supply_side",
  "token_incentives",
  "transaction_count",
  "user_dau",
  "user_mau",
  "tvl",
  "price",
  "market_cap_circulating",
  "market_cap_fully_diluted",
  "token_supply_circulating",
  "token_trading_volume",
  "pf_fully_diluted",
  "ps_fully_diluted",
  "tokenholders",
  "code_commits",
  "active_developers",
];

export type BenchCell =
  | { fn: "VALUE"; project: string; metric: string; date: string }
  | { fn: "METRIC"; project: string; metric: string; start: string; end: string }
  | { fn: "STATEMENT"; project: string };

const dataset = createDataset(BENCH_TODAY);

/**
 * The large model's universe: the demo's 46 projects and synthetic ones up to 500 (the simulator's
 * `--projects 500`), as a fund's coverage list is.
 */
export const LARGE_UNIVERSE = 500;

let largeIds: string[] | undefined;

/** The first `count` project ids of the large universe (demo projects first). */
export function largeProjects(count = LARGE_UNIVERSE): string[] {
  largeIds ??= createDataset(BENCH_TODAY, { projects: LARGE_UNIVERSE }).projects.map((p) => p.id);
  if (count > largeIds.length)
    throw new RangeError(`the large universe has ${largeIds.length} projects, ${count} asked`);
  return largeIds.slice(0, count);
}

/**
 * One project id per sheet row. The demo dataset has 51 projects; a sheet of more rows repeats the first
 * ones (a "top projects" block under the full list), as models do. Distinct ids: min(rows, 51).
 */
export function sheetProjects(rows: number): string[] {
  const ids = dataset.projects.map((p) => p.id);
  return Array.from({ length: rows }, (_, i) => ids[i % ids.length]);
}

/** Live (not archived) projects, for sheets where every cell should have data. */
export function liveProjects(count: number): string[] {
  const live = dataset.projects.filter((p) => !p.isArchived).map((p) => p.id);
  if (count > live.length)
    throw new RangeError(`only ${live.length} live projects, ${count} asked`);
  return live.slice(0, count);
}

export function distinctProjectCount(rows: number): number {
  return new Set(sheetProjects(rows)).size;
}

/** Model sheet: rows × metrics VALUE cells on one date (default 50 × 20 = 1,000). */
export function modelSheet(
  rows = 50,
  metrics: readonly string[] = MODEL_METRICS,
  date = MODEL_DATE
): BenchCell[] {
  return sheetProjects(rows).flatMap((project) =>
    metrics.map((metric): BenchCell => ({ fn: "VALUE", project, metric, date }))
  );
}

/** Large model: every project of the large universe × metrics on one date (default 500 × 20 = 10,000). */
export function largeModelSheet(
  projects = LARGE_UNIVERSE,
  metrics: readonly string[] = MODEL_METRICS,
  date = MODEL_DATE
): BenchCell[] {
  return largeProjects(projects).flatMap((project) =>
    metrics.map((metric): BenchCell => ({ fn: "VALUE", project, metric, date }))
  );
}

/** History sheet: one METRIC cell per row, one metric over one year, daily (default 50 cells). */
export function historySheet(rows = 50, metric = "fees", end = MODEL_DATE): BenchCell[] {
  const start = addDays(end, -364);
  return sheetProjects(rows).map((project) => ({ fn: "METRIC", project, metric, start, end }));
}

/** Overlapping ranges: one project and metric on consecutive days (default 365 VALUE cells). */
export function overlappingRanges(
  days = 365,
  project = "aave",
  metric = "fees",
  last = MODEL_DATE
): BenchCell[] {
  return Array.from({ length: days }, (_, i) => ({
    fn: "VALUE",
    project,
    metric,
    date: addDays(last, i - days + 1),
  }));
}

/** Statements: one STATEMENT cell per project, default granularity and interval (default 20). */
export function statementsSheet(count = 20): BenchCell[] {
  return liveProjects(count).map((project) => ({ fn: "STATEMENT", project }));
}

/** Hot path: the model sheet on consecutive days (default 50 × 20 × 10 = 10,000 VALUE cells). */
export function hotPathSheet(
  rows = 50,
  metrics: readonly string[] = MODEL_METRICS,
  days = 10,
  last = MODEL_DATE
): BenchCell[] {
  return Array.from({ length: days }, (_, i) =>
    modelSheet(rows, metrics, addDays(last, i - days + 1))
  ).flat();
}
