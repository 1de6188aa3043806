/**
 * The service's operations in one table: the project's reading of the interface (INTERFACE.md §4 and §9).
 * Each row is an operation's path, its query parameters (name, kind, closed value set, default) and what it
 * answers. What the interface states is written as it states it; what the project infers where the text is
 * loose is marked `inferred`, with the reason.
 *
 * Everything that speaks the interface derives from this table: the client's requests (plans/: their paths
 * and the names of their parameters are typed by it, so a request the table does not hold does not compile),
 * the gateway's accepted operations and route schemas (src/gateway/operations.ts) and the simulator's routes
 * with the parameters each takes under each reading (src/simulator/http/router.ts). It lives in the client
 * because the client is the base layer: the gateway and the simulator both reach it through the client's
 * index. test/client/interface-table.test.ts checks the three against each other, request by request.
 */

/** §8.2's closed value sets. */
export const ORDER_DIRECTIONS = ["asc", "desc"] as const;
export const AGGREGATE_BY = ["chain", "product_id"] as const;
export const TIMESTAMP_GRANULARITIES = ["year", "quarter", "month", "week"] as const;
export const STATEMENT_INTERVALS = ["1m", "1y", "2y", "3y", "5y", "max"] as const;

/**
 * Aggregation names the service is known to send (`metric_aggregation_name`, §2.6; observed, §10.1). Unlike
 * the sets above the interface does not close this one: rows with other names are kept, and a project's own
 * list wins where it is loaded; this list is what the formula builder offers before that, and what the
 * simulator computes.
 */
export const AGGREGATION_NAMES = [
  "latest",
  "sum_30d",
  "avg_7d",
  "change_30d",
  "trend_90d",
  "ath",
  "atl",
] as const;

/** How a parameter's value is written. Lists are one comma-separated value (§1 rule 7), never repeated. */
export type ParamKind =
  /** `all`: the value "all" selects every entity (documented, or inferred where `inferred` says so). */
  | { readonly kind: "ids"; readonly all?: boolean }
  /** YYYY-MM-DD (§1 rule 8). */
  | { readonly kind: "date" }
  /** true or false. */
  | { readonly kind: "bool" }
  /** A closed value set (§8.2). */
  | { readonly kind: "oneOf"; readonly values: readonly string[] }
  /** v1's values, not shown (§9.4): a short word passed through as given. */
  | { readonly kind: "token" };

type Parameter = ParamKind & {
  /** The service's default when the parameter is left out, as the interface states it. */
  readonly default?: string;
  /** Where the project reads more into the interface than it says: what, and why. */
  readonly inferred?: string;
};

/**
 * The two pairs of names dates go by (§4.14: the parameter lists name start/end, the usage examples send
 * start_date/end_date; which names are accepted where is not shown).
 */
export const DATE_NAMES = {
  /** The names of the parameter lists of §4.3, §4.7 and §4.11. */
  defined: ["start", "end"],
  /** The names of the usage examples of the metric operations (§4.13, §4.14). */
  usage: ["start_date", "end_date"],
} as const;
type DateNaming = keyof typeof DATE_NAMES;

interface OperationDef {
  /** The section of INTERFACE.md that describes it. */
  readonly section: string;
  /**
   * Which of §1's kinds it is: a catalogue (rule 2: lists and details), a time series (rule 3: values per
   * date), or a summary (rule 4: aggregations, the statement; and §4.13's summarized variant).
   */
  readonly family: "catalogue" | "series" | "summary";
  /** The path as the interface writes it: "/v2/projects/{project_id}/metrics". */
  readonly path: string;
  /**
   * Every query parameter any reading may take, in the interface's order (requests are written in it). The
   * date parameters of both namings are listed where `dates` is set.
   */
  readonly query: Readonly<Record<string, Parameter>>;
  /**
   * The naming the interface gives this operation's dates; the other naming is a reading (§4.14, inferred):
   * a client sends this one first, a service may take either or both.
   */
  readonly dates?: DateNaming;
  /** What a 200 answers (§2's shapes). */
  readonly answers: string;
}

