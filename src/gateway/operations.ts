/**
 * The interface's operations as the gateway knows them: the one list of paths, parameters and lifetimes it
 * answers, and the only requests it ever forwards (no open proxy: another path, parameter or method is refused
 * before anything else happens). The operations, their paths and parameters are the interface's table
 * (client/interface.ts); this module adds the gateway's view of each (lifetime, series form) and its routes.
 */
import {
  OPERATION_NAMES,
  isIdPart,
  operationDef,
  pathParts,
  type OperationName,
  type ParamKind,
} from "../client";
import type { Lifetime } from "../cache/policy";

/** How a parameter's value is checked: the table's kinds (lists are one comma-separated value, never repeated). */
export type { ParamKind };

/** The forms whose answers are split by what they contain (project × metric × days), see series/. */
export type SeriesForm = "metric" | "project" | "product";

export interface OperationSpec {
  /** The client's name of the operation (its error messages and the gateway's metrics use it). */
  readonly op: OperationName;
  /** Path segments; ":name" segments are ids. */
  readonly path: readonly string[];
  readonly params: Readonly<Record<string, ParamKind>>;
  /** Catalogues live a day; series, statements and aggregations until the next daily update. */
  readonly lifetime: Lifetime;
  readonly series?: SeriesForm;
}

/** The series form of each time-series operation whose answers the gateway splits (v1's it keeps whole). */
const SERIES_FORMS: Partial<Record<OperationName, SeriesForm>> = {
  getProjectMetrics: "project",
  getProductMetrics: "product",
  getMetric: "metric",
};

/** camelCase, the route's name of a path id: project_id -> projectId. */
const routeIdName = (name: string): string =>
  name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * Every operation of the interface's table (client/interface.ts), each with every parameter any reading may
 * take: both namings of the dates where the interface leaves them open (§4.14), since the gateway forwards
 * the caller's names and the service decides.
 */
export const OPERATIONS: readonly OperationSpec[] = OPERATION_NAMES.map((op) => ({
  op,
  path: pathParts(op).map((part) => (isIdPart(part) ? `:${routeIdName(part.slice(1, -1))}` : part)),
  params: operationDef(op).query,
  lifetime: operationDef(op).family === "catalogue" ? "catalogue" : "daily",
  ...(SERIES_FORMS[op] ? { series: SERIES_FORMS[op] } : {}),
}));

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
