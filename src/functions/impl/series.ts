/**
 * VALUE, METRIC and PRODUCT_METRIC: time series through the engine, shaped like STOCKHISTORY (a Date
 * column, then one column per metric or per project), rolled up and filled as the options say.
 */
import type { Project } from "../../client";
import { formatDay, periodEnd, periodStart } from "../../engine/days";
import { defaultAggregation } from "../../engine/metric-kinds";
import {
  fillDays,
  lastValueAtOrBefore,
  rollUp,
  slicePoints,
  type DayPoint,
} from "../../engine/series-ops";
import type { SeriesAnswer, SeriesQuery, SeriesVariant } from "../../engine/series-types";
import { checkRange, optionalDate, requiredIds, requiredText } from "../coerce";
import type { FnContext } from "../context";
import { parseOptions, type OptionKey, type Options } from "../options";
import { invalid, notAvailable, type Cell, type ErrorCell, type Table } from "../result";
import {
  resolveMetric,
  resolveMetrics,
  resolveProduct,
  resolveProject,
  resolveProjects,
} from "./resolve";

export const VALUE_OPTIONS: readonly OptionKey[] = [
  "bridged",
  "chains",
  "products",
  "sectors",
  "fill",
  "period",
  "agg",
];
export const METRIC_OPTIONS: readonly OptionKey[] = [
  "order",
  "headers",
  "chains",
  "products",
  "sectors",
  "breakdown",
  "bridged",
  "period",
  "agg",
  "fill",
];
export const PRODUCT_METRIC_OPTIONS: readonly OptionKey[] = [
  "order",
  "headers",
  "chains",
  "breakdown",
  "bridged",
  "period",
  "agg",
  "fill",
];

/** fill=previous carries a value across gaps of up to this many days before the asked date or range. */
export const FILL_LOOKBACK_DAYS = 90;
/** "Latest" looks this far back first; a project with nothing that recent gets its whole history read. */
export const LATEST_LOOKBACK_DAYS = 35;

/** One variant object per options object, so cells with the same (usually default) options share its key. */
const variants = new WeakMap<Readonly<Options>, SeriesVariant>();

function variantOf(o: Readonly<Options>): SeriesVariant {
  let v = variants.get(o);
  if (!v) {
    v = {
      bridged: o.bridged,
      chains: o.chains,
      products: o.products,
      sectors: o.sectors,
      breakdown: o.breakdown,
    };
    variants.set(o, v);
  }
  return v;
}

async function fetchSeries(
  ctx: FnContext,
  query: SeriesQuery,
  label: string
): Promise<SeriesAnswer> {
  // A getter, so the signal is made only if the engine has to wait (it reads it after its cache look-up).
  const answer = await ctx.engine.series(query, {
    get signal() {
      return ctx.signal;
    },
  });
  ctx.trace.noteSeries(label, answer);
  return answer;
}

function plainPoints(answer: SeriesAnswer): DayPoint[] {
  return answer.dims.get("") ?? [];
}

function describeRange(start: number | undefined, end: number | undefined): string {
  if (start === undefined && end === undefined) return "";
  if (start === end) return ` on ${formatDay(start!)}`;
  return ` between ${start === undefined ? "launch" : formatDay(start)} and ${end === undefined ? "the latest data" : formatDay(end)}`;
}

// ---- VALUE ----

export async function value(
  ctx: FnContext,
  projectArg: unknown,
  metricArg: unknown,
  dateArg: unknown,
  optionsArg: unknown
): Promise<Cell> {
  const options = parseOptions(optionsArg, "VALUE", VALUE_OPTIONS);
  const projectText = requiredText(projectArg, "project");
  const metricText = requiredText(metricArg, "metric");
  const date = optionalDate(dateArg, "date");
  const [project, metric] = await Promise.all([
    resolveProject(ctx, projectText),
    resolveMetric(ctx, metricText),
  ]);
  const label = `${project.projectId} ${metric.metricId}`;
  const agg = options.agg ?? defaultAggregation(metric.metricId);
  const base = {
    projectId: project.projectId,
    metricId: metric.metricId,
    variant: variantOf(options),
  };
  const ask = async (start: number, end: number): Promise<DayPoint[]> => {
    const answer = await fetchSeries(ctx, { ...base, start, end }, label);
    if (answer.issue) throw notAvailable(answer.issue.message);
    return plainPoints(answer);
  };

  if (date === undefined) {
    // Latest: a short recent window first (every latest-cell of a workbook shares it); the whole history only
    // for series with nothing recent (archived projects).
    let points = await ask(ctx.today - LATEST_LOOKBACK_DAYS, Infinity);
    let last = lastValueAtOrBefore(points, Infinity);
    if (!last) {
      points = await ask(-Infinity, Infinity);
      last = lastValueAtOrBefore(points, Infinity);
    }
    if (!last) throw notAvailable(`no ${metric.metricId} data for ${project.projectId}`);
    if (options.period === "day") return last.value;
    const from = periodStart(last.day, options.period);
    const rolled = rollUp(
      slicePoints(await ask(from, Infinity), from, Infinity),
      options.period,
      agg
    );
    return rolled[rolled.length - 1]?.value ?? null;
  }

  if (options.period !== "day") {
    const from = periodStart(date, options.period);
    const to = periodEnd(date, options.period);
    const points = await ask(options.fill === "previous" ? from - FILL_LOOKBACK_DAYS : from, to);
    const filled = fillDays(points, from, Math.min(to, ctx.today), options.fill);
    const rolled = rollUp(filled, options.period, agg)[0]?.value ?? null;
    if (rolled === null) {
      if (options.fill === "zero") return 0;
      throw notAvailable(`no ${label} value in the ${options.period} of ${formatDay(date)}`);
    }
    return rolled;
  }

  const points = await ask(options.fill === "previous" ? date - FILL_LOOKBACK_DAYS : date, date);
  const found =
    options.fill === "previous"
      ? lastValueAtOrBefore(points, date)
      : points.find((p) => p.day === date);
  if (found === undefined || found.value === null) {
    if (options.fill === "zero") return 0;
    const hint =
      options.fill === "none" ? ' (option "fill=previous" takes the last earlier value)' : "";
    throw notAvailable(`no ${label} value on ${formatDay(date)}${hint}`);
  }
  return found.value;
}

// ---- METRIC and PRODUCT_METRIC ----

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
