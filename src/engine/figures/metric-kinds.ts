/**
 * What a metric is, so a period, a window, a fill or growth rolls it up as what it is. The service does not
 * say (§2.9 gives a name and a description), so this documented table does, reviewed against the service's
 * catalogue words (test/engine/figures/metric-kinds.test.ts holds the table to them); the reference lists it.
 *
 * A metric the table does not hold is asked about, never guessed: its single days are shown, and any period,
 * window, fill or growth of it is #N/A saying "the kind of <metric> is not known: add agg=sum, avg or last".
 * (Guessing from words in the id summed `fees_cumulative` and `revenue_annualized` over a quarter and a year:
 * 37 million for a running total that had gained 91 thousand.) `agg=` always wins, for any metric.
 *
 * Kinds, their default roll-up and the fill each admits (a fill never invents a figure):
 * - flow: an amount per day (fees, revenue, volumes, transactions): SUM; a missing day counts 0 (fill=zero).
 * - level: a state at a point in time (TVL, market cap, supply, a multiple): LAST; carried (fill=previous).
 * - price: a price per token: LAST (the period's close); carried.
 * - count: a number of things at a point in time (holders, developers): LAST; carried.
 * - cumulative: a running total since launch: LAST (what it reached; the period's gain is the change); carried.
 * - users: daily active users: AVERAGE (summing daily users counts people again every day); no fill.
 * - average: an average per unit (fees per user): AVERAGE; no fill.
 * - rate: a rate per year (annualised revenue): AVERAGE; no fill.
 */
export type MetricKind =
  "flow" | "level" | "price" | "count" | "cumulative" | "users" | "average" | "rate";
export type Aggregation = "sum" | "avg" | "last" | "first" | "min" | "max";
/** How days without a value are filled in a window or period (fillRefusal below says which a metric admits). */
export type Fill = "none" | "previous" | "zero";

/** What a metric's figures count in. */
type MetricUnit = "USD" | "tokens" | "users" | "count" | "multiple";

interface MetricInfo {
  readonly kind: MetricKind;
  readonly unit: MetricUnit;
}

const info = (kind: MetricKind, unit: MetricUnit): MetricInfo => ({ kind, unit });

/** The metrics the add-in knows: the service's catalogue (§4.10) as published, each with its kind and unit. */
export const METRIC_TABLE: Readonly<Record<string, MetricInfo>> = {
  fees: info("flow", "USD"),
  fees_supply_side: info("flow", "USD"),
  revenue: info("flow", "USD"),
  earnings: info("flow", "USD"),
  expenses: info("flow", "USD"),
  gross_profit: info("flow", "USD"),
  token_incentives: info("flow", "USD"),
  trading_volume: info("flow", "USD"),
  token_trading_volume: info("flow", "USD"),
  transaction_count: info("flow", "count"),
  code_commits: info("flow", "count"),
  tvl: info("level", "USD"),
  active_loans: info("level", "USD"),
  treasury: info("level", "USD"),
  market_cap_circulating: info("level", "USD"),
  market_cap_fully_diluted: info("level", "USD"),
  token_supply_circulating: info("level", "tokens"),
  pf_fully_diluted: info("level", "multiple"),
  ps_fully_diluted: info("level", "multiple"),
  price: info("price", "USD"),
  tokenholders: info("count", "count"),
  active_developers: info("count", "count"),
  user_dau: info("users", "users"),
  user_wau: info("users", "users"),
  user_mau: info("users", "users"),
};

/** How each kind rolls up by default, and what it is in words (the reference and the taskpane say it). */
export const KINDS: Readonly<
  Record<MetricKind, { readonly agg: Aggregation; readonly fill: Fill; readonly words: string }>
> = {
  flow: { agg: "sum", fill: "zero", words: "an amount per day, summed over a period" },
  level: { agg: "last", fill: "previous", words: "a level, its last value in a period" },
  price: {
    agg: "last",
    fill: "previous",
    words: "a price, its last value (the close) in a period",
  },
  count: {
    agg: "last",
    fill: "previous",
    words: "a count at a point in time, its last value in a period",
  },
  cumulative: {
    agg: "last",
    fill: "previous",
    words: "a running total since launch, its last value in a period",
  },
  users: { agg: "avg", fill: "none", words: "daily active users, averaged over a period" },
  average: { agg: "avg", fill: "none", words: "an average per unit, averaged over a period" },
  rate: { agg: "avg", fill: "none", words: "a rate per year, averaged over a period" },
};

/** What the table says of a metric; undefined for an id it does not hold. */
export function metricInfo(metricId: string): MetricInfo | undefined {
  return Object.prototype.hasOwnProperty.call(METRIC_TABLE, metricId)
    ? METRIC_TABLE[metricId]
    : undefined;
}

