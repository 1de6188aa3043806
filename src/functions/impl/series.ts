/**
 * METRIC and PRODUCT_METRIC: time series through the engine, shaped like STOCKHISTORY (a Date column, then
 * one column per metric or per project), rolled up and filled as the options say.
 */
import type { Project } from "../../client";
import { defaultAggregation } from "../../engine/metric-kinds";
import { fillDays, rollUp, slicePoints, type DayPoint } from "../../engine/series-ops";
import { checkRange, optionalDate, requiredIds, requiredText } from "../coerce";
import type { FnContext } from "../context";
import { parseOptions, type Options } from "../options";
import { invalid, notAvailable, type Cell, type ErrorCell, type Table } from "../result";
import { resolveMetrics, resolveProduct, resolveProject, resolveProjects } from "./resolve";
import {
  FILL_LOOKBACK_DAYS,
  METRIC_OPTIONS,
  PRODUCT_METRIC_OPTIONS,
  describeRange,
  fetchSeries,
  variantOf,
} from "./series-common";

interface Column {
  label: string;
  projectName: string;
  metricId: string;
  dims?: Map<string, DayPoint[]>;
  error?: ErrorCell;
}

interface TableRequest {
  functionName: string;
  projects: Array<{ text: string; value?: Project; error?: ErrorCell }>;
  metrics: Array<{ text: string; value?: { metricId: string }; error?: ErrorCell }>;
  productId?: string;
  start?: number;
  end?: number;
  options: Options;
}

export async function metric(
  ctx: FnContext,
  projectArg: unknown,
  metricArg: unknown,
  startArg: unknown,
  endArg: unknown,
  optionsArg: unknown
): Promise<Table> {
  const options = parseOptions(optionsArg, "METRIC", METRIC_OPTIONS);
  const projectTexts = requiredIds(projectArg, "project");
  const metricTexts = requiredIds(metricArg, "metric");
  if (projectTexts.length > 1 && metricTexts.length > 1) {
    throw invalid(
      `METRIC takes several projects of one metric, or several metrics of one project, not both (${projectTexts.length} projects × ${metricTexts.length} metrics); use one formula per metric`
    );
  }
  if (options.breakdown && projectTexts.length > 1)
    throw invalid('option "breakdown" applies to one project');
  const start = optionalDate(startArg, "start");
  const end = optionalDate(endArg, "end");
  checkRange(start, end);
  const [projects, metrics] = await Promise.all([
    resolveProjects(ctx, projectTexts),
    resolveMetrics(ctx, metricTexts),
  ]);
  return seriesTable(ctx, { functionName: "METRIC", projects, metrics, start, end, options });
}

export async function productMetric(
  ctx: FnContext,
  projectArg: unknown,
  productArg: unknown,
  metricArg: unknown,
  startArg: unknown,
  endArg: unknown,
  optionsArg: unknown
): Promise<Table> {
  const options = parseOptions(optionsArg, "PRODUCT_METRIC", PRODUCT_METRIC_OPTIONS);
  if (options.breakdown === "product_id")
    throw invalid('PRODUCT_METRIC takes "breakdown=chain" only');
  const projectText = requiredText(projectArg, "project");
  const productText = requiredText(productArg, "product");
  const metricTexts = requiredIds(metricArg, "metric");
  const start = optionalDate(startArg, "start");
  const end = optionalDate(endArg, "end");
  checkRange(start, end);
  const [project, metrics] = await Promise.all([
    resolveProject(ctx, projectText),
    resolveMetrics(ctx, metricTexts),
  ]);
  const productId = resolveProduct(project, productText);
  return seriesTable(ctx, {
    functionName: "PRODUCT_METRIC",
    projects: [{ text: projectText, value: project }],
    metrics,
    productId,
    start,
    end,
    options,
  });
}

