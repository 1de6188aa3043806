/**
 * A caller's request as the gateway understands it: the operation, its path ids and its parameters, each checked
 * against the interface (anything else is refused with 400 before any request is made), and what the answer
 * is made of:
 * - `key`: the whole answer's identity (operation, ids, parameters, lists as sets), so that the same catalogue,
 *   statement or aggregation asked in another order or form is one cached answer;
 * - `series`: for the time-series operations, the series the answer is made of (project × metric × options)
 *   and the days asked, so that answers are shared by what they contain (see series/).
 */
import { DATE_NAMES, parseDay } from "../client";
import { MAX_ID_LENGTH, MAX_LIST_IDS } from "./bounds";
import { GatewayError } from "./errors";
import {
  describeOperation,
  interfaceName,
  OPERATIONS,
  pathIdNames,
  type OperationSpec,
  type ParamKind,
  type SeriesForm,
} from "./operations";
import { ID_REGEX } from "./schema";

export type QueryValue = string | readonly string[];

/** Options that change what the service returns for a series; equal variants share answers. */
export interface Variant {
  /** Canonical (lists sorted): the variant part of series keys. */
  readonly key: string;
  /** The parameters to send upstream for it, as the caller gave them. */
  readonly params: ReadonlyArray<readonly [string, QueryValue]>;
}

export interface SeriesAsk {
  readonly form: SeriesForm;
  /** The path's project (project and product forms). */
  readonly projectId: string;
  /** The path's product (product form). */
  readonly productId: string;
  /** The path's metric (metric form). */
  readonly metricId: string;
  /** The ids that vary: projects (metric form) or metrics (project, product forms); distinct, in asked order. */
  readonly members: readonly string[];
  /** Day numbers; -Infinity / +Infinity when left to the service (from launch / to the latest data). */
  readonly start: number;
  readonly end: number;
  readonly variant: Variant;
  readonly direction: "asc" | "desc";
}

export interface Ask {
  readonly spec: OperationSpec;
  readonly ids: readonly string[];
  readonly params: ReadonlyMap<string, QueryValue>;
  readonly key: string;
  readonly series?: SeriesAsk;
}

/** A list's items: each an id (the schema let the list's characters through; items are checked here). */
function checkList(name: string, kind: ParamKind, raw: string): QueryValue {
  if (kind.kind === "ids" && kind.all && raw === "all") return "all";
  const list = raw.split(",");
  if (list.length > MAX_LIST_IDS)
    throw new GatewayError(400, `${name} lists more than ${MAX_LIST_IDS} ids`);
  if (!list.every((id) => ID_REGEX.test(id)))
    throw new GatewayError(
      400,
      `Each id of ${name} must be 1 to ${MAX_ID_LENGTH} letters, digits and - _ . ~ : @ +, without ".." (no empty item)`
    );
  return list;
}

function checkValue(name: string, kind: ParamKind, raw: string): QueryValue {
  if (kind.kind === "ids") return checkList(name, kind, raw);
  if (kind.kind === "date" && parseDay(raw) === undefined)
    throw new GatewayError(400, `${name} must be a calendar date written YYYY-MM-DD`);
  return raw;
}

/** The list parameters of every operation (the table's "ids" kind). */
const LIST_PARAMS: ReadonlySet<string> = new Set(
  OPERATIONS.flatMap((spec) =>
    Object.entries(spec.params)
      .filter(([, kind]) => kind.kind === "ids")
      .map(([name]) => name)
  )
);

/** Lists as sets: a list parameter is keyed by its sorted distinct ids. */
function keyValue(name: string, value: QueryValue): string {
  if (typeof value === "string") return value;
  return (LIST_PARAMS.has(name) ? [...new Set(value)].sort() : value).join(",");
}

function dayOf(value: QueryValue | undefined, fallback: number): number {
  return typeof value === "string" ? (parseDay(value) as number) : fallback;
}

