/**
 * The statement worksheet, laid out as a finance user expects: a title and an "as of" line, period headings
 * with their date-range subheadings, bold section rows, values with thousands separators, then the same
 * lines as period-on-period change in percent, with the header frozen. Two flavours:
 * - static: the figures written as values (for sharing; no key needed to open it);
 * - live: STATEMENT formulas (values, then values=pop) with formatting laid around their spills.
 * The shape of the spill is known from the statement fetched first through the same engine, so formats land
 * exactly on it (and the formulas then resolve from the cache at once).
 */
import type { CellInput, FormatRule, SheetPlan } from "../../excel/port";
import { formulaText, text } from "./formula-text";

export type StatementMode = "live" | "static";

/** A spill of STATEMENT as the sheet will hold it: texts, numbers and empty cells. */
export type StatementGrid = ReadonlyArray<ReadonlyArray<string | number | null>>;

export interface StatementInput {
  projectId: string;
  projectName: string;
  granularity: string;
  interval: string;
  /**
   * What the two STATEMENT formulas of the sheet give (statementFormula): the values with headers=2
   * (subheadings, headings, then a row per line) and the changes with headers=1 and values=pop. Laid out
   * from these, the sheet holds exactly the function's rows and periods (complete periods, standard rows).
   */
  values: StatementGrid;
  changes: StatementGrid;
  mode: StatementMode;
  /** "2025-06-15 12:00 UTC": when the figures were fetched. */
  asOf: string;
  /** The data came from the simulator: say so on the sheet too. */
  simulated: boolean;
}

/**
 * As statements print them: a loss in parentheses, (21,361,126), not -21,361,126; positives keep a space
 * where the closing parenthesis goes (`_)`), so the figures of a column line up.
 */
export const VALUE_FORMAT = "#,##0_);(#,##0)";
export const CHANGE_FORMAT = "0.0%_);(0.0%)";
/** Rows above the figures (title, as-of, blank, headings, subheadings): frozen. */
export const HEADER_ROWS = 5;

/** The options of the sheet's two STATEMENT formulas, and of the grids it is laid out from. */
export const VALUES_OPTIONS = "headers=2";
export const CHANGES_OPTIONS = "headers=1; values=pop";

interface Period {
  heading: string;
  subheading: string;
}

interface Line {
  metricId: string;
  values: ReadonlyArray<string | number | null>;
}

function periodsOf(values: StatementGrid): Period[] {
  return values[1].slice(2).map((heading, i) => ({
    heading: String(heading ?? ""),
    subheading: String(values[0][i + 2] ?? ""),
  }));
}

/** Sections and their lines in the grid's order (a section's lines are consecutive). */
function sectionsOf(grid: StatementGrid, headerRows: number): Map<string, Line[]> {
  const sections = new Map<string, Line[]>();
  for (const row of grid.slice(headerRows)) {
    const section = String(row[0] ?? "");
    let lines = sections.get(section);
    if (!lines) sections.set(section, (lines = []));
    lines.push({ metricId: String(row[1] ?? ""), values: row.slice(2) });
  }
  return sections;
}

const GRANULARITY_WORDS: Record<string, string> = {
  year: "yearly",
  quarter: "quarterly",
  month: "monthly",
  week: "weekly",
};

function titleRows(input: StatementInput): CellInput[][] {
  const periods = `${GRANULARITY_WORDS[input.granularity] ?? input.granularity} periods over ${input.interval}`;
  const source = input.simulated ? " · Demo data — not real figures" : "";
  const how =
    input.mode === "live" ? "live formulas, updated by Refresh" : "static values, fetched";
  return [
    [`${input.projectName} — financial statement`],
    [`As of ${input.asOf} (${how}) · ${periods}${source}`],
  ];
}

function titleFormats(): FormatRule[] {
  return [
    { area: { row: 0, column: 0, rows: 1, columns: 1 }, format: { bold: true, size: 14 } },
    { area: { row: 1, column: 0, rows: 1, columns: 1 }, format: { italic: true } },
  ];
}