async function seriesTable(ctx: FnContext, req: TableRequest): Promise<Table> {
  const { options, start, end } = req;
  const byProject = req.projects.length > 1;
  const fetchFrom =
    start === undefined
      ? -Infinity
      : options.fill === "previous"
        ? start - FILL_LOOKBACK_DAYS
        : start;
  const fetchTo = end ?? Infinity;
  const pairs = byProject
    ? req.projects.map((p) => ({ p, m: req.metrics[0] }))
    : req.metrics.map((m) => ({ p: req.projects[0], m }));

  const columns: Column[] = await Promise.all(
    pairs.map(async ({ p, m }): Promise<Column> => {
      const label = byProject ? (p.value?.projectId ?? p.text) : (m.value?.metricId ?? m.text);
      const column: Column = {
        label,
        projectName: p.value?.name ?? p.text,
        metricId: m.value?.metricId ?? m.text,
      };
      const failure = p.error ?? m.error;
      if (failure || !p.value || !m.value) return { ...column, error: failure };
      const answer = await fetchSeries(
        ctx,
        {
          projectId: p.value.projectId,
          productId: req.productId,
          metricId: m.value.metricId,
          start: fetchFrom,
          end: fetchTo,
          variant: variantOf(options),
        },
        `${p.value.projectId} ${m.value.metricId}`
      );
      if (answer.issue) return { ...column, error: { error: "na", message: answer.issue.message } };
      return { ...column, dims: answer.dims };
    })
  );

  const shaped = columns.map((c) => shapeColumn(c, req, ctx.today));
  const days = new Set<number>();
  const dimsSeen = new Set<string>();
  for (const s of shaped)
    for (const [dim, points] of s ?? []) {
      dimsSeen.add(dim);
      for (const p of points) days.add(p.day);
    }
  if (days.size === 0) {
    const firstError = columns.find((c) => c.error)?.error;
    if (firstError) throw notAvailable(firstError.message);
    const what = columns
      .map((c) => `${c.projectName === c.label ? c.metricId : c.label}`)
      .join(", ");
    throw notAvailable(`no data for ${what}${describeRange(start, end)}`);
  }

  const sortedDays = [...days].sort((a, b) => (options.order === "asc" ? a - b : b - a));
  const breakdown = options.breakdown;
  const dims = breakdown ? [...dimsSeen].sort() : [""];
  const rows: Table = [];
  const leading: Cell[] = breakdown
    ? ["Date", breakdown === "chain" ? "Chain" : "Product"]
    : ["Date"];
  if (options.headers === 2)
    rows.push([...leading.map(() => null), ...columns.map((c) => c.projectName)]);
  if (options.headers >= 1) rows.push([...leading, ...columns.map((c) => c.label)]);
  const lookup = shaped.map((s) => {
    const m = new Map<string, number | null>();
    for (const [dim, points] of s ?? []) for (const p of points) m.set(`${dim}|${p.day}`, p.value);
    return m;
  });
  for (const day of sortedDays) {
    for (const dim of dims) {
      const cells = columns.map((c, i): Cell =>
        c.error ? c.error : (lookup[i].get(`${dim}|${day}`) ?? null)
      );
      if (
        breakdown &&
        cells.every(
          (cell, i) => cell === null && !columns[i].error && !lookup[i].has(`${dim}|${day}`)
        )
      )
        continue;
      rows.push([{ date: day }, ...(breakdown ? [dim] : []), ...cells]);
    }
  }
  return rows;
}

/** A column's points per dimension after slicing to the range, filling and rolling up. */
function shapeColumn(
  column: Column,
  req: TableRequest,
  today: number
): Map<string, DayPoint[]> | undefined {
  if (!column.dims) return undefined;
  const { options } = req;
  const agg = options.agg ?? defaultAggregation(column.metricId);
  const out = new Map<string, DayPoint[]>();
  for (const [dim, points] of column.dims) {
    const from = req.start ?? points[0]?.day ?? today;
    const to = req.end ?? Math.max(points[points.length - 1]?.day ?? today, from);
    const filled =
      options.fill === "none"
        ? slicePoints(points, from, to)
        : fillDays(points, from, Math.min(to, today), options.fill);
    out.set(dim, rollUp(filled, options.period, agg));
  }
  return out;
}
