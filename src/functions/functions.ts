/**
 * The CRYPTO custom functions. Each export is thin: it hands Excel's arguments to its implementation through
 * the edge (edge.ts), which owns the shared runtime, cancellation, diagnostics and Excel errors. The JSDoc
 * below generates functions.json (custom-functions-metadata-plugin); every parameter is documented there.
 * Dates take a date cell, DATE(), TODAY() or text "YYYY-MM-DD". Options are "key=value" pairs separated by ";".
 */
import { run, runCached } from "./edge";
import { asOf, asOfNow, value, valueNow } from "./impl/value";

// VALUE and ASOF, the cells of every model, are in functions.js with the runtime, client and engine they share.
// Every other implementation is a chunk of its own, loaded from the add-in's origin the first time a workbook
// calls it: Excel loads functions.js for every workbook, and most use a few of these functions, or none.
const aggregatesChunk = () =>
  import(/* webpackChunkName: "fn-aggregations" */ "./impl/aggregations");
const catalogueChunk = () => import(/* webpackChunkName: "fn-catalogue" */ "./impl/catalogue");
const changesChunk = () => import(/* webpackChunkName: "fn-changes" */ "./impl/changes");
const compsChunk = () => import(/* webpackChunkName: "fn-comps" */ "./impl/comps");
const seriesChunk = () => import(/* webpackChunkName: "fn-series" */ "./impl/series");
const statementChunk = () => import(/* webpackChunkName: "fn-statement" */ "./impl/statement");

/**
 * One number: a project's metric on a date, or its latest value when the date is omitted.
 * @customfunction VALUE
 * @helpurl https://localhost:3000/help.html#value
 * @param project Project id, token symbol or name, e.g. "aave".
 * @param metric Metric id, e.g. "revenue".
 * @param [date] The day (a date or "YYYY-MM-DD"); omitted: the latest available value.
 * @param [options] e.g. "window=ttm" (trailing twelve months; 30d, 3m, ytd, qtd, mtd), "period=quarter" (the complete quarter holding the date), "period=quarter; values=yoy" (growth), "partial=include", "maxage=7d", "fill=zero", "chains=base", "bridged=false", "agg=avg".
 * @param invocation Invocation object.
 * @returns The metric's value.
 * @requiresAddress
 * @cancelable
 */
export function value_(
  project: any,
  metric: any,
  date: any,
  options: any,
  invocation: CustomFunctions.CancelableInvocation
): unknown {
  // A value when the cache answers (a warm workbook), else a promise: Excel takes either.
  return runCached(
    "VALUE",
    invocation,
    { project, metric, date, options },
    (ctx) => valueNow(ctx, project, metric, date, options),
    (ctx) => value(ctx, project, metric, date, options)
  );
}

/**
 * The date of the value VALUE returns with the same arguments: the latest value's day, or the last day a period's figure covers.
 * @customfunction ASOF
 * @helpurl https://localhost:3000/help.html#asof
 * @param project Project id, token symbol or name, e.g. "aave".
 * @param metric Metric id, e.g. "tvl".
 * @param [date] The day (a date or "YYYY-MM-DD"); omitted: the latest available value.
 * @param [options] The same options as VALUE, e.g. "period=quarter".
 * @param invocation Invocation object.
 * @returns A date.
 * @requiresAddress
 * @cancelable
 */
export function asof_(
  project: any,
  metric: any,
  date: any,
  options: any,
  invocation: CustomFunctions.CancelableInvocation
): unknown {
  // As VALUE: a value when the cache answers, else a promise.
  return runCached(
    "ASOF",
    invocation,
    { project, metric, date, options },
    (ctx) => asOfNow(ctx, project, metric, date, options),
    (ctx) => asOf(ctx, project, metric, date, options)
  );
}

