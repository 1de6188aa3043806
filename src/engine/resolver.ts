/**
 * Finds the project a user means: by id, token symbol or name, case-insensitively, through the cached
 * catalogue. A text that fits more than one project (a name two projects share, a ticker that is another
 * project's id, a symbol two tokens share) is refused naming the candidates with their ids, never one of
 * them picked; the id written exactly as the service spells it is always that project. An unknown text
 * suggests the closest ids (suggest.ts), where the caller can wait for them (withSuggestions).
 */
import {
  CryptometricsError,
  isCryptometricsError,
  keptFor,
  type Metric,
  type Project,
} from "../client";
import type { Candidate } from "./suggest";

function norm(text: string): string {
  return text.trim().toLowerCase();
}

/** The ids closest to a typed text, best first (suggest.ts's `closest`): what "did you mean" offers. */
export type Suggest = (text: string, candidates: readonly Candidate[]) => string[];

/** The suggestions once their code has arrived: from then on a look-up that cannot wait uses them too. */
let loaded: Suggest | undefined;

/**
 * The suggestions' code (edit distances), loaded with the first unknown text: a chunk of its own on the Excel
 * page, where most sessions never mistype a name.
 */
export function loadSuggest(): Promise<Suggest> {
  return import(/* webpackChunkName: "suggest" */ "./suggest").then((m) => (loaded = m.closest));
}

/** The suggestions if their code has arrived, else undefined (the caller leaves an unknown text to a wait). */
export function suggestNow(): Suggest | undefined {
  return loaded;
}

/**
 * A look-up that suggests: `resolve` run with the suggestions if they are here, and when it fails on an
 * unknown text without them, run again once they are loaded, so its error says "did you mean".
 */
export async function withSuggestions<T>(resolve: (suggest?: Suggest) => T): Promise<T> {
  const suggest = loaded;
  try {
    return resolve(suggest);
  } catch (error) {
    if (suggest || !isCryptometricsError(error) || error.kind !== "not-found") throw error;
    return resolve(await loadSuggest());
  }
}

/** `; did you mean "a", "b"?`, or nothing without suggestions. */
export function didYouMean(suggestions: readonly string[]): string {
  return suggestions.length > 0
    ? `; did you mean ${suggestions.map((s) => `"${s}"`).join(", ")}?`
    : "";
}

/** The text as looked up (trimmed, lower case); an empty one is refused before any look-up. */
function asked(what: string, text: string, operation: string): string {
  const t = norm(text);
  if (!t) throw new CryptometricsError("invalid-input", `no ${what} given`, { operation });
  return t;
}

/** An unknown text, with the candidates' ids closest to it offered where the caller gave `suggest`. */
function notFound(
  what: string,
  text: string,
  candidates: readonly Candidate[],
  operation: string,
  suggest: Suggest | undefined
): CryptometricsError {
  return new CryptometricsError(
    "not-found",
    `unknown ${what} "${text.trim()}"${didYouMean(suggest ? suggest(text, candidates) : [])}`,
    {
      operation,
      ids: [text],
    }
  );
}

interface ProjectIndex {
  /** Ids exactly as the service spells them. */
  exact: Map<string, Project>;
  /** Every project a text fits, by id, symbol or name, case-insensitively; each project once, in order. */
  byText: Map<string, Project[]>;
}

/** Look-ups by id, symbol and name, built once per catalogue (a warm workbook resolves thousands of cells). */
const indexes = new WeakMap<readonly Project[], ProjectIndex>();

function indexOf(projects: readonly Project[]): ProjectIndex {
  // A named builder, not a closure: this runs for every cell of a warm workbook and allocates nothing.
  return keptFor(indexes, projects, buildProjectIndex);
}

function buildProjectIndex(projects: readonly Project[]): ProjectIndex {
  const built: ProjectIndex = { exact: new Map(), byText: new Map() };
  const fits = (text: string, p: Project): void => {
    // Appended in place: copying the list per project is quadratic when thousands share a symbol.
    const key = norm(text);
    const same = built.byText.get(key);
    if (!same) built.byText.set(key, [p]);
    else if (same[same.length - 1] !== p) same.push(p);
  };
  for (const p of projects) {
    if (!built.exact.has(p.projectId)) built.exact.set(p.projectId, p);
    fits(p.projectId, p);
    if (p.symbol) fits(p.symbol, p);
    fits(p.name, p);
  }
  return built;
}

export function resolveProjectIn(
  projects: readonly Project[],
  text: string,
  suggest?: Suggest
): Project {
  const t = asked("project", text, "resolveProject");
  const index = indexOf(projects);
  const exact = index.exact.get(text.trim());
  if (exact) return exact;
  const fit = index.byText.get(t) ?? [];
  if (fit.length === 1) return fit[0];
  if (fit.length > 1) throw ambiguous(text.trim(), fit);
  const candidates = projects.map((p) => ({
    id: p.projectId,
    labels: [p.projectId, p.name, ...(p.symbol ? [p.symbol] : [])],
  }));
  throw notFound("project", text, candidates, "resolveProject", suggest);
}

/** Candidates named in an ambiguous text's message: enough to choose from, bounded however many fit. */
const MAX_CANDIDATES = 5;

/**
 * `"Nova" fits 2 projects: "nova" (Nova, NVX), "nova-network" (Nova, NOVA); use the project id`: how the text
 * fits each (its id, name and ticker), so the user sees which one is meant.
 */
function ambiguous(text: string, fit: readonly Project[]): CryptometricsError {
  const listed = fit
    .slice(0, MAX_CANDIDATES)
    .map((p) => `"${p.projectId}" (${[p.name, p.symbol].filter(Boolean).join(", ")})`)
    .join(", ");
  const more = fit.length > MAX_CANDIDATES ? `, and ${fit.length - MAX_CANDIDATES} more` : "";
  return new CryptometricsError(
    "not-found",
    `"${text}" fits ${fit.length} projects: ${listed}${more}; use the project id`,
    { operation: "resolveProject", ids: fit.map((p) => p.projectId) }
  );
}

interface MetricIndex {
  byId: Map<string, Metric>;
  byName: Map<string, Metric>;
}

/**
 * Look-ups by id and name, built once per catalogue: scanning the list per cell normalised every metric's id
 * (a new string each), which was most of what a warm cell allocated. The first metric of an id or name wins,
 * as a scan of the list would find it.
 */
const metricIndexes = new WeakMap<readonly Metric[], MetricIndex>();

function metricIndexOf(metrics: readonly Metric[]): MetricIndex {
  return keptFor(metricIndexes, metrics, buildMetricIndex);
}

function buildMetricIndex(metrics: readonly Metric[]): MetricIndex {
  const index: MetricIndex = { byId: new Map(), byName: new Map() };
  for (const m of metrics) {
    const id = norm(m.metricId);
    if (!index.byId.has(id)) index.byId.set(id, m);
    const name = norm(m.metricName);
    if (!index.byName.has(name)) index.byName.set(name, m);
  }
  return index;
}

export function resolveMetricIn(
  metrics: readonly Metric[],
  text: string,
  suggest?: Suggest
): Metric {
  const t = asked("metric", text, "resolveMetric");
  const index = metricIndexOf(metrics);
  const found = index.byId.get(t) ?? index.byName.get(t);
  if (found) return found;
  const candidates = metrics.map((m) => ({ id: m.metricId, labels: [m.metricId, m.metricName] }));
  throw notFound("metric", text, candidates, "resolveMetric", suggest);
}
