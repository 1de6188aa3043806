/**
 * Finds the project a user means: by id, token symbol or name, case-insensitively, through the cached
 * catalogue. A text that fits more than one project (a name two projects share, a ticker that is another
 * project's id, a symbol two tokens share) is refused naming the candidates with their ids, never one of
 * them picked; the id written exactly as the service spells it is always that project. An unknown text
 * suggests the closest ids.
 */
import { distance } from "fastest-levenshtein";
import { CryptometricsError, type Metric, type Project } from "../client";

function norm(text: string): string {
  return text.trim().toLowerCase();
}

/**
 * Suggestions are for typos in ids and names, which are short: a longer text, or a label longer than any
 * real name (a broken catalogue), is not compared, so a pasted paragraph or a huge catalogue entry cannot
 * turn one unknown id into seconds of edit distances.
 */
const MAX_SUGGEST_LENGTH = 100;

/** What a typed text may have meant: an id, and the labels (id, name, ticker) it goes by. */
interface Candidate {
  id: string;
  labels: readonly string[];
}

/** The ids closest to a typed text (typos), best first: what "did you mean" offers. */
export function closest(text: string, candidates: readonly Candidate[], n = 3): string[] {
  const t = norm(text);
  if (t.length > MAX_SUGGEST_LENGTH) return [];
  const scored = candidates
    .map((c) => ({
      id: c.id,
      d: c.labels.reduce(
        (best, l) => (l.length > MAX_SUGGEST_LENGTH ? best : Math.min(best, distance(t, norm(l)))),
        Infinity
      ),
    }))
    .sort((a, b) => a.d - b.d || a.id.localeCompare(b.id));
  // Close enough to be a typo, and no worse than one edit beyond the best match.
  const limit = Math.min(Math.max(2, Math.ceil(t.length / 2)), (scored[0]?.d ?? 0) + 1);
  return scored
    .filter((c) => c.d <= limit)
    .slice(0, n)
    .map((c) => c.id);
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

/** An unknown text, with the candidates' ids closest to it offered. */
function notFound(
  what: string,
  text: string,
  candidates: readonly Candidate[],
  operation: string
): CryptometricsError {
  return new CryptometricsError(
    "not-found",
    `unknown ${what} "${text.trim()}"${didYouMean(closest(text, candidates))}`,
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
  let index = indexes.get(projects);
  if (!index) {
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
    index = built;
    indexes.set(projects, index);
  }
  return index;
}

export function resolveProjectIn(projects: readonly Project[], text: string): Project {
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
  throw notFound("project", text, candidates, "resolveProject");
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
  let index = metricIndexes.get(metrics);
  if (!index) {
    index = { byId: new Map(), byName: new Map() };
    for (const m of metrics) {
      const id = norm(m.metricId);
      if (!index.byId.has(id)) index.byId.set(id, m);
      const name = norm(m.metricName);
      if (!index.byName.has(name)) index.byName.set(name, m);
    }
    metricIndexes.set(metrics, index);
  }
  return index;
}

export function resolveMetricIn(metrics: readonly Metric[], text: string): Metric {
  const t = asked("metric", text, "resolveMetric");
  const index = metricIndexOf(metrics);
  const found = index.byId.get(t) ?? index.byName.get(t);
  if (found) return found;
  const candidates = metrics.map((m) => ({ id: m.metricId, labels: [m.metricId, m.metricName] }));
  throw notFound("metric", text, candidates, "resolveMetric");
}
