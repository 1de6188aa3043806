/**
 * The options argument: one text of `key=value` pairs separated by `;`, keys and values case-insensitive,
 * as finance terminals take them (e.g. "order=desc; period=month"). Unknown keys, values outside their set
 * and options that do not apply to the function are refused by name with what is allowed.
 */
import {
  DEFAULT_PARTIAL,
  type PartialPeriods,
  parseWindow,
  WINDOW_FORMS,
  type TrailingWindow,
  type Aggregation,
  type Fill,
  parseVintage,
} from "../engine";
import type { Period } from "../client";
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
  /** Growth: the change against the previous period (pop) or the same period a year earlier (yoy). */
  values: "value" | "pop" | "yoy" | "coverage";
  /** Incomplete periods (their days run past the latest data or today): left out (default) or shown. */
  partial: PartialPeriods;
  /** VALUE without a date: a latest value older than this many days before today is a #N/A. */
  maxage?: number;
  /** STATEMENT: the standard template's rows for every project (default), or the service's own rows. */
  rows: "standard" | "service";
  /** VALUE: roll the metric up over a trailing window ending on the date (engine/figures/trailing-window.ts). */
  window?: TrailingWindow;
  /** VALUE with a window: a summed window scaled to 365 days. */
  annualize: boolean;
  /** METRIC, PRODUCT_METRIC: the Date column (1) or none (0), so SUM over the spill adds only values. */
  dates: boolean;
  /** METRIC, PRODUCT_METRIC: dates down the rows (v) or across the columns (h, as Bloomberg's Dir=H). */
  dir: "v" | "h";
  /**
   * METRIC, PRODUCT_METRIC with a period, STATEMENT's long layout: a period row dated by its last day (end,
   * the default) or its first (start).
   */
  dating: "start" | "end";
  /**
   * COMPS: the fills to use, one per kind of metric (`fill=previous,zero`: levels carry forward, flows count a
   * missing day 0); each column takes the one its metric admits. Elsewhere the one `fill`.
   */
  fills: readonly Fill[];
  /** COMPS: a column with the day each row's figures are as of. */
  asof: boolean;
  /**
   * The figures as this computer (or the team's gateway) knew them at an instant: a date is the end of that
   * UTC day, a date and time with its zone that instant (engine/ledger/vintage.ts). As written; checked
   * against the clock where the function runs (impl/vintage.ts).
   */
  vintage?: string;
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
  values: ["value", "pop", "yoy", "coverage"],
  partial: ["exclude", "include"],
  rows: ["standard", "service"],
  // Presets the formula builder offers; any <N>d or <N>m is taken (WINDOW_OPTIONS parses it).
  window: ["30d", "90d", "ttm", "ytd", "qtd", "mtd"],
  annualize: ["0", "1"],
  dates: ["0", "1"],
  dir: ["v", "h"],
  dating: ["start", "end"],
  asof: ["0", "1"],
};
/**
 * Choice options a function takes as a comma list of choices, each checked (COMPS: one fill per kind of
 * metric, as its columns differ).
 */
const MULTI_CHOICES: Readonly<Record<string, readonly OptionKey[]>> = { COMPS: ["fill"] };
/** Growth or plain values: what a series takes; coverage (days with data per figure) is STATEMENT's alone. */
const SERIES_VALUES: readonly string[] = ["value", "pop", "yoy"];
/**
 * Where a function takes fewer values of an option than OPTION_CHOICES lists. parseOptions refuses the
 * others by name, and the formula builder offers exactly optionChoices(), so the two cannot drift apart.
 */
const NARROWER_CHOICES: Readonly<
  Record<string, Readonly<Partial<Record<OptionKey, readonly string[]>>>>
> = {
  VALUE: { values: SERIES_VALUES },
  ASOF: { values: SERIES_VALUES },
  METRIC: { values: SERIES_VALUES },
  // A product's series is one product's: only its chains break it down.
  PRODUCT_METRIC: { values: SERIES_VALUES, breakdown: ["chain"] },
};

/** The values `functionName` takes for a choice-like option (undefined: not a choice-like option). */
export function optionChoices(functionName: string, key: OptionKey): readonly string[] | undefined {
  return NARROWER_CHOICES[functionName]?.[key] ?? OPTION_CHOICES[key];
}

/** Options whose value is a trailing window (e.g. window=ttm). */
const WINDOW_OPTIONS: readonly OptionKey[] = ["window"];
/** Options whose value is a number of days written `<N>d` (e.g. maxage=7d). */
const DAYS_OPTIONS: readonly OptionKey[] = ["maxage"];
const DAYS = /^(\d{1,5})d$/;
/** Options whose value is a date or an instant (e.g. vintage=2026-11-20). */
const VINTAGE_OPTIONS: readonly OptionKey[] = ["vintage"];
/** Options whose value is a comma list of ids. */
export const LIST_OPTIONS: readonly OptionKey[] = ["chains", "products", "sectors"];
const CHOICES = OPTION_CHOICES;
const LISTS = LIST_OPTIONS;
const ALL_KEYS = [
  ...Object.keys(CHOICES),
  ...LISTS,
  ...DAYS_OPTIONS,
  ...WINDOW_OPTIONS,
  ...VINTAGE_OPTIONS,
] as OptionKey[];

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
  partial: DEFAULT_PARTIAL,
  rows: "standard", // every project's statement on the same rows, so templates line up
  annualize: false,
  dates: true,
  dir: "v",
  // A period is dated by its end, as Bloomberg and FactSet date a quarter (31 January's TVL is January's).
  dating: "end",
  fills: Object.freeze([]),
  asof: false, // COMPS shows figures; the as-of column is asked for
} satisfies Options);

