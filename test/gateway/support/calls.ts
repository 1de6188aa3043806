/**
 * One call per operation of the interface (and the shapes of their options), through the project's own client:
 * what the interface tests ask the gateway and the service alike. Dates fit a simulator whose today is
 * 2026-11-20.
 */
import type { MetricsClient } from "../../../src/client";

type Call = (
  c: MetricsClient
) => Promise<{ data: unknown; errors: readonly unknown[]; meta: { simulated: boolean } }>;

export const CALL_RANGE = { start: "2026-09-01", end: "2026-09-10" };

/** One call per operation of the interface (and the shapes of their options). */
export const CALLS: Record<string, Call> = {
  listProjects: (c) => c.listProjects(),
  getProject: (c) => c.getProject("aave"),
  "getProjectMetrics (metrics named)": (c) =>
    c.getProjectMetrics("aave", { metricIds: ["fees", "revenue", "tvl"], ...CALL_RANGE }),
  "getProjectMetrics (every metric)": (c) => c.getProjectMetrics("aave", CALL_RANGE),
  "getProjectMetrics (by chain, oldest first)": (c) =>
    c.getProjectMetrics("aave", {
      metricIds: ["fees"],
      aggregateBy: "chain",
      orderDirection: "asc",
      ...CALL_RANGE,
    }),
  "getProjectMetrics (an unknown metric)": (c) =>
    c.getProjectMetrics("aave", { metricIds: ["fees", "no_such_metric"], ...CALL_RANGE }),
  getProjectMetricAggregations: (c) => c.getProjectMetricAggregations("aave"),
  getFinancialStatement: (c) =>
    c.getFinancialStatement("aave", { timestampGranularity: "month", interval: "1y" }),
  getProduct: (c) => c.getProduct("aave", "aave-v3"),
  getProductMetrics: (c) =>
    c.getProductMetrics("aave", "aave-v3", { metricIds: ["fees", "tvl"], ...CALL_RANGE }),
  listMarketSectors: (c) => c.listMarketSectors(),
  getMarketSector: (c) => c.getMarketSector("lending"),
  listMetrics: (c) => c.listMetrics(),
  "getMetric (projects named, some unknown or without it)": (c) =>
    c.getMetric("tvl", {
      projectIds: ["aave", "bitcoin", "no-such-project", "uniswap"],
      ...CALL_RANGE,
    }),
  "getMetric (every project)": (c) =>
    c.getMetric("fees", { projectIds: "all", start: "2026-09-30", end: "2026-09-30" }),
  "getMetric (bridged assets left out)": (c) =>
    c.getMetric("tvl", {
      projectIds: ["aave", "lido-finance"],
      assetsBridged: false,
      ...CALL_RANGE,
    }),
  getMetricAggregations: (c) =>
    c.getMetricAggregations({ projectIds: ["aave", "uniswap"], metricIds: ["fees"] }),
  getMetricsBreakdown: (c) =>
    c.getMetricsBreakdown("fees", { projectIds: ["aave", "uniswap", "curve"], ...CALL_RANGE }),
  v1ListProjects: (c) => c.v1ListProjects(),
  v1GetProjectMetrics: (c) =>
    c.v1GetProjectMetrics("aave", { interval: "30d", dataGranularity: "daily" }),
};
