/**
 * What callers of the client see: normalised rows (camelCase, dates as "YYYY-MM-DD", values
 * number | null), operation parameters, and the result envelope that carries data AND partial errors.
 */
import type { JsonObject, JsonValue } from "./wire";

export type { JsonObject, JsonValue } from "./wire";

/** A calendar date "YYYY-MM-DD" (UTC day). The one date representation callers ever see. */
export type IsoDate = string;
/** A metric value: JSON numbers, numeric strings and null all arrive as this. */
export type MetricValue = number | null;

import {
  AGGREGATE_BY,
  ORDER_DIRECTIONS,
  STATEMENT_INTERVALS,
  TIMESTAMP_GRANULARITIES,
} from "../interface";

/** The closed value sets of §8.2 and the known aggregation names live with the interface's table. */
export {
  AGGREGATE_BY,
  AGGREGATION_NAMES,
  ORDER_DIRECTIONS,
  STATEMENT_INTERVALS,
  TIMESTAMP_GRANULARITIES,
} from "../interface";

export type OrderDirection = (typeof ORDER_DIRECTIONS)[number];
export type AggregateBy = (typeof AGGREGATE_BY)[number];
export type TimestampGranularity = (typeof TIMESTAMP_GRANULARITIES)[number];
export type StatementInterval = (typeof STATEMENT_INTERVALS)[number];

/**
 * One entry of a response's `errors` (§2.11): the parts of a request the service could not serve while
 * it served the rest. An entry of a shape the interface does not describe is kept as `UNRECOGNISED`
 * rather than dropped.
 */
export type PartialError =
  | {
      readonly code: "NOT_FOUND";
      /**
       * The request parameter naming the unknown id: in practice project_ids, metric_ids, chain_ids,
       * product_ids or market_sector_ids (§2.11).
       */
      readonly field: string;
      readonly value: string;
    }
  | { readonly code: "METRIC_NOT_AVAILABLE"; readonly projectId: string; readonly metricId: string }
  | { readonly code: "UNRECOGNISED"; readonly entry: JsonValue };

export interface Redirect {
  readonly status: number;
  /** Paths (with query) before and after: "/v2/projects/old-id" → "/v2/projects/new-id". */
  readonly from: string;
  readonly to: string;
}

/** Rows an answer held more than once (same key), collapsed to one (see data/distinct.ts). */
export interface RepeatNote {
  /** Copies dropped. */
  readonly copies: number;
  /** Keys sent with different numbers: their value is null, since nothing says which one is right. */
  readonly conflicts: number;
  /** A few conflicts described ("aave revenue on 2024-11-01: 1 and 2"). */
  readonly examples: readonly string[];
  /**
   * Every key sent with different numbers, so a caller can tell a conflict from a plain null: a value
   * nobody can vouch for must not be filled or counted as a day without data.
   */
  readonly conflicted: readonly ConflictKey[];
}

/** The row key of a conflict: the members its row had (a wide row's key names the metric too). */
export interface ConflictKey {
  readonly date?: IsoDate;
  readonly projectId?: string;
  readonly metricId?: string;
  readonly chain?: string;
  readonly productId?: string;
  readonly businessLine?: string;
  readonly version?: string;
  readonly section?: string;
  readonly aggregation?: string;
}

export interface ResultMeta {
  /** HTTP requests this call made: chunks, retries and redirect hops included. */
  readonly requests: number;
  /** The source marked its data as simulated (the local simulator): never mistake it for real figures. */
  readonly simulated: boolean;
  /** Redirects followed, e.g. a renamed project id answered 308. */
  readonly redirects: readonly Redirect[];
  /** Present when the answer repeated rows (collapsed: every caller sees each day once). */
  readonly repeats?: RepeatNote;
  /**
   * What was set aside while reading the answer (an unreadable entry left out, rows dated after any possible
   * day ignored), one sentence per kind; also sent as "notice" events. Absent when nothing was.
   */
  readonly notes?: readonly string[];
}

/** Every operation resolves to this: data and partial errors both reach the caller. */
export interface ClientResult<T> {
  readonly data: T;
  readonly errors: readonly PartialError[];
  readonly meta: ResultMeta;
}

