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
import { requireMetric, type HandlerContext } from "./context";
import { clip, Errors } from "./selection";
import { readSeriesQuery, scaled, seriesEnvelope, type Row, type SeriesPart } from "./series";
import { Repeats } from "./repeats";
import { keysOn, parts, splitOf } from "./split";
import { valuesAsText, wireDay, wireValue, type Envelope } from "./wire";

export function getMetric(ctx: HandlerContext): Envelope {
  const { dataset } = ctx;
  const { readings } = ctx.knobs;
  const metric = requireMetric(ctx, ctx.params[0]);
  const errors = new Errors();
  const projects = selectProjects(ctx, errors, metric.id);
  const ask = readSeriesQuery(ctx, (id) => dataset.productOwner(id) !== undefined, errors);
  const { chains, products, sectors, range } = ask;

  const found: Array<{ id: string; part: SeriesPart }> = [];
  for (const project of projects) {
    if (sectors && !sectors.some((s) => project.sectors.includes(s))) continue;
    const chainSet = chains?.filter((c) => project.chains.includes(c));
    const productSet = products?.filter((id) => project.products.some((p) => p.id === id));
    if ((chainSet && chainSet.length === 0) || (productSet && productSet.length === 0)) continue;
    const series = dataset.series(project.id, metric.id, ask.bridged);
    const { from, to } = clip(range, series.start, series.start + series.values.length - 1);
    if (from > to) continue;
    const chainTable = dataset.chainTable(project.id);
    const productTable = dataset.productTable(project.id);
    const split = splitOf(readings, dataset, project, chainSet, productSet);
    const splitting = split && split.splits(metric) ? split : undefined;
    const factor = (d: number): number =>
      (metric.byChain && chainSet && !split?.ignoresFilter
        ? sharesSum(chainTable, chainSet, d)
        : 1) * (metric.byProduct && productSet ? sharesSum(productTable, productSet, d) : 1);
    const asString = valuesAsText(readings, dataset, project.id, metric.id);
    /** The project's rows of day d: one, or one per member as the unaskedSplit reading says. */
    const rows = (d: number, date: number): Row[] => {
      const v = scaled(series.values[d - series.start], factor(d), metric.integer);
      const row = (value: number): Row => ({
        timestamp: wireDay(date, readings),
        project_id: project.id,
        project_name: project.name,
        metric_id: metric.id,
        value: dataset.unreadable(project.id, metric.id, d, value) ?? wireValue(value, asString),
      });
      const keys = splitting ? keysOn(splitting, d) : [];
      if (!splitting || keys.length === 0) return [row(v)];
      const pieces = parts(v, splitting, keys, d, metric.integer);
      return keys.map((key, i) => ({ ...row(pieces[i]), [splitting.member]: key }));
    };
    found.push({ id: project.id, part: { key: Repeats.keyOf(project.id), from, to, rows } });
  }
  found.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return seriesEnvelope(
    ctx,
    found.map((f) => f.part),
    ask
  );
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
