/**
 * What Excel may hand a custom function, as fast-check arbitraries: any text (unicode, control characters,
 * huge), numbers including NaN, ±Infinity and serials far outside Excel's dates, booleans, omitted arguments
 * (null) and rectangular ranges of mixed types. Per kind of parameter: plausible values (to reach the
 * success paths) and values invalid on their face (to prove they are refused before any request).
 */
import fc from "fast-check";
import type { OptionKey } from "../../src/functions/options";
import { acceptedOptions } from "../../src/functions/function-options";

import type { FunctionName } from "../harness/faults/workbook";

const VALUE_OPTIONS = acceptedOptions("VALUE");
const METRIC_OPTIONS = acceptedOptions("METRIC");
const PRODUCT_METRIC_OPTIONS = acceptedOptions("PRODUCT_METRIC");
const STATEMENT_OPTIONS = acceptedOptions("STATEMENT");
const PROJECTS_OPTIONS = acceptedOptions("PROJECTS");
const COMPS_OPTIONS = acceptedOptions("COMPS");
const BREAKDOWN_OPTIONS = acceptedOptions("BREAKDOWN");
const AGGREGATION_OPTIONS = acceptedOptions("AGGREGATION");

export type ParamKind =
  | "text" // one required text: project, metric, product, sector, aggregation name
  | "position" // one project of a lifted range: empty is a #N/A ("no project given"), like an unknown one
  | "ids" // required ids: one, a comma list or a range
  | "optionalIds" // ids, omitted = all
  | "date" // optional date: serial or "YYYY-MM-DD"
  | "options" // "key=value; ..." of the function's own keys
  | "granularity"
  | "interval"
  | "field"; // optional text

export const OPTION_KEYS: Partial<Record<FunctionName, readonly OptionKey[]>> = {
  VALUE: VALUE_OPTIONS,
  ASOF: VALUE_OPTIONS,
  COMPS: COMPS_OPTIONS,
  METRIC: METRIC_OPTIONS,
  PRODUCT_METRIC: PRODUCT_METRIC_OPTIONS,
  STATEMENT: STATEMENT_OPTIONS,
  PROJECTS: PROJECTS_OPTIONS,
  BREAKDOWN: BREAKDOWN_OPTIONS,
  AGGREGATION: AGGREGATION_OPTIONS,
  AGGREGATIONS: AGGREGATION_OPTIONS,
};

const ALL_OPTION_KEYS: readonly OptionKey[] = [
  ...new Set([
    ...VALUE_OPTIONS,
    ...METRIC_OPTIONS,
    ...STATEMENT_OPTIONS,
    ...PROJECTS_OPTIONS,
    ...COMPS_OPTIONS,
    ...BREAKDOWN_OPTIONS,
  ]),
  "layout",
  "values",
];

// ---- any value at all ----

const anyText = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.string({
    unit: fc.constantFrom("=", ";", ",", " ", "a", "1", "-", '"', "\n", "\t"),
    maxLength: 20,
  }),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "\u202e",
    "<script>alert(1)</script>",
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
    "x".repeat(10_000)
  )
);

const anyNumber = fc.oneof(
  fc.double(),
  fc.integer({ min: -10_000_000, max: 10_000_000 }),
  fc.constantFrom(NaN, Infinity, -Infinity, -0, 0, 60, 61, 45_292, 2_958_465, 2_958_466, 1e308)
);

const plausibleText = fc.constantFrom(
  "aave",
  "AAVE",
  "Uniswap",
  "fees",
  "revenue",
  "tvl",
  "bitcoin",
  "aave-v3",
  "lending",
  "sum_30d",
  "chains",
  "quarter",
  "1y",
  "2025-06-30",
  "no-such-project"
);

const anyScalar: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: anyText, weight: 3 },
  { arbitrary: plausibleText, weight: 3 },
  { arbitrary: anyNumber, weight: 3 },
  { arbitrary: fc.boolean(), weight: 1 },
  { arbitrary: fc.constant(null), weight: 2 }
);

/** A rectangular range of mixed values, as Excel passes a multi-cell reference. */
function rangeOf(cell: fc.Arbitrary<unknown>): fc.Arbitrary<unknown[][]> {
  return fc.integer({ min: 1, max: 3 }).chain((width) =>
    fc.array(fc.array(cell, { minLength: width, maxLength: width }), {
      minLength: 1,
      maxLength: 4,
    })
  );
}

const anyArgument: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: anyScalar, weight: 4 },
  { arbitrary: rangeOf(anyScalar), weight: 1 }
);

// ---- plausible values per kind ----

// Mostly recent days (2024-2025), where every project of the dataset has data.
const validDate = fc.oneof(
  { arbitrary: fc.constant(null), weight: 2 },
  { arbitrary: fc.integer({ min: 45_292, max: 46_000 }), weight: 1 },
  {
    arbitrary: fc
      .integer({ min: 45_292, max: 46_000 })
      .map((s) => new Date((s - 25_569) * 86_400_000).toISOString().slice(0, 10)),
    weight: 1,
  },
  { arbitrary: fc.integer({ min: 40_000, max: 46_400 }), weight: 1 }
);

