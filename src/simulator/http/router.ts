/**
 * The routes of the simulated service: every operation of the interface's table (client/interface.ts), every
 * v2 operation of §4 and v1's two of §9, with the parameters each takes under the readings.
 */
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
import {
  OPERATION_NAMES,
  isIdPart,
  operationDef,
  pathParts,
  queryNamesOf,
  type OperationName,
} from "../../client";

/** The handler of each operation of the interface's table (client/interface.ts): every one has one. */
const HANDLERS: Readonly<Record<OperationName, Handler>> = {
  listProjects,
  getProject,
  getProjectMetrics,
  getProjectMetricAggregations,
  getFinancialStatement,
  getProduct,
  getProductMetrics,
  listMarketSectors,
  getMarketSector,
  listMetrics,
  getMetric,
  getMetricAggregations,
  getMetricsBreakdown,
  v1ListProjects,
  v1GetProjectMetrics,
};

interface Route {
  op: OperationName;
  /** Path segments; "{name}" marks an id. */
  pattern: string[];
  handler: Handler;
}

const ROUTES: Route[] = OPERATION_NAMES.map((op) => ({
  op,
  pattern: pathParts(op),
  handler: HANDLERS[op],
}));

interface RouteMatch {
  handler: Handler;
  params: string[];
  /** The query parameters the operation takes, under these readings. */
  accepted(readings: Readings): ReadonlySet<string>;
}

/**
 * Which namings of its dates an operation takes under the readings (§4.14: which names are accepted where is
 * not shown). Operations whose dates the interface names start/end (§4.3, §4.7, §4.11) follow `dateNames`;
 * the one it shows only with start_date/end_date (§4.13) follows `breakdownDates`.
 */
function datesTaken(op: OperationName, readings: Readings): "given" | "other" | "both" {
  const given = operationDef(op).dates;
  const reading = given === "usage" ? readings.breakdownDates : readings.dateNames;
  if (reading === "both") return "both";
  return reading === "defined" || reading === "start_date" ? "given" : "other";
}

/** The query parameters an operation takes: exactly the table's, its dates as the readings say. */
function acceptedBy(op: OperationName): (readings: Readings) => ReadonlySet<string> {
  return (readings) => new Set(queryNamesOf(op, datesTaken(op, readings)));
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
      if (isIdPart(part)) params.push(segments[i]);
      else ok = part === segments[i];
    }
    if (ok) return { handler: route.handler, params, accepted: acceptedBy(route.op) };
  }
  return undefined;
}