export function parseOptions(
  value: unknown,
  functionName: string,
  allowed: readonly OptionKey[]
): Readonly<Options> {
  // Most cells pass no options: they share the (frozen) defaults.
  if (Array.isArray(value) ? value.flat().every(isMissing) : isMissing(value))
    return DEFAULT_OPTIONS;
  const options: Options = {
    ...DEFAULT_OPTIONS,
    chains: [],
    products: [],
    sectors: [],
    fills: [],
  };
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
    commaSlip(pair.slice(eq + 1), text);
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
      if (ids.length === 0) throw invalid(`option "${key}" needs a comma list of ids`);
      (options[key] as string[]) = ids;
      continue;
    }
    if (VINTAGE_OPTIONS.includes(key)) {
      // The form only here: whether the instant has passed is the clock's (impl/vintage.ts).
      const vintage = parseVintage(val, Infinity);
      if ("error" in vintage) throw invalid(vintage.error);
      options.vintage = val;
      continue;
    }
    const v = val.toLowerCase();
    if (DAYS_OPTIONS.includes(key)) {
      const days = DAYS.exec(v.replace(/\s/g, ""));
      if (!days)
        throw invalid(`option ${key}="${val}" is not allowed; use ${key}=<N>d, e.g. ${key}=7d`);
      options.maxage = Number(days[1]);
      continue;
    }
    if (WINDOW_OPTIONS.includes(key)) {
      options.window = parseWindow(v);
      if (!options.window)
        throw invalid(`option ${key}="${val}" is not allowed; use ${key}=${WINDOW_FORMS}`);
      continue;
    }
    if (MULTI_CHOICES[functionName]?.includes(key)) {
      assignList(options, key, v, functionName);
      continue;
    }
    // Every key left here is a choice-like one (ALL_KEYS is the choice keys plus the lists, days and window
    // handled above), so neither lookup below can miss: their `?? []` only satisfies the type.
    // Stryker disable next-line ArrayDeclaration: unreachable, see above
    const choices = optionChoices(functionName, key) ?? [];
    if (!choices.includes(v)) {
      const allowedHere = choices.join("|");
      // A value other functions take: say it is this function that does not, not that it does not exist.
      // Stryker disable next-line ArrayDeclaration: unreachable, see above
      if ((CHOICES[key] ?? []).includes(v))
        throw invalid(
          `option "${key}=${v}" does not apply to ${functionName}; it takes ${key}=${allowedHere}`
        );
      throw invalid(`option ${key}="${val}" is not allowed; use ${key}=${allowedHere}`);
    }
    assign(options, key, v);
  }
  return options;
}

/**
 * A comma inside a value where options were meant to be apart ("period=month, agg=max"): options are
 * separated by ";", so say so, with the text as it should be written.
 */
function commaSlip(value: string, text: string): void {
  if (!/,\s*[a-z_]+\s*=/i.test(value)) return;
  const fixed = text
    .split(";")
    .map((part) => part.replace(/,\s*(?=[a-z_]+\s*=)/gi, "; "))
    .join(";");
  throw invalid(`options are separated by ";", not ","; write "${fixed.trim()}"`);
}

/** A comma list of choices (MULTI_CHOICES), each checked; the first is also the option's single value. */
function assignList(options: Options, key: OptionKey, v: string, functionName: string): void {
  const choices = optionChoices(functionName, key) ?? [];
  const items = v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const item of items)
    if (!choices.includes(item))
      throw invalid(
        `option ${key}="${item}" is not allowed; use ${key}=${choices.join("|")}, or a comma list of them`
      );
  if (items.length === 0) throw invalid(`option "${key}" needs a value: ${choices.join("|")}`);
  if (new Set(items).size !== items.length) throw invalid(`option "${key}" lists a value twice`);
  // Only fill is a list today (MULTI_CHOICES).
  options.fills = items as Fill[];
  options.fill = items[0] as Fill;
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
    case "partial":
      options.partial = v as PartialPeriods;
      break;
    case "rows":
      options.rows = v as Options["rows"];
      break;
    case "annualize":
      options.annualize = v === "1";
      break;
    case "dates":
      options.dates = v === "1";
      break;
    case "dir":
      options.dir = v as Options["dir"];
      break;
    case "dating":
      options.dating = v as Options["dating"];
      break;
    case "asof":
      options.asof = v === "1";
      break;
    // The lists, days and window keys are assigned where they are parsed and never reach here.
    // Stryker disable next-line ConditionalExpression: unreachable, see above
    default:
      break;
  }
}
