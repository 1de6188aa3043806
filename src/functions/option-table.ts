/**
 * The one table of the options: for each key how its value is written and read, its values, its default, the
 * functions that take fewer of its values, and its help line. Everything else is derived from it: the
 * `Options` type (a mapped type over the table), the defaults, the values the formula builder offers and the
 * reference lists, and the parser (options.ts, which runs each entry's own reader).
 *
 * Kept elsewhere, on purpose:
 * - which function takes which key, and in what order the builder offers them: the function's own entry in
 *   function-options.ts (a fact about the function, stated once there; `acceptedOptions` and the registry
 *   read it);
 * - the meaning of each option in full: REFERENCE.md's option table, prose for people, whose keys, values,
 *   defaults, functions and first words (the help line below) test/functions/options-docs.test.ts holds to
 *   this table and the registry;
 * - the words the taskpane's builder shows for a key and its choices (src/taskpane/views/builder-controls.ts):
 *   screen text, not a fact of the functions.
 */
import type { Period } from "../client";
import {
  DEFAULT_PARTIAL,
  parseVintage,
  parseWindow,
  WINDOW_FORMS,
  type Aggregation,
  type Fill,
  type PartialPeriods,
  type TrailingWindow,
} from "../engine";
import { invalid } from "./result";

/** One key of the table: how its text is read (`read` throws the #VALUE! that names what is allowed). */
interface Entry<V, D extends V | undefined = V | undefined> {
  /** How the text is written: a closed set, on/off, a comma list of ids, days, a window, an instant. */
  readonly kind: "choice" | "flag" | "ids" | "days" | "window" | "instant";
  /** The values, as written, the formula builder offers and the reference lists (none: free text). */
  readonly choices?: readonly string[];
  /** What a function does when the key is not given; undefined: the key is absent (the data decides). */
  readonly default: D;
  /** The first words of the option's meaning in REFERENCE.md (a test holds them together). */
  readonly help: string;
  /**
   * The value of `text` (trimmed, as written) for `functionName`, or the #VALUE! saying what is allowed.
   * `only` narrows a choice per function; `listFor` names the functions that take a comma list of choices.
   */
  read(text: string, key: string, functionName: string): V;
  readonly only?: Readonly<Record<string, readonly string[]>>;
  readonly listFor?: readonly string[];
}

/**
 * A closed set of values (case-insensitive). `only`: the functions that take fewer of them; parseOptions
 * refuses the others by name, and the builder offers exactly optionChoices(), so the two cannot drift apart.
 */
function choice<const V extends string | number, const D extends V | undefined>(
  values: readonly V[],
  byDefault: D,
  help: string,
  more: {
    only?: Readonly<Record<string, readonly (V & string)[]>>;
    listFor?: readonly string[];
  } = {}
): Entry<V, D> & { readonly values: readonly V[] } {
  const choices = values.map(String);
  return {
    kind: "choice",
    values,
    choices,
    default: byDefault,
    help,
    ...more,
    read(text, key, functionName) {
      const v = text.toLowerCase();
      const here: readonly string[] = more.only?.[functionName] ?? choices;
      const found = values.find((value) => String(value) === v);
      if (found !== undefined && here.includes(v)) return found;
      const allowedHere = here.join("|");
      // A value other functions take: say it is this function that does not, not that it does not exist.
      if (found !== undefined)
        throw invalid(
          `option "${key}=${v}" does not apply to ${functionName}; it takes ${key}=${allowedHere}`
        );
      throw invalid(`option ${key}="${text}" is not allowed; use ${key}=${allowedHere}`);
    },
  };
}

/** On or off, written as one of two values (`on` is the one that turns it on). */
function flag(
  values: readonly [string, string],
  on: string,
  byDefault: boolean,
  help: string
): Entry<boolean, boolean> {
  const set = choice(values, undefined, help);
  return {
    kind: "flag",
    choices: set.choices,
    default: byDefault,
    help,
    read: (text, key, functionName) => set.read(text, key, functionName) === on,
  };
}

/** A comma list of ids, kept as written (ids are the service's); none given: no filter. */
function ids(help: string): Entry<readonly string[], readonly string[]> {
  return {
    kind: "ids",
    default: Object.freeze([]),
    help,
    read(text, key) {
      const list = text
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      if (list.length === 0) throw invalid(`option "${key}" needs a comma list of ids`);
      return list;
    },
  };
}

