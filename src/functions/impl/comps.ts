/**
 * COMPS(projects, columns, [date], [options]): a projects × columns panel in one call, the comps table of
 * an analyst's day (P/S on TTM revenue, 30-day fees, the latest market cap, side by side).
 *
 * - Projects: ids, symbols, names or a range, one row per position in input order (an empty or unknown one is
 *   a row of #N/A saying why).
 * - Columns (comps-columns.ts): `metric`, `metric:window`, or a ratio `a/b` of two such.
 * - Each term is exactly what VALUE gives for it (`VALUE(project, metric, date, "window=…")`): the same
 *   reading, the same rule of whole windows, so a comps cell and a cell formula never disagree. All cells run
 *   at once through the engine, so the whole panel is planned as one batch: it costs no more requests than
 *   the same cells written as VALUE formulas.
 * - A ratio compares like with like: its two terms as of one day. Without a date, when the latest figures of
 *   its terms are of different days (a market cap of 11-25 and revenue to 11-26), the later one is read again
 *   as of the earlier day, so frax's P/S never divides an 11-25 cap by revenue to 11-26.
 * - A cell that cannot be computed is #N/A with its reason and the rest stay; a ratio whose divisor is 0 or
 *   negative is NM (#N/A): a multiple of a loss means nothing (a P/E of -641 is not cheap), as growth over a
 *   loss is NM. A failure of the service fails the whole panel (it keeps its previous value, as every
 *   function does).
 * - Headers say what a ratio divides: P/S, P/F and P/E only over a year's figure (TTM, 12m, 365d) or an
 *   annualised window (annualize=1 scales every summed window to 365 days, "P/S (30d annualised)"); a market
 *   cap over one day's or 30 days' revenue is headed as that ratio (labels.ts).
 * - headers=1 (default): a header row of column labels in finance words ("P/S (TTM)", "Revenue (TTM)",
 *   labels.ts) and a first column of project names; headers=2 adds a column of project ids after the names;
 *   headers=0: the numbers only. asof=1 adds a column "As of" after them: the day each row's figures are as
 *   of (the earliest of its figures, so a row of mixed days shows its oldest).
 * - Options for every cell: partial, bridged, chains, maxage (without a date: a latest figure older than that
 *   is a #N/A); fill takes one fill or one per kind of metric (`fill=previous,zero`), each column using the
 *   one its metric admits (a level carries forward, a flow counts a missing day 0), so a TVL + revenue panel
 *   can fill both; agg= rolls up every windowed term (a metric the table of kinds does not hold needs it);
 *   annualize=1 scales every summed window to a year.
 */
import { isCryptometricsError } from "../../client";
import { ratioOf, defaultAggregation, fillRefusal, type Fill } from "../../engine";
import { isMissing, optionalDate, requiredText } from "../coerce";
import { idPositions } from "../coerce-lists";
import type { FnContext } from "../context";
import { type Options } from "../options";
import { FunctionError, invalid, type Cell, type ErrorCell, type Table } from "../result";
import type { CompsColumn, CompsTerm } from "../../sheet/comps-columns";
import { compsColumnLabel, metricNamesFrom } from "../../sheet/metric-labels";
import { parseColumns } from "./comps-columns";
import { metricCatalogue, resolveMetric, resolveProjects } from "./resolve";
import { datedValueOn, type Dated } from "./value";
import { atVintage } from "./vintage";
import { userMessage } from "../messages";
import { optionsFor } from "../function-options";

/** A panel bigger than this is not a comps table; it would also take minutes at 60 requests a minute. */
export const MAX_COMPS_CELLS = 10_000;

/** A figure of a term, or why it has none. */
type Term = Dated | ErrorCell;

/** A cell and the day it is as of (none for an error). */
interface Shown {
  cell: Cell;
  asOf?: number;
}

