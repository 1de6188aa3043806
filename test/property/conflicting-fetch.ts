/**
 * A service that sends some days twice with two different values, as a misbehaving aggregator does: a fetch
 * wrapper that, for the (project, metric, day) triples `conflictAt` picks, adds to the time-series answers
 * (§4.3 wide rows, §4.11 long rows) a second row for that day with the value × 1.1. Identical repeats are the
 * simulator's own (they collapse); these are the ones nobody can vouch for. With `split`, the picked day gets
 * rows split by a chain nobody asked for that do not add up to its total instead: no figure either.
 */
import type { FetchLike, FetchResponseLike } from "../../src/client";

type ConflictAt = (projectId: string, metricId: string, date: string) => boolean;

type Row = Record<string, unknown>;

function asNumber(v: unknown): number | undefined {
  if (typeof v === "number") return v;
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

/**
 * How a picked day is made ambiguous: `twice`, a second row × 1.1; `split`, two more rows split by a chain
 * nobody asked for (ethereum and base, × 0.3 each) beside the day's total, which they do not add up to.
 */
type Ambiguity = "twice" | "split";

/** The picked day's added rows, from `row` (whose `key` holds `value`). */
function added(row: Row, key: string, value: number, how: Ambiguity): Row[] {
  if (how === "twice") return [{ ...row, [key]: value * 1.1 }];
  const { timestamp, project_id, project_name } = row;
  return ["ethereum", "base"].map((chain) => ({
    timestamp,
    project_id,
    project_name,
    ...(row.metric_id === undefined ? {} : { metric_id: row.metric_id }),
    chain_id: chain,
    [key]: value * 0.3,
  }));
}

/** The rows to add to one answer's data: the conflicting copies. */
function copies(path: string, rows: readonly Row[], conflictAt: ConflictAt, how: Ambiguity): Row[] {
  const out: Row[] = [];
  const metricPath = /^\/v2\/metrics\/([^/]+)$/.exec(path);
  const projectPath = /^\/v2\/projects\/([^/]+)\/metrics$/.exec(path);
  for (const row of rows) {
    const date = typeof row.timestamp === "string" ? row.timestamp.slice(0, 10) : "";
    if (metricPath) {
      const value = asNumber(row.value);
      const projectId = String(row.project_id);
      if (value !== undefined && conflictAt(projectId, decodeURIComponent(metricPath[1]), date))
        for (const extra of added(row, "value", value, how)) out.push(extra);
    } else if (projectPath) {
      const projectId = decodeURIComponent(projectPath[1]);
      for (const [key, v] of Object.entries(row)) {
        const value = asNumber(v);
        if (value === undefined || ["timestamp", "project_id", "project_name"].includes(key))
          continue;
        if (conflictAt(projectId, key, date))
          for (const extra of added(row, key, value, how)) out.push(extra);
      }
    }
  }
  return out;
}

/** A response whose body is `text` (the client reads text() when there is no stream). */
function withText(res: FetchResponseLike, text: string): FetchResponseLike {
  return {
    status: res.status,
    statusText: res.statusText,
    url: res.url,
    redirected: res.redirected,
    type: res.type,
    headers: {
      get: (name) => (/^content-(length|encoding)$/i.test(name) ? null : res.headers.get(name)),
    },
    body: null,
    text: () => Promise.resolve(text),
  };
}

export function conflictingFetch(
  conflictAt: ConflictAt,
  how: Ambiguity = "twice"
): (fetch: FetchLike) => FetchLike {
  return (fetch) => async (url, init) => {
    const res = await fetch(url, init);
    const path = new URL(url).pathname;
    if (res.status !== 200 || !/^\/v2\/(metrics\/[^/]+|projects\/[^/]+\/metrics)$/.test(path))
      return res;
    const text = await res.text();
    let body: { data?: unknown };
    try {
      body = JSON.parse(text) as { data?: unknown };
    } catch {
      return withText(res, text);
    }
    if (!Array.isArray(body.data)) return withText(res, text);
    const extra = copies(path, body.data as Row[], conflictAt, how);
    if (extra.length === 0) return withText(res, text);
    return withText(res, JSON.stringify({ ...body, data: [...(body.data as Row[]), ...extra] }));
  };
}
