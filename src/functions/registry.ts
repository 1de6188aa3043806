/**
 * The one registry of the CRYPTO functions: their names, the export each is registered under, their
 * parameters (in the reference's order, with the control the formula builder fills each with), the option
 * keys of each options parameter read from function-options.ts (where each function's keys are stated once).
 * The page's registration map and the taskpane's builder read it; what each key is (values, default, reading)
 * is option-table.ts's. functions.json is generated from the JSDoc in
 * functions.ts, and tests hold the two together (test/taskpane/function-specs.test.ts,
 * test/functions/options-docs.test.ts). Adding a function touches its implementation and this file.
 */
import { FUNCTION_OPTIONS } from "./function-options";
import type { OptionKey } from "./options";

export type ParamKind =
  | "project"
  /** One or more projects, written as a comma list. */
  | "projects"
  | "metric"
  | "metrics"
  /** COMPS's columns: rows of metric, window and an optional divisor (comps-column-rows.ts). */
  | "columns"
  | "product"
  | "sector"
  | "date"
  | "granularity"
  | "interval"
  | "field"
  | "aggregation"
  | "options";

export interface ParamSpec {
  /** The parameter's name in the function reference. */
  name: string;
  kind: ParamKind;
  optional: boolean;
  label: string;
  /** For `options`: the keys the formula builder offers, in the order they are written. */
  optionKeys?: readonly OptionKey[];
  /** For `options`: the keys the function also takes, which the builder does not offer. */
  moreOptionKeys?: readonly OptionKey[];
}

export interface FunctionSpec {
  name: string;
  summary: string;
  params: readonly ParamSpec[];
}

const p = (name: string, kind: ParamKind, label: string, optional = false): ParamSpec => ({
  name,
  kind,
  label,
  optional,
});

/** The options parameter of `name`: the keys function-options.ts says it takes. */
const options = (name: keyof typeof FUNCTION_OPTIONS): ParamSpec => ({
  ...p("options", "options", "Options", true),
  optionKeys: FUNCTION_OPTIONS[name].offered,
  moreOptionKeys: FUNCTION_OPTIONS[name].more,
});

export const FUNCTION_SPECS: readonly FunctionSpec[] = [
  {
    name: "VALUE",
    summary: "One number: a metric on a date, or its latest value.",
    params: [
      p("project", "project", "Project"),
      p("metric", "metric", "Metric"),
      p("date", "date", "Date", true),
      options("VALUE"),
    ],
  },
  {
    name: "COMPS",
    summary: "A comps panel: one row per project, one column per metric, window or ratio.",
    params: [
      p("projects", "projects", "Projects"),
      p("columns", "columns", "Columns"),
      p("date", "date", "Date", true),
      options("COMPS"),
    ],
  },
  {
    name: "ASOF",
    summary: "The date of the value VALUE gives with the same arguments.",
    params: [
      p("project", "project", "Project"),
      p("metric", "metric", "Metric"),
      p("date", "date", "Date", true),
      options("ASOF"),
    ],
  },
  {
    name: "METRIC",
    summary: "A time series: a Date column, then one column per metric or project.",
    params: [
      p("project", "projects", "Projects"),
      p("metric", "metrics", "Metrics"),
      p("start", "date", "Start", true),
      p("end", "date", "End", true),
      options("METRIC"),
    ],
  },
  {
    name: "STATEMENT",
    summary: "The financial statement: sections and metrics by period.",
    params: [
      p("project", "project", "Project"),
      p("granularity", "granularity", "Granularity", true),
      p("interval", "interval", "Interval", true),
      options("STATEMENT"),
    ],
  },
  {
    name: "PROJECT",
    summary:
      "A project as a card (a data type: =A1.Revenue reads a field), or one field of its detail.",
    params: [
      p("project", "project", "Project"),
      p("field", "field", "Field (none: the card)", true),
    ],
  },
  {
    name: "PROJECTS",
    summary: "The project catalogue.",
    params: [options("PROJECTS")],
  },
  {
    name: "PRODUCT",
    summary: "A product's detail: one field, or every field.",
    params: [
      p("project", "project", "Project"),
      p("product", "product", "Product"),
      p("field", "field", "Field", true),
    ],
  },
  {
    name: "PRODUCT_METRIC",
    summary: "A product's time series.",
    params: [
      p("project", "project", "Project"),
      p("product", "product", "Product"),
      p("metric", "metrics", "Metrics"),
      p("start", "date", "Start", true),
      p("end", "date", "End", true),
      options("PRODUCT_METRIC"),
    ],
  },
  {
    name: "METRICS",
    summary: "The metric catalogue, or the metrics of one project.",
    params: [p("project", "project", "Project", true)],
  },
  { name: "SECTORS", summary: "The market sectors.", params: [] },
  {
    name: "SECTOR",
    summary: "The projects of one market sector.",
    params: [p("sector", "sector", "Sector")],
  },
  {
    name: "AGGREGATION",
    summary: "One aggregate computed by the service (sum_30d, latest, ...).",
    params: [
      p("project", "project", "Project"),
      p("metric", "metric", "Metric"),
      p("name", "aggregation", "Aggregation"),
      options("AGGREGATION"),
    ],
  },
  {
    name: "AGGREGATIONS",
    summary: "The service's aggregates for projects and metrics, as a table.",
    params: [
      p("projects", "projects", "Projects", true),
      p("metrics", "metrics", "Metrics", true),
      options("AGGREGATIONS"),
    ],
  },
  {
    name: "BREAKDOWN",
    summary: "A metric summarised per project over a period.",
    params: [
      p("metric", "metric", "Metric"),
      p("projects", "projects", "Projects", true),
      p("start", "date", "Start", true),
      p("end", "date", "End", true),
      options("BREAKDOWN"),
    ],
  },
  {
    name: "CHANGES",
    summary: "The restatements recorded for projects and metrics since a day, newest first.",
    params: [
      p("projects", "projects", "Projects"),
      p("metrics", "metrics", "Metrics"),
      p("since", "date", "Since (none: the last 30 days)", true),
    ],
  },
];

export function specFor(name: string): FunctionSpec | undefined {
  return FUNCTION_SPECS.find((s) => s.name === name.toUpperCase());
}

/** The export a function is registered under (functions.ts): its name in lower case and an underscore. */
export function exportName(name: string): string {
  return `${name.toLowerCase()}_`;
}

/** The names of every function, in the registry's order. */
export const FUNCTION_NAMES: readonly string[] = FUNCTION_SPECS.map((spec) => spec.name);