export async function comps(
  ctx: FnContext,
  projectsArg: unknown,
  columnsArg: unknown,
  dateArg: unknown,
  optionsArg: unknown
): Promise<Table> {
  const options = optionsFor("COMPS", optionsArg);
  ctx = atVintage(ctx, options);
  const columns = parseColumns(columnTexts(columnsArg));
  const projectTexts = idPositions(projectsArg, "projects");
  if (projectTexts.length * columns.length > MAX_COMPS_CELLS)
    throw invalid(
      `COMPS of ${projectTexts.length} projects × ${columns.length} columns is more than ${MAX_COMPS_CELLS} cells`
    );
  const date = optionalDate(dateArg, "date");
  if (options.maxage !== undefined && date !== undefined)
    throw invalid('option "maxage" applies to latest figures: leave the date out, or drop maxage');
  const { fillOf, summedOf } = await termKinds(ctx, columns, options);
  const projects = await resolveProjects(ctx, projectTexts);
  const term = (projectId: string, t: CompsTerm, on?: number): Promise<Term> => {
    return termValue(() =>
      datedValueOn(
        ctx,
        projectId,
        t.metric,
        on ?? date,
        termOptions(options, fillOf(t), t, on === undefined, summedOf(t))
      )
    );
  };
  const body = await Promise.all(
    projects.map((p) =>
      Promise.all(
        columns.map((c): Promise<Shown> =>
          "value" in p
            ? columnValue(c, (t, on) => term(p.value.projectId, t, on), date === undefined)
            : Promise.resolve({ cell: p.error })
        )
      )
    )
  );
  const asOfCell = (row: readonly Shown[]): Cell => {
    const days = row.flatMap((s) => (s.asOf === undefined ? [] : [s.asOf]));
    return days.length === 0 ? null : { date: days.reduce((a, b) => Math.min(a, b)) };
  };
  const cellsOf = (row: readonly Shown[]): Cell[] => row.map((s) => s.cell);
  if (options.headers === 0)
    return body.map((row) => (options.asof ? [asOfCell(row), ...cellsOf(row)] : cellsOf(row)));
  // The catalogue every cell's metric was resolved against: cached by now, no request of its own.
  const names = metricNamesFrom(await metricCatalogue(ctx));
  const leading = (i: number): Cell[] => {
    const p = projects[i];
    const name = "value" in p ? p.value.name : p.text;
    return options.headers === 2 ? [name, "value" in p ? p.value.projectId : null] : [name];
  };
  return [
    [
      ...(options.headers === 2 ? ["Project", "Id"] : ["Project"]),
      ...(options.asof ? ["As of"] : []),
      ...columns.map((c) =>
        compsColumnLabel(
          c,
          names,
          // A term without a window is never headed annualised (labels.ts): no need to ask.
          (t) => options.annualize && summedOf(t)
        )
      ),
    ],
    ...body.map((row, i) => [
      ...leading(i),
      ...(options.asof ? [asOfCell(row)] : []),
      ...cellsOf(row),
    ]),
  ];
}

/** The column texts of a comma list or a range (empty cells skipped). */
function columnTexts(value: unknown): string[] {
  const cells = Array.isArray(value) ? (value as unknown[]).flat() : [value];
  return cells.filter((c) => !isMissing(c)).map((c) => requiredText(c, "columns"));
}

/**
 * Which fill each term takes: of the fills given, the one its metric admits (metric-kinds.ts, fillRefusal),
 * none when it admits none; and whether it is summed (annualize=1 scales those). A fill no column admits is
 * a #VALUE! naming it: the user meant it for some column.
 */
