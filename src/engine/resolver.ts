/**
 * Finds the project a user means: by id, token symbol or name, case-insensitively, through the cached
 * catalogue. An ambiguous symbol names its candidates; an unknown text suggests the closest ids.
 */
import { distance } from "fastest-levenshtein";
import { CryptometricsError, type Metric, type Project } from "../client";

function norm(text: string): string {
  return text.trim().toLowerCase();
}

function closest(
  text: string,
  candidates: ReadonlyArray<{ id: string; labels: readonly string[] }>,
  n = 3
): string[] {
  const t = norm(text);
  const scored = candidates
    .map((c) => ({ id: c.id, d: Math.min(...c.labels.map((l) => distance(t, norm(l)))) }))
    .sort((a, b) => a.d - b.d || a.id.localeCompare(b.id));
  // Close enough to be a typo, and no worse than one edit beyond the best match.
  const limit = Math.min(Math.max(2, Math.ceil(t.length / 2)), (scored[0]?.d ?? 0) + 1);
  return scored
    .filter((c) => c.d <= limit)
    .slice(0, n)
    .map((c) => c.id);
}

function notFound(
  what: string,
  text: string,
  suggestions: readonly string[],
  operation: string
): CryptometricsError {
  const hint =
    suggestions.length > 0 ? `; did you mean ${suggestions.map((s) => `"${s}"`).join(", ")}?` : "";
  return new CryptometricsError("not-found", `unknown ${what} "${text.trim()}"${hint}`, {
    operation,
    ids: [text],
  });
}

export function resolveProjectIn(projects: readonly Project[], text: string): Project {
  const t = norm(text);
  if (!t)
    throw new CryptometricsError("invalid-input", "no project given", {
      operation: "resolveProject",
    });
  const byId = projects.find((p) => norm(p.projectId) === t);
  if (byId) return byId;
  const bySymbol = projects.filter((p) => p.symbol && norm(p.symbol) === t);
  if (bySymbol.length === 1) return bySymbol[0];
  if (bySymbol.length > 1) {
    const ids = bySymbol.map((p) => `"${p.projectId}"`).join(", ");
    throw new CryptometricsError(
      "not-found",
      `symbol "${text.trim()}" is ambiguous: it is the token of ${ids}; use the project id`,
      { operation: "resolveProject", ids: bySymbol.map((p) => p.projectId) }
    );
  }
  const byName = projects.filter((p) => norm(p.name) === t);
  if (byName.length >= 1) return byName[0];
  const candidates = projects.map((p) => ({
    id: p.projectId,
    labels: [p.projectId, p.name, ...(p.symbol ? [p.symbol] : [])],
  }));
  throw notFound("project", text, closest(text, candidates), "resolveProject");
}

export function resolveMetricIn(metrics: readonly Metric[], text: string): Metric {
  const t = norm(text);
  if (!t)
    throw new CryptometricsError("invalid-input", "no metric given", {
      operation: "resolveMetric",
    });
  const found =
    metrics.find((m) => norm(m.metricId) === t) ?? metrics.find((m) => norm(m.metricName) === t);
  if (found) return found;
  const candidates = metrics.map((m) => ({ id: m.metricId, labels: [m.metricId, m.metricName] }));
  throw notFound("metric", text, closest(text, candidates), "resolveMetric");
}
