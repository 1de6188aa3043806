/**
 * How a metric rolls up over a period (option `agg=` overrides it). The service does not say which metrics are
 * flows or levels, so this documented table does; the README lists it.
 * - flow: an amount per day (fees, revenue, volumes, counts): a period's value is the SUM of its days.
 * - level: a state at a point in time (TVL, price, market cap, supply, holders): the LAST value of the period.
 * - users: daily active-user counts: the AVERAGE over the period (summing daily users double-counts people).
 */
export type MetricKind = "flow" | "level" | "users";
export type Aggregation = "sum" | "avg" | "last" | "first" | "min" | "max";

export const METRIC_KINDS: Readonly<Record<string, MetricKind>> = {
  fees: "flow",
  fees_supply_side: "flow",
  revenue: "flow",
  earnings: "flow",
  expenses: "flow",
  gross_profit: "flow",
  token_incentives: "flow",
  trading_volume: "flow",
  token_trading_volume: "flow",
  transaction_count: "flow",
  code_commits: "flow",
  tvl: "level",
  price: "level",
  market_cap_circulating: "level",
  market_cap_fully_diluted: "level",
  treasury: "level",
  token_supply_circulating: "level",
  tokenholders: "level",
  active_loans: "level",
  active_developers: "level",
  pf_fully_diluted: "level",
  ps_fully_diluted: "level",
  user_dau: "users",
  user_wau: "users",
  user_mau: "users",
};

const DEFAULT_AGGREGATION: Readonly<Record<MetricKind, Aggregation>> = {
  flow: "sum",
  level: "last",
  users: "avg",
};

/**
 * Kind of a metric id. Ids outside the table are guessed from their names (volumes, counts and fee-like ids
 * are flows; user counts average); anything else is treated as a level, the choice that never inflates a
 * number by summing it.
 */
export function metricKind(metricId: string): MetricKind {
  const known = METRIC_KINDS[metricId];
  if (known) return known;
  if (/^user_|_users$|_dau$|_wau$|_mau$/.test(metricId)) return "users";
  if (/volume|_count$|fees|revenue|earnings|expenses|incentives|profit/.test(metricId))
    return "flow";
  return "level";
}

export function defaultAggregation(metricId: string): Aggregation {
  return DEFAULT_AGGREGATION[metricKind(metricId)];
}
