/**
 * The interface's operations as the gateway knows them: the one list of paths, parameters and lifetimes it
 * answers, and the only requests it ever forwards (no open proxy: another path, parameter or method is refused
 * before anything else happens). Each operation's parameters are the ones its table in the interface names; the
 * metric operations also take `start_date`/`end_date`, the names the interface's usage examples send (§4.14).
 */
import type { Lifetime } from "../cache/policy";

/** How a parameter's value is checked. Lists are one comma-separated value (rule 7), never repeated. */
export type ParamKind =
  | { kind: "ids"; all?: boolean }
  | { kind: "date" }
  | { kind: "bool" }
  | { kind: "oneOf"; values: readonly string[] }
  | { kind: "token" };

/** The forms whose answers are split by what they contain (project × metric × days), see series/. */
export type SeriesForm = "metric" | "project" | "product";

export interface OperationSpec {
  /** The client's name of the operation (its error messages and the gateway's metrics use it). */
  readonly op: string;
  /** Path segments; ":name" segments are ids. */
  readonly path: readonly string[];
  readonly params: Readonly<Record<string, ParamKind>>;
  /** Catalogues live a day; series, statements and aggregations until the next daily update. */
  readonly lifetime: Lifetime;
  readonly series?: SeriesForm;
}

const ids: ParamKind = { kind: "ids" };
const idsOrAll: ParamKind = { kind: "ids", all: true };
const date: ParamKind = { kind: "date" };
const bool: ParamKind = { kind: "bool" };
const oneOf = (...values: string[]): ParamKind => ({ kind: "oneOf", values });
const orderDirection = oneOf("asc", "desc");
const aggregateBy = oneOf("chain", "product_id");

export const OPERATIONS: readonly OperationSpec[] = [
  { op: "listProjects", path: ["v2", "projects"], params: {}, lifetime: "catalogue" },
  { op: "getProject", path: ["v2", "projects", ":projectId"], params: {}, lifetime: "catalogue" },
  {
    op: "getProjectMetrics",
    path: ["v2", "projects", ":projectId", "metrics"],
    params: {
      metric_ids: ids,
      chain_ids: ids,
      product_ids: ids,
      market_sector_ids: ids,
      aggregate_by: aggregateBy,
      start: date,
      end: date,
      order_direction: orderDirection,
      assets_bridged: bool,
    },
    lifetime: "daily",
    series: "project",
  },
  {
    op: "getProjectMetricAggregations",
    path: ["v2", "projects", ":projectId", "metric-aggregations"],
    params: {},
    lifetime: "daily",
  },
  {
    op: "getFinancialStatement",
    path: ["v2", "projects", ":projectId", "financial-statement"],
    params: {
      timestamp_granularity: oneOf("year", "quarter", "month", "week"),
      interval: oneOf("1m", "1y", "2y", "3y", "5y", "max"),
    },
    lifetime: "daily",
  },
  {
    op: "getProduct",
    path: ["v2", "projects", ":projectId", "products", ":productId"],
    params: {},
    lifetime: "catalogue",
  },
  {
    op: "getProductMetrics",
    path: ["v2", "projects", ":projectId", "products", ":productId", "metrics"],
    params: {
      metric_ids: ids,
      chain_ids: ids,
      start: date,
      end: date,
      aggregate_by: aggregateBy,
      order_direction: orderDirection,
      assets_bridged: bool,
    },
    lifetime: "daily",
    series: "product",
  },
  { op: "listMarketSectors", path: ["v2", "market-sectors"], params: {}, lifetime: "catalogue" },
  {
    op: "getMarketSector",
    path: ["v2", "market-sectors", ":marketSectorId"],
    params: {},
    lifetime: "catalogue",
  },
  { op: "listMetrics", path: ["v2", "metrics"], params: {}, lifetime: "catalogue" },
  {
    op: "getMetric",
    path: ["v2", "metrics", ":metricId"],
    params: {
      project_ids: idsOrAll,
      chain_ids: ids,
      product_ids: ids,
      market_sector_ids: ids,
      start: date,
      end: date,
      start_date: date,
      end_date: date,
      assets_bridged: bool,
    },
    lifetime: "daily",
    series: "metric",
  },
  {
    op: "getMetricAggregations",
    path: ["v2", "metric-aggregations"],
    params: { project_ids: idsOrAll, metric_ids: idsOrAll },
    lifetime: "daily",
  },
  {
    op: "getMetricsBreakdown",
    path: ["v2", "metrics-breakdown", ":metricId"],
    params: { project_ids: idsOrAll, start_date: date, end_date: date, start: date, end: date },
    lifetime: "daily",
  },
  { op: "v1ListProjects", path: ["v1", "projects"], params: {}, lifetime: "catalogue" },
  {
    op: "v1GetProjectMetrics",
    path: ["v1", "projects", ":projectId", "metrics"],
    // Version 1's values are not documented (§9.4): short tokens, passed through as given.
    params: { interval: { kind: "token" }, data_granularity: { kind: "token" } },
    lifetime: "daily",
  },
];

/** The fastify route of an operation: "/v2/projects/:projectId/metrics". */
export function routeOf(spec: OperationSpec): string {
  return `/${spec.path.join("/")}`;
}

/** Path ids, in path order: ["projectId", "productId"] for a product. */
export function pathIdNames(spec: OperationSpec): string[] {
  return spec.path.filter((s) => s.startsWith(":")).map((s) => s.slice(1));
}

/** The interface's name of a path id: projectId -> project_id. */
export function interfaceName(pathId: string): string {
  return pathId.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** The operation as the interface writes it: "GET /v2/projects/{project_id}/metrics". */
export function describeOperation(spec: OperationSpec): string {
  return `GET /${spec.path
    .map((part) => (part.startsWith(":") ? `{${interfaceName(part.slice(1))}}` : part))
    .join("/")}`;
}

/** Every parameter name of every operation: the public words a message may name. */
export const PARAMETER_NAMES: ReadonlySet<string> = new Set(
  OPERATIONS.flatMap((spec) => Object.keys(spec.params))
);

/**
 * The operation whose path a URL path (below the service's base path) is, and its ids; undefined for any other
 * path. The gateway's own upstream fetch refuses every URL this does not recognise.
 */
export function matchPath(
  segments: readonly string[]
): { spec: OperationSpec; ids: string[] } | undefined {
  for (const spec of OPERATIONS) {
    if (spec.path.length !== segments.length) continue;
    const found: string[] = [];
    const ok = spec.path.every((part, i) => {
      if (part.startsWith(":")) {
        found.push(segments[i]);
        return segments[i] !== "";
      }
      return part === segments[i];
    });
    if (ok) return { spec, ids: found };
  }
  return undefined;
}
