/**
 * METRIC and PRODUCT_METRIC: time series through the engine, shaped like STOCKHISTORY (a Date column, then
 * one column per metric or per project), rolled up and filled as the options say.
 *
 * - Stable shape: one column per input position. An empty, unknown or unavailable project (or metric) is a
 *   column of #N/A with the reason, a repeated one repeats its column (coerce.idPositions).
 * - Complete periods only by default (engine/completeness.ts): a period whose days run past a column's
 *   latest data or today is a #N/A in that column naming the days covered, and a row no column completes is
 *   left out; `partial=include` shows them. The user's own start and end cut periods as they choose.
 * - Fills only where the metric admits them (fill-rules.ts) and never past the latest data or today.
 * - Growth (`values=pop|yoy`, with a period): each period's change on its base as a ratio, #N/A where the
 *   base is not a whole complete period or is 0 (engine/growth.ts).
 * - Layouts: `dates=0` leaves the Date column out (SUM over the spill adds values only), `dir=h` puts the
 *   dates across (one row per column), `dating=end` dates a period row by its last day (default: its first).
 */
import type { Project } from "../../client";
import { periodStart } from "../../client/data/days";
import { incompleteMessage, isComplete, periodLabel, windowOf } from "../../engine/completeness";
import { baseStart, growthOf, type Growth } from "../../engine/growth";
import { fillRefusal } from "../../engine/fill-rules";
import { defaultAggregation } from "../../engine/metric-kinds";
import { fillDays, rollUp, slicePoints, type DayPoint } from "../../engine/series-ops";
import { checkRange, idPositions, optionalDate, requiredIds, requiredText } from "../coerce";
import type { FnContext } from "../context";
import { parseOptions, type Options } from "../options";
import {
  FunctionError,
  invalid,
  notAvailable,
  type Cell,
  type ErrorCell,
  type Table,
} from "../result";
import { checkFilters } from "./filters";
import { horizonFor, type SeriesBase } from "./latest";
import { productBreakdown } from "./product-breakdown";
import { resolveMetrics, resolveProduct, resolveProject, resolveProjects } from "./resolve";
import {
  FILL_LOOKBACK_DAYS,
  METRIC_OPTIONS,
  PRODUCT_METRIC_OPTIONS,
  describeRange,
  fetchSeries,
  variantOf,
} from "./series-common";

/** One column of the table: its heading and, per breakdown dimension, a cell per row day. */
interface Column {
  label: string;
  projectName: string;
  metricId: string;
  cells?: Map<string, Map<number, Cell>>;
  error?: ErrorCell;
  /** Why the column's last period is left out, when it is (the message of a table left empty by it). */
  incomplete?: string;
  /** The column's horizon (completeness.ts), when periods or fills needed it. */
  horizon?: number;
  /** Who the column's messages name ("sushiswap", or "aave fees" in a one-project table). */
  subject?: string;
}

interface TableRequest {
  functionName: string;
  projects: Array<{ text: string; value?: Project; error?: ErrorCell }>;
  metrics: Array<{ text: string; value?: { metricId: string }; error?: ErrorCell }>;
  productId?: string;
  start?: number;
  end?: number;
  options: Readonly<Options>;
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
  const projectTexts = idPositions(projectArg, "project");
  const metricTexts = idPositions(metricArg, "metric");
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
  // breakdown=product_id is refused by parseOptions: a product is one product.
  const options = parseOptions(optionsArg, "PRODUCT_METRIC", PRODUCT_METRIC_OPTIONS);
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
  checkGrowthOptions(options);
  for (const m of req.metrics) {
    const refusal = m.value && fillRefusal(options.fill, m.value.metricId);
    if (refusal) throw invalid(refusal);
  }
  const byProject = req.projects.length > 1;
  const pairs = byProject
    ? req.projects.map((p) => ({ p, m: req.metrics[0] }))
    : req.metrics.map((m) => ({ p: req.projects[0], m }));
  const columns: Column[] = await Promise.all(
    pairs.map(({ p, m }) => column(ctx, req, p, m, byProject))
  );

  // A row for every period some column completes (or shows: partial=include, or a plain value).
  const days = new Set<number>();
  const dimsSeen = new Set<string>();
  for (const c of columns)
    for (const [dim, cells] of c.cells ?? []) {
      dimsSeen.add(dim);
      for (const [day, cell] of cells) if (!isIncomplete(cell)) days.add(day);
    }
  if (days.size === 0) {
    const incomplete = columns.find((c) => c.incomplete)?.incomplete;
    if (incomplete) throw notAvailable(incomplete);
    // Nothing to show but why: the first column's reason is the result (#VALUE! for a typo in a filter).
    const failed = columns.find((c) => c.error)?.error;
    if (failed) throw new FunctionError(failed.error, failed.message);
    const what = columns
      .map((c) => `${c.projectName === c.label ? c.metricId : c.label}`)
      .join(", ");
    throw notAvailable(`no data for ${what}${describeRange(start, end)}`);
  }

