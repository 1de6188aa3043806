/**
 * METRIC and PRODUCT_METRIC: time series through the engine, shaped like STOCKHISTORY (a Date column, then
 * one column per metric or per project), rolled up and filled as the options say, every figure by the rule
 * of engine/figures/rule.ts.
 *
 * - Stable shape: one column per input position. An empty, unknown or unavailable project (or metric) is a
 *   column of #N/A with the reason, a repeated one repeats its column (coerce.idPositions).
 * - A period row stands for its whole calendar period. By default (partial=exclude) a column shows its
 *   periods from its first whole one to its last: the periods before (a launch quarter, a month the start
 *   date cuts) and after (the period still running, whatever the end date says) are left out, and a period
 *   in between that is not whole (days without a value, a day sent twice with different values) is a #N/A
 *   saying "N of M days": a hole never shifts the rows. A row another column shows and this one does not is a
 *   #N/A with its reason. partial=include shows every period with a day of data, rolled up over the days in
 *   the range. A day sent twice with different values is a #N/A in every mode.
 * - Fills only where the metric admits them (metric-kinds.ts, fillRefusal), never before the first data, past the latest
 *   data or today, nor over a conflict.
 * - Growth (`values=pop|yoy`, with a period): each period's change on its base as a ratio, #N/A where either
 *   is not whole or the base is 0 or less ("NM", engine/figures/growth.ts).
 * - Layouts: `dates=0` leaves the Date column out (SUM over the spill adds values only), `dir=h` puts the
 *   dates across (one row per column), `dating=end` dates a period row by its last day (default: its first).
 */
import type { Project } from "../../client";
import { formatDay, periodEnd, periodStart } from "../../client";
import {
  periodLabel,
  windowOf,
  conflictMessage,
  dayConflict,
  dayStates,
  isWhole,
  judge,
  windowFigure,
  type FigureWords,
  type SeriesDays,
  type WindowFigure,
  baseStart,
  growthOf,
  type Growth,
  defaultAggregation,
  fillRefusal,
  unknownKindMessage,
  type Aggregation,
  slicePoints,
  type DayPoint,
} from "../../engine";
import { requiredText } from "../coerce";
import { dayRange, idPositions, requiredIds } from "../coerce-lists";
import type { FnContext } from "../context";
import { type Options } from "../options";
import {
  FunctionError,
  invalid,
  notAvailable,
  type Cell,
  type ErrorCell,
  type Table,
} from "../result";
import { checkFilters, withFilters } from "./filters";
import { horizonRead, type SeriesBase } from "./latest";
import { run } from "./reads";
import { productBreakdown } from "./product-breakdown";
import { resolveMetrics, resolveProduct, resolveProject, resolveProjects } from "./resolve";
import { describeRange, fetchSeries, variantOf } from "./series-common";
import { atVintage } from "./vintage";
import { fillHint, firstDataRead, kindKnown, readStart, type DaysReading } from "./series-days";
import { optionsFor } from "../function-options";

