/**
 * Business profiles: which metrics a kind of project has and the ratios that tie its metrics together
 * (fee yield on TVL, take rate on volume, supply-side share...). Rough orders of magnitude of real projects.
 */

export type Profile =
  | "l1"
  | "l2"
  | "dex"
  | "lending"
  | "derivatives"
  | "staking"
  | "stablecoin"
  | "bridge"
  | "oracle"
  | "nft"
  | "yield"
  | "indexer";

export interface ProfileParams {
  label: string;
  metrics: readonly string[];
  /** Annual fees / TVL. */
  feeYield: number;
  /** Fees / trading volume. */
  takeRate: number;
  /** Share of fees paid to the supply side. */
  supplyShare: number;
  /** Share of asset metrics made of bridged assets. */
  bridgedShare: number;
  /** Daily fees per daily active user, USD. */
  feePerUser: number;
  txPerUser: number;
}

const COMMON = [
  "fees",
  "revenue",
  "expenses",
  "earnings",
  "user_dau",
  "user_wau",
  "user_mau",
  "transaction_count",
  "active_developers",
  "code_commits",
];

export const TOKEN_METRICS = [
  "price",
  "market_cap_circulating",
  "market_cap_fully_diluted",
  "token_supply_circulating",
  "token_trading_volume",
  "tokenholders",
  "token_incentives",
  "pf_fully_diluted",
  "ps_fully_diluted",
];

function profile(
  label: string,
  extra: string[],
  feeYield: number,
  takeRate: number,
  supplyShare: number,
  bridgedShare: number,
  feePerUser: number,
  txPerUser: number
): ProfileParams {
  return {
    label,
    metrics: [...COMMON, ...extra],
    feeYield,
    takeRate,
    supplyShare,
    bridgedShare,
    feePerUser,
    txPerUser,
  };
}

export const PROFILES: Readonly<Record<Profile, ProfileParams>> = {
  l1: profile(
    "layer-1 blockchain",
    ["fees_supply_side", "tvl", "gross_profit"],
    0.04,
    0.001,
    0.35,
    0.35,
    2,
    6
  ),
  l2: profile(
    "layer-2 rollup",
    ["fees_supply_side", "tvl", "treasury", "gross_profit"],
    0.02,
    0.001,
    0.6,
    0.55,
    0.3,
    8
  ),
  dex: profile(
    "decentralised exchange",
    ["fees_supply_side", "tvl", "trading_volume", "treasury", "gross_profit"],
    0.25,
    0.003,
    0.85,
    0.12,
    6,
    3
  ),
  lending: profile(
    "lending market",
    ["fees_supply_side", "tvl", "active_loans", "treasury"],
    0.035,
    0.001,
    0.85,
    0.1,
    25,
    2
  ),
  derivatives: profile(
    "derivatives exchange",
    ["fees_supply_side", "tvl", "trading_volume", "treasury"],
    0.6,
    0.0004,
    0.45,
    0.08,
    40,
    12
  ),
  staking: profile(
    "liquid staking service",
    ["fees_supply_side", "tvl", "treasury"],
    0.03,
    0.001,
    0.9,
    0.02,
    60,
    1
  ),
  stablecoin: profile(
    "stablecoin issuer",
    ["tvl", "treasury", "gross_profit"],
    0.05,
    0.001,
    0.05,
    0.15,
    30,
    2
  ),
  bridge: profile(
    "cross-chain bridge",
    ["fees_supply_side", "tvl", "trading_volume"],
    0.02,
    0.0008,
    0.5,
    0.7,
    4,
    1.5
  ),
  oracle: profile("oracle network", ["fees_supply_side"], 0.05, 0.001, 0.9, 0.1, 50, 20),
  nft: profile(
    "NFT marketplace",
    ["trading_volume", "gross_profit"],
    0.05,
    0.025,
    0.05,
    0.05,
    20,
    2
  ),
  yield: profile(
    "yield aggregator",
    ["fees_supply_side", "tvl", "treasury"],
    0.04,
    0.001,
    0.8,
    0.1,
    15,
    1.5
  ),
  indexer: profile("indexing network", ["fees_supply_side"], 0.05, 0.001, 0.85, 0.05, 10, 50),
};
