/**
 * GET /v2/projects/{id}/products/{product_id}/metrics (§4.7): long rows {metric_id, date, value[, chain_id]}.
 * A product's series is its share of the project's series, so products add up to their project on the days
 * products exist. Values are always JSON numbers here (the interface types them as numbers).
 */
import { valueAt } from "../data/series";
import { dayToDate } from "../util/days";
import { requireProject, type HandlerContext } from "./context";
import { requireProduct } from "./handlers-catalog";
import {
  AGGREGATE_BY,
  clip,
  days,
  Errors,
  ORDER_DIRECTIONS,
  resolveChains,
  resolveMetrics,
} from "./selection";
import { shareAt } from "../data/shares";
import { envelope, wireValue, type Envelope, type WireValue } from "./wire";

export function getProductMetrics(ctx: HandlerContext): Envelope {
  const { dataset, query } = ctx;
  const project = requireProject(ctx, ctx.params[0]);
  const product = requireProduct(ctx, project, ctx.params[1]);
  const errors = new Errors();
  const requested = resolveMetrics(ctx, errors);
  const chains = resolveChains(ctx, errors);
  const aggregateBy = query.oneOf("aggregate_by", AGGREGATE_BY);
  const direction = query.oneOf("order_direction", ORDER_DIRECTIONS) ?? "desc";
  const bridged = query.boolean("assets_bridged", true);
  const range = query.dateRange();

  let metrics = dataset.metrics.filter((m) => product.metrics.includes(m.id));
  if (requested !== undefined) {
    metrics = requested.filter((m) => product.metrics.includes(m.id));
    for (const m of requested)
      if (!product.metrics.includes(m.id)) errors.unavailable(project.id, m.id);
  }
  const empty = () => envelope([], errors.entries);
  // A product is not split by product: that breakdown is inapplicable here.
  if (aggregateBy === "product_id") return empty();
  const chainSet = chains ? chains.filter((c) => product.chains.includes(c)) : product.chains;
  if (chains && chainSet.length === 0) return empty();
  if (aggregateBy === "chain")
    metrics = chainSet.length > 0 ? metrics.filter((m) => m.byChain) : [];
  if (metrics.length === 0) return empty();

  const productTable = dataset.productTable(project.id);
  const launch = Math.min(...metrics.map((m) => dataset.firstDay(project.id, m.id)));
  const { from, to } = clip(range, launch, dataset.lastDay(project.id));
  const sortedChains = [...chainSet].sort();
  const rows: Record<string, WireValue>[] = [];
  if (from > to) return empty();
  for (const d of days(from, to, direction)) {
    const productShare = shareAt(productTable, product.id, d);
    if (productShare === 0) continue;
    for (const metric of metrics) {
      const total = valueAt(dataset.series(project.id, metric.id, bridged), d);
      if (d < dataset.firstDay(project.id, metric.id)) continue;
      const round = (v: number) => (metric.integer ? Math.round(v) : v);
      if (aggregateBy === "chain") {
        for (const chain of sortedChains) {
          const share = dataset.productChainShare(project.id, product.id, chain, d);
          if (share === 0) continue;
          rows.push({
            metric_id: metric.id,
            date: dayToDate(d),
            value: wireValue(round(total * productShare * share), false),
            chain_id: chain,
          });
        }
      } else {
        let chainShare = 1;
        if (chains && metric.byChain) {
          chainShare = 0;
          for (const chain of chainSet)
            chainShare += dataset.productChainShare(project.id, product.id, chain, d);
        }
        rows.push({
          metric_id: metric.id,
          date: dayToDate(d),
          value: wireValue(round(total * productShare * chainShare), false),
        });
      }
    }
  }
  return envelope(rows, errors.entries);
}
