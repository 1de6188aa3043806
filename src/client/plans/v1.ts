/**
 * Plans of v1 (§9, announced deprecated since 2022-08-01): its project list and project metrics, in the open
 * shape. Loaded with the first v1 request (operations.ts): only a legacy host sends one.
 */
import type { Planner } from "../call";
import { normaliseOpenRows } from "../data/normalise-summaries";
import { listPlan } from "./catalogue";
import { pathOf, queryOf, type PlanTools } from "./plan";
import type { OpenRow, V1ProjectMetricsParams } from "../data/types";

// §9 shows no shape for v1: a bare list and a {data} object are both read.
export const v1ListProjectsPlan = listPlan<OpenRow[]>("v1ListProjects", normaliseOpenRows, true);

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