/** One column of the table: its heading and, per breakdown dimension, a cell per row day. */
interface Column {
  label: string;
  projectName: string;
  metricId: string;
  cells?: Map<string, Map<number, Cell>>;
  error?: ErrorCell;
  /** Why the column shows no period, when none of its periods is whole (the message of an empty table). */
  incomplete?: string;
  /** The cell of a row another column shows and this one does not (the period's reason), per dimension. */
  reasonFor?: (dim: string, day: number) => Cell;
  /** The last day its figures can cover (periods only): min(today, the latest data). */
  horizon?: number;
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
  const options = optionsFor("METRIC", optionsArg);
  ctx = atVintage(ctx, options);
  const projectTexts = idPositions(projectArg, "project");
  const metricTexts = idPositions(metricArg, "metric");
  if (projectTexts.length > 1 && metricTexts.length > 1) {
    throw invalid(
      `METRIC takes several projects of one metric, or several metrics of one project, not both (${projectTexts.length} projects × ${metricTexts.length} metrics); use one formula per metric`
    );
  }
  if (options.breakdown && projectTexts.length > 1)
    throw invalid('option "breakdown" applies to one project');
  const { start, end } = dayRange(startArg, endArg);
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
  const options = optionsFor("PRODUCT_METRIC", optionsArg);
  ctx = atVintage(ctx, options);
  const projectText = requiredText(projectArg, "project");
  const productText = requiredText(productArg, "product");
  const metricTexts = requiredIds(metricArg, "metric");
  const { start, end } = dayRange(startArg, endArg);
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
    // A fill that would invent figures is the formula's #VALUE!; a metric of no known kind is its column's #N/A.
    if (!m.value || !kindKnown(m.value.metricId, options.agg)) continue;
    const refusal = fillRefusal(options.fill, m.value.metricId, options.agg);
    if (refusal) throw invalid(refusal);
  }
  const byProject = req.projects.length > 1;
  const pairs = byProject
    ? req.projects.map((p) => ({ p, m: req.metrics[0] }))
    : req.metrics.map((m) => ({ p: req.projects[0], m }));
  const columns: Column[] = await Promise.all(
    pairs.map(({ p, m }) => column(ctx, req, p, m, byProject))
  );

  // A row for every period (or day) some column shows.
  const days = new Set<number>();
  const dimsSeen = new Set<string>();
  for (const c of columns)
    for (const [dim, cells] of c.cells ?? []) {
      dimsSeen.add(dim);
      for (const day of cells.keys()) days.add(day);
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
  const leading: Cell[] = options.dates ? [dateHeading(options), ...dimHeading] : dimHeading;
  // The last day any column's data reaches: a period still running is dated by it, not by a day to come.
  const reach = columns.reduce((r, c) => Math.max(r, c.horizon ?? -Infinity), -Infinity);
  const dated = (day: number): Cell[] =>
    options.dates ? [{ date: rowDate(day, req, reach) }] : [];
  if (options.headers === 2)
    rows.push([...leading.map(() => null), ...columns.map((c) => c.projectName)]);
  if (options.headers >= 1) rows.push([...leading, ...columns.map((c) => c.label)]);
  for (const day of sortedDays) {
    for (const dim of dims) {
      const found = columns.map((c) => c.cells?.get(dim)?.get(day));
      if (breakdown && found.every((cell, i) => cell === undefined && !columns[i].error)) continue;
      const cells = columns.map(
        (c, i): Cell => c.error ?? found[i] ?? c.reasonFor?.(dim, day) ?? null
      );
      rows.push([...dated(day), ...(breakdown ? [dim] : []), ...cells]);
    }
  }
  return options.dir === "h" ? transpose(rows) : rows;
}

/**
 * A row's date: its period's last day (dating=end, the default: a quarter is dated as terminals date it) or its
 * first (dating=start). A period cut by the end date, or still running, is dated by the last day its figure
 * can cover (the end date, the latest data): a date never claims days the row does not cover.
 */
function rowDate(day: number, req: TableRequest, reach: number): number {
  const { period, dating } = req.options;
  if (period === "day" || dating === "start") return day;
  return Math.min(windowOf(day, period, req.start, req.end).to, Math.max(day, reach));
}

