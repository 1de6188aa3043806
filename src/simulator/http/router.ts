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
import type { Readings } from "../readings";

/**
 * The query parameters an operation takes: exactly the ones the interface lists for it. "DATES" stands for
 * the date parameters, whose names are a reading (§4.14): see dateParameters().
 */
type Parameters = readonly string[];
const DATES = "(dates)";
const BREAKDOWN_DATES = "(breakdown dates)";

interface Route {
  /** Path segments; ":" marks a parameter. */
  pattern: string[];
  handler: Handler;
  parameters: Parameters;
}

const SERIES_FILTERS = ["chain_ids", "product_ids", "market_sector_ids"] as const;

const ROUTES: Route[] = (
  [
    ["/v2/projects", listProjects, []],
    ["/v2/projects/:id", getProject, []],
    [
      "/v2/projects/:id/metrics",
      getProjectMetrics,
      ["metric_ids", ...SERIES_FILTERS, "aggregate_by", DATES, "order_direction", "assets_bridged"],
    ],
    ["/v2/projects/:id/metric-aggregations", getProjectMetricAggregations, []],
    [
      "/v2/projects/:id/financial-statement",
      getFinancialStatement,
      ["timestamp_granularity", "interval"],
    ],
    ["/v2/projects/:id/products/:product", getProduct, []],
    [
      "/v2/projects/:id/products/:product/metrics",
      getProductMetrics,
      ["metric_ids", "chain_ids", DATES, "aggregate_by", "order_direction", "assets_bridged"],
    ],
    ["/v2/market-sectors", listMarketSectors, []],
    ["/v2/market-sectors/:id", getMarketSector, []],
    ["/v2/metrics", listMetrics, []],
    ["/v2/metrics/:id", getMetric, ["project_ids", ...SERIES_FILTERS, DATES, "assets_bridged"]],
    ["/v2/metric-aggregations", getMetricAggregations, ["project_ids", "metric_ids"]],
    ["/v2/metrics-breakdown/:id", getMetricsBreakdown, ["project_ids", BREAKDOWN_DATES]],
    ["/v1/projects", v1ListProjects, []],
    ["/v1/projects/:id/metrics", v1GetProjectMetrics, ["interval", "data_granularity"]],
  ] as const
).map(([path, handler, parameters]) => ({
  pattern: path.split("/").filter(Boolean),
  handler,
  parameters,
}));

interface RouteMatch {
  handler: Handler;
  params: string[];
  /** The query parameters the operation takes, under these readings. */
  accepted(readings: Readings): ReadonlySet<string>;
}

const START_END = ["start", "end"];
const START_END_DATE = ["start_date", "end_date"];

/** The names the date parameters go by, as the readings say (§4.14: which names are accepted where). */
function dateParameters(marker: string, readings: Readings): string[] {
  if (marker === DATES) {
    if (readings.dateNames === "usage") return START_END_DATE;
    if (readings.dateNames === "both") return [...START_END, ...START_END_DATE];
    return START_END;
  }
  if (marker === BREAKDOWN_DATES) {
    if (readings.breakdownDates === "start") return START_END;
    if (readings.breakdownDates === "both") return [...START_END, ...START_END_DATE];
    return START_END_DATE;
  }
  return [marker];
}

function acceptedBy(parameters: Parameters): (readings: Readings) => ReadonlySet<string> {
  return (readings) => new Set(parameters.flatMap((p) => dateParameters(p, readings)));
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
    if (ok) return { handler: route.handler, params, accepted: acceptedBy(route.parameters) };
  }
  return undefined;
}
