/**
 * How a metric rolls up over a period (option `agg=` overrides it). The service does not say which metrics are
 * flows or levels, so this documented table does; the README lists it.
 * - flow: an amount per day (fees, revenue, volumes, counts): a period's value is the SUM of its days.
 * - level: a state at a point in time (TVL, price, market cap, supply, holders): the LAST value of the period.
 * - users: daily active-user counts: the AVERAGE over the period (summing daily users double-counts people).
 */
export type MetricKind = "flow" | "level" | "users";
export type Aggregation = "sum" | "avg" | "last" | "first" | "min" | "max";
/** How days without a value are filled in a window or period (fillRefusal below says which a metric admits). */
export type Fill = "none" | "previous" | "zero";

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

/**
 * Which fill a metric admits, so filling never invents a figure:
 * - `previous` carries a value forward: right for a level (TVL on a missing day is the last TVL known), wrong
 *   for a flow (a missing day's revenue is not yesterday's revenue) and for a daily user count;
 * - `zero` counts a missing day as 0: right for a flow (no fees recorded), wrong for a level (a missing TVL
 *   day is not an empty protocol) and for a user count (it drags the average down).
 * Neither ever fills a day past the series' latest data or today (series-ops fills up to a bound the
 * callers take from completeness.ts): those days are not indexed yet, not gaps.
 */
/** Why `fill` does not apply to the metric (the #VALUE! message), or undefined when it does. */
export function fillRefusal(fill: Fill, metricId: string): string | undefined {
  if (fill === "none") return undefined;
  const kind = metricKind(metricId);
  if (fill === "previous" && kind === "flow")
    return `fill=previous carries a level forward (tvl, price, market cap); ${metricId} is a flow summed over days, so carrying it forward would invent ${metricId} on days without data; use fill=zero (a missing day counts 0) or fill=none`;
  if (fill === "previous" && kind === "users")
    return `fill=previous carries a level forward (tvl, price, market cap); ${metricId} is a daily user count, so carrying it forward would invent users; use fill=none`;
  if (fill === "zero" && kind === "level")
    return `fill=zero counts a missing day of a flow as 0; ${metricId} is a level, and a missing day is not a zero ${metricId}; use fill=previous (the last value known) or fill=none`;
  if (fill === "zero" && kind === "users")
    return `fill=zero counts a missing day of a flow as 0; ${metricId} is a daily user count, and a missing day is not zero users; use fill=none`;
  return undefined;
}