/** The variant parameters of each series form, in the interface's order. */
const VARIANT_PARAMS: Readonly<Record<SeriesForm, readonly string[]>> = {
  metric: ["chain_ids", "product_ids", "market_sector_ids", "assets_bridged", "aggregate_by"],
  project: ["chain_ids", "product_ids", "market_sector_ids", "assets_bridged", "aggregate_by"],
  product: ["chain_ids", "assets_bridged", "aggregate_by"],
};

function variantOf(form: SeriesForm, params: ReadonlyMap<string, QueryValue>): Variant {
  const names = VARIANT_PARAMS[form];
  const sent: Array<readonly [string, QueryValue]> = [];
  const key = names
    .map((name) => {
      const value = params.get(name);
      if (value === undefined) return "";
      sent.push([name, value]);
      return keyValue(name, value);
    })
    .join("|");
  return { key, params: sent };
}

/**
 * The series view of a time-series request, or undefined when its answer is not made of named series: a
 * project's or product's metrics without `metric_ids` (every metric it has), a metric of `all` projects or of
 * projects left unnamed, or dates sent under the usage examples' names (whose reading is not settled). Those
 * are cached as whole answers.
 */
function seriesOf(
  spec: OperationSpec,
  ids: readonly string[],
  params: ReadonlyMap<string, QueryValue>
): SeriesAsk | undefined {
  const form = spec.series;
  if (!form) return undefined;
  const list = params.get(form === "metric" ? "project_ids" : "metric_ids");
  if (list === undefined || typeof list === "string") return undefined;
  if (DATE_NAMES.usage.some((name) => params.has(name))) return undefined;
  const start = dayOf(params.get("start"), -Infinity);
  const end = dayOf(params.get("end"), Infinity);
  const order = params.get("order_direction");
  return {
    form,
    projectId: form === "metric" ? "" : ids[0],
    productId: form === "product" ? ids[1] : "",
    metricId: form === "metric" ? ids[0] : "",
    members: [...new Set(list)],
    start,
    end,
    variant: variantOf(form, params),
    direction: order === "asc" ? "asc" : "desc",
  };
}

/**
 * A request of `spec` as the gateway reads it, from its path ids and query, both already checked by the route's
 * schema (schema.ts: the names, one value each, the characters and closed sets); what a schema cannot say is
 * checked here: each list item, calendar dates, the order of dates. Every refusal is fixed text.
 */
export function parseAsk(
  spec: OperationSpec,
  pathParams: Readonly<Record<string, string>>,
  query: Readonly<Record<string, unknown>>
): Ask {
  const ids = pathIdNames(spec).map((name) => {
    const id = pathParams[name];
    if (typeof id !== "string" || !ID_REGEX.test(id))
      throw new GatewayError(
        400,
        `The ${interfaceName(name)} of ${describeOperation(spec)} must be an id`
      );
    return id;
  });
  const params = new Map<string, QueryValue>();
  for (const name of Object.keys(spec.params)) {
    if (!Object.prototype.hasOwnProperty.call(query, name)) continue;
    const raw = query[name];
    if (typeof raw !== "string")
      throw new GatewayError(400, `${name} must be given once, as one value`);
    params.set(name, checkValue(name, spec.params[name], raw));
  }
  for (const name of Object.keys(query))
    if (!Object.prototype.hasOwnProperty.call(spec.params, name))
      throw new GatewayError(
        400,
        `The query holds a parameter ${describeOperation(spec)} does not take`
      );
  for (const [a, b] of Object.values(DATE_NAMES)) {
    const from = params.get(a);
    const to = params.get(b);
    if (typeof from === "string" && typeof to === "string" && from > to)
      throw new GatewayError(400, `${a} is after ${b}`);
  }
  // Parameters in the interface's order, lists as sets: the same request written otherwise has the same key.
  const keyParts = Object.keys(spec.params)
    .filter((name) => params.has(name))
    .map((name) => `${name}=${keyValue(name, params.get(name) as QueryValue)}`);
  const key = JSON.stringify([spec.op, ids, keyParts]);
  const series = seriesOf(spec, ids, params);
  return { spec, ids, params, key, ...(series ? { series } : {}) };
}
