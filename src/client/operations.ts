/**
 * One method per operation of the interface. Each validates its inputs (no request on a mistake),
 * plans its request(s) (splitting long id lists), and normalises and merges what comes back; the
 * runner does the rest (key, limiter, retries, deadline, events).
 */
import type { Runner } from "./call";
import { planTools } from "./plans/plan";
import {
  getProductPlan,
  getProjectPlan,
  listMetricsPlan,
  listProjectsPlan,
} from "./plans/catalogue";
import { getMetricPlan } from "./plans/metric";
import { getProductMetricsPlan, getProjectMetricsPlan } from "./plans/project";
import type { Planner } from "./call";
import type { ClientLimits } from "./policy";
import type {
  CallOptions,
  ClientResult,
  FinancialStatementParams,
  FinancialStatementRow,
  MarketSector,
  MarketSectorDetail,
  Metric,
  MetricAggregationRow,
  MetricAggregationsParams,
  MetricParams,
  MetricsBreakdownParams,
  MetricsBreakdownRow,
  MultiProjectMetricRow,
  OpenRow,
  ProductDetail,
  ProductMetricRow,
  ProductMetricsParams,
  Project,
  ProjectDetail,
  ProjectMetricAggregation,
  ProjectMetricRow,
  ProjectMetricsParams,
  V1ProjectMetricsParams,
} from "./data/types";

type R<T> = Promise<ClientResult<T>>;

/** Every method accepts an optional last `{ signal }` to cancel it. */
export interface Operations {
  /** §4.1 All projects. */
  listProjects(options?: CallOptions): R<Project[]>;
  /** §4.2 One project's detail. */
  getProject(projectId: string, options?: CallOptions): R<ProjectDetail>;
  /**
   * §4.3 A project's metrics per date: wide rows (one value per metric), sorted by date as asked
   * (default newest first). Long metricIds lists are split over several requests and merged.
   */
  getProjectMetrics(
    projectId: string,
    params?: ProjectMetricsParams,
    options?: CallOptions
  ): R<ProjectMetricRow[]>;
  /** §4.4 A project's metric aggregations (sum_30d, latest, ...). */
  getProjectMetricAggregations(
    projectId: string,
    options?: CallOptions
  ): R<ProjectMetricAggregation[]>;
  /** §4.5 Financial statement rows, oldest period first, statement order within a period. */
  getFinancialStatement(
    projectId: string,
    params?: FinancialStatementParams,
    options?: CallOptions
  ): R<FinancialStatementRow[]>;
  /** §4.6 One product of a project. */
  getProduct(projectId: string, productId: string, options?: CallOptions): R<ProductDetail>;
  /** §4.7 A product's metrics per date: long rows sorted by date, then metric order asked. */
  getProductMetrics(
    projectId: string,
    productId: string,
    params?: ProductMetricsParams,
    options?: CallOptions
  ): R<ProductMetricRow[]>;
  /** §4.8 All market sectors. */
  listMarketSectors(options?: CallOptions): R<MarketSector[]>;
  /** §4.9 One market sector with its projects. */
  getMarketSector(marketSectorId: string, options?: CallOptions): R<MarketSectorDetail>;
  /** §4.10 All metrics. */
  listMetrics(options?: CallOptions): R<Metric[]>;
  /**
   * §4.11 One metric across projects: long rows sorted by date (orderDirection, applied by the
   * client, default newest first), then in the order of projectIds. Long lists are split and merged.
   */
  getMetric(
    metricId: string,
    params?: MetricParams,
    options?: CallOptions
  ): R<MultiProjectMetricRow[]>;
  /**
   * §4.12 Aggregations across projects; open row shape. Omitted projectIds are sent as "all" (the
   * interface declares the parameter required). Long projectIds lists are split and merged.
   */
  getMetricAggregations(
    params?: MetricAggregationsParams,
    options?: CallOptions
  ): R<MetricAggregationRow[]>;
  /**
   * §4.13 Summarised metric per project; open row shape. Dates are sent as start_date/end_date, the
   * names of the interface's usage example. When projectIds is split over several requests, a share
   * member is relative to the projects of its own request.
   */
  getMetricsBreakdown(
    metricId: string,
    params?: MetricsBreakdownParams,
    options?: CallOptions
  ): R<MetricsBreakdownRow[]>;
  /** @deprecated v1 (§9) is announced deprecated since 2022-08-01: use listProjects(). */
  v1ListProjects(options?: CallOptions): R<OpenRow[]>;
  /** @deprecated v1 (§9) is announced deprecated since 2022-08-01: use getProjectMetrics(). */
  v1GetProjectMetrics(
    projectId: string,
    params?: V1ProjectMetricsParams,
    options?: CallOptions
  ): R<OpenRow[]>;
}

