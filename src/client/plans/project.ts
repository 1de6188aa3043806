/**
 * Plans of the per-project series operations: project metrics (§4.3), aggregations (§4.4), financial
 * statement (§4.5), product metrics (§4.7) and v1's project metrics (§9).
 */
import type { Planner } from "../call";
import {
  fillRequestedMetrics,
  mergePartialErrors,
  mergeWideRows,
  sortProductMetricRows,
  sortProjectMetricRows,
  sortStatementRows,
} from "../data/merge";
import {
  normaliseOpenRows,
  normalisePartialErrors,
  normaliseProductMetricRows,
  normaliseProjectAggregations,
  normaliseProjectMetricRows,
  normaliseStatementRows,
} from "../data/normalise-series";
import {
  RepeatCounter,
  distinctAggregationRows,
  distinctProductRows,
  distinctStatementRows,
  distinctWideRows,
} from "../data/distinct";
import { Notes, withoutFuture } from "../data/notes";
import { addDays } from "../data/days";

/** The longest statement period (a year with its leap day): how far ahead a period's last day may be. */
const STATEMENT_PERIOD_DAYS = 366;
import { datesOf, filtersOf, pathOf, queryOf, type PlanTools, type Query } from "./plan";
import {
  AGGREGATE_BY,
  ORDER_DIRECTIONS,
  STATEMENT_INTERVALS,
  TIMESTAMP_GRANULARITIES,
  type FinancialStatementParams,
  type FinancialStatementRow,
  type OpenRow,
  type ProductMetricRow,
  type ProductMetricsParams,
  type ProjectMetricAggregation,
  type ProjectMetricRow,
  type ProjectMetricsParams,
  type V1ProjectMetricsParams,
} from "../data/types";

export const getProjectMetricsPlan =
  (t: PlanTools, projectId: unknown, params?: ProjectMetricsParams): Planner<ProjectMetricRow[]> =>
  (check) => {
    const id = check.pathId("projectId", projectId);
    const p = params ?? {};
    const metricIds = check.ids("metricIds", p.metricIds);
    const filters = filtersOf(check, p);
    const aggregateBy = check.oneOf("aggregateBy", p.aggregateBy, AGGREGATE_BY);
    const dates = datesOf(check, "getProjectMetrics", p);
    const direction = check.oneOf("orderDirection", p.orderDirection, ORDER_DIRECTIONS);
    const assetsBridged = check.bool("assetsBridged", p.assetsBridged);
    const query = (chunk: readonly string[] | undefined): Query =>
      queryOf("getProjectMetrics", {
        metric_ids: chunk,
        ...filters,
        aggregate_by: aggregateBy,
        ...dates,
        order_direction: direction,
        assets_bridged: assetsBridged,
      });
    const segments = pathOf("getProjectMetrics", id);
    return {
      ids: [id],
      requests: t.split(check, [id], segments, "metricIds", metricIds, query),
      combine: (envelopes) => {
        const errors = mergePartialErrors(envelopes.map((e) => normalisePartialErrors(e.errors)));
        const repeats = new RepeatCounter();
        const notes = new Notes();
        const latest = t.latestDay();
        const rows = mergeWideRows(
          envelopes.map((e) =>
            distinctWideRows(
              withoutFuture(normaliseProjectMetricRows(e.data, id), latest, notes),
              repeats
            )
          )
        );
        const filled = fillRequestedMetrics(rows, metricIds, errors);
        return {
          data: sortProjectMetricRows(filled, direction ?? "desc"),
          errors,
          repeats: repeats.note(),
          notes: notes.list(),
        };
      },
    };
  };

export const getProjectMetricAggregationsPlan =
  (t: PlanTools, projectId: unknown): Planner<ProjectMetricAggregation[]> =>
  (check) => {
    const id = check.pathId("projectId", projectId);
    const repeats = new RepeatCounter();
    const plan = t.one([id], pathOf("getProjectMetricAggregations", id), [], (data) =>
      distinctAggregationRows(normaliseProjectAggregations(data, id), repeats)
    );
    return { ...plan, combine: (e) => ({ ...plan.combine(e), repeats: repeats.note() }) };
  };

