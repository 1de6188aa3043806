/**
 * How a card shows each figure: Excel number formats by what a metric measures. The service does not say
 * which metrics are dollar amounts, counts or ratios, so this documented table does (the README lists it);
 * ids outside it are guessed from their names, and anything unrecognised shows in Excel's General format,
 * which never dresses a number up as dollars it may not be.
 */

type Unit = "usd" | "price" | "count" | "ratio" | "plain";

const UNITS: Readonly<Record<string, Unit>> = {
  fees: "usd",
  fees_supply_side: "usd",
  revenue: "usd",
  earnings: "usd",
  expenses: "usd",
  gross_profit: "usd",
  token_incentives: "usd",
  trading_volume: "usd",
  token_trading_volume: "usd",
  tvl: "usd",
  treasury: "usd",
  active_loans: "usd",
  market_cap_circulating: "usd",
  market_cap_fully_diluted: "usd",
  price: "price",
  transaction_count: "count",
  code_commits: "count",
  tokenholders: "count",
  active_developers: "count",
  token_supply_circulating: "count",
  user_dau: "count",
  user_wau: "count",
  user_mau: "count",
  pf_fully_diluted: "ratio",
  ps_fully_diluted: "ratio",
};

function unitOf(metricId: string): Unit {
  const known = UNITS[metricId];
  if (known) return known;
  if (/price/.test(metricId)) return "price";
  if (/^p[sfe]_|ratio/.test(metricId)) return "ratio";
  if (/count|user|holders|supply|commits|developers/.test(metricId)) return "count";
  if (
    /fees|revenue|earnings|volume|tvl|cap|treasury|loans|expenses|profit|incentives/.test(metricId)
  )
    return "usd";
  return "plain";
}

/** Dollars without cents for amounts (cents on a TVL are noise), with them for prices. */
const NUMBER_FORMATS: Readonly<Record<Unit, string>> = {
  usd: "$#,##0",
  price: "$#,##0.00",
  count: "#,##0",
  ratio: '0.0"x"',
  plain: "General",
};

export const DATE_FORMAT = "yyyy-mm-dd";

export function formatOf(metricId: string): string {
  return NUMBER_FORMATS[unitOf(metricId)];
}
