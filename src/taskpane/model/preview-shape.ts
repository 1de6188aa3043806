/**
 * How the builder's preview reads a function's result, from the function and the options chosen (the result
 * itself is what the cell will hold; this decides only how a few of its rows are shown):
 * - its header rows (drawn as column headings, and not counted as rows: "366 rows" for a year of days);
 * - the column that names each row (the Date of a series, the Metric of a statement), kept in view while the
 *   table scrolls sideways;
 * - where its newest figures are: a series in date order ends with them (the preview shows the last rows), one
 *   with order=desc starts with them, a statement across periods has them on the right (the preview opens
 *   scrolled there); other tables show their first rows;
 * - a series' column headings by name, growth said as such ("Revenue, YoY"), the id the cell holds beside it
 *   (Excel's header cell reads "revenue", which MATCH and INDEX formulas use).
 */
import type { Catalogue } from "./catalogue-store";
import { OPTION_DEFAULTS } from "./function-specs";
import type { OptionValues } from "./formula-builder";

interface PreviewHeading {
  /** What the column is, in words. */
  name: string;
  /** What the header cell holds, when it is not the name (an id). */
  cell?: string;
}

interface PreviewShape {
  /** Rows at the top that head the columns. */
  headerRows: number;
  /** The column whose cells name the rows, if any. */
  rowHeadingColumn?: number;
  /** Where the newest rows are: the preview shows those. "across": the newest columns are on the right. */
  newest: "first" | "last" | "across" | "none";
  /** A column heading in words; undefined: the cell's text as it is. */
  heading: (cell: string, column: number) => PreviewHeading | undefined;
}

const SERIES = new Set(["METRIC", "PRODUCT_METRIC"]);
/** Functions whose table always starts with one row of column names (no headers option). */
const HEADED_TABLES = new Set(["METRICS", "SECTORS", "SECTOR", "AGGREGATIONS", "BREAKDOWN"]);
/** Functions with a headers option (default 1). */
const HEADERS_OPTION = new Set([...SERIES, "STATEMENT", "COMPS", "PROJECTS"]);

const GROWTH_WORDS: Readonly<Record<string, string>> = {
  pop: "change on the previous period",
  yoy: "YoY",
};

function option(options: OptionValues, key: keyof typeof OPTION_DEFAULTS): string | undefined {
  const value = options[key];
  const chosen = typeof value === "string" ? value : value?.[0];
  return chosen === undefined || chosen === "" ? OPTION_DEFAULTS[key] : chosen;
}

export function previewShape(
  fn: string,
  options: OptionValues,
  catalogue: Catalogue | undefined
): PreviewShape {
  const headers = HEADERS_OPTION.has(fn)
    ? Number(option(options, "headers") ?? 1)
    : HEADED_TABLES.has(fn)
      ? 1
      : 0;
  const descending = option(options, "order") === "desc";
  const growth = GROWTH_WORDS[option(options, "values") ?? ""];
  const plain: PreviewShape = {
    headerRows: headers,
    newest: "none",
    heading: () => undefined,
  };
  if (SERIES.has(fn)) {
    const dates = options.dates !== "0";
    return {
      headerRows: headers,
      ...(dates ? { rowHeadingColumn: 0 } : {}),
      newest: descending ? "first" : "last",
      heading: (cell, column) => {
        if (dates && column === 0) return undefined;
        // A column is a metric of one project, or one project's metric: its id is the cell's text.
        const project = catalogue?.projectById(cell);
        const metric = catalogue?.metrics.find((m) => m.metricId === cell);
        const name = project?.name ?? metric?.metricName;
        if (!name && !growth) return undefined;
        const words = `${name ?? cell}${growth ? `, ${growth}` : ""}`;
        return { name: words, ...(name && name !== cell ? { cell } : {}) };
      },
    };
  }
  if (fn === "STATEMENT") {
    const long = option(options, "layout") === "long";
    if (long) return { ...plain, rowHeadingColumn: 3, newest: descending ? "first" : "last" };
    return {
      ...plain,
      rowHeadingColumn: 1,
      // Periods across, oldest first unless order=desc.
      newest: descending ? "none" : "across",
      heading: (cell, column) =>
        growth && column >= 2 && cell !== "" ? { name: `${cell}, ${growth}` } : undefined,
    };
  }
  return plain;
}