export function operations(
  base: URL,
  limits: ClientLimits,
  run: Runner,
  now: () => number = Date.now
): Operations {
  const t = planTools(base, limits, now);
  const s = (options?: CallOptions): AbortSignal | undefined => options?.signal;
  // Ids for messages before validation: whatever the caller passed, shown as text.
  const ids = (...values: unknown[]): string[] => values.map((v) => String(v));
  // The summaries (§1 rule 4), the market sectors and v1 are planned by modules loaded with the first of
  // them: a session of daily figures sends none, and on the Excel page their plans, normalisers and repeat
  // rules are a chunk of their own rather than part of functions.js. Everything else about a call is the same.
  const summaries = () => import(/* webpackChunkName: "client-occasional" */ "./plans/summaries");
  const sectors = () => import(/* webpackChunkName: "client-occasional" */ "./plans/sectors");
  const v1 = () => import(/* webpackChunkName: "client-occasional" */ "./plans/v1");
  const later = <M, T>(
    load: () => Promise<M>,
    name: Parameters<Runner>[0],
    callIds: string[],
    plan: (plans: M) => Planner<T>,
    signal: AbortSignal | undefined
  ): R<T> => load().then((plans) => run(name, callIds, plan(plans), signal));
  return {
    listProjects: (o) => run("listProjects", [], listProjectsPlan(t), s(o)),
    getProject: (id, o) => run("getProject", ids(id), getProjectPlan(t, id), s(o)),
    getProjectMetrics: (id, params, o) =>
      run("getProjectMetrics", ids(id), getProjectMetricsPlan(t, id, params), s(o)),
    getProjectMetricAggregations: (id, o) =>
      later(
        summaries,
        "getProjectMetricAggregations",
        ids(id),
        (p) => p.getProjectMetricAggregationsPlan(t, id),
        s(o)
      ),
    getFinancialStatement: (id, params, o) =>
      later(
        summaries,
        "getFinancialStatement",
        ids(id),
        (p) => p.getFinancialStatementPlan(t, id, params),
        s(o)
      ),
    getProduct: (id, product, o) =>
      run("getProduct", ids(id, product), getProductPlan(t, id, product), s(o)),
    getProductMetrics: (id, product, params, o) =>
      run(
        "getProductMetrics",
        ids(id, product),
        getProductMetricsPlan(t, id, product, params),
        s(o)
      ),
    listMarketSectors: (o) =>
      later(sectors, "listMarketSectors", [], (p) => p.listMarketSectorsPlan(t), s(o)),
    getMarketSector: (id, o) =>
      later(sectors, "getMarketSector", ids(id), (p) => p.getMarketSectorPlan(t, id), s(o)),
    listMetrics: (o) => run("listMetrics", [], listMetricsPlan(t), s(o)),
    getMetric: (id, params, o) => run("getMetric", ids(id), getMetricPlan(t, id, params), s(o)),
    getMetricAggregations: (params, o) =>
      later(
        summaries,
        "getMetricAggregations",
        [],
        (p) => p.getMetricAggregationsPlan(t, params),
        s(o)
      ),
    getMetricsBreakdown: (id, params, o) =>
      later(
        summaries,
        "getMetricsBreakdown",
        ids(id),
        (p) => p.getMetricsBreakdownPlan(t, id, params),
        s(o)
      ),
    v1ListProjects: (o) => later(v1, "v1ListProjects", [], (p) => p.v1ListProjectsPlan(t), s(o)),
    v1GetProjectMetrics: (id, params, o) =>
      later(
        v1,
        "v1GetProjectMetrics",
        ids(id),
        (p) => p.v1GetProjectMetricsPlan(t, id, params),
        s(o)
      ),
  };
}
