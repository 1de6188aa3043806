/**
 * A finance user's workbook: hundreds of CRYPTO formulas of every kind (latest values, values on a date and
 * per quarter, time series, product series, statements, catalogues, aggregations), called as Excel calls
 * them (all at once, one invocation per cell), with each cell's outcome and how long it kept the cell busy.
 */
import * as fns from "../../../src/functions/functions";
import type { Dataset } from "../../../src/simulator";
import { StuckError } from "./driver";
import type { Lab } from "./lab";
import { messageOf } from "../../../src/client/errors";

/** A function returns a value, or a promise of one (VALUE and ASOF answer a warm cell synchronously). */
type Fn = (...args: never[]) => unknown;

/** Excel's name of each function, its export, and how many arguments it takes before the invocation. */
export const FUNCTIONS = {
  VALUE: { fn: fns.value_ as Fn, arity: 4 },
  ASOF: { fn: fns.asof_ as Fn, arity: 4 },
  COMPS: { fn: fns.comps_ as Fn, arity: 4 },
  METRIC: { fn: fns.metric_ as Fn, arity: 5 },
  STATEMENT: { fn: fns.statement_ as Fn, arity: 4 },
  PROJECTS: { fn: fns.projects_ as Fn, arity: 1 },
  PROJECT: { fn: fns.project_ as Fn, arity: 2 },
  PRODUCT: { fn: fns.product_ as Fn, arity: 3 },
  PRODUCT_METRIC: { fn: fns.product_metric_ as Fn, arity: 6 },
  METRICS: { fn: fns.metrics_ as Fn, arity: 1 },
  SECTORS: { fn: fns.sectors_ as Fn, arity: 0 },
  SECTOR: { fn: fns.sector_ as Fn, arity: 1 },
  AGGREGATION: { fn: fns.aggregation_ as Fn, arity: 4 },
  AGGREGATIONS: { fn: fns.aggregations_ as Fn, arity: 3 },
  BREAKDOWN: { fn: fns.breakdown_ as Fn, arity: 5 },
  CHANGES: { fn: fns.changes_ as Fn, arity: 3 },
} as const;

export type FunctionName = keyof typeof FUNCTIONS;

export interface Formula {
  address: string;
  name: FunctionName;
  /** As Excel passes them: scalars, 2D arrays for ranges, null for omitted arguments. */
  args: readonly unknown[];
}

/** A cell's value in comparable form: errors inside a spilled table become {error, message}. */
export type Plain = null | number | string | boolean | Plain[] | { [key: string]: Plain };

export type CellResult =
  | { address: string; name: FunctionName; ok: true; value: Plain; ms: number }
  | { address: string; name: FunctionName; ok: false; code: string; message: string; ms: number };

/** Calls one function as Excel would: omitted arguments as null, then the invocation. */
export async function callFormula(
  formula: Formula,
  invocation: CustomFunctions.Invocation & { onCanceled?: () => void }
): Promise<unknown> {
  const { fn, arity } = FUNCTIONS[formula.name];
  const args = Array.from({ length: arity }, (_, i) => formula.args[i] ?? null);
  return (fn as (...a: unknown[]) => unknown)(...args, invocation);
}

function isHostError(value: unknown): value is Error & { code: string } {
  return value instanceof Error && typeof (value as { code?: unknown }).code === "string";
}

export function plain(value: unknown): Plain {
  if (value === null || value === undefined) return null;
  if (isHostError(value)) return { error: value.code, message: value.message };
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === "object") {
    const out: { [key: string]: Plain } = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = plain(v);
    return out;
  }
  if (typeof value === "number" || typeof value === "string" || typeof value === "boolean")
    return value;
  // Nothing else comes out of a function (bigint, symbol, function): name its type.
  return `(${typeof value})`;
}

/** What Excel would show for a cell that never settles. */
export const BUSY = "#BUSY!";

/**
 * Every formula called at once (one recalculation), each outcome timed on the lab's clock. A cell that can
 * never settle comes back as #BUSY! (the run stops as soon as nothing pending could settle it).
 */