const ids: Parameter = { kind: "ids" };
const date: Parameter = { kind: "date" };
const oneOf = (values: readonly string[], fallback?: string): Parameter => ({
  kind: "oneOf",
  values,
  ...(fallback === undefined ? {} : { default: fallback }),
});
const orderDirection = oneOf(ORDER_DIRECTIONS, "desc");
const aggregateBy = oneOf(AGGREGATE_BY);
const assetsBridged: Parameter = { kind: "bool", default: "true" };
const usageDate: Parameter = {
  kind: "date",
  inferred:
    "§4.14: the usage examples of the metric operations send start_date/end_date where the list names start/end",
};
/** The dates of §4.3, §4.7 and §4.11: their lists' names, then the usage examples'. */
const seriesDates = {
  start: date,
  end: date,
  start_date: usageDate,
  end_date: usageDate,
} as const;
const token: Parameter = { kind: "token" };

export const OPERATIONS = {
  listProjects: {
    section: "§4.1",
    family: "catalogue",
    path: "/v2/projects",
    query: {},
    answers: "[Project (2.1)]",
  },
  getProject: {
    section: "§4.2",
    family: "catalogue",
    path: "/v2/projects/{project_id}",
    query: {},
    answers: "Project detail (2.2)",
  },
  getProjectMetrics: {
    section: "§4.3",
    family: "series",
    path: "/v2/projects/{project_id}/metrics",
    query: {
      metric_ids: ids,
      chain_ids: ids,
      product_ids: ids,
      market_sector_ids: ids,
      aggregate_by: aggregateBy,
      ...seriesDates,
      order_direction: orderDirection,
      assets_bridged: assetsBridged,
    },
    dates: "defined",
    answers: "[Project metric row (2.4)], errors?: [Not found]",
  },
  getProjectMetricAggregations: {
    section: "§4.4",
    family: "summary",
    path: "/v2/projects/{project_id}/metric-aggregations",
    query: {},
    answers: "[Project metric aggregation row (2.6)]",
  },
  getFinancialStatement: {
    section: "§4.5",
    family: "summary",
    path: "/v2/projects/{project_id}/financial-statement",
    query: {
      timestamp_granularity: oneOf(TIMESTAMP_GRANULARITIES, "quarter"),
      interval: oneOf(STATEMENT_INTERVALS, "1y"),
    },
    answers: "[Financial statement row (2.7)]",
  },
  getProduct: {
    section: "§4.6",
    family: "catalogue",
    path: "/v2/projects/{project_id}/products/{product_id}",
    query: {},
    answers: "Product detail (2.3); 404: product not found",
  },
  getProductMetrics: {
    section: "§4.7",
    family: "series",
    path: "/v2/projects/{project_id}/products/{product_id}/metrics",
    query: {
      metric_ids: ids,
      chain_ids: ids,
      ...seriesDates,
      aggregate_by: aggregateBy,
      order_direction: orderDirection,
      assets_bridged: assetsBridged,
    },
    dates: "defined",
    answers: "[Product metric row (2.5)], errors?: [Not found]; 404: product not found",
  },
  listMarketSectors: {
    section: "§4.8",
    family: "catalogue",
    path: "/v2/market-sectors",
    query: {},
    answers: "[Market sector list item (2.8)]",
  },
  getMarketSector: {
    section: "§4.9",
    family: "catalogue",
    path: "/v2/market-sectors/{market_sector_id}",
    query: {},
    answers: "Market sector detail (2.8)",
  },
  listMetrics: {
    section: "§4.10",
    family: "catalogue",
    path: "/v2/metrics",
    query: {},
    answers: "[Metric (2.9)]",
  },
  getMetric: {
    section: "§4.11",
    family: "series",
    path: "/v2/metrics/{metric_id}",
    // No order_direction: §4.11 lists none (the client sorts).
    query: {
      project_ids: { kind: "ids", all: true },
      chain_ids: ids,
      product_ids: ids,
      market_sector_ids: ids,
      ...seriesDates,
      assets_bridged: assetsBridged,
    },
    dates: "defined",
    answers: "[Multi-project metric row (2.10)], errors?: [Not found or Metric not available]",
  },
  getMetricAggregations: {
    section: "§4.12",
    family: "summary",
    path: "/v2/metric-aggregations",
    query: {
      project_ids: {
        kind: "ids",
        all: true,
        inferred:
          "declared required, described optional (omitted or `all`: every project): `all` satisfies both, so the client always sends it",
      },
      metric_ids: { kind: "ids", all: true },
    },
    answers: "rows of a shape not shown (§2.12), errors?: [Not found]",
  },
  getMetricsBreakdown: {
    section: "§4.13",
    family: "summary",
    path: "/v2/metrics-breakdown/{metric_id}",
    // Only the usage's names are shown (project_ids, start_date, end_date); the full list is not.
    query: {
      project_ids: {
        kind: "ids",
        all: true,
        inferred: "`all` is documented for §4.11 and §4.12 only; a service may take it here too",
      },
      start_date: date,
      end_date: date,
      start: {
        kind: "date",
        inferred: "the names of the other metric operations' lists; §4.13's list is not shown",
      },
      end: {
        kind: "date",
        inferred: "the names of the other metric operations' lists; §4.13's list is not shown",
      },
    },
    dates: "usage",
    answers: "rows of a shape not shown (§2.12)",
  },
  v1ListProjects: {
    section: "§9",
    family: "catalogue",
    path: "/v1/projects",
    query: {},
    answers: "projects in a shape not shown (§9.4): a bare list or {data}",
  },
  v1GetProjectMetrics: {
    section: "§9",
    family: "series",
    path: "/v1/projects/{project_id}/metrics",
    query: { interval: token, data_granularity: token },
    answers: "metrics in a shape not shown (§9.4)",
  },
} as const satisfies Record<string, OperationDef>;

