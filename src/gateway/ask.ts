/**
 * A caller's request as the gateway understands it: the operation, its path ids and its parameters, each checked
 * against the interface (anything else is refused with 400 before any request is made), and what the answer
 * is made of:
 * - `key`: the whole answer's identity (operation, ids, parameters, lists as sets), so that the same catalogue,
 *   statement or aggregation asked in another order or form is one cached answer;
 * - `series`: for the time-series operations, the series the answer is made of (project × metric × options)
 *   and the days asked, so that answers are shared by what they contain (see series/).
 */
import { parseDay } from "../client";
import { GatewayError } from "./errors";
import { pathIdNames, type OperationSpec, type ParamKind, type SeriesForm } from "./operations";

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

/** Longest id accepted (path segment or list item): real ids are short slugs. */
const MAX_ID_LENGTH = 200;
/** Most ids in one list: the client sends 50 at most; a list of thousands is no add-in's request. */
const MAX_LIST_IDS = 1_000;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const TOKEN = /^[A-Za-z0-9_.-]{1,64}$/;

function checkId(what: string, id: string): string {
  if (id === "" || id.length > MAX_ID_LENGTH || CONTROL.test(id) || id === "." || id === "..")
    throw new GatewayError(
      400,
      `${what} must be an id of 1 to ${MAX_ID_LENGTH} printable characters`
    );
  return id;
}

function checkValue(name: string, kind: ParamKind, raw: string): QueryValue {
  switch (kind.kind) {
    case "ids": {
      if (kind.all && raw === "all") return "all";
      const list = raw.split(",");
      if (list.length > MAX_LIST_IDS)
        throw new GatewayError(400, `${name} lists more than ${MAX_LIST_IDS} ids`);
      return list.map((id) => checkId(`each id of ${name}`, id));
    }
    case "date":
      if (parseDay(raw) === undefined)
        throw new GatewayError(
          400,
          `${name} must be a date written YYYY-MM-DD, got "${shown(raw)}"`
        );
      return raw;
    case "bool":
      if (raw !== "true" && raw !== "false")
        throw new GatewayError(400, `${name} must be true or false, got "${shown(raw)}"`);
      return raw;
    case "oneOf":
      if (!kind.values.includes(raw))
        throw new GatewayError(
          400,
          `${name} must be one of ${kind.values.join(", ")}, got "${shown(raw)}"`
        );
      return raw;
    case "token":
      if (!TOKEN.test(raw))
        throw new GatewayError(400, `${name} must be a short word (letters, digits, - _ .)`);
      return raw;
  }
}

/** A value quoted in a message: short, and without anything that could be a control sequence. */
function shown(raw: string): string {
  const clean = raw.replace(CONTROL, "?");
  return clean.length > 40 ? `${clean.slice(0, 40)}…` : clean;
}

const LIST_PARAMS = new Set([
  "project_ids",
  "metric_ids",
  "chain_ids",
  "product_ids",
  "market_sector_ids",
]);

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
  if (params.has("start_date") || params.has("end_date")) return undefined;
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
 * Checks a request against its operation: path ids, parameter names and values (one value each), the order of
 * dates. `query` is the raw query string (without "?").
 */
export function parseAsk(
  spec: OperationSpec,
  pathParams: Readonly<Record<string, string>>,
  query: string
): Ask {
  const ids = pathIdNames(spec).map((name) => checkId(name, pathParams[name] ?? ""));
  let next = 0;
  const path = spec.path
    .map((part) => (part.startsWith(":") ? shown(ids[next++]) : part))
    .join("/");
  const params = new Map<string, QueryValue>();
  const seen = new Set<string>();
  for (const [name, raw] of new URLSearchParams(query)) {
    const kind = spec.params[name];
    if (!Object.prototype.hasOwnProperty.call(spec.params, name) || kind === undefined) {
      const known = Object.keys(spec.params);
      throw new GatewayError(
        400,
        `"${shown(name)}" is not a parameter of GET /${path}` +
          (known.length > 0 ? ` (it takes ${known.join(", ")})` : " (it takes none)")
      );
    }
    if (seen.has(name))
      throw new GatewayError(
        400,
        `${name} is given twice: send a list as one comma-separated value (${name}=a,b)`
      );
    seen.add(name);
    if (raw === "") throw new GatewayError(400, `${name} is empty`);
    params.set(name, checkValue(name, kind, raw));
  }
  for (const [a, b] of [
    ["start", "end"],
    ["start_date", "end_date"],
  ] as const) {
    const from = params.get(a);
    const to = params.get(b);
    if (typeof from === "string" && typeof to === "string" && from > to)
      throw new GatewayError(400, `${a} (${from}) is after ${b} (${to})`);
  }
  // Parameters in the interface's order, lists as sets: the same request written otherwise has the same key.
  const keyParts = Object.keys(spec.params)
    .filter((name) => params.has(name))
    .map((name) => `${name}=${keyValue(name, params.get(name) as QueryValue)}`);
  const key = JSON.stringify([spec.op, ids, keyParts]);
  const series = seriesOf(spec, ids, params);
  return { spec, ids, params, key, ...(series ? { series } : {}) };
}