/**
 * A comps panel: one row per project, one column per metric, trailing window or ratio, planned as one batch.
 * @customfunction COMPS
 * @helpurl https://localhost:3000/help.html#comps
 * @param projects Project ids, symbols or names: a comma list or a range, one row each in that order.
 * @param columns Comma list or range of columns: "revenue", "fees:30d", "revenue:ttm", "market_cap_fully_diluted/revenue:ttm".
 * @param [date] The day the figures end on (a date or "YYYY-MM-DD"); omitted: each figure's latest.
 * @param [options] e.g. "headers=0" (numbers only), "headers=2" (adds project ids), "asof=1" (each row's day), "maxage=7d", "fill=previous,zero" (per kind of metric), "partial=include", "chains=base".
 * @param invocation Invocation object.
 * @returns The panel: a header row of column labels and a first column of project names.
 * @requiresAddress
 * @cancelable
 */
export async function comps_(
  projects: any[][],
  columns: any[][],
  date: any,
  options: any,
  invocation: CustomFunctions.CancelableInvocation
): Promise<any[][]> {
  return run("COMPS", invocation, { projects, columns, date, options }, (ctx) =>
    compsChunk().then((m) => m.comps(ctx, projects, columns, date, options))
  ) as Promise<any[][]>;
}

/**
 * A time series table: a Date column, then one column per metric of one project, or per project of one metric.
 * @customfunction METRIC
 * @helpurl https://localhost:3000/help.html#metric
 * @param project Project id, symbol or name; a comma list or a range of them (with one metric).
 * @param metric Metric id; a comma list or a range of them (with one project).
 * @param [start] First day; omitted: from launch.
 * @param [end] Last day; omitted: to the latest data.
 * @param [options] e.g. "order=desc; headers=2; period=month; partial=include; agg=sum; fill=zero; breakdown=chain; chains=base,arbitrum".
 * @param invocation Invocation object.
 * @returns The series, oldest first by default.
 * @requiresAddress
 * @cancelable
 */
export async function metric_(
  project: any[][],
  metric: any[][],
  start: any,
  end: any,
  options: any,
  invocation: CustomFunctions.CancelableInvocation
): Promise<any[][]> {
  return run("METRIC", invocation, { project, metric, start, end, options }, (ctx) =>
    seriesChunk().then((m) => m.metric(ctx, project, metric, start, end, options))
  ) as Promise<any[][]>;
}

/**
 * The financial statement: Section, Metric, then one column per period (oldest left by default).
 * @customfunction STATEMENT
 * @helpurl https://localhost:3000/help.html#statement
 * @param project Project id, symbol or name.
 * @param [granularity] year, quarter (default), month or week.
 * @param [interval] 1m, 1y (default), 2y, 3y, 5y or max.
 * @param [options] e.g. "order=desc", "layout=long", "values=pop" (period-on-period change), "values=coverage" (days with data), "headers=2" (adds date ranges), "partial=include", "rows=service", "vintage=2026-11-20" (as known then).
 * @param invocation Invocation object.
 * @returns The statement table.
 * @requiresAddress
 */
export async function statement_(
  project: any,
  granularity: any,
  interval: any,
  options: any,
  invocation: CustomFunctions.Invocation
): Promise<any[][]> {
  return run("STATEMENT", invocation, { project, granularity, interval, options }, (ctx) =>
    statementChunk().then((m) => m.statement(ctx, project, granularity, interval, options))
  ) as Promise<any[][]>;
}

/**
 * The project catalogue: name, projectid, symbol, is_archived, reasons, products.
 * @customfunction PROJECTS
 * @helpurl https://localhost:3000/help.html#projects
 * @param [options] e.g. "sectors=lending,exchanges" or "headers=0".
 * @param invocation Invocation object.
 * @returns One row per project.
 * @requiresAddress
 */
export async function projects_(
  options: any,
  invocation: CustomFunctions.Invocation
): Promise<any[][]> {
  return run("PROJECTS", invocation, { options }, (ctx) =>
    catalogueChunk().then((m) => m.projects(ctx, options))
  ) as Promise<any[][]>;
}

