/**
 * Finds the project a user means: by id, token symbol or name, case-insensitively, through the cached
 * catalogue. An ambiguous symbol names its candidates; an unknown text suggests the closest ids.
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

/** The ids closest to a typed text (typos), best first: what "did you mean" offers. */
export function closest(
  text: string,
  candidates: ReadonlyArray<{ id: string; labels: readonly string[] }>,
  n = 3
): string[] {
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

function notFound(
  what: string,
  text: string,
  suggestions: readonly string[],
  operation: string
): CryptometricsError {
  return new CryptometricsError(
    "not-found",
    `unknown ${what} "${text.trim()}"${didYouMean(suggestions)}`,
    {
      operation,
      ids: [text],
    }
  );
}

interface ProjectIndex {
  byId: Map<string, Project>;
  bySymbol: Map<string, Project[]>;
  byName: Map<string, Project>;
}

/** Look-ups by id, symbol and name, built once per catalogue (a warm workbook resolves thousands of cells). */
const indexes = new WeakMap<readonly Project[], ProjectIndex>();

function indexOf(projects: readonly Project[]): ProjectIndex {
  let index = indexes.get(projects);
  if (!index) {
    index = { byId: new Map(), bySymbol: new Map(), byName: new Map() };
    for (const p of projects) {
      index.byId.set(norm(p.projectId), p);
      if (p.symbol) {
        // Appended in place: copying the list per project is quadratic when thousands share a symbol.
        const key = norm(p.symbol);
        const same = index.bySymbol.get(key);
        if (same) same.push(p);
        else index.bySymbol.set(key, [p]);
      }
      if (!index.byName.has(norm(p.name))) index.byName.set(norm(p.name), p);
    }
    indexes.set(projects, index);
  }
  return index;
}

export function resolveProjectIn(projects: readonly Project[], text: string): Project {
  const t = norm(text);
  if (!t)
    throw new CryptometricsError("invalid-input", "no project given", {
      operation: "resolveProject",
    });
  const index = indexOf(projects);
  const byId = index.byId.get(t);
  if (byId) return byId;
  const bySymbol = index.bySymbol.get(t) ?? [];
  if (bySymbol.length === 1) return bySymbol[0];
  if (bySymbol.length > 1) {
    const ids = bySymbol.map((p) => `"${p.projectId}"`).join(", ");
    throw new CryptometricsError(
      "not-found",
      `symbol "${text.trim()}" is ambiguous: it is the token of ${ids}; use the project id`,
      { operation: "resolveProject", ids: bySymbol.map((p) => p.projectId) }
    );
  }
  const byName = index.byName.get(t);
  if (byName) return byName;
  const candidates = projects.map((p) => ({
    id: p.projectId,
    labels: [p.projectId, p.name, ...(p.symbol ? [p.symbol] : [])],
  }));
  throw notFound("project", text, closest(text, candidates), "resolveProject");
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
  const t = norm(text);
  if (!t)
    throw new CryptometricsError("invalid-input", "no metric given", {
      operation: "resolveMetric",
    });
  const index = metricIndexOf(metrics);
  const found = index.byId.get(t) ?? index.byName.get(t);
  if (found) return found;
  const candidates = metrics.map((m) => ({ id: m.metricId, labels: [m.metricId, m.metricName] }));
  throw notFound("metric", text, closest(text, candidates), "resolveMetric");
}