async function termKinds(
  ctx: FnContext,
  columns: readonly CompsColumn[],
  options: Readonly<Options>
): Promise<{ fillOf: (t: CompsTerm) => Fill; summedOf: (t: CompsTerm) => boolean }> {
  // No fill= given: none (options.fill is then "none" too). The metrics are resolved whatever the options:
  // every cell resolves its own against the same catalogue (one read), so this costs no request.
  const fills = options.fills;
  const terms = columns.flatMap((c) =>
    c.denominator ? [c.numerator, c.denominator] : [c.numerator]
  );
  const ids = new Map<string, string | undefined>();
  await Promise.all(
    [...new Set(terms.map((t) => t.metric))].map(async (text) =>
      // A metric that does not resolve takes no fill and sums nothing: its cells' VALUE says why (an unknown
      // metric is their #N/A, a failing service fails the panel there).
      ids.set(
        text,
        await resolveMetric(ctx, text).then(
          (m) => m.metricId,
          () => undefined
        )
      )
    )
  );
  const fillOf = (t: CompsTerm): Fill => {
    const id = ids.get(t.metric);
    return (
      (id === undefined
        ? undefined
        : fills.find((f) => fillRefusal(f, id, options.agg) === undefined)) ?? "none"
    );
  };
  const summedOf = (t: CompsTerm): boolean => {
    const id = ids.get(t.metric);
    return id !== undefined && defaultAggregation(id, options.agg) === "sum";
  };
  for (const f of fills) {
    if (f === "none" || terms.some((t) => fillOf(t) === f)) continue;
    const first = [...ids.values()].find((id) => id !== undefined);
    throw invalid(
      `fill=${f} applies to no column of this panel${first ? ` (${fillRefusal(f, first, options.agg)})` : ""}`
    );
  }
  return { fillOf, summedOf };
}

/**
 * The VALUE options of one term. `latest`: no date, so maxage applies. agg= and annualize=1 go to windowed
 * terms (a single day rolls nothing up); annualize only to terms summed, the only ones a year's rate scales.
 * vintage= is the call's context (atVintage), which each term's VALUE keeps: it needs no option of its own.
 */
function termOptions(
  o: Readonly<Options>,
  fill: Fill,
  t: CompsTerm,
  latest: boolean,
  summed: boolean
): string {
  let text = `partial=${o.partial}; fill=${fill}; bridged=${o.bridged}; `;
  if (o.chains.length > 0) text += `chains=${o.chains.join(",")}; `;
  if (latest && o.maxage !== undefined) text += `maxage=${o.maxage}d; `;
  if (t.window && o.agg !== undefined) text += `agg=${o.agg}; `;
  if (t.window && o.annualize && summed) text += "annualize=1; ";
  if (t.window) text += `window=${t.window.text}`;
  return text;
}

/** A data answer (no data, incomplete, unknown metric) is the cell's reason; a service failure is thrown. */
async function termValue(compute: () => Promise<Dated>): Promise<Term> {
  try {
    return await compute();
  } catch (error) {
    if (error instanceof FunctionError) return { error: error.code, message: error.message };
    if (isCryptometricsError(error) && error.kind === "not-found")
      return { error: "na", message: userMessage(error.message) };
    throw error;
  }
}

function isDated(t: Term): t is Dated {
  return "value" in t;
}

/**
 * A column's cell. A ratio's terms as of one day: without a date (`latest`), the term of the later day is
 * read again as of the earlier one.
 */
async function columnValue(
  c: CompsColumn,
  term: (t: CompsTerm, on?: number) => Promise<Term>,
  latest: boolean
): Promise<Shown> {
  if (!c.denominator) {
    const a = await term(c.numerator);
    return isDated(a) ? { cell: a.value, asOf: a.asOf } : { cell: a };
  }
  let [a, b] = await Promise.all([term(c.numerator), term(c.denominator)]);
  if (!isDated(a)) return { cell: a };
  if (!isDated(b)) return { cell: b };
  if (latest && a.asOf !== b.asOf) {
    if (a.asOf > b.asOf) a = await term(c.numerator, b.asOf);
    else b = await term(c.denominator, a.asOf);
    if (!isDated(a)) return { cell: a };
    if (!isDated(b)) return { cell: b };
  }
  const ratio = ratioOf(a.value, b.value, `the divisor of ${c.label}`);
  if ("missing" in ratio) return { cell: { error: "na", message: ratio.missing } };
  return { cell: ratio.value, asOf: Math.min(a.asOf, b.asOf) };
}