/** "Date" over days; over periods, which day dates them: "Period end" (default) or "Period start". */
export function dateHeading(options: Readonly<Pick<Options, "period" | "dating">>): string {
  if (options.period === "day") return "Date";
  return options.dating === "end" ? "Period end" : "Period start";
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
  const { start, end } = req;
  // Rolling days up or filling them needs the metric's kind: asked (agg=) when the table does not hold it.
  if (
    (req.options.period !== "day" || req.options.fill !== "none") &&
    !kindKnown(m.value.metricId, req.options.agg)
  )
    return { ...heading, error: { error: "na", message: unknownKindMessage(m.value.metricId) } };
  const filtered = await checkFilters(ctx, p.value, req.options, req.productId);
  if ("error" in filtered) return { ...heading, error: filtered.error };
  // The filters in the project's own spelling (they were matched without case).
  const options = withFilters(req.options, filtered.filters);
  // A product breakdown reads each product's own series (product-breakdown.ts); its horizon is the project's.
  const byProduct = options.breakdown === "product_id" && !req.productId;
  const variant = variantOf(options);
  const metricId = m.value.metricId;
  const base: SeriesBase = {
    projectId: p.value.projectId,
    productId: req.productId,
    metricId,
    variant: byProduct ? { ...variant, breakdown: undefined } : variant,
  };
  const seriesLabel = `${p.value.projectId} ${metricId}`;
  const growth = growthOf_(options);
  // Growth needs the base periods before the first shown one, whole.
  const dataFrom =
    start === undefined || !growth
      ? start
      : baseStart(periodStart(start, options.period), options.period, growth);
  const fetchFrom = dataFrom === undefined ? -Infinity : readStart(options.fill, dataFrom);
  const asked = { ...base, start: fetchFrom, end: end ?? Infinity };
  const answer = byProduct
    ? await productBreakdown(ctx, p.value, { ...asked, variant }, seriesLabel)
    : await fetchSeries(ctx, asked, seriesLabel);
  if (answer.issue) return { ...heading, error: { error: "na", message: answer.issue.message } };

  const reading: DaysReading = { ctx, base, label: seriesLabel, metricId, fill: options.fill };
  // The horizon matters to periods and fills only; any dimension's data counts for the series.
  let horizon = Infinity;
  if (options.period !== "day" || options.fill !== "none") {
    const inRange = [...answer.dims.values()]
      .map((points) => slicePoints(points, start ?? -Infinity, end ?? Infinity))
      .flat()
      .sort((a, b) => a.day - b.day);
    horizon = await run(
      horizonRead(ctx, base, seriesLabel, inRange, start ?? -Infinity, end ?? Infinity)
    );
  }
  // A read from the launch knows the first day with data; otherwise fill=zero asks (it fills gaps, never
  // the days before a launch). Without it, days before the first point read are "unknown": never filled.
  const firstData =
    fetchFrom === -Infinity
      ? firstDataIn(answer.dims)
      : options.fill === "zero" && start !== undefined && !anyDataBy(answer.dims, start)
        ? await run(firstDataRead(reading))
        : undefined;
  const subject = byProject ? p.value.projectId : seriesLabel;
  const words = {
    subject,
    today: ctx.today,
    fillHint: fillHint(metricId, options.fill, options.agg),
  };
  // Day rows roll nothing up; periods roll up by the kind (known here: checked above) or agg=.
  const agg = defaultAggregation(metricId, options.agg);
  const cells = new Map<string, Map<number, Cell>>();
  const reasons = new Map<string, (day: number) => Cell>();
  let incomplete: string | undefined;
  for (const [dim, points] of answer.dims) {
    const days: SeriesDays = { points, horizon, firstData };
    if (options.period === "day") {
      cells.set(dim, dayCells(days, req, words));
      continue;
    }
    if (agg === undefined) throw new Error(`${metricId}: a period without a roll-up`);
    const shaped = periodCells(days, req, agg, words, growth);
    cells.set(dim, shaped.cells);
    reasons.set(dim, shaped.reasonFor);
    incomplete ??= shaped.incomplete;
  }
  return {
    ...heading,
    cells,
    incomplete,
    reasonFor: (dim, day) => reasons.get(dim)?.(day) ?? null,
    ...(Number.isFinite(horizon) ? { horizon } : {}),
  };
}

/** The first day with data of any dimension, or null when none has any. */
function firstDataIn(dims: ReadonlyMap<string, readonly DayPoint[]>): number | null {
  let first: number | null = null;
  for (const points of dims.values()) {
    const found = points.find((p) => p.value !== null || p.conflict)?.day;
    if (found !== undefined && (first === null || found < first)) first = found;
  }
  return first;
}

