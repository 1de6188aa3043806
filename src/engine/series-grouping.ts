/**
 * How the calls of one window become requests: calls are grouped by what can share a request (same options;
 * products and breakdowns have one request form each), identical series are merged with the span of their
 * ranges, and plain project series go through the planner, which picks the cheapest forms.
 */
import { planRequests, type PairNeed } from "./planner";
import type { GroupRequest } from "./series-fetch";
import { variantKey, type SeriesQuery } from "./series-types";

/** A call waiting for a series: its key and what it asks. */
export interface Call {
  key: string;
  query: SeriesQuery;
}

export function groupRequests(calls: readonly Call[], maxIdsPerRequest: number): GroupRequest[] {
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
    for (const planned of planRequests(needs, maxIdsPerRequest)) {
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
