/**
 * A synthetic universe beyond the 51 demo projects (`--projects N`): project definitions made from their
 * index alone, so the same N gives the same projects, names and figures on every run and machine, and
 * growing N only adds projects. They go through the same business profiles and series models as the demo
 * projects, so their metrics agree with one another the same way.
 *
 * Names are made of syllables ("Velora Swap", id "velora-swap", token "VELORA"): a word is unique per
 * project, so ids, names and symbols never collide with one another, and words that would collide with a
 * demo project's id, name or symbol are skipped (a symbol shared with a real project would make that
 * project's symbol ambiguous).
 */
import { hashString, rangeHash, unitHash } from "../util/prng";
import { dayToDate } from "../util/days";
import type { Profile } from "./profiles";
import type { ProjectDef } from "./projects-catalog";

/** Largest universe the simulator builds (the taskpane's catalogue search is measured at 50,000). */
export const MAX_PROJECTS = 50_000;

const ONSETS = [
  "b",
  "c",
  "d",
  "f",
  "g",
  "k",
  "l",
  "m",
  "n",
  "p",
  "r",
  "s",
  "t",
  "v",
  "z",
  "th",
  "qu",
  "x",
];
const VOWELS = ["a", "e", "i", "o", "u", "y"];
const CODAS = ["", "n", "x", "r", "s", "l", "th", "m"];
const SYLLABLES = ONSETS.flatMap((o) => VOWELS.map((v) => o + v));
/** 108 × 108 × 8 = 93,312 words. */
const WORD_SPACE = SYLLABLES.length * SYLLABLES.length * CODAS.length;
/** Coprime to WORD_SPACE (2^7 × 3^6), so index -> word is a permutation: neighbours look unrelated. */
const STRIDE = 48_271;

const SUFFIXES: Readonly<Record<Profile, readonly string[]>> = {
  l1: ["Chain", "Network"],
  l2: ["Rollup", "L2"],
  dex: ["Swap", "Exchange", "DEX"],
  lending: ["Lend", "Finance", "Money Market"],
  derivatives: ["Perps", "Markets", "Options"],
  staking: ["Staking", "Restake"],
  stablecoin: ["USD", "Dollar"],
  bridge: ["Bridge", "Link"],
  oracle: ["Oracle", "Feeds"],
  nft: ["NFT", "Marketplace"],
  yield: ["Yield", "Vaults"],
  indexer: ["Index", "Graph"],
};

const SECTOR_OF: Readonly<Record<Profile, string>> = {
  l1: "blockchains-l1",
  l2: "blockchains-l2",
  dex: "exchanges",
  lending: "lending",
  derivatives: "derivatives",
  staking: "liquid-staking",
  stablecoin: "stablecoin-issuers",
  bridge: "bridges",
  oracle: "oracles",
  nft: "nft-marketplaces",
  yield: "yield-aggregators",
  indexer: "infrastructure",
};

/** Profiles weighted roughly as a real universe is: many exchanges and lending markets, few chains. */
const PROFILE_WEIGHTS: ReadonlyArray<[Profile, number]> = [
  ["dex", 22],
  ["lending", 16],
  ["derivatives", 12],
  ["yield", 10],
  ["staking", 7],
  ["bridge", 7],
  ["nft", 6],
  ["l2", 6],
  ["l1", 5],
  ["oracle", 3],
  ["indexer", 3],
  ["stablecoin", 3],
];
const WEIGHT_TOTAL = PROFILE_WEIGHTS.reduce((sum, [, w]) => sum + w, 0);

const CHAIN_IDS = [
  "ethereum",
  "arbitrum",
  "optimism",
  "base",
  "polygon",
  "bsc",
  "avalanche",
  "solana",
];

/** Day numbers bounding launches: every synthetic project has at least two years of history by 2026. */
const FIRST_LAUNCH = Date.UTC(2018, 0, 1) / 86_400_000;
const LAST_LAUNCH = Date.UTC(2024, 5, 30) / 86_400_000;