const DAYS = /^(\d{1,5})d$/;

/** A whole number of days written `<N>d` (spaces and case aside). */
function days(help: string): Entry<number, undefined> {
  return {
    kind: "days",
    default: undefined,
    help,
    read(text, key) {
      const found = DAYS.exec(text.toLowerCase().replace(/\s/g, ""));
      if (!found)
        throw invalid(`option ${key}="${text}" is not allowed; use ${key}=<N>d, e.g. ${key}=7d`);
      return Number(found[1]);
    },
  };
}

/** A trailing window (engine/figures/trailing-window.ts); `presets` are what the builder offers. */
function trailingWindow(
  presets: readonly string[],
  help: string
): Entry<TrailingWindow, undefined> {
  return {
    kind: "window",
    choices: presets,
    default: undefined,
    help,
    read(text, key) {
      const window = parseWindow(text.toLowerCase());
      if (!window)
        throw invalid(`option ${key}="${text}" is not allowed; use ${key}=${WINDOW_FORMS}`);
      return window;
    },
  };
}

/** A date or an instant, kept as written: whether it has passed is the clock's (impl/vintage.ts). */
function instant(help: string): Entry<string, undefined> {
  return {
    kind: "instant",
    default: undefined,
    help,
    read(text) {
      const vintage = parseVintage(text, Infinity);
      if ("error" in vintage) throw invalid(vintage.error);
      return text;
    },
  };
}

/** Growth or plain values: what a series takes; coverage (days with data per figure) is STATEMENT's alone. */
const SERIES_VALUES = ["value", "pop", "yoy"] as const;

/**
 * The closed sets the engine also types, typed by it: a value the engine does not know fails to compile.
 * Each lists its values in the order the builder offers them.
 */
const PERIODS: readonly Period[] = ["day", "week", "month", "quarter", "year"];
const PARTIALS: readonly PartialPeriods[] = ["exclude", "include"];
const AGGREGATIONS: readonly Aggregation[] = ["sum", "avg", "last", "first", "min", "max"];
const FILLS: readonly Fill[] = ["none", "previous", "zero"];

/** The table. Its order is the reference's and the order `OPTION_CHOICES` lists keys in. */
export const OPTION_TABLE = {
  order: choice(["asc", "desc"], "asc", "oldest first, like `STOCKHISTORY`, or newest first"),
  headers: choice(
    [0, 1, 2],
    1,
    "no header row / column headers / also a first row of project names"
  ),
  period: choice(PERIODS, "day", "roll the daily series up into calendar periods"),
  partial: choice(
    PARTIALS,
    DEFAULT_PARTIAL,
    "periods and windows without data on every day (below)"
  ),
  // No fixed default: the metric's kind decides (engine/figures/metric-kinds.ts).
  agg: choice(AGGREGATIONS, undefined, "how to roll up"),
  // COMPS: one fill per kind of metric (`fill=previous,zero`: levels carry forward, flows count a missing day
  // 0), each column taking the one its metric admits; `fills` holds them. Elsewhere the one `fill`.
  fill: choice(FILLS, "none", "`none`: the dates the service returns", {
    listFor: ["COMPS"],
  }),
  // Presets the formula builder offers; any <N>d or <N>m is taken.
  window: trailingWindow(
    ["30d", "90d", "ttm", "ytd", "qtd", "mtd"],
    "a trailing window ending on the date"
  ),
  annualize: flag(["0", "1"], "1", false, "a summed window scaled to 365 days"),
  maxage: days("a latest value older than N days before today is a `#N/A` stating its date"),
  chains: ids("only these chains"),
  products: ids("only these products of the project"),
  sectors: ids("only projects in these market sectors"),
  // No fixed default: without it a series is not broken down. A product's series is one product's: only its
  // chains break it down.
  breakdown: choice(["chain", "product_id"], undefined, "long table", {
    only: { PRODUCT_METRIC: ["chain"] },
  }),
  bridged: flag(["true", "false"], "true", true, "`false` counts native assets only"), // the service's default
  layout: choice(["wide", "long"], "wide", "`long`: one row per period, section and metric"),
  values: choice(["value", "pop", "yoy", "coverage"], "value", "growth as a ratio", {
    only: {
      VALUE: SERIES_VALUES,
      ASOF: SERIES_VALUES,
      METRIC: SERIES_VALUES,
      PRODUCT_METRIC: SERIES_VALUES,
    },
  }),
  dates: flag(["0", "1"], "1", true, "`0` leaves the Date column out"),
  dir: choice(["v", "h"], "v", "`h` puts the dates across"),
  // A period is dated by its end, as Bloomberg and FactSet date a quarter (31 January's TVL is January's).
  dating: choice(["start", "end"], "end", "a period's row dated by its last day"),
  asof: flag(["0", "1"], "1", false, "`1` adds a column with each row's as-of day"), // COMPS shows figures
  // Every project's statement on the same rows, so templates line up.
  rows: choice(["standard", "service"], "standard", "`standard`: every project gets the same rows"),
  vintage: instant("the figures as this computer (or the team's gateway) knew them then"),
};

