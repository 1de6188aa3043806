/**
 * Evaluating a run's formulas with bounded memory. Excel recalculates a sheet as one batch, and so does the
 * CLI up to CHUNK_CELLS cells: every call is pending at once, which is how the engine sees them together and
 * plans few requests. A pending call holds about 10 kB (its promise chain through the functions, the engine
 * and the batcher), so 30,000 lines at once took the CLI to 503 MB (1 GB with the saved cache). Past
 * CHUNK_CELLS the formulas are evaluated as several recalculations, one after the other, in an order that
 * keeps together what one request serves (same function, same metric, same project), and only their
 * results are kept: about 1 kB per line.
 *
 * Every chunk reads the same clock: TODAY() and NOW() are one moment for the whole run, as in one Excel
 * recalculation. Stale answers (values kept from before when the service failed) are collected per
 * formula, for the CLI to mark on stderr.
 */
import type { BoundFormula } from "../sheet/bind";
import type { Grid } from "../sheet/cells";
import { systemClock, type SheetClock } from "../sheet/expressions";
import type { Argument } from "../sheet/formula";
import { recalculate } from "../sheet/recalculate";

/**
 * Calls pending at once. Measured on 100,000 VALUE lines over 184 series (warm cache): chunks of 500 cells
 * made 253 requests from a cold cache (more than the service's minute), 2,000 made 54, 5,000 made 22 (a
 * single recalculation, 6); the live heap stayed near 100 MB at 5,000, and the peak RSS under `npm run cli`'s
 * heap bound 270–285 MB (243–252 MB with its smaller young generation, README "Limits"). Larger than a real
 * model, which remains one recalculation.
 */
const CHUNK_CELLS = 5_000;

export interface Stale {
  fetchedAt: number;
  reason: string;
}

interface EvaluationOptions {
  /** Each formula's grid (and the formula, to print it), as soon as its chunk is done. */
  onGrid(index: number, grid: Grid, formula: BoundFormula): void;
  clock?: SheetClock;
  signal?: AbortSignal;
  /** Calls pending at once (default CHUNK_CELLS). */
  chunkCells?: number;
  /** The cells answered stale since the last call, by address (the runtime's diagnostics). */
  takeStale?: () => ReadonlyMap<string, Stale>;
}

type Evaluation = { stale: Map<number, Stale>; chunks: number } | { interrupted: true };

/** What the evaluation plans a formula's turn with, kept while the formula itself is not. */
export interface Planned {
  /** Lines with the same key tend to be served by one request: same function, metric, project. */
  key: string;
  /** The calls it makes: one, or one per element of its largest array arguments (lifting). */
  cells: number;
}

function argumentKey(arg: Argument | undefined): string {
  return arg === undefined ? "" : JSON.stringify(arg);
}

export function planOf(formula: BoundFormula): Planned {
  let height = 1;
  let width = 1;
  for (const arg of formula.call.args) {
    if (arg.kind !== "array") continue;
    height = Math.max(height, arg.rows.length);
    width = Math.max(width, arg.rows[0]?.length ?? 1);
  }
  const [first, second] = formula.call.args;
  const key = `${formula.fn.meta.name}\u0000${argumentKey(second)}\u0000${argumentKey(first)}`;
  return { key: intern(key), cells: height * width };
}

/** Keys already made: a model has a few hundred distinct ones over its 100,000 lines. */
const keys = new Map<string, string>();

/** One copy of each key for the whole run (and a flat one: a concatenation is kept as a tree of parts). */
function intern(key: string): string {
  const known = keys.get(key);
  if (known !== undefined) return known;
  const copy = Buffer.from(key).toString();
  keys.set(copy, copy);
  return copy;
}

/** The formulas' indices, by chunks of at most `limit` cells (one formula larger than that alone). */
export function planChunks(plans: readonly Planned[], limit = CHUNK_CELLS): number[][] {
  const total = plans.reduce((n, p) => n + p.cells, 0);
  const order = plans.map((_, i) => i);
  // One recalculation when it fits: exactly what Excel does.
  if (total <= limit) return [order];
  order.sort((a, b) =>
    plans[a].key < plans[b].key ? -1 : plans[a].key > plans[b].key ? 1 : a - b
  );
  const chunks: number[][] = [];
  let current: number[] = [];
  let size = 0;
  for (const i of order) {
    if (current.length > 0 && size + plans[i].cells > limit) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(i);
    size += plans[i].cells;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

function interruptedBy(signal: AbortSignal | undefined): Promise<"interrupted"> {
  return new Promise((resolve) => {
    if (!signal) return;
    if (signal.aborted) resolve("interrupted");
    signal.addEventListener("abort", () => resolve("interrupted"), { once: true });
  });
}

function addressOf(formula: BoundFormula): string {
  return formula.address ?? `Sheet1!A${formula.row}`;
}

/**
 * Evaluates every formula, a chunk at a time (planChunks): `bind(i)` makes formula i when its chunk comes,
 * `onGrid(i, grid, formula)` takes its result as soon as the chunk is done; nothing of a chunk is kept after.
 */
export async function evaluateFormulas(
  plans: readonly Planned[],
  bind: (index: number) => BoundFormula,
  options: EvaluationOptions
): Promise<Evaluation> {
  // Read once: every chunk computes TODAY() and NOW() for the same moment.
  const moment = (options.clock ?? systemClock)();
  const clock: SheetClock = () => moment;
  const stale = new Map<number, Stale>();
  const stop = interruptedBy(options.signal);
  options.takeStale?.();
  const chunks = planChunks(plans, options.chunkCells);
  for (const chunk of chunks) {
    const batch = chunk.map(bind);
    const addresses = batch.map(addressOf);
    const recalculation = recalculate(batch, clock);
    const outcome = await Promise.race([recalculation.results, stop]);
    if (outcome === "interrupted") {
      recalculation.cancel();
      return { interrupted: true };
    }
    chunk.forEach((i, k) => options.onGrid(i, outcome[k], batch[k]));
    const taken = options.takeStale?.();
    if (taken)
      chunk.forEach((i, k) => {
        const s = taken.get(addresses[k]);
        if (s) stale.set(i, s);
      });
  }
  return { stale, chunks: chunks.length };
}
