/**
 * GET /v2/projects/{id}/products/{product_id}/metrics (§4.7): long rows {metric_id, date, value[, chain_id]}.
 * A product's series is its share of the project's series, so products add up to their project on the days
 * products exist. Values are always JSON numbers here (the interface types them as numbers). A metric the
 * product lacks is simply absent (knob `reportUnavailable` adds METRIC_NOT_AVAILABLE); some days' rows are
 * sent more than once (repeats.ts).
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
import { Repeats } from "./repeats";
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
    if (ctx.knobs.reportUnavailable)
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
  const sources = metrics.map((metric) => ({
    metric,
    series: dataset.series(project.id, metric.id, bridged),
    first: dataset.firstDay(project.id, metric.id),
    round: (v: number) => (metric.integer ? Math.round(v) : v),
  }));
  const { from, to } = clip(
    range,
    sources.reduce((a, s) => Math.min(a, s.first), Infinity),
    dataset.lastDay(project.id)
  );
  if (from > to) return empty();
  const sortedChains = [...chainSet].sort();
  const repeats = new Repeats(ctx.knobs.duplicateRows);
  const repeatKey = Repeats.keyOf(`${project.id}/${product.id}`);
  const rows: Record<string, WireValue>[] = [];
  const push = (row: Record<string, WireValue>, copies: number): void => {
    for (let c = 0; c < copies; c++) rows.push(c === 0 ? row : { ...row });
  };
  for (const d of days(from, to, direction)) {
    // Before the product's launch it has no rows at all.
    const productShare = shareAt(productTable, product.id, d);
    if (productShare === 0) continue;
    const copies = repeats.copies(repeatKey, d);
    for (const { metric, series, first, round } of sources) {
      if (d < first) continue;
      const total = valueAt(series, d) * productShare;
      if (aggregateBy === "chain") {
        for (const chain of sortedChains) {
          const share = dataset.productChainShare(project.id, product.id, chain, d);
          if (share === 0) continue;
          push(
            {
              metric_id: metric.id,
              date: dayToDate(d),
              value: wireValue(round(total * share), false),
              chain_id: chain,
            },
            copies
          );
        }
      } else {
        let chainShare = 1;
        if (chains && metric.byChain) {
          chainShare = 0;
          for (const chain of chainSet)
            chainShare += dataset.productChainShare(project.id, product.id, chain, d);
        }
        const value = chainShare > 0 ? round(total * chainShare) : NaN;
        push({ metric_id: metric.id, date: dayToDate(d), value: wireValue(value, false) }, copies);
      }
    }
  }
  return envelope(rows, errors.entries);
}
