/**
 * Plans of the per-project daily series: project metrics (§4.3) and product metrics (§4.7). A project's
 * aggregations and statement are summaries.ts's, v1's project metrics v1.ts's.
 */
import type { Planner } from "../call";
import {
  fillRequestedMetrics,
  mergePartialErrors,
  mergeWideRows,
  sortProductMetricRows,
  sortProjectMetricRows,
} from "../data/merge";
import {
  normalisePartialErrors,
  normaliseProductMetricRows,
  normaliseProjectMetricRows,
} from "../data/normalise-series";
import { RepeatCounter, distinctProductRows, distinctWideRows } from "../data/distinct";
import { Notes, withoutFuture } from "../data/notes";

import { datesOf, filtersOf, pathOf, queryOf, type PlanTools, type Query } from "./plan";
import {
  AGGREGATE_BY,
  ORDER_DIRECTIONS,
  type ProductMetricRow,
  type ProductMetricsParams,
  type ProjectMetricRow,
  type ProjectMetricsParams,
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