/** Share of synthetic projects archived (they keep their history and stop, as the demo's archived ones). */
const ARCHIVED_SHARE = 0.03;
/** Archives happen by the end of 2024, before any "today" the tests and the bench use. */
const LAST_ARCHIVE = Date.UTC(2024, 11, 31) / 86_400_000;

function word(index: number): string {
  let n = (index * STRIDE + 12_345) % WORD_SPACE;
  const coda = CODAS[n % CODAS.length];
  n = Math.floor(n / CODAS.length);
  const second = SYLLABLES[n % SYLLABLES.length];
  const first = SYLLABLES[Math.floor(n / SYLLABLES.length)];
  return first + second + coda;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

function pickProfile(key: string): Profile {
  let r = unitHash(`${key}|profile`) * WEIGHT_TOTAL;
  for (const [profile, weight] of PROFILE_WEIGHTS) {
    if (r < weight) return profile;
    r -= weight;
  }
  return "dex";
}

function pickChains(key: string, profile: Profile): string[] {
  if (profile === "l1") return [];
  const chains = CHAIN_IDS.filter((c, i) => i === 0 || unitHash(`${key}|chain|${c}`) < 0.35);
  // Solana programs rarely run on EVM chains too: a project is on one side.
  return unitHash(`${key}|solana`) < 0.12 ? ["solana"] : chains.filter((c) => c !== "solana");
}

function define(w: string, index: number): ProjectDef {
  const key = `synthetic|${w}`;
  const profile = pickProfile(key);
  const suffixes = SUFFIXES[profile];
  const name = `${capitalise(w)} ${suffixes[hashString(`${key}|suffix`) % suffixes.length]}`;
  const launchDay = Math.floor(rangeHash(`${key}|launch`, FIRST_LAUNCH, LAST_LAUNCH));
  const launch = dayToDate(launchDay);
  const def: ProjectDef = {
    id: slug(name),
    name,
    profile,
    launch,
    // Annual fees from about $200k to $500M, log-uniform: a long tail of small projects.
    fees: Math.pow(10, rangeHash(`${key}|fees`, 5.3, 8.7)),
    sectors: [SECTOR_OF[profile]],
    chains: pickChains(key, profile),
  };
  if (unitHash(`${key}|token`) < 0.7) {
    const tokenLaunch = dayToDate(launchDay + Math.floor(rangeHash(`${key}|tge`, 0, 400)));
    def.symbol = w.toUpperCase();
    def.token = {
      launch: tokenLaunch,
      price: Math.pow(10, rangeHash(`${key}|price`, -2.5, 2.5)),
      maxSupply: Math.pow(10, rangeHash(`${key}|supply`, 7, 10)),
    };
  }
  if (unitHash(`${key}|archived`) < ARCHIVED_SHARE) {
    const lived = Math.floor(rangeHash(`${key}|end`, 300, 1500));
    const archived = Math.max(launchDay + 180, Math.min(launchDay + lived, LAST_ARCHIVE));
    def.archived = {
      date: dayToDate(archived),
      reason: `Synthetic project #${index} wound down; no new data is processed.`,
    };
  }
  return def;
}

/**
 * Definitions of the synthetic projects that bring `demo` up to `total` projects (none when total is at
 * most the demo's size). Deterministic: project k is the same whatever the total.
 */
export function syntheticProjects(demo: readonly ProjectDef[], total: number): ProjectDef[] {
  if (!Number.isInteger(total) || total < 0 || total > MAX_PROJECTS)
    throw new RangeError(`projects must be an integer from 0 to ${MAX_PROJECTS}, got ${total}`);
  const taken = new Set<string>();
  for (const p of demo) {
    taken.add(p.id.toLowerCase());
    taken.add(p.name.toLowerCase());
    if (p.symbol) taken.add(p.symbol.toLowerCase());
  }
  const out: ProjectDef[] = [];
  for (let i = 0; demo.length + out.length < total; i++) {
    const w = word(i);
    const def = define(w, demo.length + out.length + 1);
    if (taken.has(w) || taken.has(def.id) || taken.has(def.name.toLowerCase())) continue;
    taken.add(w);
    taken.add(def.id);
    taken.add(def.name.toLowerCase());
    out.push(def);
  }
  return out;
}
