/**
 * How the calls of one window become requests: calls are grouped by what can share a request (same options;
 * products and breakdowns have one request form each), identical series are merged with the span of their
 * ranges, and plain project series go through the planner, which picks the cheapest forms.
 *
 * A metric asked of more projects than one request's id list holds may be asked of every project instead
 * (§4.11 with `project_ids=all`: one request rather than one per chunk of ids), when the answer stays small:
 * the projects in the catalogue times the days of the range at most `maxRows`. The rows of projects nobody
 * asked are dropped. A range open towards launch is never asked that way (its size is unknown).
 */
import { planRequests, type PairNeed } from "./planner";
import type { GroupRequest } from "./series-fetch";
import { variantKey, type SeriesQuery } from "./series-types";

/** A call waiting for a series: its key and what it asks. */
export interface Call {
  key: string;
  query: SeriesQuery;
}

/** What decides whether a metric may be asked of every project at once. */
export interface Universe {
  /** Projects in the catalogue: the rows of one day of an every-project answer, at most. */
  projects: number;
  /** Today's day number: an open end means the latest data, at most today. */
  today: number;
  /** Largest every-project answer, in rows (projects × days). */
  maxRows: number;
}

/** Whether an every-project request over [start, end] stays within the universe's row bound. */
export function fitsWholeUniverse(universe: Universe, start: number, end: number): boolean {
  if (!Number.isFinite(start)) return false;
  const days = Math.min(end, universe.today) - start + 1;
  return days > 0 && universe.projects * days <= universe.maxRows;
}

export function groupRequests(
  calls: readonly Call[],
  maxIdsPerRequest: number,
  universe?: Universe
): GroupRequest[] {
  const groups = new Map<string, Call[]>();
  for (const w of calls) {
    const q = w.query;
    // Products and breakdowns have one request form; plain project series go through the planner.
    const kind = q.productId
      ? `product:${q.projectId}:${q.productId}`
      : q.variant.breakdown
        ? `bd:${q.projectId}`
        : "series";
    const gk = `${kind}#${variantKey(q.variant)}`;
    let g = groups.get(gk);
    if (!g) groups.set(gk, (g = []));
    g.push(w);
  }
  const out: GroupRequest[] = [];
  for (const group of groups.values()) {
    const first = group[0].query;
    const queries = uniqueQueries(group);
    if (first.productId || first.variant.breakdown) {
      out.push({
        form: first.productId ? "product" : "project",
        projectId: first.projectId,
        productId: first.productId ?? "",
        metricId: "",
        members: [...new Set(queries.map((q) => q.metricId))],
        start: queries.reduce((a, q) => Math.min(a, q.start), Infinity),
        end: queries.reduce((a, q) => Math.max(a, q.end), -Infinity),
        variant: first.variant,
        queries,
      });
      continue;
    }
    const needs: Array<PairNeed & { query: SeriesQuery }> = queries.map((q) => ({
      ...q,
      query: q,
    }));
    const wholeUniverse = universe ? spanFits(queries, universe) : undefined;
    for (const planned of planRequests(needs, maxIdsPerRequest, { wholeUniverse })) {
      out.push({
        form: planned.form,
        projectId: planned.form === "project" ? planned.id : "",
        productId: "",
        metricId: planned.form === "metric" ? planned.id : "",
        members: planned.members,
        start: planned.start,
        end: planned.end,
        variant: first.variant,
        queries: planned.pairs.map((p) => (p as PairNeed & { query: SeriesQuery }).query),
        ...(planned.all ? { all: true } : {}),
      });
    }
  }
  return out;
}

/** One query per series key, its range the span of every call's range. */
function uniqueQueries(group: readonly Call[]): SeriesQuery[] {
  const byKey = new Map<string, SeriesQuery>();
  for (const w of group) {
    const q = byKey.get(w.key);
    if (!q) byKey.set(w.key, { ...w.query });
    else {
      q.start = Math.min(q.start, w.query.start);
      q.end = Math.max(q.end, w.query.end);
    }
  }
  return [...byKey.values()];
}

/** Per metric: whether the span of every range asked of it fits an every-project answer. */
function spanFits(
  queries: readonly SeriesQuery[],
  universe: Universe
): (metricId: string) => boolean {
  const spans = new Map<string, { start: number; end: number }>();
  for (const q of queries) {
    const span = spans.get(q.metricId);
    if (!span) spans.set(q.metricId, { start: q.start, end: q.end });
    else {
      span.start = Math.min(span.start, q.start);
      span.end = Math.max(span.end, q.end);
    }
  }
  const fits = new Map<string, boolean>();
  for (const [metricId, span] of spans)
    fits.set(metricId, fitsWholeUniverse(universe, span.start, span.end));
  return (metricId) => fits.get(metricId) ?? false;
}
