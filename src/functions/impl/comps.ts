/**
 * COMPS(projects, columns, [date], [options]): a projects × columns panel in one call, the comps table of
 * an analyst's day (P/S on TTM revenue, 30-day fees, the latest market cap, side by side).
 *
 * - Projects: ids, symbols, names or a range, one row per position in input order (an empty or unknown one is
 *   a row of #N/A saying why).
 * - Columns (comps-columns.ts): `metric`, `metric:window`, or a ratio `a/b` of two such.
 * - Each cell is exactly what VALUE gives for it (`VALUE(project, metric, date, "window=…")`): the same
 *   reading, the same complete-period rules, so a comps cell and a cell formula never disagree. All cells run
 *   at once through the engine, so the whole panel is planned as one batch: it costs no more requests than
 *   the same cells written as VALUE formulas.
 * - A cell that cannot be computed is #N/A with its reason and the rest stay; a ratio with a base of 0 is
 *   #N/A. A failure of the service fails the whole panel (it keeps its previous value, as every function does).
 * - headers=1 (default): a header row of column labels in finance words ("P/S (TTM)", "Revenue (TTM)",
 *   labels.ts) and a first column of project names; headers=2 adds a column of project ids after the names;
 *   headers=0: the numbers only.
 * - Options that apply to every cell: partial, fill, bridged, chains.
 */
import { isCryptometricsError } from "../../client";
import { formatDay } from "../../client/data/days";
import { idPositions, isMissing, optionalDate, requiredText } from "../coerce";
import type { FnContext } from "../context";
import { parseOptions, type OptionKey, type Options } from "../options";
import { FunctionError, type Cell, type ErrorCell, type Table } from "../result";
import { parseColumns, type CompsColumn, type CompsTerm } from "./comps-columns";
import { compsColumnLabel, metricNamesFrom } from "./labels";
import { metricCatalogue, resolveProjects } from "./resolve";
import { value } from "./value";

export const COMPS_OPTIONS: readonly OptionKey[] = [
  "headers",
  "partial",
  "fill",
  "bridged",
  "chains",
];

/** A panel bigger than this is not a comps table; it would also take minutes at 60 requests a minute. */
export const MAX_COMPS_CELLS = 10_000;

export async function comps(
  ctx: FnContext,
  projectsArg: unknown,
  columnsArg: unknown,
  dateArg: unknown,
  optionsArg: unknown
): Promise<Table> {
  const options = parseOptions(optionsArg, "COMPS", COMPS_OPTIONS);
  const columns = parseColumns(columnTexts(columnsArg));
  const projectTexts = idPositions(projectsArg, "projects");
  if (projectTexts.length * columns.length > MAX_COMPS_CELLS)
    throw new FunctionError(
      "value",
      `COMPS of ${projectTexts.length} projects × ${columns.length} columns is more than ${MAX_COMPS_CELLS} cells`
    );
  const date = optionalDate(dateArg, "date");
  const dateText = date === undefined ? null : formatDay(date);
  const projects = await resolveProjects(ctx, projectTexts);
  const shared = sharedOptions(options);
  const term = (projectId: string, t: CompsTerm): Promise<number | ErrorCell> =>
    termValue(() =>
      value(
        ctx,
        projectId,
        t.metric,
        dateText,
        t.window ? `${shared}window=${t.window.text}` : shared
      )
    );
  const body = await Promise.all(
    projects.map((p) =>
      Promise.all(
        columns.map((c): Promise<Cell> =>
          "value" in p
            ? columnValue(c, (t) => term(p.value.projectId, t))
            : Promise.resolve(p.error)
        )
      )
    )
  );
  if (options.headers === 0) return body;
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
      ...columns.map((c) => compsColumnLabel(c, names)),
    ],
    ...body.map((row, i) => [...leading(i), ...row]),
  ];
}

/** The column texts of a comma list or a range (empty cells skipped). */
function columnTexts(value: unknown): string[] {
  const cells = Array.isArray(value) ? (value as unknown[]).flat() : [value];
  return cells.filter((c) => !isMissing(c)).map((c) => requiredText(c, "columns"));
}

/** The options every cell's VALUE reading takes, as VALUE's option text. */
function sharedOptions(o: Readonly<Options>): string {
  let text = `partial=${o.partial}; fill=${o.fill}; bridged=${o.bridged}; `;
  if (o.chains.length > 0) text += `chains=${o.chains.join(",")}; `;
  return text;
}

/** A data answer (no data, incomplete, unknown metric) is the cell's reason; a service failure is thrown. */
async function termValue(compute: () => Promise<Cell>): Promise<number | ErrorCell> {
  try {
    const result = await compute();
    if (typeof result === "number") return result;
    return { error: "na", message: "no value" };
  } catch (error) {
    if (error instanceof FunctionError) return { error: error.code, message: error.message };
    if (isCryptometricsError(error) && error.kind === "not-found")
      return { error: "na", message: error.message };
    throw error;
  }
}

async function columnValue(
  c: CompsColumn,
  term: (t: CompsTerm) => Promise<number | ErrorCell>
): Promise<Cell> {
  if (!c.denominator) return term(c.numerator);
  const [a, b] = await Promise.all([term(c.numerator), term(c.denominator)]);
  if (typeof a !== "number") return a;
  if (typeof b !== "number") return b;
  if (b === 0) return { error: "na", message: `${c.label}: the divisor is 0` };
  return a / b;
}
