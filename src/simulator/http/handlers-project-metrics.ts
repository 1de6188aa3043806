/**
 * GET /v2/projects/{id}/metrics (§4.3): wide rows, one member per metric, optionally filtered by chain,
 * product and sector, or broken down by chain or product.
 *
 * Choices where the interface is silent:
 * - a known metric the project lacks is simply absent from the rows (the interface promises only NOT_FOUND
 *   entries here); knob `reportUnavailable` adds a METRIC_NOT_AVAILABLE entry for it;
 * - some days' rows are sent more than once (knob `duplicateRows`, see repeats.ts);
 * - chain_ids / product_ids restrict the metrics that split that way to the sum over the chosen chains or
 *   products; other metrics (price...) keep their project-wide values; if none of the chosen chains or
 *   products belongs to the project, the result is empty;
 * - with aggregate_by, rows carry only the metrics that split that way (`chain` or `product_id` member);
 *   an empty result when none does or the project has no chains/products.
 */
import type { MetricDef } from "../data/metrics-catalog";
import { sharesSum, shareAt } from "../data/shares";
import { valueAt } from "../data/series";
import { dayToIso } from "../util/days";
import { requireProject, type HandlerContext } from "./context";
import {
  AGGREGATE_BY,
  clip,
  days,
  Errors,
  ORDER_DIRECTIONS,
  resolveChains,
  resolveList,
  resolveMetrics,
  resolveSectors,
} from "./selection";
import { Repeats } from "./repeats";
import { envelope, wireValue, type Envelope, type WireValue } from "./wire";

export function getProjectMetrics(ctx: HandlerContext): Envelope {
  const { dataset, query } = ctx;
  const project = requireProject(ctx, ctx.params[0]);
  const errors = new Errors();
  const requested = resolveMetrics(ctx, errors);
  const chains = resolveChains(ctx, errors);
  const products = resolveList(ctx, errors, "product_ids", (id) =>
    project.products.some((p) => p.id === id)
  );
  const sectors = resolveSectors(ctx, errors);
  const aggregateBy = query.oneOf("aggregate_by", AGGREGATE_BY);
  const direction = query.oneOf("order_direction", ORDER_DIRECTIONS) ?? "desc";
  const bridged = query.boolean("assets_bridged", true);
  const range = query.dateRange();

  let metrics: MetricDef[];
  if (requested === undefined) {
    metrics = dataset.metrics.filter((m) => project.metrics.includes(m.id));
  } else {
    metrics = requested.filter((m) => project.metrics.includes(m.id));
    if (ctx.knobs.reportUnavailable)
      for (const m of requested)
        if (!project.metrics.includes(m.id)) errors.unavailable(project.id, m.id);
  }
  const empty = () => envelope([], errors.entries);

  if (sectors && !sectors.some((s) => project.sectors.includes(s))) return empty();
  const chainSet = chains?.filter((c) => project.chains.includes(c));
  if (chainSet && chainSet.length === 0) return empty();
  if (products && products.length === 0) return empty();
  if (aggregateBy === "chain")
    metrics = project.chains.length > 0 ? metrics.filter((m) => m.byChain) : [];
  if (aggregateBy === "product_id")
    metrics = project.products.length > 0 ? metrics.filter((m) => m.byProduct) : [];
  if (metrics.length === 0) return empty();

  const first = metrics.reduce((a, m) => Math.min(a, dataset.firstDay(project.id, m.id)), Infinity);
  const { from, to } = clip(range, first, dataset.lastDay(project.id));
  if (from > to) return empty();

  const series = metrics.map((m) => ({
    metric: m,
    series: dataset.series(project.id, m.id, bridged),
    asString: dataset.valuesAsStrings(project.id, m.id),
  }));
  const chainTable = dataset.chainTable(project.id);
  const productTable = dataset.productTable(project.id);

  /** Scale factor of a metric's project total on day d for the chosen slice. */
  const factor = (m: MetricDef, d: number, chain?: string, product?: string): number => {
    let f = 1;
    if (m.byChain && chain !== undefined) f *= shareAt(chainTable, chain, d);
    else if (m.byChain && chainSet) f *= sharesSum(chainTable, chainSet, d);
    if (m.byProduct && product !== undefined) f *= shareAt(productTable, product, d);
    else if (m.byProduct && products) f *= sharesSum(productTable, products, d);
    return f;
  };

  const keys: (string | undefined)[] =
    aggregateBy === "chain"
      ? (chainSet ?? project.chains)
      : aggregateBy === "product_id"
        ? (products ?? project.products.map((p) => p.id))
        : [undefined];
  const sortedKeys = [...keys].sort();

  const repeats = new Repeats(ctx.knobs.duplicateRows);
  const repeatKey = Repeats.keyOf(project.id);
  const rows: Record<string, WireValue>[] = [];
  for (const d of days(from, to, direction)) {
    const copies = repeats.copies(repeatKey, d);
    for (const key of sortedKeys) {
      const chain = aggregateBy === "chain" ? key : undefined;
      const product = aggregateBy === "product_id" ? key : undefined;
      // A chain or product that has not started yet has no row, rather than a row of zeros.
      if (chain !== undefined && shareAt(chainTable, chain, d) === 0) continue;
      if (product !== undefined && shareAt(productTable, product, d) === 0) continue;
      const row: Record<string, WireValue> = {
        timestamp: dayToIso(d),
        project_name: project.name,
        project_id: project.id,
      };
      if (chain !== undefined) row.chain = chain;
      if (product !== undefined) row.product_id = product;
      for (const s of series) {
        const f = factor(s.metric, d, chain, product);
        let v = f > 0 ? valueAt(s.series, d) * f : NaN;
        if (s.metric.integer && f !== 1) v = Math.round(v);
        row[s.metric.id] = wireValue(v, s.asString);
      }
      for (let c = 0; c < copies; c++) rows.push(c === 0 ? row : { ...row });
    }
  }
  return envelope(rows, errors.entries);
}
