/** The routes of the simulated service: every v2 operation of §4 and v1's two operations of §9. */
import type { Handler } from "./context";
import {
  getMarketSector,
  getProduct,
  getProject,
  listMarketSectors,
  listMetrics,
  listProjects,
} from "./handlers-catalog";
import { getMetric } from "./handlers-metric";
import { getProductMetrics } from "./handlers-product-metrics";
import { getProjectMetrics } from "./handlers-project-metrics";
import {
  getFinancialStatement,
  getMetricAggregations,
  getMetricsBreakdown,
  getProjectMetricAggregations,
} from "./handlers-summary";
import { v1GetProjectMetrics, v1ListProjects } from "./handlers-v1";

interface Route {
  /** Path segments; ":" marks a parameter. */
  pattern: string[];
  handler: Handler;
}

const ROUTES: Route[] = [
  ["/v2/projects", listProjects],
  ["/v2/projects/:id", getProject],
  ["/v2/projects/:id/metrics", getProjectMetrics],
  ["/v2/projects/:id/metric-aggregations", getProjectMetricAggregations],
  ["/v2/projects/:id/financial-statement", getFinancialStatement],
  ["/v2/projects/:id/products/:product", getProduct],
  ["/v2/projects/:id/products/:product/metrics", getProductMetrics],
  ["/v2/market-sectors", listMarketSectors],
  ["/v2/market-sectors/:id", getMarketSector],
  ["/v2/metrics", listMetrics],
  ["/v2/metrics/:id", getMetric],
  ["/v2/metric-aggregations", getMetricAggregations],
  ["/v2/metrics-breakdown/:id", getMetricsBreakdown],
  ["/v1/projects", v1ListProjects],
  ["/v1/projects/:id/metrics", v1GetProjectMetrics],
].map(([path, handler]) => ({
  pattern: (path as string).split("/").filter(Boolean),
  handler: handler as Handler,
}));

export interface RouteMatch {
  handler: Handler;
  params: string[];
}

/** Segments of a path, decoded; a trailing slash is tolerated. undefined for undecodable paths. */
export function pathSegments(pathname: string): string[] | undefined {
  try {
    return pathname
      .split("/")
      .filter(Boolean)
      .map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
}

export function matchRoute(segments: readonly string[]): RouteMatch | undefined {
  for (const route of ROUTES) {
    if (route.pattern.length !== segments.length) continue;
    const params: string[] = [];
    let ok = true;
    for (let i = 0; i < segments.length && ok; i++) {
      const part = route.pattern[i];
      if (part.startsWith(":")) params.push(segments[i]);
      else ok = part === segments[i];
    }
    if (ok) return { handler: route.handler, params };
  }
  return undefined;
}
