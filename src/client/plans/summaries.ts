/**
 * Plans of the summaries (§1 rule 4): a project's aggregations (§4.4), its financial statement (§4.5), metric
 * aggregations across projects (§4.12) and the metrics breakdown (§4.13). Loaded with the first of them
 * (operations.ts): a workbook of daily figures never sends one.
 */
import type { Planner } from "../call";
import { sortStatementRows } from "../data/merge";
import {
  normaliseBreakdownRows,
  normaliseMetricAggregationRows,
  normaliseProjectAggregations,
  normaliseStatementRows,
} from "../data/normalise-summaries";
import { RepeatCounter } from "../data/distinct";
import { distinctAggregationRows, distinctStatementRows } from "../data/distinct-summaries";
import { withoutFuture } from "../data/notes";
import { addDays } from "../data/days";
import { datesOf, pathOf, queryOf, type PlanTools } from "./plan";
import { splitByProjects } from "./metric";
import {
  STATEMENT_INTERVALS,
  TIMESTAMP_GRANULARITIES,
  type FinancialStatementParams,
  type FinancialStatementRow,
  type MetricAggregationRow,
  type MetricAggregationsParams,
  type MetricsBreakdownParams,
  type MetricsBreakdownRow,
  type ProjectMetricAggregation,
} from "../data/types";

/** The longest statement period (a year with its leap day): how far ahead a period's last day may be. */
const STATEMENT_PERIOD_DAYS = 366;

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

export const getMetricAggregationsPlan =
  (t: PlanTools, params?: MetricAggregationsParams): Planner<MetricAggregationRow[]> =>
  (check) => {
    const p = params ?? {};
    // Declared required, described optional (§4.12): "all" satisfies both readings.
    const projects = check.selection("projectIds", p.projectIds) ?? "all";
    const metrics = check.selection("metricIds", p.metricIds);
    return {
      ids: [],
      requests: splitByProjects(
        t,
        check,
        "getMetricAggregations",
        [],
        pathOf("getMetricAggregations"),
        projects,
        {
          metric_ids: metrics,
        }
      ),
      combine: (envelopes) => t.concat(envelopes, normaliseMetricAggregationRows),
    };
  };

export const getMetricsBreakdownPlan =
  (
    t: PlanTools,
    metricId: unknown,
    params?: MetricsBreakdownParams
  ): Planner<MetricsBreakdownRow[]> =>
  (check) => {
    const id = check.pathId("metricId", metricId);
    const p = params ?? {};
    const projects = check.selection("projectIds", p.projectIds);
    // start_date/end_date by default: the only names the interface shows for this operation (§4.13).
    const dates = datesOf(check, "getMetricsBreakdown", p);
    const segments = pathOf("getMetricsBreakdown", id);
    return {
      ids: [id],
      requests: splitByProjects(t, check, "getMetricsBreakdown", [id], segments, projects, dates),
      combine: (envelopes) => t.concat(envelopes, normaliseBreakdownRows),
    };
  };
