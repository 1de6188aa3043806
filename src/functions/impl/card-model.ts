/**
 * A project card as data, before it becomes an Excel entity value (entity.ts): the profile from the project
 * detail and catalogue, and figures computed by the same rules as VALUE (figures.ts). Plain and JSON-safe, so
 * the engine can cache it whole: a warm card costs no request and no recomputation.
 */

/** A figure is a number with the day it is as of, or the reason there is none (a #N/A in the card). */
export type Figure = { value: number; asOf?: number; note?: string } | { missing: string };

export function isMissing<T extends object>(f: T | { missing: string }): f is { missing: string } {
  return "missing" in f;
}

export interface MetricFigure {
  metricId: string;
  /** The service's metric name (the card's property name). */
  name: string;
  figure: Figure;
}

export interface Quarter {
  /** "Q3 2026". */
  label: string;
  /** First and last day (day numbers). */
  start: number;
  end: number;
}

export interface StatementLine {
  metricId: string;
  name: string;
  /** One per quarter, oldest first. */
  values: Figure[];
}

export interface Financials {
  quarters: Quarter[];
  sections: { title: string; lines: StatementLine[] }[];
}

export type DataSource = "simulated" | "service" | "unknown";

export interface ProjectCard {
  projectId: string;
  name: string;
  symbol: string;
  description: string;
  sectors: string[];
  chains: string[];
  links: { summary: string; url: string }[];
  archived: boolean;
  archivedReason: string;
  maintenanceReason: string;
  /** First day with data, and the series it was read from. */
  launch: Figure;
  /** The latest value of every metric available for the project, in the catalogue's order. */
  latest: MetricFigure[];
  revenueTtm: Figure;
  feesTtm: Figure;
  ps: Figure;
  pf: Figure;
  financials: Financials | { missing: string };
  /** Where the figures came from, and the service's host, for the card's provider line. */
  source: DataSource;
  serviceHost: string;
  /** Set when some answer behind the card was an earlier one, served because the service failed. */
  stale?: { fetchedAt: number; reason: string };
}