export interface CallOptions {
  /** Abort the call: waits, retries and the request in flight stop; the call rejects as "cancelled". */
  signal?: AbortSignal;
}

// ---- catalogue (§2.1–2.3, 2.8, 2.9) ----

export interface ProductSummary {
  readonly productId: string;
  readonly productName: string;
  readonly symbol?: string;
  readonly url?: string;
}

export interface Project {
  readonly projectId: string;
  readonly name: string;
  readonly symbol?: string;
  readonly pricesourceId?: string;
  /** As sent: a path relative to the service host. */
  readonly url?: string;
  readonly isArchived: boolean;
  readonly archivedReason?: string;
  readonly maintenanceReason?: string;
  readonly products: readonly ProductSummary[];
}

export interface MetricDefinition {
  readonly metricId: string;
  readonly definition: string;
}

export interface ProjectLink {
  readonly summary: string;
  readonly url: string;
}

/** Members common to project and product detail; the open members are normalised best-effort. */
export interface DetailCommon {
  readonly name: string;
  readonly symbol?: string;
  /** Market sector ids, whether sent as a list of ids, a list of objects or an object. */
  readonly marketSectors: readonly string[];
  readonly chains: readonly string[];
  /** Open shape (§2.12): as received, null when absent. */
  readonly aggregateByOptions: JsonValue;
  /** Metric id → available, whether sent as an object of booleans, a list of ids or a comma string. */
  readonly metricAvailability: Readonly<Record<string, boolean>>;
  /**
   * Whether the detail published its metrics' availability at all. When it did, a metric it does not list
   * as available is not available, whatever the form (isMetricAvailable()).
   */
  readonly availabilityPublished: boolean;
  readonly metricDefinitions: readonly MetricDefinition[];
  readonly metricSources: readonly MetricDefinition[];
  /** The object as received, for members whose shape the interface leaves open. */
  readonly raw: JsonObject;
}

export interface ProjectDetail extends DetailCommon {
  readonly projectId: string;
  /** Who/what/how texts as sent; a plain string arrives as { text }. */
  readonly description: Readonly<Record<string, string>>;
  readonly links: readonly ProjectLink[];
}

export interface ProductDetail extends DetailCommon {
  readonly productId: string;
  readonly projectId: string;
}

export interface MarketSector {
  readonly id: string;
  readonly name: string;
  readonly url?: string;
}

export interface MarketSectorDetail {
  readonly marketSectorId: string;
  readonly name: string;
  readonly description: { readonly what?: string; readonly how?: string };
  readonly projects: readonly { projectId: string; name: string; url?: string }[];
}

export interface Metric {
  readonly metricId: string;
  readonly metricName: string;
  readonly description: string;
  readonly url?: string;
}

// ---- series and aggregations (§2.4–2.7, 2.10, open shapes) ----

/** Wide row of §4.3: one value per metric id; breakdown members present when the response has them. */
export interface ProjectMetricRow {
  readonly date: IsoDate;
  readonly projectId: string;
  readonly projectName: string;
  readonly chain?: string;
  readonly productId?: string;
  readonly businessLine?: string;
  readonly version?: string;
  /** Metric id → value. Requested metrics missing from a row are null (unknown ids excepted). */
  readonly values: Readonly<Record<string, MetricValue>>;
  /**
   * Metric id → what the service sent for a value that is present but no number ("1,234.50", true,
   * "Infinity"); its value is null. Absent when every value could be read.
   */
  readonly unreadable?: Readonly<Record<string, string>>;
}

export interface ProductMetricRow {
  readonly date: IsoDate;
  readonly metricId: string;
  readonly value: MetricValue;
  readonly chainId?: string;
  /** What the service sent for a value that is present but no number (its value is null). */
  readonly unreadable?: string;
}

export interface ProjectMetricAggregation {
  readonly projectId: string;
  readonly projectName: string;
  readonly metricId: string;
  /** Aggregation name, e.g. "sum_30d", "latest". */
  readonly aggregation: string;
  readonly value: MetricValue;
}