export type OperationName = keyof typeof OPERATIONS;
/** The query parameter names of an operation. */
export type ParamName<Op extends OperationName> = keyof (typeof OPERATIONS)[Op]["query"] & string;

/** Every operation name, in the table's order. */
export const OPERATION_NAMES = Object.keys(OPERATIONS) as OperationName[];

/** An operation's row, typed as a plain definition. */
export function operationDef(op: OperationName): OperationDef {
  return OPERATIONS[op];
}

/** A path's segments: "{project_id}" segments stand for ids and are returned as they are written. */
export function pathParts(op: OperationName): string[] {
  return OPERATIONS[op].path.split("/").filter(Boolean);
}

/** Whether a segment of a path, as written, stands for an id. */
export function isIdPart(part: string): boolean {
  return part.startsWith("{");
}

/**
 * The date names an operation takes under a reading: the given naming, the other one, or both (empty when
 * it has no dates).
 */
export function dateNamesOf(op: OperationName, which: "given" | "other" | "both"): string[] {
  const given = operationDef(op).dates;
  if (!given) return [];
  const other: DateNaming = given === "defined" ? "usage" : "defined";
  if (which === "given") return [...DATE_NAMES[given]];
  if (which === "other") return [...DATE_NAMES[other]];
  return [...DATE_NAMES[given], ...DATE_NAMES[other]];
}

/** The query parameters an operation takes when its dates go by the given naming, the other or both. */
export function queryNamesOf(op: OperationName, dates: "given" | "other" | "both"): string[] {
  const taken = new Set(dateNamesOf(op, dates));
  const all: ReadonlyArray<string> = Object.values(DATE_NAMES).flat();
  return Object.keys(operationDef(op).query).filter(
    (name) => !all.includes(name) || taken.has(name)
  );
}