type Table = typeof OPTION_TABLE;
export type OptionKey = keyof Table;
/** Each key's value type, as its reader returns it (a plain object type, so a key type indexes it). */
type ValueMap = { [K in OptionKey]: ReturnType<Table[K]["read"]> };
type ValueOf<K extends OptionKey> = ValueMap[K];
/** The keys with a default (always set) and those without (absent unless given). */
type KeysWith<HasDefault extends boolean> = {
  [K in OptionKey]: undefined extends Table[K]["default"]
    ? HasDefault extends true
      ? never
      : K
    : HasDefault extends true
      ? K
      : never;
}[OptionKey];

/** The options of one call, as the table reads them. */
export type Options = { [K in KeysWith<true>]: ValueOf<K> } & {
  [K in KeysWith<false>]?: ValueOf<K>;
} & {
  /** COMPS: the fills given, one per kind of metric (the table's `fill` entry, listFor); else none. */
  fills: readonly ValueOf<"fill">[];
};

/**
 * The table's keys. Object.keys is typed string[] (an object may hold more keys than its type says); the
 * table is a literal, so these are exactly its keys.
 */
export const OPTION_KEYS = Object.keys(OPTION_TABLE) as OptionKey[];

/** The values of each choice-like option as written (the taskpane's formula builder offers the same). */
export const OPTION_CHOICES: Readonly<Partial<Record<OptionKey, readonly string[]>>> =
  Object.fromEntries(
    OPTION_KEYS.flatMap((key) => {
      const choices: readonly string[] | undefined = OPTION_TABLE[key].choices;
      return choices ? [[key, choices]] : [];
    })
  );

/** Options whose value is a comma list of ids. */
export const LIST_OPTIONS: readonly OptionKey[] = OPTION_KEYS.filter(
  (key) => OPTION_TABLE[key].kind === "ids"
);

/** The values `functionName` takes for a choice-like option (undefined: not a choice-like option). */
export function optionChoices(functionName: string, key: OptionKey): readonly string[] | undefined {
  const entry: Entry<unknown, unknown> = OPTION_TABLE[key];
  return entry.only?.[functionName] ?? OPTION_CHOICES[key];
}

/** Each key's reader, as a mapped type: indexed by a key type, it keeps that key's value type. */
const READERS: { readonly [K in OptionKey]: Pick<Entry<ValueMap[K]>, "read"> } = OPTION_TABLE;

/** The table's reading of `text` for `key`, set on `options` (or the #VALUE! saying what is allowed). */
export function readOption<K extends OptionKey>(
  options: Partial<ValueMap>,
  key: K,
  text: string,
  functionName: string
): void {
  options[key] = READERS[key].read(text, key, functionName);
}

function defaults(): Readonly<Options> {
  const out: Partial<Record<OptionKey, unknown>> = {};
  for (const key of OPTION_KEYS) {
    const byDefault: unknown = OPTION_TABLE[key].default;
    if (byDefault !== undefined) out[key] = byDefault;
  }
  // An assertion (with OPTION_KEYS's, the table's only two): TypeScript does not follow a loop over the keys into a mapped type. The loop sets
  // exactly the keys with a default (the type's required ones), each to its own entry's default.
  return Object.freeze({ ...out, fills: Object.freeze([]) }) as Options;
}

/** Every default (a frozen object shared by the many cells that pass no options). */
export const DEFAULT_OPTIONS: Readonly<Options> = defaults();