export interface FinancialStatementRow {
  readonly date: IsoDate;
  readonly heading: string;
  readonly subheading: string;
  readonly granularity: string;
  readonly projectName: string;
  readonly section: string;
  readonly metricId: string;
  readonly value: MetricValue;
  readonly popChange: MetricValue;
  readonly definition: string;
  /** What the service sent for a value that is present but no number (its value is null). */
  readonly unreadable?: string;
  /** The service sent this line's period twice with two different values: its value is null. */
  readonly conflicted?: true;
}

/** Long row of §4.11: one metric, many projects. */
export interface MultiProjectMetricRow {
  readonly date: IsoDate;
  readonly projectId: string;
  readonly projectName: string;
  readonly metricId: string;
  readonly value: MetricValue;
  /** What the service sent for a value that is present but no number (its value is null). */
  readonly unreadable?: string;
  /**
   * Breakdown members §2.10 does not name, present when a service splits a project's day anyway: the
   * parts of the day's figure (engine/figures/partition.ts adds them up).
   */
  readonly chain?: string;
  readonly productId?: string;
  readonly businessLine?: string;
  readonly version?: string;
}

/**
 * A row whose shape the interface leaves open (§4.12, §4.13, v1): the members the client recognises
 * are lifted and normalised; `fields` keeps the row exactly as received.
 */
export interface OpenRow {
  readonly projectId?: string;
  readonly projectName?: string;
  readonly metricId?: string;
  readonly date?: IsoDate;
  readonly value?: MetricValue;
  readonly fields: JsonObject;
}

export interface MetricAggregationRow extends OpenRow {
  /** From metric_aggregation_name / aggregation / aggregation_name, when present. */
  readonly aggregation?: string;
}

export interface MetricsBreakdownRow extends OpenRow {
  /** The project's share of the total, when the response has one. */
  readonly share?: MetricValue;
  readonly startDate?: IsoDate;
  readonly endDate?: IsoDate;
}

// ---- parameters ----

/** What the daily metric operations (§4.3 a project's, §4.7 a product's, §4.11 a metric's) all take. */
interface DailyMetricParams {
  chainIds?: readonly string[];
  start?: IsoDate;
  end?: IsoDate;
  assetsBridged?: boolean;
  /**
   * The names the dates go by (§4.14: the parameters are named start/end, the usage examples send
   * start_date/end_date): start/end (default), or start_date/end_date for a service that takes only those.
   */
  dateNames?: "start" | "start_date";
}

/** The breakdown members a project's or a metric's rows can be narrowed to (§4.3, §4.11), beside chains. */
interface BreakdownFilters {
  productIds?: readonly string[];
  marketSectorIds?: readonly string[];
}

export interface ProjectMetricsParams extends DailyMetricParams, BreakdownFilters {
  /** Omitted: every metric available for the project. Long lists are split over several requests. */
  metricIds?: readonly string[];
  aggregateBy?: AggregateBy;
  /** Default "desc" (the service's default): newest first. */
  orderDirection?: OrderDirection;
}

export interface ProductMetricsParams extends DailyMetricParams {
  metricIds?: readonly string[];
  aggregateBy?: AggregateBy;
  orderDirection?: OrderDirection;
}

export interface FinancialStatementParams {
  timestampGranularity?: TimestampGranularity;
  interval?: StatementInterval;
}

/** "all" (or omitting) selects every project having the metric. */
export type IdSelection = readonly string[] | "all";

export interface MetricParams extends DailyMetricParams, BreakdownFilters {
  /** Long lists are split over several requests (e.g. 50 ids each) and merged. */
  projectIds?: IdSelection;
  /** Not a service parameter here (§4.11 has none): the client sorts. Default "desc". */
  orderDirection?: OrderDirection;
}

export interface MetricAggregationsParams {
  projectIds?: IdSelection;
  metricIds?: IdSelection;
}

export interface MetricsBreakdownParams {
  projectIds?: IdSelection;
  start?: IsoDate;
  end?: IsoDate;
  /**
   * The names the dates go by (§4.14: which names §4.13 takes is not shown): start_date/end_date, the usage
   * example's (default), or start/end, the other metric operations'.
   */
  dateNames?: "start_date" | "start";
}

/** v1 parameter values are not documented (§9.4): passed through as given. */
export interface V1ProjectMetricsParams {
  interval?: string;
  dataGranularity?: string;
}