export async function evaluate(lab: Lab, formulas: readonly Formula[]): Promise<CellResult[]> {
  const startedAt = lab.time.now();
  const settled = new Map<number, CellResult>();
  const cells = formulas.map(async (formula, i): Promise<void> => {
    const base = { address: formula.address, name: formula.name };
    try {
      const value = await callFormula(formula, {
        address: formula.address,
        functionName: formula.name,
      });
      settled.set(i, { ...base, ok: true, value: plain(value), ms: lab.time.now() - startedAt });
    } catch (error) {
      const code = isHostError(error) ? error.code : "(raw exception)";
      const message = messageOf(error);
      settled.set(i, { ...base, ok: false, code, message, ms: lab.time.now() - startedAt });
    }
  });
  try {
    await lab.drive(Promise.all(cells));
  } catch (error) {
    if (!(error instanceof StuckError)) throw error;
  }
  const ms = lab.time.now() - startedAt;
  return formulas.map(
    (f, i): CellResult =>
      settled.get(i) ?? { address: f.address, name: f.name, ok: false, code: BUSY, message: "", ms }
  );
}

/**
 * Latest-value grid, dated values, series, products, statements, catalogues, aggregations, over the first
 * `projects` live projects of the dataset (all 43 give 305 formulas; 12 give about 130).
 */
export function buildWorkbook(dataset: Dataset, projects = Infinity): Formula[] {
  const live = dataset.projects
    .filter((p) => !p.isArchived && p.id !== "sushiswap")
    .slice(0, projects);
  const formulas: Formula[] = [];
  let row = 0;
  const add = (name: FunctionName, ...args: unknown[]): void => {
    formulas.push({ address: `Model!${String.fromCharCode(65 + (row % 8))}${++row}`, name, args });
  };
  const has = (projectId: string, metric: string): boolean =>
    live.some((p) => p.id === projectId && p.metrics.includes(metric));

  // A latest-value grid: every project by four metrics (the first sheet of most models).
  for (const p of live)
    for (const m of ["fees", "revenue", "tvl", "price"]) if (has(p.id, m)) add("VALUE", p.id, m);
  // Values on a date, and quarterly totals.
  for (const p of live.slice(0, 24)) {
    // A level carries its last value over a gap; a flow's missing day counts 0.
    if (has(p.id, "tvl")) add("VALUE", p.id, "tvl", "2025-06-30", "fill=previous");
    else add("VALUE", p.id, "fees", "2025-06-30", "fill=zero");
    add("VALUE", p.id, "fees", "2025-03-31", "period=quarter");
  }
  // Time series: one project by several metrics, several projects of one metric, monthly roll-ups.
  for (const p of live.slice(0, 16)) {
    add("METRIC", [[p.id]], [["fees", "revenue"]], "2025-01-01", "2025-03-31");
    add("METRIC", [[p.id]], [["fees"]], "2024-01-01", "2025-12-31", "period=month");
  }
  add(
    "METRIC",
    [["aave", "compound", "makerdao", "no-such-project"]],
    [["tvl"]],
    "2025-06-01",
    "2025-06-30"
  );
  add(
    "METRIC",
    [["uniswap", "curve", "balancer"]],
    [["fees"]],
    "2025-01-01",
    "2025-01-31",
    "order=desc"
  );
  // Products: details and series.
  for (const p of live.filter((x) => x.products.length > 0)) {
    const product = p.products[0];
    add("PRODUCT", p.id, product.id, "chains");
    if (product.metrics.includes("fees"))
      add("PRODUCT_METRIC", p.id, product.id, [["fees"]], "2025-05-01", "2025-05-31");
  }
  // Statements and the service's aggregations.
  for (const p of live.slice(0, 12)) {
    add("STATEMENT", p.id);
    add("AGGREGATION", p.id, "fees", "sum_30d");
  }
  // Catalogues and details.
  add("PROJECTS");
  add("METRICS");
  add("METRICS", "aave");
  add("SECTORS");
  add("SECTOR", "lending");
  for (const p of live.slice(0, 12)) add("PROJECT", p.id, "chains");
  add("AGGREGATIONS", [["aave", "uniswap"]], [["fees", "revenue"]]);
  add("BREAKDOWN", "fees", [["aave", "uniswap", "curve"]], "2025-01-01", "2025-03-31");
  return formulas;
}

/** The cells a user had computed before: every other formula. */
export function firstHalf(formulas: readonly Formula[]): Formula[] {
  return formulas.filter((_, i) => i % 2 === 0);
}
