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
 * - with aggregate_by, rows carry only the metrics that split that way, and a `chain` member (§2.4) or the
 *   product in the member the productMember reading names (none by default: §2.4 names no product
 *   member); an empty result when none splits or the project has no chains/products;
 * - timestamps, value types, rows split unasked and rows dated in the future as the readings say.
 */
import type { MetricDef } from "../data/metrics-catalog";
import { sharesSum, shareAt } from "../data/shares";
import { valueAt } from "../data/series";
import { requireProject, type HandlerContext } from "./context";
import { clip } from "./selection";
import { readSeriesQuery, scaled, seriesEnvelope } from "./series";
import { Repeats } from "./repeats";
import { keysOn, parts, splitOf } from "./split";
import { envelope, valuesAsText, wireDay, wireValue, type Envelope, type WireValue } from "./wire";

export function getProjectMetrics(ctx: HandlerContext): Envelope {
  const { dataset } = ctx;
  const { readings } = ctx.knobs;
  const project = requireProject(ctx, ctx.params[0]);
  const ask = readSeriesQuery(ctx, (id) => project.products.some((p) => p.id === id));
  const { errors, metrics: requested, chains, products, sectors, aggregateBy, range } = ask;

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
    series: dataset.series(project.id, m.id, ask.bridged),
    asString: valuesAsText(readings, dataset, project.id, m.id),
  }));
  const chainTable = dataset.chainTable(project.id);
  const productTable = dataset.productTable(project.id);

  /** Scale factor of a metric's project total on day d for the chosen slice. */
  const factor = (
    m: MetricDef,
    d: number,
    chain?: string,
    product?: string,
    unfiltered = false
  ): number => {
    let f = 1;
    if (m.byChain && chain !== undefined) f *= shareAt(chainTable, chain, d);
    else if (m.byChain && chainSet && !unfiltered) f *= sharesSum(chainTable, chainSet, d);
    if (m.byProduct && product !== undefined) f *= shareAt(productTable, product, d);
    else if (m.byProduct && products) f *= sharesSum(productTable, products, d);
    return f;
  };

  // every_chain: a service that ignores chain_ids answers a chain breakdown with every chain.
  const everyChain = readings.unaskedSplit === "every_chain";
  const keys: (string | undefined)[] =
    aggregateBy === "chain"
      ? everyChain
        ? project.chains
        : (chainSet ?? project.chains)
      : aggregateBy === "product_id"
        ? (products ?? project.products.map((p) => p.id))
        : [undefined];
  const sortedKeys = [...keys].sort();
  // §2.4 names no product member: the productMember reading says which member (if any) carries it.
  const productMember = readings.productMember === "none" ? undefined : readings.productMember;
  const split =
    aggregateBy === undefined ? splitOf(readings, dataset, project, chainSet, products) : undefined;

  /** A metric's value on day d for the slice (NaN: no value). */
  const valueOf = (
    s: (typeof series)[number],
    d: number,
    chain?: string,
    product?: string,
    unfiltered = false
  ) => {
    return scaled(
      valueAt(s.series, d),
      factor(s.metric, d, chain, product, unfiltered),
      s.metric.integer
    );
  };
  /** A value as sent: a number (or numeric string), or the text the service sends unreadable that day. */
  const sent = (s: (typeof series)[number], d: number, v: number): WireValue =>
    dataset.unreadable(project.id, s.metric.id, d, v) ?? wireValue(v, s.asString);
  const head = (date: number): Record<string, WireValue> => ({
    timestamp: wireDay(date, readings),
    project_name: project.name,
    project_id: project.id,
  });

  /** The rows of day d (dated `date`): one per breakdown key asked, or split as the unaskedSplit reading says. */
  const rowsOf = (d: number, date: number): Record<string, WireValue>[] => {
    const splitKeys = split ? keysOn(split, d) : [];
    if (split && splitKeys.length > 0) {
      const splitting = series.filter((s) => split.splits(s.metric));
      const others = series.filter((s) => !split.splits(s.metric));
      const out: Record<string, WireValue>[] = [];
      if (others.length > 0) {
        const row = head(date);
        for (const s of others) row[s.metric.id] = sent(s, d, valueOf(s, d));
        out.push(row);
      }
      if (splitting.length === 0) return out;
      const byKey = splitting.map((s) =>
        parts(
          valueOf(s, d, undefined, undefined, split.ignoresFilter),
          split,
          splitKeys,
          d,
          s.metric.integer
        )
      );
      splitKeys.forEach((key, k) => {
        const row: Record<string, WireValue> = { ...head(date), [split.member]: key };
        splitting.forEach((s, i) => (row[s.metric.id] = sent(s, d, byKey[i][k])));
        out.push(row);
      });
      return out;
    }
    const out: Record<string, WireValue>[] = [];
    for (const key of sortedKeys) {
      const chain = aggregateBy === "chain" ? key : undefined;
      const product = aggregateBy === "product_id" ? key : undefined;
      // A chain or product that has not started yet has no row, rather than a row of zeros.
      if (chain !== undefined && shareAt(chainTable, chain, d) === 0) continue;
      if (product !== undefined && shareAt(productTable, product, d) === 0) continue;
      const row = head(date);
      if (chain !== undefined) row.chain = chain;
      if (product !== undefined && productMember) row[productMember] = product;
      for (const s of series) row[s.metric.id] = sent(s, d, valueOf(s, d, chain, product));
      out.push(row);
    }
    return out;
  };

  return seriesEnvelope(ctx, [{ key: Repeats.keyOf(project.id), from, to, rows: rowsOf }], ask);
}