/**
 * A project as a data type: its card (profile, latest figures, TTM, P/S, four quarters; =A1.Revenue reads a field), or one field of its detail. Excel without data types gets a field/value table.
 * @customfunction PROJECT
 * @helpurl https://localhost:3000/help.html#project
 * @param project Project id, symbol or name (or a card).
 * @param [field] e.g. "chains", "market_sectors", "description.what", "definition.revenue"; omitted: the card.
 * @param invocation Invocation object.
 * @returns The project's card, or the field's value.
 * @requiresAddress
 */
export async function project_(
  project: any,
  field: any,
  invocation: CustomFunctions.Invocation
): Promise<any[][]> {
  return run("PROJECT", invocation, { project, field }, (ctx) =>
    catalogueChunk().then((m) => m.project(ctx, project, field))
  ) as Promise<any[][]>;
}

/**
 * One field of a product's detail, or all its fields as a field/value table.
 * @customfunction PRODUCT
 * @helpurl https://localhost:3000/help.html#product
 * @param project Project id, symbol or name.
 * @param product Product id or name.
 * @param [field] e.g. "chains"; omitted: every field.
 * @param invocation Invocation object.
 * @returns The field's value, or the field/value table.
 * @requiresAddress
 */
export async function product_(
  project: any,
  product: any,
  field: any,
  invocation: CustomFunctions.Invocation
): Promise<any[][]> {
  return run("PRODUCT", invocation, { project, product, field }, (ctx) =>
    catalogueChunk().then((m) => m.product(ctx, project, product, field))
  ) as Promise<any[][]>;
}

/**
 * A product's time series: a Date column, then one column per metric.
 * @customfunction PRODUCT_METRIC
 * @helpurl https://localhost:3000/help.html#product_metric
 * @param project Project id, symbol or name.
 * @param product Product id or name.
 * @param metric Metric id; a comma list or a range of them.
 * @param [start] First day; omitted: from the earliest data.
 * @param [end] Last day; omitted: to the latest data.
 * @param [options] e.g. "order=desc; period=month; breakdown=chain".
 * @param invocation Invocation object.
 * @returns The series, oldest first by default.
 * @requiresAddress
 * @cancelable
 */
export async function product_metric_(
  project: any,
  product: any,
  metric: any[][],
  start: any,
  end: any,
  options: any,
  invocation: CustomFunctions.CancelableInvocation
): Promise<any[][]> {
  return run(
    "PRODUCT_METRIC",
    invocation,
    { project, product, metric, start, end, options },
    (ctx) =>
      seriesChunk().then((m) => m.productMetric(ctx, project, product, metric, start, end, options))
  ) as Promise<any[][]>;
}

/**
 * The metric catalogue (metric_id, metric_name, description); with a project, the metrics available for it.
 * @customfunction METRICS
 * @helpurl https://localhost:3000/help.html#metrics
 * @param [project] Project id, symbol or name.
 * @param invocation Invocation object.
 * @returns One row per metric.
 * @requiresAddress
 */
export async function metrics_(
  project: any,
  invocation: CustomFunctions.Invocation
): Promise<any[][]> {
  return run("METRICS", invocation, { project }, (ctx) =>
    catalogueChunk().then((m) => m.metrics(ctx, project))
  ) as Promise<any[][]>;
}

/**
 * The market sectors (id, name).
 * @customfunction SECTORS
 * @helpurl https://localhost:3000/help.html#sectors
 * @param invocation Invocation object.
 * @returns One row per sector.
 * @requiresAddress
 */
export async function sectors_(invocation: CustomFunctions.Invocation): Promise<any[][]> {
  return run("SECTORS", invocation, {}, (ctx) =>
    catalogueChunk().then((m) => m.sectors(ctx))
  ) as Promise<any[][]>;
}

/**
 * The projects of one market sector (projectid, name).
 * @customfunction SECTOR
 * @helpurl https://localhost:3000/help.html#sector
 * @param sector Sector id or name, e.g. "lending".
 * @param invocation Invocation object.
 * @returns One row per project.
 * @requiresAddress
 */