  const sortedDays = [...days].sort((a, b) => (options.order === "asc" ? a - b : b - a));
  const breakdown = options.breakdown;
  const dims = breakdown ? [...dimsSeen].sort() : [""];
  const rows: Table = [];
  const dimHeading: Cell[] = breakdown ? [breakdown === "chain" ? "Chain" : "Product"] : [];
  const leading: Cell[] = options.dates ? ["Date", ...dimHeading] : dimHeading;
  const dated = (day: number): Cell[] => (options.dates ? [{ date: rowDate(day, req) }] : []);
  if (options.headers === 2)
    rows.push([...leading.map(() => null), ...columns.map((c) => c.projectName)]);
  if (options.headers >= 1) rows.push([...leading, ...columns.map((c) => c.label)]);
  for (const day of sortedDays) {
    for (const dim of dims) {
      const found = columns.map((c) => c.cells?.get(dim)?.get(day));
      if (breakdown && found.every((cell, i) => cell === undefined && !columns[i].error)) continue;
      const cells = columns.map((c, i): Cell => c.error ?? found[i] ?? missing(c, day, req));
      rows.push([...dated(day), ...(breakdown ? [dim] : []), ...cells]);
    }
  }
  return options.dir === "h" ? transpose(rows) : rows;
}

/** A row's date: its period's first day (dating=start, the default) or its last (dating=end; cut by the end date). */
function rowDate(day: number, req: TableRequest): number {
  const { period, dating } = req.options;
  if (period === "day" || dating === "start") return day;
  return windowOf(day, period, req.start, req.end).to;
}

const EXCEL_COLUMNS = 16_384;

/** dir=h: dates across, one row per column (as Bloomberg's Dir=H). */
function transpose(rows: Table): Table {
  if (rows.length > EXCEL_COLUMNS)
    throw invalid(
      `dir=h puts ${rows.length} rows across, more than Excel's ${EXCEL_COLUMNS} columns; use a period or a shorter range`
    );
  const width = rows.reduce((w, r) => Math.max(w, r.length), 0);
  const out: Table = [];
  for (let c = 0; c < width; c++) out.push(rows.map((r) => r[c] ?? null));
  return out;
}

/**
 * A row day another column has and this one has not: empty, unless the period runs past this column's
 * latest data (a lagging project): then it says so, as a period it has data for would.
 */
function missing(c: Column, day: number, req: TableRequest): Cell {
  const { options } = req;
  if (options.period === "day" || options.partial === "include" || c.horizon === undefined)
    return null;
  const w = windowOf(day, options.period, req.start, req.end);
  return isComplete(w, c.horizon)
    ? null
    : { error: "na", message: incompleteMessage(w, c.horizon, c.subject) };
}

/** Incomplete periods are marked in their column by an error cell carrying this flag. */
interface IncompleteCell extends ErrorCell {
  readonly incomplete: true;
}

function isIncomplete(cell: Cell): boolean {
  return typeof cell === "object" && cell !== null && "incomplete" in cell;
}

