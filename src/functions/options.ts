/**
 * The options argument: one text of `key=value` pairs separated by `;`, keys and values case-insensitive,
 * as finance terminals take them (e.g. "order=desc; period=month"). Unknown keys, values outside their set
 * and options that do not apply to the function are refused by name with what is allowed.
 */
import type { Aggregation } from "../engine/metric-kinds";
import type { Period } from "../client/data/days";
import type { Fill } from "../engine/series-ops";
import { isMissing, requiredText } from "./coerce";
import { invalid } from "./result";

export interface Options {
  order: "asc" | "desc";
  headers: 0 | 1 | 2;
  chains: readonly string[];
  products: readonly string[];
  sectors: readonly string[];
  breakdown?: "chain" | "product_id";
  bridged: boolean;
  period: Period;
  agg?: Aggregation;
  fill: Fill;
  layout: "wide" | "long";
  values: "value" | "pop";
}

export type OptionKey = keyof Options;

/** The values of each choice-like option (the taskpane's formula builder offers the same). */
export const OPTION_CHOICES: Readonly<Partial<Record<OptionKey, readonly string[]>>> = {
  order: ["asc", "desc"],
  headers: ["0", "1", "2"],
  breakdown: ["chain", "product_id"],
  bridged: ["true", "false"],
  period: ["day", "week", "month", "quarter", "year"],
  agg: ["sum", "avg", "last", "first", "min", "max"],
  fill: ["none", "previous", "zero"],
  layout: ["wide", "long"],
  values: ["value", "pop"],
};
/** Options whose value is a comma list of ids. */
export const LIST_OPTIONS: readonly OptionKey[] = ["chains", "products", "sectors"];
const CHOICES = OPTION_CHOICES;
const LISTS = LIST_OPTIONS;
const ALL_KEYS = [...Object.keys(CHOICES), ...LISTS] as OptionKey[];

export const DEFAULT_OPTIONS: Readonly<Options> = Object.freeze({
  order: "asc", // oldest first, as STOCKHISTORY
  headers: 1,
  chains: Object.freeze([]),
  products: Object.freeze([]),
  sectors: Object.freeze([]),
  bridged: true, // the service's default
  period: "day",
  fill: "none",
  layout: "wide",
  values: "value",
} satisfies Options);

function describeAllowed(key: OptionKey): string {
  return LISTS.includes(key) ? "a comma list of ids" : (CHOICES[key] ?? []).join("|");
}

export function parseOptions(
  value: unknown,
  functionName: string,
  allowed: readonly OptionKey[]
): Readonly<Options> {
  // Most cells pass no options: they share the (frozen) defaults.
  if (Array.isArray(value) ? value.flat().every(isMissing) : isMissing(value))
    return DEFAULT_OPTIONS;
  const options: Options = { ...DEFAULT_OPTIONS, chains: [], products: [], sectors: [] };
  const text = Array.isArray(value)
    ? value
        .flat()
        .filter((v) => !isMissing(v))
        .map((v) => requiredText(v, "options"))
        .join(";")
    : requiredText(value, "options");
  const seen = new Set<string>();
  for (const raw of text.split(";")) {
    const pair = raw.trim();
    if (!pair) continue;
    const eq = pair.indexOf("=");
    if (eq <= 0)
      throw invalid(`option "${pair}" is not key=value (e.g. "order=desc; period=month")`);
    const key = pair.slice(0, eq).trim().toLowerCase() as OptionKey;
    const val = pair.slice(eq + 1).trim();
    if (!ALL_KEYS.includes(key)) {
      throw invalid(
        `unknown option "${pair.slice(0, eq).trim()}"; ${functionName} takes ${allowed.join(", ") || "no options"}`
      );
    }
    if (!allowed.includes(key)) {
      throw invalid(
        `option "${key}" does not apply to ${functionName}; it takes ${allowed.join(", ") || "no options"}`
      );
    }
    if (seen.has(key)) throw invalid(`option "${key}" is given twice`);
    seen.add(key);
    if (LISTS.includes(key)) {
      const ids = val
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      if (ids.length === 0) throw invalid(`option "${key}" needs ${describeAllowed(key)}`);
      (options[key] as string[]) = ids;
      continue;
    }
    const v = val.toLowerCase();
    if (!(CHOICES[key] ?? []).includes(v)) {
      throw invalid(`option ${key}="${val}" is not allowed; use ${key}=${describeAllowed(key)}`);
    }
    assign(options, key, v);
  }
  return options;
}

function assign(options: Options, key: OptionKey, v: string): void {
  switch (key) {
    case "headers":
      options.headers = Number(v) as 0 | 1 | 2;
      break;
    case "bridged":
      options.bridged = v === "true";
      break;
    case "order":
      options.order = v as Options["order"];
      break;
    case "breakdown":
      options.breakdown = v as Options["breakdown"];
      break;
    case "period":
      options.period = v as Period;
      break;
    case "agg":
      options.agg = v as Aggregation;
      break;
    case "fill":
      options.fill = v as Fill;
      break;
    case "layout":
      options.layout = v as Options["layout"];
      break;
    case "values":
      options.values = v as Options["values"];
      break;
    default:
      break;
  }
}