export async function sector_(
  sector: any,
  invocation: CustomFunctions.Invocation
): Promise<any[][]> {
  return run("SECTOR", invocation, { sector }, (ctx) =>
    catalogueChunk().then((m) => m.sector(ctx, sector))
  ) as Promise<any[][]>;
}

/**
 * One aggregated number computed by the service, e.g. sum_30d, avg_7d, change_30d, latest, ath.
 * @customfunction AGGREGATION
 * @helpurl https://localhost:3000/help.html#aggregation
 * @param project Project id, symbol or name.
 * @param metric Metric id.
 * @param name Aggregation name, e.g. "sum_30d".
 * @param [options] "vintage=2026-11-20": as known at the end of that day, rebuilt from the days known then.
 * @param invocation Invocation object.
 * @returns The aggregated value.
 * @requiresAddress
 */
export async function aggregation_(
  project: any,
  metric: any,
  name: any,
  options: any,
  invocation: CustomFunctions.Invocation
): Promise<any> {
  return run("AGGREGATION", invocation, { project, metric, name, options }, (ctx) =>
    aggregatesChunk().then((m) => m.aggregation(ctx, project, metric, name, options))
  );
}

/**
 * The service's aggregations for projects and metrics, as a table.
 * @customfunction AGGREGATIONS
 * @helpurl https://localhost:3000/help.html#aggregations
 * @param [projects] Project ids (comma list or range); omitted: all projects.
 * @param [metrics] Metric ids (comma list or range); omitted: all metrics.
 * @param [options] "vintage=2026-11-20": as known at the end of that day, rebuilt from the days known then.
 * @param invocation Invocation object.
 * @returns One row per project, metric and aggregation.
 * @requiresAddress
 */
export async function aggregations_(
  projects: any[][],
  metrics: any[][],
  options: any,
  invocation: CustomFunctions.Invocation
): Promise<any[][]> {
  return run("AGGREGATIONS", invocation, { projects, metrics, options }, (ctx) =>
    aggregatesChunk().then((m) => m.aggregations(ctx, projects, metrics, options))
  ) as Promise<any[][]>;
}

/**
 * A metric summarised per project over a period, with each one's share (VALUE's figures of the period).
 * @customfunction BREAKDOWN
 * @helpurl https://localhost:3000/help.html#breakdown
 * @param metric Metric id.
 * @param [projects] Project ids (comma list or range); omitted: all projects.
 * @param [start] First day.
 * @param [end] Last day.
 * @param [options] e.g. "partial=include; agg=sum; fill=zero; bridged=false".
 * @param invocation Invocation object.
 * @returns One row per project.
 * @requiresAddress
 */
export async function breakdown_(
  metric: any,
  projects: any[][],
  start: any,
  end: any,
  options: any,
  invocation: CustomFunctions.Invocation
): Promise<any[][]> {
  return run("BREAKDOWN", invocation, { metric, projects, start, end, options }, (ctx) =>
    aggregatesChunk().then((m) => m.breakdown(ctx, metric, projects, start, end, options))
  ) as Promise<any[][]>;
}

/**
 * Every restatement recorded for projects and metrics since a day, newest first: Project, Metric, Day, Before, After, Seen (what this computer, or the team's gateway, saw the service change after it had sent it).
 * @customfunction CHANGES
 * @helpurl https://localhost:3000/help.html#changes
 * @param projects Project ids, symbols or names (comma list or range).
 * @param metrics Metric ids (comma list or range).
 * @param [since] The first day (a date or "YYYY-MM-DD"); omitted: the last 30 days.
 * @param invocation Invocation object.
 * @returns One row per change; the headers alone when none was recorded.
 * @requiresAddress
 */
export async function changes_(
  projects: any[][],
  metrics: any[][],
  since: any,
  invocation: CustomFunctions.Invocation
): Promise<any[][]> {
  return run("CHANGES", invocation, { projects, metrics, since }, (ctx) =>
    changesChunk().then((m) => m.changes(ctx, projects, metrics, since))
  ) as Promise<any[][]>;
}