async function column(
  ctx: FnContext,
  req: TableRequest,
  p: TableRequest["projects"][number],
  m: TableRequest["metrics"][number],
  byProject: boolean
): Promise<Column> {
  const label = byProject ? (p.value?.projectId ?? p.text) : (m.value?.metricId ?? m.text);
  const heading: Column = {
    label,
    projectName: p.value?.name ?? p.text,
    metricId: m.value?.metricId ?? m.text,
  };
  const failure = p.error ?? m.error;
  if (failure || !p.value || !m.value) return { ...heading, error: failure };
  const filtered = await checkFilters(ctx, p.value, req.options, req.productId);
  if (filtered) return { ...heading, error: filtered };
  const { options, start, end } = req;
  // A product breakdown reads each product's own series (product-breakdown.ts); its horizon is the project's.
  const byProduct = options.breakdown === "product_id" && !req.productId;
  const variant = variantOf(options);
  const base: SeriesBase = {
    projectId: p.value.projectId,
    productId: req.productId,
    metricId: m.value.metricId,
    variant: byProduct ? { ...variant, breakdown: undefined } : variant,
  };
  const seriesLabel = `${p.value.projectId} ${m.value.metricId}`;
  const growth = growthOf_(options);
  // Growth needs the base periods before the first shown one, whole.
  const dataFrom =
    start === undefined || !growth
      ? start
      : baseStart(periodStart(start, options.period), options.period, growth);
  const fetchFrom =
    dataFrom === undefined
      ? -Infinity
      : options.fill === "previous"
        ? dataFrom - FILL_LOOKBACK_DAYS
        : dataFrom;
  const asked = { ...base, start: fetchFrom, end: end ?? Infinity };
  const answer = byProduct
    ? await productBreakdown(ctx, p.value, { ...asked, variant }, seriesLabel)
    : await fetchSeries(ctx, asked, seriesLabel);
  if (answer.issue) return { ...heading, error: { error: "na", message: answer.issue.message } };

  // The horizon matters to periods and fills only; any dimension's data counts for the series.
  let horizon = Infinity;
  if (options.period !== "day" || options.fill !== "none") {
    const inRange = [...answer.dims.values()]
      .map((points) => slicePoints(points, start ?? -Infinity, end ?? Infinity))
      .flat()
      .sort((a, b) => a.day - b.day);
    horizon = await horizonFor(
      ctx,
      base,
      seriesLabel,
      inRange,
      start ?? -Infinity,
      end ?? Infinity
    );
  }
  const subject = byProject ? p.value.projectId : seriesLabel;
  const agg = options.agg ?? defaultAggregation(m.value.metricId);
  const cells = new Map<string, Map<number, Cell>>();
  let incomplete: string | undefined;
  for (const [dim, points] of answer.dims) {
    const shaped = shape(points, req, horizon, agg);
    const bases = growth
      ? completePeriods(
          shape(points, { ...req, start: dataFrom }, horizon, agg),
          points,
          req,
          horizon
        )
      : undefined;
    const out = new Map<number, Cell>();
    for (const point of shaped) {
      if (options.period !== "day" && options.partial === "exclude") {
        const w = windowOf(point.day, options.period, start, end);
        if (!isComplete(w, horizon)) {
          incomplete = incompleteMessage(w, horizon, subject);
          const cell: IncompleteCell = { error: "na", message: incomplete, incomplete: true };
          out.set(point.day, cell);
          continue;
        }
      }
      out.set(
        point.day,
        bases && growth ? growthCell(point, bases, req, growth, subject) : point.value
      );
    }
    cells.set(dim, out);
  }
  return {
    ...heading,
    cells,
    incomplete,
    horizon: horizon === Infinity ? undefined : horizon,
    subject,
  };
}

/** A dimension's points sliced to the range, filled up to the horizon, rolled up. */
function shape(
  points: readonly DayPoint[],
  req: TableRequest,
  horizon: number,
  agg: ReturnType<typeof defaultAggregation>
): DayPoint[] {
  const { options } = req;
  const inRange = slicePoints(points, req.start ?? -Infinity, req.end ?? Infinity);
  const from = req.start ?? inRange[0]?.day;
  if (from === undefined) return [];
  const filled =
    options.fill === "none"
      ? inRange
      : fillDays(points, from, Math.min(req.end ?? Infinity, horizon), options.fill);
  return rollUp(filled, options.period, agg);
}

function growthOf_(options: Readonly<Options>): Growth | undefined {
  return options.values === "pop" || options.values === "yoy" ? options.values : undefined;
}

/** values= on METRIC and PRODUCT_METRIC: growth needs a period (coverage is refused by parseOptions). */
function checkGrowthOptions(options: Readonly<Options>): void {
  if (growthOf_(options) && options.period === "day")
    throw invalid(
      `option "values=${options.values}" compares periods: add a period, e.g. "period=quarter; values=${options.values}"`
    );
}

/**
 * Period start -> figure, for the periods complete at both ends: not past the horizon, and not starting
 * before the series' first row (a launch quarter is a part of a quarter). The bases of growth.
 */
function completePeriods(
  shaped: readonly DayPoint[],
  points: readonly DayPoint[],
  req: TableRequest,
  horizon: number
): Map<number, number | null> {
  const first = points[0]?.day;
  const out = new Map<number, number | null>();
  for (const p of shaped) {
    const w = windowOf(p.day, req.options.period);
    if (!isComplete(w, horizon) || first === undefined || first > w.start) continue;
    out.set(w.start, p.value);
  }
  return out;
}

/** A shown period's change on its base, or why there is none. */
function growthCell(
  point: DayPoint,
  bases: ReadonlyMap<number, number | null>,
  req: TableRequest,
  growth: Growth,
  subject: string
): Cell {
  const { period } = req.options;
  const w = windowOf(point.day, period, req.start, req.end);
  const label = `${subject} ${periodLabel(w)}`;
  if (w.from !== w.start || w.to !== w.end)
    return {
      error: "na",
      message: `${label} is cut by the start or end date: no ${growth} change for a part of a period`,
    };
  if (!bases.has(w.start)) return { error: "na", message: `${label}: the period is not complete` };
  const base = baseStart(w.start, period, growth);
  const g = growthOf(point.value, bases.has(base) ? bases.get(base) : undefined);
  if ("value" in g) return { percent: g.value };
  const why = bases.has(base) ? g.missing : "no complete base period to compare with";
  return { error: "na", message: `${label}: ${why}` };
}