export const getFinancialStatementPlan =
  (
    t: PlanTools,
    projectId: unknown,
    params?: FinancialStatementParams
  ): Planner<FinancialStatementRow[]> =>
  (check) => {
    const id = check.pathId("projectId", projectId);
    const p = params ?? {};
    const query = queryOf("getFinancialStatement", {
      timestamp_granularity: check.oneOf(
        "timestampGranularity",
        p.timestampGranularity,
        TIMESTAMP_GRANULARITIES
      ),
      interval: check.oneOf("interval", p.interval, STATEMENT_INTERVALS),
    });
    const repeats = new RepeatCounter();
    // A statement may date a period by its last day (§2.7 does not say which), so the period still
    // running is dated up to a year ahead: only a row dated later than that is ignored, as a future daily
    // row is.
    const latest = addDays(t.latestDay(), STATEMENT_PERIOD_DAYS);
    const plan = t.one([id], pathOf("getFinancialStatement", id), query, (data, notes) =>
      sortStatementRows(
        distinctStatementRows(withoutFuture(normaliseStatementRows(data), latest, notes), repeats)
      )
    );
    return { ...plan, combine: (e) => ({ ...plan.combine(e), repeats: repeats.note() }) };
  };

export const getProductMetricsPlan =
  (
    t: PlanTools,
    projectId: unknown,
    productId: unknown,
    params?: ProductMetricsParams
  ): Planner<ProductMetricRow[]> =>
  (check) => {
    const id = check.pathId("projectId", projectId);
    const product = check.pathId("productId", productId);
    const p = params ?? {};
    const metricIds = check.ids("metricIds", p.metricIds);
    const chainIds = check.ids("chainIds", p.chainIds);
    const dates = datesOf(check, "getProductMetrics", p);
    const aggregateBy = check.oneOf("aggregateBy", p.aggregateBy, AGGREGATE_BY);
    const direction = check.oneOf("orderDirection", p.orderDirection, ORDER_DIRECTIONS);
    const assetsBridged = check.bool("assetsBridged", p.assetsBridged);
    const query = (chunk: readonly string[] | undefined): Query =>
      queryOf("getProductMetrics", {
        metric_ids: chunk,
        chain_ids: chainIds,
        ...dates,
        aggregate_by: aggregateBy,
        order_direction: direction,
        assets_bridged: assetsBridged,
      });
    const segments = pathOf("getProductMetrics", id, product);
    return {
      ids: [id, product],
      requests: t.split(check, [id, product], segments, "metricIds", metricIds, query),
      combine: (envelopes) => {
        const repeats = new RepeatCounter();
        const notes = new Notes();
        const latest = t.latestDay();
        const merged = t.concat(envelopes, (data) =>
          distinctProductRows(
            withoutFuture(normaliseProductMetricRows(data), latest, notes),
            repeats
          )
        );
        const data = sortProductMetricRows(merged.data, direction ?? "desc", metricIds);
        return { data, errors: merged.errors, repeats: repeats.note(), notes: notes.list() };
      },
    };
  };

export const v1GetProjectMetricsPlan =
  (t: PlanTools, projectId: unknown, params?: V1ProjectMetricsParams): Planner<OpenRow[]> =>
  (check) => {
    const id = check.pathId("projectId", projectId);
    const p = params ?? {};
    const query = queryOf("v1GetProjectMetrics", {
      interval: check.token("interval", p.interval),
      data_granularity: check.token("dataGranularity", p.dataGranularity),
    });
    // §9 shows no shape for v1: a bare list and a {data} object are both read.
    return t.one([id], pathOf("v1GetProjectMetrics", id), query, normaliseOpenRows, true);
  };
