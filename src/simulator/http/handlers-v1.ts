/**
 * The legacy v1 operations (§9), deprecated since 2022-08-01. Shapes are simple and flat, as v1's were:
 * - GET /v1/projects: {project_id, name, symbol, category, is_archived, url};
 * - GET /v1/projects/{id}/metrics?interval=&data_granularity=: wide rows {datetime, project_id, project,
 *   fees, revenue, tvl, price, market_cap, ...}, newest first. interval is a look-back window (24h, 7d,
 *   30d, 90d, 180d, 365d, max; default max); data_granularity daily (default), weekly or monthly (flows
 *   summed, levels last value, user counts averaged).
 */
import { findMetric } from "../data/metrics-catalog";
import { periodStart, nextPeriodStart } from "../data/periods";
import { rollup } from "../data/rollup";
import { dayToIso } from "../util/days";
import { requireProject, type HandlerContext, type HandlerResult } from "./context";
import { envelope, wireValue, type WireValue } from "./wire";

/** v1 field name -> v2 metric id. */
const V1_FIELDS: readonly [string, string][] = [
  ["fees", "fees"],
  ["revenue", "revenue"],
  ["tvl", "tvl"],
  ["price", "price"],
  ["market_cap", "market_cap_circulating"],
  ["market_cap_fully_diluted", "market_cap_fully_diluted"],
  ["volume", "trading_volume"],
  ["token_incentives", "token_incentives"],
  ["active_users", "user_dau"],
];

const V1_INTERVALS: Record<string, number> = {
  "24h": 1,
  "7d": 7,
  "30d": 30,
  "90d": 90,
  "180d": 180,
  "365d": 365,
  max: Infinity,
};
const V1_GRANULARITIES = ["daily", "weekly", "monthly"] as const;

/** Deprecation headers (RFC 8594 Sunset) so a client can warn its user. */
const DEPRECATION = {
  Deprecation: "true",
  Sunset: "Mon, 01 Aug 2022 00:00:00 GMT",
  Link: '</v2/projects>; rel="successor-version"',
};

/** v1's answers: a bare list, or wrapped like v2's, as the v1Envelope reading says (§9 shows neither). */
function v1Body(ctx: HandlerContext, rows: unknown[]): HandlerResult["body"] {
  return ctx.knobs.readings.v1Envelope === "bare" ? rows : envelope(rows);
}

export function v1ListProjects(ctx: HandlerContext): HandlerResult {
  return {
    headers: DEPRECATION,
    body: v1Body(
      ctx,
      ctx.dataset.projects.map((p) => ({
        project_id: p.id,
        name: p.name,
        symbol: p.symbol ?? null,
        category: p.sectors[0] ?? null,
        is_archived: p.isArchived,
        url: `/v1/projects/${p.id}/metrics`,
      }))
    ),
  };
}

export function v1GetProjectMetrics(ctx: HandlerContext): HandlerResult {
  const { dataset, query } = ctx;
  const project = requireProject(ctx, ctx.params[0]);
  const interval = query.oneOf("interval", Object.keys(V1_INTERVALS)) ?? "max";
  const granularity = query.oneOf("data_granularity", V1_GRANULARITIES) ?? "daily";
  const fields = V1_FIELDS.filter(([, id]) => project.metrics.includes(id));
  const last = dataset.lastDay(project.id);
  const first = fields.reduce(
    (a, [, id]) => Math.min(a, dataset.firstDay(project.id, id)),
    last + 1
  );
  const from = Math.max(first, last - V1_INTERVALS[interval] + 1);

  const buckets: [number, number][] = [];
  if (granularity === "daily") for (let d = last; d >= from; d--) buckets.push([d, d]);
  else {
    const g = granularity === "weekly" ? "week" : "month";
    for (let s = periodStart(g, last); nextPeriodStart(g, s) > from; s = periodStart(g, s - 1)) {
      buckets.push([Math.max(s, from), Math.min(nextPeriodStart(g, s) - 1, last)]);
    }
  }
  const rows = buckets.map(([a, b]) => {
    const row: Record<string, WireValue> = {
      datetime: dayToIso(a),
      project_id: project.id,
      project: project.name,
    };
    for (const [field, id] of fields) {
      const metric = findMetric(id);
      row[field] = metric
        ? wireValue(rollup(dataset.series(project.id, id), metric.kind, a, b), false)
        : null;
    }
    return row;
  });
  return { headers: DEPRECATION, body: v1Body(ctx, rows) };
}