/** Whether any dimension has data on or before `day`: then no day from `day` on is before the launch. */
function anyDataBy(dims: ReadonlyMap<string, readonly DayPoint[]>, day: number): boolean {
  for (const points of dims.values())
    if (points.some((p) => p.day <= day && (p.value !== null || p.conflict))) return true;
  return false;
}

function conflictCell(
  day: number,
  words: Omit<FigureWords, "label">,
  p: { readonly split?: true; readonly unreadable?: string; readonly notKnown?: string }
): ErrorCell {
  const label = formatDay(day);
  return { error: "na", message: conflictMessage(dayConflict(day, p), { ...words, label }) };
}

/**
 * Day rows: without a fill, the service's rows in the range (nulls as empty cells, as STOCKHISTORY); with one,
 * every day from the first data (or the start) to the end or the horizon, filled by the rule. A day sent
 * twice with different values is a #N/A either way.
 */
function dayCells(
  days: SeriesDays,
  req: TableRequest,
  words: Omit<FigureWords, "label">
): Map<number, Cell> {
  const out = new Map<number, Cell>();
  const { start, end, options } = req;
  const inRange = slicePoints(days.points, start ?? -Infinity, end ?? Infinity);
  if (options.fill === "none") {
    for (const point of inRange)
      out.set(point.day, point.conflict ? conflictCell(point.day, words, point) : point.value);
    return out;
  }
  const from = start ?? inRange.find((q) => q.value !== null || q.conflict)?.day;
  const to = Math.min(end ?? Infinity, days.horizon);
  if (from === undefined || to < from) return out;
  dayStates(days, from, to, options.fill).forEach((state, k) => {
    const day = from + k;
    if (state.kind === "value") out.set(day, state.value);
    else if (state.kind === "conflict") out.set(day, conflictCell(state.at, words, state));
    // A gap the fill cannot reach stays an empty cell; no row before the data or past it.
    else if (state.why === "gap") out.set(day, null);
  });
  return out;
}

interface PeriodCells {
  cells: Map<number, Cell>;
  reasonFor: (day: number) => Cell;
  incomplete?: string;
}