function validOptions(name: FunctionName): fc.Arbitrary<unknown> {
  const samples: Record<string, string[]> = {
    order: ["order=desc", "ORDER = Asc"],
    headers: ["headers=0", "headers=2"],
    period: ["period=month", "period=quarter"],
    agg: ["agg=sum", "agg=last"],
    fill: ["fill=previous", "fill=zero"],
    chains: ["chains=base,arbitrum"],
    bridged: ["bridged=false"],
    breakdown: ["breakdown=chain"],
    layout: ["layout=long"],
    values: ["values=pop", "values=coverage"],
    partial: ["partial=include", "PARTIAL=Exclude"],
    maxage: ["maxage=7d", "maxage=400d"],
    rows: ["rows=service"],
    sectors: ["sectors=lending"],
    products: ["products=aave-v3"],
    dating: ["dating=start", "dating=end"],
    annualize: ["annualize=1"],
    // The end of the suite's today: everything fetched so far was known then.
    vintage: ["vintage=2026-11-20"],
  };
  const keys = OPTION_KEYS[name] ?? [];
  const pairs = keys.flatMap((k) => samples[k] ?? []);
  if (pairs.length === 0) return fc.constant(null);
  return fc.oneof(
    fc.constant(null),
    fc.subarray(pairs, { maxLength: Math.min(2, pairs.length) }).map((p) => p.join("; "))
  );
}

const project = fc.constantFrom(
  "aave",
  "AAVE",
  "Uniswap",
  "compound",
  "bitcoin",
  "no-such-project"
);
const metric = fc.constantFrom("fees", "revenue", "tvl", "Fees", "price", "no_such_metric");
const projects = fc.oneof(
  project.map((p) => [[p]]),
  fc.constant([["aave", "uniswap"]]),
  fc.constant("aave, curve")
);
const metrics = fc.oneof(
  metric.map((m) => [[m]]),
  fc.constant("fees,revenue")
);
const orAll = <T>(a: fc.Arbitrary<T>) => fc.oneof(fc.constant(null), a);

export interface Param {
  /** Decides which values are invalid on their face. */
  kind: ParamKind;
  /** Values a user would type: they reach the success paths. */
  plausible: fc.Arbitrary<unknown>;
}

const param = (kind: ParamKind, plausible: fc.Arbitrary<unknown>): Param => ({ kind, plausible });
const date = param("date", validDate);

/** Every function's parameters in order, as the functions module declares them (invocation aside). */
export const SIGNATURES: Record<FunctionName, readonly Param[]> = {
  VALUE: [
    param("position", project),
    param("text", metric),
    date,
    param("options", validOptions("VALUE")),
  ],
  ASOF: [
    param("position", project),
    param("text", metric),
    date,
    param("options", validOptions("ASOF")),
  ],
  COMPS: [
    param("ids", projects),
    param(
      "ids",
      fc.constantFrom(
        "revenue",
        "revenue:ttm, fees:30d",
        "market_cap_fully_diluted/revenue:ttm",
        "nope"
      )
    ),
    date,
    param("options", fc.constantFrom(null, "headers=2", "partial=include", "nope=1")),
  ],
  METRIC: [
    param("ids", projects),
    param("ids", metrics),
    date,
    date,
    param("options", validOptions("METRIC")),
  ],
  STATEMENT: [
    param("text", project),
    param("granularity", fc.constantFrom(null, "year", "quarter", "Month", "week")),
    param("interval", fc.constantFrom(null, "1m", "1y", "5y", "MAX")),
    param("options", validOptions("STATEMENT")),
  ],
  PROJECTS: [param("options", validOptions("PROJECTS"))],
  PROJECT: [
    param("text", project),
    param(
      "field",
      fc.constantFrom(null, "chains", "name", "description.what", "definition.fees", "nope")
    ),
  ],
  PRODUCT: [
    param("text", fc.constantFrom("aave", "uniswap", "compound")),
    param("text", fc.constantFrom("aave-v3", "uniswap-v3", "compound-v3", "Aave V3", "v9")),
    param("field", fc.constantFrom(null, "chains", "product_id", "nope")),
  ],
  PRODUCT_METRIC: [
    param("text", fc.constantFrom("aave", "uniswap")),
    param("text", fc.constantFrom("aave-v3", "uniswap-v3", "v9")),
    param("ids", metrics),
    date,
    date,
    param("options", validOptions("PRODUCT_METRIC")),
  ],
  METRICS: [param("field", orAll(project))],
  SECTORS: [],
  SECTOR: [param("text", fc.constantFrom("lending", "Lending", "exchanges", "nowhere"))],
  AGGREGATION: [
    param("text", project),
    param("text", metric),
    param("text", fc.constantFrom("sum_30d", "avg_7d", "latest", "ATH", "median_1y")),
    param("options", validOptions("AGGREGATION")),
  ],
  AGGREGATIONS: [
    param("optionalIds", orAll(projects)),
    param("optionalIds", orAll(metrics)),
    param("options", validOptions("AGGREGATIONS")),
  ],
  BREAKDOWN: [
    param("text", metric),
    param("optionalIds", orAll(projects)),
    date,
    date,
    param("options", validOptions("BREAKDOWN")),
  ],
  CHANGES: [param("ids", projects), param("ids", metrics), date],
};

