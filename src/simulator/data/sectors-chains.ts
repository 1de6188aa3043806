/** Market sectors and chains of the demo dataset (ids as the real service spells them). */

export interface SectorDef {
  id: string;
  name: string;
  what: string;
  how: string;
}

export const SECTORS: readonly SectorDef[] = [
  {
    id: "blockchains-l1",
    name: "Blockchains (L1)",
    what: "Base-layer blockchains.",
    how: "Users pay transaction fees to validators or miners; part of the fees may be burned.",
  },
  {
    id: "blockchains-l2",
    name: "Blockchains (L2)",
    what: "Rollups that settle on another chain.",
    how: "Users pay fees to a sequencer, which pays the base layer for data and settlement.",
  },
  {
    id: "lending",
    name: "Lending",
    what: "Markets where users lend and borrow crypto assets.",
    how: "Borrowers pay interest to lenders; the protocol keeps a reserve factor.",
  },
  {
    id: "exchanges",
    name: "Exchanges",
    what: "Decentralised exchanges and aggregators.",
    how: "Traders pay swap fees to liquidity providers; a protocol fee may apply.",
  },
  {
    id: "derivatives",
    name: "Derivatives",
    what: "Perpetuals, options and other derivatives venues.",
    how: "Traders pay trading and funding fees, shared with liquidity providers.",
  },
  {
    id: "liquid-staking",
    name: "Liquid staking",
    what: "Staking services issuing a liquid token for staked assets.",
    how: "The service keeps a share of the staking rewards.",
  },
  {
    id: "stablecoin-issuers",
    name: "Stablecoin issuers",
    what: "Issuers of tokens pegged to a fiat currency.",
    how: "Issuers earn the yield of the reserves backing the stablecoins.",
  },
  {
    id: "bridges",
    name: "Bridges",
    what: "Protocols moving assets between chains.",
    how: "Users pay a fee per transfer, shared with relayers and liquidity providers.",
  },
  {
    id: "oracles",
    name: "Oracles",
    what: "Networks bringing off-chain data on chain.",
    how: "Data consumers pay node operators for data feeds.",
  },
  {
    id: "nft-marketplaces",
    name: "NFT marketplaces",
    what: "Marketplaces for non-fungible tokens.",
    how: "The marketplace takes a fee on each sale.",
  },
  {
    id: "yield-aggregators",
    name: "Yield aggregators",
    what: "Vaults that route deposits to the best yields.",
    how: "The vaults charge management and performance fees.",
  },
  {
    id: "infrastructure",
    name: "Infrastructure",
    what: "Indexing, data and developer infrastructure.",
    how: "Users pay for queries or services; providers earn most of the fees.",
  },
];

export interface ChainDef {
  id: string;
  name: string;
  launch: string;
}

export const CHAINS: readonly ChainDef[] = [
  { id: "ethereum", name: "Ethereum", launch: "2015-07-30" },
  { id: "polygon", name: "Polygon", launch: "2020-05-30" },
  { id: "bsc", name: "BNB Smart Chain", launch: "2020-09-01" },
  { id: "avalanche", name: "Avalanche", launch: "2020-09-21" },
  { id: "solana", name: "Solana", launch: "2020-03-16" },
  { id: "arbitrum", name: "Arbitrum", launch: "2021-08-31" },
  { id: "optimism", name: "Optimism", launch: "2021-12-16" },
  { id: "base", name: "Base", launch: "2023-08-09" },
];

export const SECTOR_IDS = new Set(SECTORS.map((s) => s.id));
export const CHAIN_IDS = new Set(CHAINS.map((c) => c.id));
