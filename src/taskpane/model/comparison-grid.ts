/**
 * The comparison grid: chosen projects down, chosen metrics across, a VALUE formula in every cell. The
 * formulas read their project and metric from the grid's own header cells (relative R1C1 references), so the
 * user can change an id in a header and the row or column follows, wherever the grid was inserted.
 */
import { metricKind } from "../../engine";
import type { CellInput, FormatRule, GridPlan } from "../../excel/port";
import { quote } from "./formula-text";

interface GridEntity {
  id: string;
  name: string;
}

interface ComparisonInput {
  projects: readonly GridEntity[];
  metrics: readonly GridEntity[];
  /** "YYYY-MM-DD"; omitted: latest values. */
  date?: string;
}

/** Rows above the figures: metric names, then the metric ids the formulas read. */
const NAME_ROW = 0;
const ID_ROW = 1;
const FIRST_DATA_ROW = 2;
const FIRST_METRIC_COLUMN = 2;

export function numberFormatFor(metricId: string): string {
  if (metricId === "price") return "#,##0.00##";
  if (/^(pf|ps)_/.test(metricId)) return "#,##0.0";
  // Flows, levels and user counts are large whole amounts: thousands separators, no decimals.
  return metricKind(metricId) === "users" ? "#,##0" : "#,##0;-#,##0";
}

export function comparisonFormula(row: number, column: number, date?: string): string {
  const project = `RC[-${column}]`;
  const metric = `R[-${row - ID_ROW}]C`;
  return `=CRYPTO.VALUE(${project},${metric}${date ? `,${quote(date)}` : ""})`;
}

export function comparisonGrid(input: ComparisonInput): GridPlan {
  if (input.projects.length === 0 || input.metrics.length === 0) {
    throw new Error("Choose at least one project and one metric for the grid.");
  }
  const width = FIRST_METRIC_COLUMN + input.metrics.length;
  const cells: CellInput[][] = [
    [
      input.date ? `As of ${input.date}` : "Latest values",
      null,
      ...input.metrics.map((m) => m.name),
    ],
    ["project_id", "name", ...input.metrics.map((m) => m.id)],
  ];
  input.projects.forEach((project, i) => {
    const row = FIRST_DATA_ROW + i;
    cells.push([
      project.id,
      project.name,
      ...input.metrics.map((_, j) => ({
        formula: comparisonFormula(row, FIRST_METRIC_COLUMN + j, input.date),
      })),
    ]);
  });
  const formats: FormatRule[] = [
    { area: { row: NAME_ROW, column: 0, rows: 1, columns: width }, format: { italic: true } },
    { area: { row: ID_ROW, column: 0, rows: 1, columns: width }, format: { bold: true } },
    {
      area: { row: NAME_ROW, column: FIRST_METRIC_COLUMN, rows: 2, columns: input.metrics.length },
      format: { align: "right" },
    },
    ...input.metrics.map((m, j): FormatRule => ({
      area: {
        row: FIRST_DATA_ROW,
        column: FIRST_METRIC_COLUMN + j,
        rows: input.projects.length,
        columns: 1,
      },
      format: { numberFormat: numberFormatFor(m.id) },
    })),
  ];
  return { title: "comparison grid", cells, formats };
}
