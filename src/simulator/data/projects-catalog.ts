/**
 * The demo projects: realistic ids, launch dates and orders of magnitude, plus the special cases the add-in
 * must handle (archived projects, one under maintenance, one whose name breaks naive HTML).
 *
 * `fees` is a project's annual fees in USD around the anchor date (2024-01-01); the other metrics follow
 * from it through the profile's ratios. Token `price` is the price on the anchor date (or at token launch
 * when the token is younger).
 *
 * The projects are data, in projects.json. Among them, on purpose:
 * - edges a model meets, built in so that users meet them in the demo too: a launch on a leap day with an
 *   indexing gap inside a recent quarter (blast), a launch in the middle of a recent quarter (monad: no TTM
 *   until a year after), an archive on a month's last day (fantom: its last month whole, its last quarter not);
 * - two projects that share a name, one of whose tickers is the other's id: "Nova" and "NOVA" fit both, so a
 *   formula naming them gets the candidates, never one of them picked. nova also has the two metrics the
 *   add-in's table of kinds does not hold, and its service sends some of its revenue days as text that is
 *   no number (UNREADABLE_VALUES); nova-network's statement does not foot (statement.ts, STATEMENT_QUIRKS);
 * - a deliberately hostile name (tick-and-tock): the taskpane's escaping tests rely on it.
 */
import { PROFILES, type Profile } from "./profiles";
import projects from "./projects.json";

export interface TokenDef {
  launch: string;
  price: number;
  maxSupply: number;
}

export interface ProductDef {
  id: string;
  name: string;
  symbol?: string;
  launch: string;
  /** Relative size once ramped up. */
  weight: number;
  /** Subset of the project's chains; all of them when omitted. */
  chains?: string[];
}

export interface ProjectDef {
  id: string;
  name: string;
  profile: Profile;
  launch: string;
  fees: number;
  sectors: string[];
  chains: string[];
  symbol?: string;
  pricesourceId?: string;
  token?: TokenDef;
  products?: ProductDef[];
  /** Metrics this project lacks beyond what its profile and the deterministic gaps remove. */
  missing?: string[];
  /** Metrics this project has beyond its profile's (the catalogue's metrics no profile holds). */
  extra?: string[];
  archived?: { date: string; reason: string };
  maintenance?: { reason: string; lagDays: number };
}

function isProfile(name: string): name is Profile {
  return Object.prototype.hasOwnProperty.call(PROFILES, name);
}

/** The profile a project of projects.json names, checked: JSON holds any string. */
function profileOf(id: string, profile: string): Profile {
  if (!isProfile(profile))
    throw new Error(`projects.json: project "${id}" has no profile "${profile}"`);
  return profile;
}

export const PROJECTS: readonly ProjectDef[] = projects.map((def): ProjectDef => ({
  ...def,
  profile: profileOf(def.id, def.profile),
}));
