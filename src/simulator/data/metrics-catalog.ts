/**
 * The metrics the simulated service knows, with how each one behaves over a period.
 *
 * The classification is the simulator's own (statements, aggregations, v1 roll-ups); the engine keeps its own
 * table and must not import this one.
 */

/** flow: summed over a period; level: last value of a period; average: mean over a period (user counts). */
export type MetricKind = "flow" | "level" | "average";

export interface MetricDef {
  id: string;
  name: string;
  description: string;
  kind: MetricKind;
  /** Whole numbers (counts). */
  integer: boolean;
  /** Can be broken down by chain (`aggregate_by=chain`, `chain_ids`). */
  byChain: boolean;
  /** Can be broken down by product (`aggregate_by=product_id`, `product_ids`, product metrics). */
  byProduct: boolean;
  /** Asset-related: bridged assets are removed from it when `assets_bridged=false`. */
  asset: boolean;
  /** Needs a launched token. */
  token: boolean;
}

type Flags = Partial<Pick<MetricDef, "integer" | "byChain" | "byProduct" | "asset" | "token">>;

function metric(
  id: string,
  name: string,
  kind: MetricKind,
  description: string,
  flags: Flags = {}
): MetricDef {
  return {
    id,
    name,
    description,
    kind,
    integer: flags.integer ?? false,
    byChain: flags.byChain ?? false,
    byProduct: flags.byProduct ?? false,
    asset: flags.asset ?? false,
    token: flags.token ?? false,
  };
}

const split = { byChain: true, byProduct: true };

export const METRICS: readonly MetricDef[] = [
  metric("fees", "Fees", "flow", "Total fees paid by the users of the project.", split),
  metric(
    "fees_supply_side",
    "Supply-side fees",
    "flow",
    "Share of the fees paid out to liquidity providers, lenders, validators or other supply-side participants.",
    split
  ),
  metric(
    "revenue",
    "Revenue",
    "flow",
    "Share of the fees kept by the project and its token holders (fees minus supply-side fees).",
    split
  ),
  metric(
    "token_incentives",
    "Token incentives",
    "flow",
    "Value of the tokens distributed to users as incentives, at the token price of the day.",
    { token: true }
  ),
  metric("expenses", "Expenses", "flow", "Operating expenses plus token incentives."),
  metric("earnings", "Earnings", "flow", "Revenue minus expenses."),
  metric("gross_profit", "Gross profit", "flow", "Revenue minus the cost of revenue."),
  metric(
    "trading_volume",
    "Trading volume",
    "flow",
    "Notional value of the trades executed through the project.",
    split
  ),
  metric(
    "token_trading_volume",
    "Token trading volume",
    "flow",
    "Value of the project's token traded on exchanges.",
    { token: true }
  ),
  metric(
    "transaction_count",
    "Transactions",
    "flow",
    "Number of transactions involving the project.",
    { ...split, integer: true }
  ),
  metric(
    "code_commits",
    "Code commits",
    "flow",
    "Commits to the project's public code repositories.",
    { integer: true }
  ),
  metric(
    "tvl",
    "Total value locked",
    "level",
    "Value of the assets deposited in the project's contracts.",
    { ...split, asset: true }
  ),
  metric("active_loans", "Active loans", "level", "Value of the loans outstanding.", {
    ...split,
    asset: true,
  }),
  metric("treasury", "Treasury", "level", "Value of the assets held by the project's treasury.", {
    asset: true,
  }),
  metric("price", "Price", "level", "Price of the project's token in USD.", { token: true }),
  metric(
    "market_cap_circulating",
    "Circulating market cap",
    "level",
    "Token price times circulating supply.",
    { token: true }
  ),
  metric(
    "market_cap_fully_diluted",
    "Fully diluted market cap",
    "level",
    "Token price times maximum supply.",
    { token: true }
  ),
  metric(
    "token_supply_circulating",
    "Circulating supply",
    "level",
    "Number of tokens in circulation.",
    { token: true }
  ),
  metric("tokenholders", "Token holders", "level", "Number of addresses holding the token.", {
    token: true,
    integer: true,
  }),
  metric(
    "pf_fully_diluted",
    "P/F ratio (fully diluted)",
    "level",
    "Fully diluted market cap divided by annualised fees of the last 30 days.",
    { token: true }
  ),
  metric(
    "ps_fully_diluted",
    "P/S ratio (fully diluted)",
    "level",
    "Fully diluted market cap divided by annualised revenue of the last 30 days.",
    { token: true }
  ),
  metric(
    "active_developers",
    "Active developers",
    "level",
    "Developers who committed code in the last 30 days.",
    { integer: true }
  ),
  // Two metrics the add-in's table of kinds does not hold (src/engine/figures/metric-kinds.ts): the add-in asks how
  // to roll them up (agg=) rather than guessing from their names. Only nova has them.
  metric(
    "fees_cumulative",
    "Cumulative fees",
    "level",
    "Running total of the fees paid since launch: each day's value includes every earlier day's fees."
  ),
  metric(
    "revenue_annualized",
    "Annualised revenue",
    "average",
    "Revenue of the last 30 days at an annual rate (× 365 ÷ 30): a rate per year, not a day's revenue."
  ),
  metric(
    "user_dau",
    "Daily active users",
    "average",
    "Unique addresses interacting with the project in the day.",
    { integer: true, byProduct: true }
  ),
  metric(
    "user_wau",
    "Weekly active users",
    "average",
    "Unique addresses interacting with the project in the last 7 days.",
    { integer: true }
  ),
  metric(
    "user_mau",
    "Monthly active users",
    "average",
    "Unique addresses interacting with the project in the last 30 days.",
    { integer: true }
  ),
];

const BY_ID = new Map(METRICS.map((m) => [m.id, m]));

export function findMetric(id: string): MetricDef | undefined {
  return BY_ID.get(id);
}

/** Income statement then key metrics, in the order they appear in a financial statement. */
export const STATEMENT_SECTIONS: readonly { section: string; metrics: readonly string[] }[] = [
  {
    section: "Income statement",
    metrics: ["fees", "fees_supply_side", "revenue", "token_incentives", "expenses", "earnings"],
  },
  {
    section: "Key metrics",
    metrics: [
      "tvl",
      "active_loans",
      "user_dau",
      "user_mau",
      "market_cap_fully_diluted",
      "tokenholders",
    ],
  },
];

/** Where a metric's figures come from (the `metric_sources` of a project detail). */
export function metricSource(m: MetricDef): string {
  if (m.token) return "Exchange prices and token supply schedules (simulated).";
  if (m.id === "code_commits" || m.id === "active_developers")
    return "Public code repositories (simulated).";
  return "On-chain data indexed daily (simulated).";
}
