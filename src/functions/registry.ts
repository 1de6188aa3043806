/**
 * The one registry of the CRYPTO functions: their names, the export each is registered under, their
 * parameters (in the reference's order, with the control the formula builder fills each with) and the option
 * keys each accepts. The functions' options parsing, the page's registration map and the taskpane's builder
 * read it; functions.json is generated from the JSDoc in functions.ts, and a test holds the two together.
 * Adding a function touches its implementation and this file.
 */
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
  /** For `options`: the keys this function takes, in the order they are written. */
  optionKeys?: readonly OptionKey[];
}

export interface FunctionSpec {
  name: string;
  summary: string;
  params: readonly ParamSpec[];
}

const p = (
  name: string,
  kind: ParamKind,
  label: string,
  optional = false,
  optionKeys?: readonly OptionKey[]
): ParamSpec => ({ name, kind, label, optional, ...(optionKeys ? { optionKeys } : {}) });

const SERIES_OPTIONS: readonly OptionKey[] = [
  "period",
  "values",
  "partial",
  "agg",
  "fill",
  "order",
  "headers",
  "breakdown",
  "chains",
  "bridged",
];

export const FUNCTION_SPECS: readonly FunctionSpec[] = [
  {
    name: "VALUE",
    summary: "One number: a metric on a date, or its latest value.",
    params: [
      p("project", "project", "Project"),
      p("metric", "metric", "Metric"),
      p("date", "date", "Date", true),
      p("options", "options", "Options", true, [
        "window",
        "period",
        "values",
        "partial",
        "agg",
        "fill",
        "chains",
        "bridged",
      ]),
    ],
  },
  {
    name: "COMPS",
    summary: "A comps panel: one row per project, one column per metric, window or ratio.",
    params: [
      p("projects", "projects", "Projects"),
      p("columns", "columns", "Columns"),
      p("date", "date", "Date", true),
      p("options", "options", "Options", true, ["headers", "partial", "fill", "chains", "bridged"]),
    ],
  },
  {
    name: "ASOF",
    summary: "The date of the value VALUE gives with the same arguments.",
    params: [
      p("project", "project", "Project"),
      p("metric", "metric", "Metric"),
      p("date", "date", "Date", true),
      p("options", "options", "Options", true, ["period", "partial", "agg", "fill"]),
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
      p("options", "options", "Options", true, SERIES_OPTIONS),
    ],
  },
  {
    name: "STATEMENT",
    summary: "The financial statement: sections and metrics by period.",
    params: [
      p("project", "project", "Project"),
      p("granularity", "granularity", "Granularity", true),
      p("interval", "interval", "Interval", true),
      p("options", "options", "Options", true, [
        "order",
        "headers",
        "layout",
        "values",
        "partial",
        "rows",
      ]),
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
    params: [p("options", "options", "Options", true, ["headers", "sectors"])],
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
      // The series options but chains: the builder does not list a product's chains.
      p(
        "options",
        "options",
        "Options",
        true,
        SERIES_OPTIONS.filter((key) => key !== "chains")
      ),
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
      // vintage= only, which the builder does not offer (it offers no vintage= anywhere).
      p("options", "options", "Options", true, []),
    ],
  },
  {
    name: "AGGREGATIONS",
    summary: "The service's aggregates for projects and metrics, as a table.",
    params: [
      p("projects", "projects", "Projects", true),
      p("metrics", "metrics", "Metrics", true),
      p("options", "options", "Options", true, []),
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
      p("options", "options", "Options", true, ["partial", "agg", "fill"]),
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

/** The option keys each function accepts (parseOptions refuses the others by name); none: no options. */
const VALUE_ACCEPTS: readonly OptionKey[] = [
  "bridged",
  "chains",
  "products",
  "sectors",
  "fill",
  "period",
  "agg",
  "partial",
  "maxage",
  "window",
  "annualize",
  "values",
  "vintage",
];
const SERIES_ACCEPTS: readonly OptionKey[] = [
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
  "partial",
  "values",
  "dates",
  "dir",
  "dating",
  "vintage",
];
const ACCEPTS: Readonly<Record<string, readonly OptionKey[]>> = {
  VALUE: VALUE_ACCEPTS,
  ASOF: VALUE_ACCEPTS,
  METRIC: SERIES_ACCEPTS,
  // A product's series: no product or sector filter (it is one product of one project).
  PRODUCT_METRIC: SERIES_ACCEPTS.filter((key) => key !== "products" && key !== "sectors"),
  STATEMENT: ["order", "headers", "layout", "values", "partial", "rows", "dating", "vintage"],
  PROJECTS: ["headers", "sectors"],
  COMPS: [
    "headers",
    "partial",
    "fill",
    "agg",
    "annualize",
    "bridged",
    "chains",
    "maxage",
    "asof",
    "vintage",
  ],
  BREAKDOWN: ["partial", "agg", "fill", "bridged", "vintage"],
  // The service's aggregates as they are, or under vintage= rebuilt from the days known then.
  AGGREGATION: ["vintage"],
  AGGREGATIONS: ["vintage"],
};

/** The option keys `name` accepts. */
export function acceptedOptions(name: string): readonly OptionKey[] {
  return ACCEPTS[name] ?? [];
}

/** The export a function is registered under (functions.ts): its name in lower case and an underscore. */
export function exportName(name: string): string {
  return `${name.toLowerCase()}_`;
}

/** The names of every function, in the registry's order. */
export const FUNCTION_NAMES: readonly string[] = FUNCTION_SPECS.map((spec) => spec.name);
