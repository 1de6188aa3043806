/**
 * The option keys each function takes, stated once per function: those the formula builder offers, in the
 * order it writes them, then those only typed by hand. parseOptions refuses every other key by name
 * (`acceptedOptions`), the registry's options parameter of each function is read from here (registry.ts),
 * and what each key is (values, default, reading) is option-table.ts's.
 *
 * Why apart from the registry: VALUE and ASOF parse their options in functions.js, which Excel loads for every
 * workbook, while the registry's labels and summaries serve the formula builder and the functions' chunks.
 */
import { parseOptions, type OptionKey, type Options } from "./options";

interface FunctionOptions {
  /** The keys the builder offers, in its order. */
  readonly offered: readonly OptionKey[];
  /** The keys the function also takes, which the builder does not offer. */
  readonly more: readonly OptionKey[];
}

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

/** The functions that take options; the others take none. */
export const FUNCTION_OPTIONS = {
  VALUE: { offered: VALUE_OFFERED, more: VALUE_MORE },
  COMPS: {
    offered: ["headers", "partial", "fill", "chains", "bridged"],
    more: ["agg", "annualize", "maxage", "asof", "vintage"],
  },
  ASOF: {
    offered: ASOF_OFFERED,
    more: [...VALUE_OFFERED.filter((key) => !ASOF_OFFERED.includes(key)), ...VALUE_MORE],
  },
  METRIC: { offered: SERIES_OFFERED, more: SERIES_MORE },
  STATEMENT: {
    offered: ["order", "headers", "layout", "values", "partial", "rows"],
    more: ["dating", "vintage"],
  },
  PROJECTS: { offered: ["headers", "sectors"], more: [] },
  // The series options but chains: the builder does not list a product's chains. No product or sector
  // filter: it is one product of one project.
  PRODUCT_METRIC: {
    offered: SERIES_OFFERED.filter((key) => key !== "chains"),
    more: ["chains", ...SERIES_MORE.filter((key) => key !== "products" && key !== "sectors")],
  },
  // The service's aggregates as they are, or under vintage= rebuilt from the days known then; vintage= is
  // not offered by the builder (it offers no vintage= anywhere).
  AGGREGATION: { offered: [], more: ["vintage"] },
  AGGREGATIONS: { offered: [], more: ["vintage"] },
  BREAKDOWN: { offered: ["partial", "agg", "fill"], more: ["bridged", "vintage"] },
} as const satisfies Readonly<Record<string, FunctionOptions>>;

const ACCEPTS: ReadonlyMap<string, readonly OptionKey[]> = new Map(
  Object.entries(FUNCTION_OPTIONS).map(([name, keys]) => [name, [...keys.offered, ...keys.more]])
);

/** The option keys `name` accepts (parseOptions refuses the others by name); none: it takes no options. */
export function acceptedOptions(name: string): readonly OptionKey[] {
  return ACCEPTS.get(name) ?? [];
}

/** A function's options argument, read with the keys it takes: the one way every function reads it. */
export function optionsFor(name: string, optionsArg: unknown): Readonly<Options> {
  return parseOptions(optionsArg, name, acceptedOptions(name));
}
