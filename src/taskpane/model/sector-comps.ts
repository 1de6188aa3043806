/**
 * The comps table a sector's detail inserts: one COMPS formula over the sector's projects, in the sector's
 * order, with the columns an analyst starts from (fully diluted market cap, revenue and fees over the trailing
 * twelve months, and P/S on that revenue), as of the latest data.
 *
 * How the projects are passed: ids (stable, never more than quoting) as an array constant in the formula,
 * `{"aave";"compound-v3";…}`, so the formula stands alone and can be moved or copied. One literal per id keeps
 * every text under Excel's 255-character limit for a text in a formula, where a comma list in one text
 * would pass it at about 20 projects. When the formula would pass Excel's 8,192-character limit (a large
 * sector with long ids), the ids go into the sheet instead: a column of ids under a "project_id" heading,
 * with the COMPS formula beside it reading that range, so each row of the panel sits next to its id.
 * A sector of more projects than COMPS takes (500 positions) is refused with the reason.
 */
import type { CellInput, GridPlan } from "../../excel/port";
import { MAX_IDS } from "../../functions/coerce-lists";
import { parseColumn } from "../../sheet/comps-columns";
import {
  EXCEL_MAX_FORMULA_TEXT,
  formulaText,
  NAMESPACE,
  quote,
  text,
  textColumn,
} from "./formula-text";

export interface CompsColumnChoice {
  /** The column as COMPS reads it (comps-columns.ts): `metric`, `metric:window` or a ratio `a/b`. */
  column: string;
  /** What it is, in words, for the taskpane. */
  label: string;
}

/** The default columns; each is kept only when the catalogue lists its metrics (see compsColumnsFor). */
export const SECTOR_COMPS_COLUMNS: readonly CompsColumnChoice[] = [
  { column: "market_cap_fully_diluted", label: "market cap (fully diluted)" },
  { column: "revenue:ttm", label: "revenue TTM" },
  { column: "fees:ttm", label: "fees TTM" },
  {
    column: "market_cap_fully_diluted/revenue:ttm",
    label: "P/S (fully diluted market cap over revenue TTM)",
  },
];

/** Excel refuses to enter a formula longer than this many characters. */
export const EXCEL_MAX_FORMULA_LENGTH = 8192;
/** COMPS (like every function taking ids) reads at most this many project positions. */
export const COMPS_MAX_PROJECTS = MAX_IDS;

export type SectorComps =
  | { kind: "formula"; formula: string; projects: number; columns: readonly CompsColumnChoice[] }
  | { kind: "grid"; plan: GridPlan; projects: number; columns: readonly CompsColumnChoice[] };

/** The metric ids a column reads, as COMPS itself reads the column. */
function metricsOf(column: string): string[] {
  const { numerator, denominator } = parseColumn(column);
  return denominator ? [numerator.metric, denominator.metric] : [numerator.metric];
}

/** The default columns whose metrics the catalogue lists (a service without fees gets no fees column). */
export function compsColumnsFor(hasMetric: (metricId: string) => boolean): CompsColumnChoice[] {
  return SECTOR_COMPS_COLUMNS.filter((c) => metricsOf(c.column).every(hasMetric));
}

const columnsText = (columns: readonly CompsColumnChoice[]): string =>
  columns.map((c) => c.column).join(",");

/** The COMPS formula over ids written in it, or undefined when Excel would refuse it. */
function compsFormula(
  projectIds: readonly string[],
  columns: readonly CompsColumnChoice[]
): string | undefined {
  if (projectIds.some((id) => id.length > EXCEL_MAX_FORMULA_TEXT)) return undefined;
  const formula = formulaText("COMPS", [textColumn(projectIds), text(columnsText(columns))]);
  return formula.length <= EXCEL_MAX_FORMULA_LENGTH ? formula : undefined;
}

/** The ids in a column, the COMPS formula beside them reading that column (R1C1, relative). */
function compsBesideIds(
  projectIds: readonly string[],
  columns: readonly CompsColumnChoice[]
): GridPlan {
  const n = projectIds.length;
  const formula = `=${NAMESPACE}.COMPS(R[1]C[-1]:R[${n}]C[-1],${quote(columnsText(columns))})`;
  const cells: CellInput[][] = [
    ["project_id", { formula }],
    ...projectIds.map((id): CellInput[] => [id, null]),
  ];
  return {
    title: "comps table",
    cells,
    formats: [{ area: { row: 0, column: 0, rows: 1, columns: 1 }, format: { bold: true } }],
  };
}

/** What to insert for a sector's comps; throws, in plain words, when it cannot be one formula's. */
export function sectorComps(
  projectIds: readonly string[],
  columns: readonly CompsColumnChoice[]
): SectorComps {
  if (projectIds.length === 0) throw new Error("This sector lists no projects to compare.");
  if (columns.length === 0)
    throw new Error("The service lists none of the metrics a comps table needs.");
  if (projectIds.length > COMPS_MAX_PROJECTS)
    throw new Error(
      `This sector has ${projectIds.length.toLocaleString("en-US")} projects; a comps table takes at most ${COMPS_MAX_PROJECTS}. Build one for fewer projects in the formula builder.`
    );
  const formula = compsFormula(projectIds, columns);
  return formula
    ? { kind: "formula", formula, projects: projectIds.length, columns }
    : {
        kind: "grid",
        plan: compsBesideIds(projectIds, columns),
        projects: projectIds.length,
        columns,
      };
}