/** The kind of a metric the table holds; undefined for any other id: it is asked, never guessed. */
export function metricKind(metricId: string): MetricKind | undefined {
  return metricInfo(metricId)?.kind;
}

/** The roll-up of a metric: `agg=` when given, else its kind's; undefined when neither says. */
export function defaultAggregation(metricId: string, agg?: Aggregation): Aggregation | undefined {
  if (agg !== undefined) return agg;
  const kind = metricKind(metricId);
  return kind && KINDS[kind].agg;
}

/** The #N/A of a period, window, fill or growth of a metric whose kind is not known and no agg= says. */
export function unknownKindMessage(metricId: string): string {
  return `the kind of ${metricId} is not known: add agg=sum, avg or last (sum for an amount per day, avg for a rate or an average, last for a level or a running total)`;
}

/** The fill a roll-up admits for a metric the table does not hold: agg=sum fills 0, agg=last carries. */
const FILL_OF_AGG: Readonly<Partial<Record<Aggregation, Fill>>> = {
  sum: "zero",
  last: "previous",
  first: "previous",
};

/**
 * Why `fill` does not apply to the metric (the #VALUE! message), or undefined when it does. A metric of the
 * table admits the fill of its kind; any other metric the fill of its `agg=` (sum: zero, last or first:
 * previous), and without an agg none (the caller asks for the kind first: unknownKindMessage).
 * - `previous` carries a value forward: right for a level (TVL on a missing day is the last TVL known), wrong
 *   for a flow (a missing day's revenue is not yesterday's revenue), a user count, an average or a rate;
 * - `zero` counts a missing day as 0: right for a flow (no fees recorded), wrong for a level (a missing TVL
 *   day is not an empty protocol), a user count (it drags the average down), an average or a rate.
 * Neither ever fills a day past the series' latest data or today (series-ops fills up to a bound the callers
 * take from completeness.ts): those days are not indexed yet, not gaps.
 */
export function fillRefusal(fill: Fill, metricId: string, agg?: Aggregation): string | undefined {
  if (fill === "none") return undefined;
  const kind = metricKind(metricId);
  if (kind === undefined) {
    if (agg === undefined) return unknownKindMessage(metricId);
    if (FILL_OF_AGG[agg] === fill) return undefined;
    return fill === "previous"
      ? `fill=previous carries a level forward; ${metricId} rolls up with agg=${agg}, so carrying it forward would invent ${metricId} on days without data; use fill=none${agg === "sum" ? " or fill=zero" : ""}`
      : `fill=zero counts a missing day of an amount as 0; ${metricId} rolls up with agg=${agg}, and a missing day is not a zero ${metricId}; use fill=none${agg === "last" || agg === "first" ? " or fill=previous" : ""}`;
  }
  const admitted = KINDS[kind].fill;
  if (admitted === fill) return undefined;
  if (fill === "previous") {
    if (kind === "flow")
      return `fill=previous carries a level forward (tvl, price, market cap); ${metricId} is a flow summed over days, so carrying it forward would invent ${metricId} on days without data; use fill=zero (a missing day counts 0) or fill=none`;
    return `fill=previous carries a level forward (tvl, price, market cap); ${metricId} is ${kind === "users" ? "a daily user count, so carrying it forward would invent users" : `${KINDS[kind].words}, so carrying it forward would invent ${metricId}`}; use fill=none`;
  }
  if (admitted === "previous")
    return `fill=zero counts a missing day of a flow as 0; ${metricId} is a ${kind}, and a missing day is not a zero ${metricId}; use fill=previous (the last value known) or fill=none`;
  return `fill=zero counts a missing day of a flow as 0; ${metricId} is ${kind === "users" ? "a daily user count, and a missing day is not zero users" : `${KINDS[kind].words}, and a missing day is not a zero ${metricId}`}; use fill=none`;
}

const UNIT_WORDS: Readonly<Record<MetricUnit, string>> = {
  USD: "US dollars",
  tokens: "tokens",
  users: "users",
  count: "a count",
  multiple: "a multiple (×)",
};

/**
 * A metric's kind and unit in a sentence, for the taskpane's metric details: "Kind: flow (an amount per day,
 * summed over a period); unit: US dollars.", or what to do for a metric the table does not hold.
 */
export function describeMetricKind(metricId: string): string {
  const known = metricInfo(metricId);
  if (!known)
    return `Kind: not known to the add-in. Its single days are shown; a period, window, fill or growth needs agg=sum, avg or last.`;
  return `Kind: ${known.kind} (${KINDS[known.kind].words}); unit: ${UNIT_WORDS[known.unit]}.`;
}
