/**
 * The service's JSON as it travels (interface §2), widened to what real responses hold (§10 of
 * src/client/INTERFACE.md): values declared as strings arrive as numbers or null, timestamps
 * as dates or ISO date-times, and the open shapes (§2.12) are anything JSON. Parsing code reads these
 * defensively; callers see only the normalised types of ./types.
 */

export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A metric value on the wire: declared string, seen as number, often null. */
export type WireValue = string | number | null;

/** Every response body: `data` (array or object) and, on partial success, `errors` (§2, §7). */
export interface WireEnvelope {
  data: JsonValue;
  errors?: JsonValue;
  /** The answer was a bare JSON list, read as `data` (v1): a relay (the team gateway) sends it back bare. */
  bare?: true;
}

/** §2.1 product summary. */
export interface WireProductSummary {
  product_id: string;
  product_name?: string;
  symbol?: string;
  url?: string;
}

/** §2.1 project list item. */
export interface WireProject {
  name: string;
  project_id: string;
  pricesource_id?: string;
  symbol?: string;
  url?: string;
  is_archived?: boolean;
  archived_reason?: string;
  maintenance_reason?: string;
  products?: WireProductSummary[];
}

/** §2.2 project detail; the inner shapes of the open members are not specified (§2.12). */
export interface WireProjectDetail {
  name: string;
  project_id: string;
  symbol?: string;
  description?: JsonValue;
  market_sectors?: JsonValue;
  chains?: string[];
  links?: { summary?: string; url?: string }[];
  aggregate_by_options?: JsonValue;
  metric_availability?: JsonValue;
  metric_definitions?: { metric_id: string; definition?: string }[];
  metric_sources?: { metric_id: string; definition?: string }[];
}

/** §2.3 product detail. */
export interface WireProductDetail {
  name: string;
  product_id: string;
  project_id?: string;
  symbol?: string;
  market_sectors?: JsonValue;
  chains?: string[];
  aggregate_by_options?: JsonValue;
  metric_availability?: JsonValue;
  metric_definitions?: { metric_id: string; definition?: string }[];
  metric_sources?: { metric_id: string; definition?: string }[];
}

/** §2.4 project metric row: wide, one member per requested metric id. */
export interface WireProjectMetricRow {
  timestamp: string;
  project_name?: string;
  project_id?: string;
  chain?: string;
  business_line?: string;
  version?: string;
  product_id?: string;
  [metricId: string]: WireValue | undefined;
}

/** §2.5 product metric row (carries `date`, not `timestamp`). */
export interface WireProductMetricRow {
  metric_id: string;
  date: string;
  value: WireValue;
  chain_id?: string;
}

/** §2.6 project metric aggregation row. */
export interface WireProjectMetricAggregation {
  project_name?: string;
  project_id?: string;
  metric_id: string;
  metric_aggregation_name: string;
  value: WireValue;
}

/** §2.7 financial statement row ("all members are strings"; value and pop_change seen as numbers/null). */
export interface WireFinancialStatementRow {
  timestamp: string;
  timestamp_label_heading?: string;
  timestamp_label_subheading?: string;
  timestamp_granularity?: string;
  project_name?: string;
  section?: string;
  metric_id: string;
  value: WireValue;
  pop_change?: WireValue;
  definition?: string;
}

/** §2.8 market sector list item. */
export interface WireMarketSector {
  id: string;
  name?: string;
  url?: string;
}

/** §2.8 market sector detail. */
export interface WireMarketSectorDetail {
  market_sector_id: string;
  name?: string;
  description?: { what?: string; how?: string };
  projects?: { project_id: string; name?: string; url?: string }[];
}

/** §2.9 metric list item. */
export interface WireMetric {
  metric_id: string;
  metric_name?: string;
  description?: string;
  url?: string;
}

/** §2.10 multi-project metric row (long). */
export interface WireMultiProjectRow {
  timestamp: string;
  project_id: string;
  project_name?: string;
  metric_id?: string;
  value: WireValue;
}

/** §2.11 error entries. */
export type WireErrorEntry =
  | { code: "NOT_FOUND"; field: string; value: string }
  | { code: "METRIC_NOT_AVAILABLE"; project_id: string; metric_id: string };