/** Mostly what a user would type, sometimes anything at all. */
export function argumentFor(p: Param): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: p.plausible, weight: 3 }, { arbitrary: anyArgument, weight: 1 });
}

// ---- invalid on its face ----

const missing = fc.constantFrom(null, "", "   ", [[null]], [["", " "]]);
const notText = fc.constantFrom(true, false, NaN, Infinity, -Infinity);
const tooLong = fc.constantFrom("a".repeat(10_001), "é".repeat(20_000));
const severalCells = fc.constantFrom([["aave", "uniswap"]], [["aave"], ["fees"]], [[1, 2, 3]]);
const tooManyIds = fc.constant([[Array.from({ length: 501 }, (_, i) => `p${i}`).join(",")]]);
const rangeWithNonText = fc.constantFrom([["aave", true]], [[NaN]], [["fees"], [Infinity]]);

const badDateText = fc.oneof(
  fc.constantFrom(
    "2024-02-30",
    "2024-13-01",
    "24-01-01",
    "2024/01/31",
    "yesterday",
    "2024-1-1",
    "0000-00-00"
  ),
  fc
    .string({ unit: "binary", minLength: 1, maxLength: 12 })
    .filter((s) => s.trim() !== "" && !/^\d{4}-\d{2}-\d{2}$/.test(s.trim()))
);

/** Values a parameter of this kind refuses without asking the service anything. */
export function faceInvalid(kind: ParamKind, name: FunctionName): fc.Arbitrary<unknown> {
  switch (kind) {
    case "text":
      return fc.oneof(missing, notText, tooLong, severalCells, fc.constant([[true]]));
    case "position":
      return fc.oneof(notText, tooLong, severalCells, fc.constant([[true]]));
    case "ids":
      return fc.oneof(
        missing,
        notText,
        tooLong.map((t) => [[t]]),
        tooManyIds,
        rangeWithNonText
      );
    case "optionalIds":
      return fc.oneof(
        notText,
        tooLong.map((t) => [[t]]),
        tooManyIds,
        rangeWithNonText
      );
    case "date":
      return fc.oneof(
        fc.constantFrom(NaN, Infinity, -Infinity, 1e300, -1e300, true, false),
        fc.integer({ min: -10_000_000, max: 60 }),
        fc.integer({ min: 2_958_466, max: 1e9 }),
        badDateText,
        fc.constant([[45_292, 45_293]])
      );
    case "options": {
      // A function missing from the table would see its own keys offered as foreign ones, and the
      // property would fail only on the runs that happen to pick one: refuse the gap outright instead.
      const allowed = OPTION_KEYS[name];
      if (allowed === undefined) throw new Error(`OPTION_KEYS has no entry for ${name}`);
      const foreign = ALL_OPTION_KEYS.filter((k) => !allowed.includes(k));
      return fc.oneof(
        fc.constantFrom(
          "order",
          "=desc",
          "foo=bar",
          "order=sideways",
          "order=asc;order=desc",
          "chains=",
          "headers=3"
        ),
        fc.constantFrom(...foreign).map((k) => `${k}=x`),
        notText,
        tooLong
      );
    }
    case "granularity":
    case "interval":
      return fc.oneof(
        fc.constantFrom("daily", "2w", "quarterly", "1d", "∞"),
        notText,
        severalCells
      );
    case "field":
      return fc.oneof(notText, severalCells, tooLong);
  }
}

/** One call per function that works on a healthy service: the success path is always among the runs. */
export const EXAMPLES: Record<FunctionName, readonly unknown[]> = {
  VALUE: ["aave", "fees", null, null],
  ASOF: ["aave", "tvl", null, null],
  COMPS: [[["aave"], ["uniswap"]], "revenue:ttm, fees:30d", null, null],
  METRIC: [[["aave"]], [["fees"]], 45_292, 45_300, null],
  STATEMENT: ["aave", null, null, null],
  PROJECTS: [null],
  PROJECT: ["aave", "chains"],
  PRODUCT: ["aave", "aave-v3", null],
  PRODUCT_METRIC: ["aave", "aave-v3", [["fees"]], 45_292, 45_300, null],
  METRICS: ["aave"],
  SECTORS: [],
  SECTOR: ["lending"],
  AGGREGATION: ["aave", "fees", "sum_30d", null],
  AGGREGATIONS: [[["aave"]], [["fees"]], null],
  BREAKDOWN: ["fees", [["aave"]], 45_292, 45_300, null],
  CHANGES: [[["aave"]], [["fees"]], null],
};
