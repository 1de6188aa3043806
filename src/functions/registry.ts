/**
 * The one registry of the CRYPTO functions: their names, the export each is registered under, their
 * parameters (in the reference's order, with the control the formula builder fills each with) and the option
 * keys each takes, stated once per function: those the builder offers, in its order, then those it does not.
 * The functions' options parsing, the page's registration map and the taskpane's builder read it; what each
 * key is (values, default, reading) is option-table.ts's. functions.json is generated from the JSDoc in
 * functions.ts, and tests hold the two together (test/taskpane/function-specs.test.ts,
 * test/functions/options-docs.test.ts). Adding a function touches its implementation and this file.
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

/** The options parameter: the keys the builder offers (in its order), then those only typed by hand. */
const options = (offered: readonly OptionKey[], more: readonly OptionKey[] = []): ParamSpec => ({
  ...p("options", "options", "Options", true),
  optionKeys: offered,
  moreOptionKeys: more,
});

/** A series' options (METRIC; PRODUCT_METRIC with fewer). */
const SERIES_OFFERED: readonly OptionKey[] = [
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
const SERIES_MORE: readonly OptionKey[] = [
  "products",
  "sectors",
  "dates",
  "dir",
  "dating",
  "vintage",
];
/** VALUE's and ASOF's options: the same keys, ASOF's builder offering fewer. */
const VALUE_OFFERED: readonly OptionKey[] = [
  "window",
  "period",
  "values",
  "partial",
  "agg",
  "fill",
  "chains",
  "bridged",
];
const VALUE_MORE: readonly OptionKey[] = ["products", "sectors", "maxage", "annualize", "vintage"];
const ASOF_OFFERED: readonly OptionKey[] = ["period", "partial", "agg", "fill"];

export const FUNCTION_SPECS: readonly FunctionSpec[] = [
  {
    name: "VALUE",
    summary: "One number: a metric on a date, or its latest value.",
    params: [
      p("project", "project", "Project"),
      p("metric", "metric", "Metric"),
      p("date", "date", "Date", true),
      options(VALUE_OFFERED, VALUE_MORE),
    ],
  },
  {
    name: "COMPS",
    summary: "A comps panel: one row per project, one column per metric, window or ratio.",
    params: [
      p("projects", "projects", "Projects"),
      p("columns", "columns", "Columns"),
      p("date", "date", "Date", true),
      options(
        ["headers", "partial", "fill", "chains", "bridged"],
        ["agg", "annualize", "maxage", "asof", "vintage"]
      ),
    ],
  },
  {
    name: "ASOF",
    summary: "The date of the value VALUE gives with the same arguments.",
    params: [
      p("project", "project", "Project"),
      p("metric", "metric", "Metric"),
      p("date", "date", "Date", true),
      options(ASOF_OFFERED, [
        ...VALUE_OFFERED.filter((key) => !ASOF_OFFERED.includes(key)),
        ...VALUE_MORE,
      ]),
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
      options(SERIES_OFFERED, SERIES_MORE),
    ],
  },
  {
    name: "STATEMENT",
    summary: "The financial statement: sections and metrics by period.",
    params: [
      p("project", "project", "Project"),
      p("granularity", "granularity", "Granularity", true),
      p("interval", "interval", "Interval", true),
      options(["order", "headers", "layout", "values", "partial", "rows"], ["dating", "vintage"]),
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
    params: [options(["headers", "sectors"])],
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
      // The series options but chains: the builder does not list a product's chains. No product or sector
      // filter: it is one product of one project.
      options(
        SERIES_OFFERED.filter((key) => key !== "chains"),
        ["chains", ...SERIES_MORE.filter((key) => key !== "products" && key !== "sectors")]
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
      // The service's aggregates as they are, or under vintage= rebuilt from the days known then; vintage= is
      // not offered by the builder (it offers no vintage= anywhere).
      options([], ["vintage"]),
    ],
  },
  {
    name: "AGGREGATIONS",
    summary: "The service's aggregates for projects and metrics, as a table.",
    params: [
      p("projects", "projects", "Projects", true),
      p("metrics", "metrics", "Metrics", true),
      options([], ["vintage"]),
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
      options(["partial", "agg", "fill"], ["bridged", "vintage"]),
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

/** The option keys each function takes (parseOptions refuses the others by name); none: no options. */
const ACCEPTS: ReadonlyMap<string, readonly OptionKey[]> = new Map(
  FUNCTION_SPECS.map((spec) => [
    spec.name,
    spec.params.flatMap((param) => [...(param.optionKeys ?? []), ...(param.moreOptionKeys ?? [])]),
  ])
);

/** The option keys `name` accepts. */
export function acceptedOptions(name: string): readonly OptionKey[] {
  return ACCEPTS.get(name) ?? [];
}

/** The export a function is registered under (functions.ts): its name in lower case and an underscore. */
export function exportName(name: string): string {
  return `${name.toLowerCase()}_`;
}

/** The names of every function, in the registry's order. */
export const FUNCTION_NAMES: readonly string[] = FUNCTION_SPECS.map((spec) => spec.name);
