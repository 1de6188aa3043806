/**
 * GET /v2/metrics/{metric_id} (§4.11): long rows {timestamp, project_id, project_name, metric_id, value}
 * across projects, sorted by timestamp, newest first, then project id (§4.11 lists no order_direction: sent,
 * it is an unknown parameter).
 *
 * Unknown ids give NOT_FOUND entries; a listed project lacking the metric gives METRIC_NOT_AVAILABLE (the one
 * operation where the interface promises that entry). Some days' rows are sent more than once (repeats.ts).
 * chain_ids / product_ids keep only the projects on those chains / owning those products and, for metrics
 * that split that way, sum over them; market_sector_ids keeps the projects of those sectors.
 */
import type { ProjectInfo } from "../data/dataset";
import { sharesSum } from "../data/shares";
import type { HandlerContext } from "./context";
import { notFound } from "./params";
import {
  clip,
  Errors,
  ORDER_DIRECTIONS,
  resolveChains,
  resolveList,
  resolveSectors,
} from "./selection";
import { Repeats } from "./repeats";
import { keysOn, parts, splitOf, type Split } from "./split";
import {
  envelope,
  FAR_FUTURE_DAY,
  valuesAsText,
  wireDay,
  wireValue,
  type Envelope,
  type WireValue,
} from "./wire";

export function getMetric(ctx: HandlerContext): Envelope {
  const { dataset, query } = ctx;
  const { readings } = ctx.knobs;
  const metric = dataset.metric(ctx.params[0]);
  if (!metric) throw notFound(`Metric not found: ${ctx.params[0]}`);
  const errors = new Errors();
  const projects = selectProjects(ctx, errors, metric.id);
  const chains = resolveChains(ctx, errors);
  const products = resolveList(
    ctx,
    errors,
    "product_ids",
    (id) => dataset.productOwner(id) !== undefined
  );
  const sectors = resolveSectors(ctx, errors);
  const direction = query.oneOf("order_direction", ORDER_DIRECTIONS) ?? "desc";
  const bridged = query.boolean("assets_bridged", true);
  const range = query.dateRange();

  interface Part {
    project: ProjectInfo;
    values: Float64Array;
    start: number;
    from: number;
    to: number;
    factor: (d: number) => number;
    asString: boolean;
    repeatKey: number;
    split?: Split;
  }
  const parts_: Part[] = [];
  for (const project of projects) {
    if (sectors && !sectors.some((s) => project.sectors.includes(s))) continue;
    const chainSet = chains?.filter((c) => project.chains.includes(c));
    const productSet = products?.filter((id) => project.products.some((p) => p.id === id));
    if ((chainSet && chainSet.length === 0) || (productSet && productSet.length === 0)) continue;
    const series = dataset.series(project.id, metric.id, bridged);
    const { from, to } = clip(range, series.start, series.start + series.values.length - 1);
    if (from > to) continue;
    const chainTable = dataset.chainTable(project.id);
    const productTable = dataset.productTable(project.id);
    const split = splitOf(readings, dataset, project, chainSet, productSet);
    const factor = (d: number): number =>
      (metric.byChain && chainSet && !split?.ignoresFilter
        ? sharesSum(chainTable, chainSet, d)
        : 1) * (metric.byProduct && productSet ? sharesSum(productTable, productSet, d) : 1);
    parts_.push({
      project,
      values: series.values,
      start: series.start,
      from,
      to,
      factor,
      asString: valuesAsText(readings, dataset, project.id, metric.id),
      repeatKey: Repeats.keyOf(project.id),
      split,
    });
  }
  parts_.sort((a, b) => (a.project.id < b.project.id ? -1 : a.project.id > b.project.id ? 1 : 0));

  const repeats = new Repeats(ctx.knobs.duplicateRows);
  /** A project's rows of day d: one, or one per member as the unaskedSplit reading says. */
  const rowsOf = (part: Part, d: number, date: number): Record<string, WireValue>[] => {
    const f = part.factor(d);
    let v = f > 0 ? part.values[d - part.start] * f : NaN;
    if (metric.integer && f !== 1) v = Math.round(v);
    const row = (value: number): Record<string, WireValue> => ({
      timestamp: wireDay(date, readings),
      project_id: part.project.id,
      project_name: part.project.name,
      metric_id: metric.id,
      value:
        dataset.unreadable(part.project.id, metric.id, d, value) ?? wireValue(value, part.asString),
    });
    const split = part.split && part.split.splits(metric) ? part.split : undefined;
    const keys = split ? keysOn(split, d) : [];
    if (!split || keys.length === 0) return [row(v)];
    const pieces = parts(v, split, keys, d, metric.integer);
    return keys.map((key, i) => ({ ...row(pieces[i]), [split.member]: key }));
  };
  let rows: Record<string, WireValue>[] = [];
  if (parts_.length > 0) {
    const lo = parts_.reduce((a, p) => Math.min(a, p.from), Infinity);
    const hi = parts_.reduce((a, p) => Math.max(a, p.to), -Infinity);
    const step = direction === "asc" ? 1 : -1;
    for (let d = direction === "asc" ? lo : hi; d >= lo && d <= hi; d += step) {
      for (const part of parts_) {
        if (d < part.from || d > part.to) continue;
        const copies = repeats.copies(part.repeatKey, d);
        for (const row of rowsOf(part, d, d))
          for (let c = 0; c < copies; c++) rows.push(c === 0 ? row : { ...row });
      }
    }
    // futureRows "far": each project's last figures once more, dated after any day the service can have.
    if (readings.futureRows === "far") {
      const future = parts_.flatMap((part) => rowsOf(part, part.to, FAR_FUTURE_DAY));
      rows = direction === "asc" ? rows.concat(future) : future.concat(rows);
    }
  }
  return envelope(rows, errors.entries);
}

/**
 * Projects named by project_ids (omitted or `all`: every project with the metric). Unknown ids are reported
 * in `errors`; so are listed projects without the metric when `reportUnavailable` (§4.11 always does).
 */
export function selectProjects(
  ctx: HandlerContext,
  errors: Errors,
  metricId: string,
  reportUnavailable = true
): ProjectInfo[] {
  const ids = ctx.query.listOrAll("project_ids");
  if (ids === "all") return ctx.dataset.projects.filter((p) => p.metrics.includes(metricId));
  const selected: ProjectInfo[] = [];
  for (const id of ids) {
    const project = ctx.dataset.project(id);
    if (!project) errors.notFound("project_ids", id);
    else if (!project.metrics.includes(metricId)) {
      if (reportUnavailable) errors.unavailable(id, metricId);
    } else selected.push(project);
  }
  return selected;
}
