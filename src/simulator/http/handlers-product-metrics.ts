/**
 * GET /v2/projects/{id}/products/{product_id}/metrics (§4.7): long rows {metric_id, date, value[, chain_id]}.
 * A product's series is its share of the project's series, so products add up to their project on the days
 * products exist. Values are always JSON numbers here (the interface types them as numbers). A metric the
 * product lacks is simply absent (knob `reportUnavailable` adds METRIC_NOT_AVAILABLE); some days' rows are
 * sent more than once (repeats.ts). Dates, rows split unasked and rows dated in the future as the readings
 * say (readings.ts).
 */
import { valueAt } from "../data/series";
import { requireProject, type HandlerContext } from "./context";
import { requireProduct } from "./handlers-catalog";
import { clip } from "./selection";
import { readSeriesQuery, seriesEnvelope } from "./series";
import { shareAt } from "../data/shares";
import { Repeats } from "./repeats";
import { keysOn, parts, type Split } from "./split";
import { envelope, wireDay, wireValue, type Envelope, type WireValue } from "./wire";

export function getProductMetrics(ctx: HandlerContext): Envelope {
  const { dataset } = ctx;
  const { readings } = ctx.knobs;
  const project = requireProject(ctx, ctx.params[0]);
  const product = requireProduct(ctx, project, ctx.params[1]);
  // §4.7 takes no product_ids: the Query reads it as absent.
  const ask = readSeriesQuery(ctx, () => false);
  const { errors, metrics: requested, chains, aggregateBy, range } = ask;

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
    series: dataset.series(project.id, metric.id, ask.bridged),
    first: dataset.firstDay(project.id, metric.id),
    round: (v: number) => (metric.integer ? Math.round(v) : v),
  }));
  const { from, to } = clip(
    range,
    sources.reduce((a, s) => Math.min(a, s.first), Infinity),
    dataset.lastDay(project.id)
  );
  if (from > to) return empty();
  // every_chain: a service that ignores chain_ids answers with every chain of the product.
  const everyChain = readings.unaskedSplit === "every_chain";
  const sortedChains = [...(everyChain ? product.chains : chainSet)].sort();
  // unaskedSplit "chain": the metrics that split by chain in one row per chain, chain_id set (§2.5).
  const split: Split | undefined =
    (readings.unaskedSplit === "chain" || everyChain) &&
    aggregateBy === undefined &&
    sortedChains.length > 0
      ? {
          member: "chain",
          splits: (m) => m.byChain,
          keys: sortedChains,
          table: dataset.chainTable(project.id),
          ...(everyChain ? { ignoresFilter: true as const } : {}),
        }
      : undefined;
  const rowsOf = (d: number, date: number): Record<string, WireValue>[] => {
    const out: Record<string, WireValue>[] = [];
    // Before the product's launch it has no rows at all.
    const productShare = shareAt(productTable, product.id, d);
    if (productShare === 0) return out;
    for (const { metric, series, first, round } of sources) {
      if (d < first) continue;
      const total = valueAt(series, d) * productShare;
      if (aggregateBy === "chain") {
        for (const chain of sortedChains) {
          const share = dataset.productChainShare(project.id, product.id, chain, d);
          if (share === 0) continue;
          out.push({
            metric_id: metric.id,
            date: wireDay(date, readings),
            value: wireValue(round(total * share), false),
            chain_id: chain,
          });
        }
        continue;
      }
      let chainShare = 1;
      if (chains && metric.byChain && !split?.ignoresFilter) {
        chainShare = 0;
        for (const chain of chainSet)
          chainShare += dataset.productChainShare(project.id, product.id, chain, d);
      }
      const value = chainShare > 0 ? round(total * chainShare) : NaN;
      const splitKeys = split && split.splits(metric) ? keysOn(split, d) : [];
      if (split && splitKeys.length > 0) {
        const pieces = parts(value, split, splitKeys, d, metric.integer);
        splitKeys.forEach((chain, i) =>
          out.push({
            metric_id: metric.id,
            date: wireDay(date, readings),
            value: wireValue(pieces[i], false),
            chain_id: chain,
          })
        );
        continue;
      }
      out.push({
        metric_id: metric.id,
        date: wireDay(date, readings),
        value: wireValue(value, false),
      });
    }
    return out;
  };
  const key = Repeats.keyOf(`${project.id}/${product.id}`);
  return seriesEnvelope(ctx, [{ key, from, to, rows: rowsOf }], ask);
}