function staticPlan(input: StatementInput): SheetPlan {
  const periods = periodsOf(input.values);
  const width = 1 + periods.length;
  const cells: CellInput[][] = [...titleRows(input), []];
  const formats: FormatRule[] = titleFormats();
  const headings = (label: string): void => {
    formats.push({
      area: { row: cells.length, column: 0, rows: 1, columns: width },
      format: { bold: true },
    });
    formats.push({
      area: { row: cells.length, column: 1, rows: 2, columns: periods.length },
      format: { align: "right" },
    });
    formats.push({
      area: { row: cells.length + 1, column: 0, rows: 1, columns: width },
      format: { italic: true },
    });
    cells.push([label, ...periods.map((x) => x.heading)]);
    cells.push([null, ...periods.map((x) => x.subheading)]);
  };
  const block = (sections: Map<string, Line[]>, numberFormat: string): void => {
    for (const [section, lines] of sections) {
      formats.push({
        area: { row: cells.length, column: 0, rows: 1, columns: width },
        format: { bold: true },
      });
      cells.push([section]);
      formats.push({
        area: { row: cells.length, column: 1, rows: lines.length, columns: periods.length },
        format: { numberFormat },
      });
      for (const line of lines)
        cells.push([line.metricId, ...periods.map((_, i) => line.values[i] ?? null)]);
    }
  };
  headings("Metric");
  block(sectionsOf(input.values, 2), VALUE_FORMAT);
  cells.push([]);
  headings("Change on previous period");
  block(sectionsOf(input.changes, 1), CHANGE_FORMAT);
  return {
    name: input.projectName,
    blocks: [{ at: [0, 0], cells: cells.map((row) => pad(row, width)) }],
    formats,
    freeze: { rows: HEADER_ROWS, columns: 1 },
    columnWidths: { 0: 190 },
  };
}

function pad(row: CellInput[], width: number): CellInput[] {
  return row.length >= width ? row : [...row, ...Array<CellInput>(width - row.length).fill(null)];
}

/** The STATEMENT call the live sheet holds; `options` as the function reference writes them. */
function statementFormula(input: StatementInput, options: string): string {
  return formulaText("STATEMENT", [
    text(input.projectId),
    text(input.granularity),
    text(input.interval),
    text(options),
  ]);
}

function livePlan(input: StatementInput): SheetPlan {
  const periods = periodsOf(input.values).length;
  const lines = input.values.length - 2;
  const width = 2 + periods;
  // headers=2 spills: [name, "", subheadings...], [Section, Metric, headings...], then one row per line.
  const valuesAt = 3;
  const changeLabelAt = valuesAt + 2 + lines + 1;
  const changeAt = changeLabelAt + 1; // headers=1: [Section, Metric, headings...], then the lines
  const formats: FormatRule[] = [
    ...titleFormats(),
    { area: { row: valuesAt, column: 0, rows: 2, columns: width }, format: { bold: true } },
    { area: { row: valuesAt, column: 2, rows: 2, columns: periods }, format: { align: "right" } },
    { area: { row: valuesAt + 2, column: 0, rows: lines, columns: 1 }, format: { bold: true } },
    {
      area: { row: valuesAt + 2, column: 2, rows: lines, columns: periods },
      format: { numberFormat: VALUE_FORMAT },
    },
    { area: { row: changeLabelAt, column: 0, rows: 1, columns: 1 }, format: { bold: true } },
    { area: { row: changeAt, column: 0, rows: 1, columns: width }, format: { bold: true } },
    { area: { row: changeAt, column: 2, rows: 1, columns: periods }, format: { align: "right" } },
    { area: { row: changeAt + 1, column: 0, rows: lines, columns: 1 }, format: { bold: true } },
    {
      area: { row: changeAt + 1, column: 2, rows: lines, columns: periods },
      format: { numberFormat: CHANGE_FORMAT },
    },
  ];
  return {
    name: input.projectName,
    // Separate blocks: writing anything into the cells a formula spills over would block its spill.
    blocks: [
      { at: [0, 0], cells: titleRows(input) },
      { at: [valuesAt, 0], cells: [[{ formula: statementFormula(input, VALUES_OPTIONS) }]] },
      { at: [changeLabelAt, 0], cells: [["Change on previous period"]] },
      {
        at: [changeAt, 0],
        cells: [[{ formula: statementFormula(input, CHANGES_OPTIONS) }]],
      },
    ],
    formats,
    freeze: { rows: HEADER_ROWS, columns: 2 },
    columnWidths: { 0: 130, 1: 130 },
  };
}

export function statementSheet(input: StatementInput): SheetPlan {
  return input.mode === "live" ? livePlan(input) : staticPlan(input);
}