/** The calendar periods of one dimension's days, shown by the rule (see the file's comment). */
function periodCells(
  days: SeriesDays,
  req: TableRequest,
  agg: Aggregation,
  words: Omit<FigureWords, "label">,
  growth: Growth | undefined
): PeriodCells {
  const { options, start, end } = req;
  const period = options.period;
  const include = options.partial === "include";
  const first = start ?? days.points.find((q) => q.value !== null || q.conflict)?.day ?? Infinity;
  const last = Math.min(end ?? Infinity, days.horizon);
  const figureOf = (ps: number, from: number, to: number): WindowFigure =>
    windowFigure(days, from, to, options.fill, agg);
  const wordsOf = (ps: number): FigureWords => ({
    ...words,
    label: periodLabel({ period, start: ps }),
  });
  /** The cell of the period starting on `ps`: its figure, or why it has none; undefined: no row. */
  const periodCell = (ps: number): { cell?: Cell; whole: boolean; reason: string } => {
    const pe = periodEnd(ps, period);
    const cut = ps < (start ?? -Infinity) || pe > (end ?? Infinity);
    const calendar = figureOf(ps, ps, pe);
    const w = wordsOf(ps);
    if (include) {
      const part = cut
        ? figureOf(ps, Math.max(ps, start ?? ps), Math.min(pe, end ?? pe))
        : calendar;
      const judged = judge(part, true, w);
      if ("value" in judged)
        return { cell: judged.value, whole: !cut && isWhole(calendar), reason: "" };
      return {
        cell: judged.conflict ? { error: "na", message: judged.reason } : undefined,
        whole: false,
        reason: judged.reason,
      };
    }
    const judged = judge(calendar, false, w);
    if ("value" in judged && !cut) return { cell: judged.value, whole: true, reason: "" };
    const reason =
      "reason" in judged
        ? judged.reason
        : `${w.label} is cut by the ${ps < (start ?? -Infinity) ? `start date (${formatDay(start!)})` : `end date (${formatDay(end!)})`}: ${rangeDays(ps, pe, start, end)} of ${pe - ps + 1} days in the range; partial=include shows it`;
    return { cell: { error: "na", message: reason }, whole: false, reason };
  };

  const starts: number[] = [];
  if (first <= last)
    for (let ps = periodStart(first, period); ps <= last; ps = periodEnd(ps, period) + 1)
      starts.push(ps);
  const shown = starts.map((ps) => ({ ps, ...periodCell(ps) }));
  // partial=exclude: from the first whole period to the last; partial=include: every period with a cell.
  let lo = 0;
  let hi = shown.length - 1;
  if (!include) {
    while (lo <= hi && !shown[lo].whole) lo++;
    while (hi >= lo && !shown[hi].whole) hi--;
  }
  const cells = new Map<number, Cell>();
  for (let k = lo; k <= hi; k++) {
    const { ps, cell, whole, reason } = shown[k];
    if (cell === undefined) continue;
    cells.set(ps, growth ? growthCell(ps, whole, reason, days, req, agg, words, growth) : cell);
  }
  const incomplete = cells.size === 0 ? shown[shown.length - 1]?.reason : undefined;
  return {
    cells,
    incomplete,
    reasonFor: (day) => {
      const ps = periodStart(day, period);
      const { cell, reason } = periodCell(ps);
      if (cell !== undefined && typeof cell === "object") return cell;
      const message = reason || `${wordsOf(ps).label}: no ${words.subject} figure`;
      return { error: "na", message };
    },
  };
}

/** Days of the period [ps, pe] inside the user's range. */
function rangeDays(ps: number, pe: number, start?: number, end?: number): number {
  return Math.min(pe, end ?? pe) - Math.max(ps, start ?? ps) + 1;
}

function growthOf_(options: Readonly<Options>): Growth | undefined {
  return options.values === "pop" || options.values === "yoy" ? options.values : undefined;
}

/** values= on METRIC and PRODUCT_METRIC: growth needs a period (coverage is refused by parseOptions). */
function checkGrowthOptions(options: Readonly<Options>): void {
  if (growthOf_(options) && options.period === "day")
    throw invalid(
      `option "values=${options.values}" compares a period with an earlier one, and a day is no period: use period=week, month, quarter or year, e.g. "period=quarter; values=${options.values}"`
    );
}

/**
 * A shown period's change on its base, or why there is none: both periods whole (growth compares like with
 * like, whatever `partial` says), the base above 0.
 */
function growthCell(
  ps: number,
  whole: boolean,
  reason: string,
  days: SeriesDays,
  req: TableRequest,
  agg: Aggregation,
  words: Omit<FigureWords, "label">,
  growth: Growth
): Cell {
  const { period } = req.options;
  const label = `${words.subject} ${periodLabel({ period, start: ps })}`;
  if (!whole)
    return {
      error: "na",
      message: `no ${growth} change for ${label}: ${reason || "the period is not whole"}`,
    };
  const current = windowFigure(days, ps, periodEnd(ps, period), req.options.fill, agg);
  const bs = baseStart(ps, period, growth);
  const base = windowFigure(days, bs, periodEnd(bs, period), req.options.fill, agg);
  const judged = judge(base, false, { ...words, label: periodLabel({ period, start: bs }) });
  if ("reason" in judged)
    return { error: "na", message: `no ${growth} change for ${label}: its base: ${judged.reason}` };
  const g = growthOf(current.value, judged.value);
  if ("value" in g) return { percent: g.value };
  return { error: "na", message: `no ${growth} change for ${label}: ${g.missing}` };
}
