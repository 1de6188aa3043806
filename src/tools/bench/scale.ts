/**
 * Excel at scale, measured through the custom functions as the other workloads are: a burst of formula
 * previews, a 100,000-cell VALUE model, 10,000 METRIC spills of a year each, and 2,000 cells taking a project
 * card. Request counts, the time of a warm recalculation, what the workbook leaves on the heap, and how much
 * the diagnostics record holds. Targets and the printed lines are in scale-report.ts.
 */
import { resolve } from "node:path";
import { defaultRegistryPaths, loadRegistry } from "../../cli/registry-files";
import { addDays, dayNumber } from "../../client";
import * as fns from "../../functions/functions";
import { PREVIEW_PLACEHOLDER } from "../../functions/preview";
import { sharedDiagnostics } from "../../runtime/runtime";
import { bindFormula } from "../../sheet/bind";
import type { Grid } from "../../sheet/cells";
import { dayToSerial } from "../../sheet/excel-dates";
import { parseFormula } from "../../sheet/formula";
import { recalculate as recalculateSheet } from "../../sheet/recalculate";
import type { Registry } from "../../sheet/registry";
import type { BenchEnvironment, Measurement } from "./environment";
import { outcomeOfError, outcomeOfResult, recalculate } from "./excel";
import { summarise, type CellOutcome, type OutcomeSummary } from "./outcomes";
import {
  bigSpillSheet,
  bigValueSheet,
  BIG_VALUE_DAYS,
  cardSheet,
  minimumPerMetric,
  previewFormulas,
  SPILL_DAYS,
  type CardCell,
} from "./scale-workloads";
import {
  LARGE_UNIVERSE,
  largeProjects,
  MODEL_DATE,
  MODEL_METRICS,
  type BenchCell,
} from "./workloads";

export type ScalePart = "preview" | "big-values" | "big-spills" | "cards";

/** In the order a full run measures them; `--only` picks some. */
export const SCALE_PARTS: readonly ScalePart[] = ["preview", "big-values", "big-spills", "cards"];

export interface PreviewBurst {
  requests: number;
  /** Previews that showed the placeholder. */
  placeholders: number;
  /** Previews whose result equals the same formula's result once entered. */
  sameAsEntered: number;
  wallMs: number;
}

export interface PreviewResult {
  previews: number;
  /** Nothing cached (a workbook just opened): every preview a placeholder, no request. */
  cold: PreviewBurst;
  /** After the same formulas were entered: every preview their value, no request. */
  warm: PreviewBurst;
}

export interface HeapReading {
  /** process.memoryUsage() after a forced GC: the JS heap, and ArrayBuffers outside it. */
  heapUsed: number;
  arrayBuffers: number;
}

export interface BigWorkbookResult {
  title: string;
  /** Formulas. */
  cells: number;
  /** Cells the formulas fill (a spill's every date and value). */
  valuesShown: number;
  projects: number;
  metrics: number;
  /** One request per metric and chunk of ids (or of every project, when that fits): the plan's minimum. */
  minimumRequests: number;
  cold: Omit<Measurement, "paths"> & { outcomes: OutcomeSummary };
  warm: { requests: number; runsMs: number[]; medianMs: number };
  /** Before the workbook (engine and diagnostics empty) and after its warm recalculations, outcomes dropped. */
  heap: { before: HeapReading; after: HeapReading; forcedGc: boolean };
  diagnostics: ReturnType<ReturnType<typeof sharedDiagnostics>["retained"]>;
  engine: { series: number; points: number };
}

export interface CardsResult {
  cells: number;
  cards: number;
  /** Requests that built the cards (PROJECT without a field), before the measured runs. */
  cardRequests: number;
  withCards: { requests: number; wallMs: number };
  withIds: { requests: number; wallMs: number };
  /** Cells where the card and the id gave the same outcome. */
  sameOutcomes: number;
}

export interface ScaleResults {
  preview?: PreviewResult;
  values?: BigWorkbookResult;
  spills?: BigWorkbookResult;
  cards?: CardsResult;
}

const gc = (globalThis as { gc?: () => void }).gc;

function heapNow(): HeapReading {
  gc?.();
  const m = process.memoryUsage();
  return { heapUsed: m.heapUsed, arrayBuffers: m.arrayBuffers };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The functions registry as the CLI and the pages build it, from the Node build's files. */
function builtRegistry(): Registry {
  return loadRegistry(defaultRegistryPaths(resolve(__dirname, "../../cli")));
}

function isPlaceholder(grid: Grid): boolean {
  const [[first]] = grid;
  return (
    grid.length === 1 &&
    grid[0].length === 1 &&
    first.kind === "string" &&
    first.value === PREVIEW_PLACEHOLDER
  );
}

/** Formulas evaluated through the sheet's host shim as one recalculation; previews when `preview`. */
async function evaluateAll(
  registry: Registry,
  formulas: readonly string[],
  preview: boolean
): Promise<Grid[]> {
  const bound = formulas.map((text, i) => ({
    ...bindFormula(parseFormula(text), registry, i + 1),
    address: `Preview!A${i + 1}`,
  }));
  return recalculateSheet(bound, undefined, { preview }).results;
}

/**
 * Excel calls a formula's function on every keystroke that makes it valid, to preview its value. 50 formulas
 * previewed with nothing cached, then entered, then previewed again.
 */
export async function previewBurst(
  env: BenchEnvironment,
  registry: Registry,
  formulas: readonly string[] = previewFormulas()
): Promise<PreviewResult> {
  const burst = async (entered?: readonly Grid[]): Promise<PreviewBurst> => {
    const { result, measurement } = await env.measure(() => evaluateAll(registry, formulas, true));
    return {
      requests: measurement.requests,
      placeholders: result.filter(isPlaceholder).length,
      sameAsEntered: entered
        ? result.filter((grid, i) => JSON.stringify(grid) === JSON.stringify(entered[i])).length
        : 0,
      wallMs: measurement.wallMs,
    };
  };
  await env.quiet();
  await env.coldEngine({ catalogue: false });
  const cold = await burst();
  await env.quiet();
  const entered = await evaluateAll(registry, formulas, false);
  await env.quiet();
  const warm = await burst(entered);
  return { previews: formulas.length, cold, warm };
}

function valuesShown(outcomes: readonly CellOutcome[]): number {
  return outcomes.reduce((n, o) => n + (o.kind === "table" ? o.rows * o.columns : 1), 0);
}

/**
 * One big workbook: recalculated cold (every cache empty), then warm `warmRuns` times; the heap read before it
 * and after, with nothing of the bench's own (the outcomes) left alive.
 */
export async function bigWorkbook(
  env: BenchEnvironment,
  title: string,
  cells: readonly BenchCell[],
  shape: { projects: number; metrics: number; days: number },
  warmRuns: number
): Promise<BigWorkbookResult> {
  await env.quiet();
  await env.coldEngine({ catalogue: false });
  sharedDiagnostics().clearCells();
  const before = heapNow();
  const { result: coldOutcomes, measurement } = await env.measure(() => recalculate(cells));
  const { paths: _paths, ...cold } = measurement;
  const summary = summarise(coldOutcomes);
  const shown = valuesShown(coldOutcomes);
  const runsMs: number[] = [];
  let warmRequests = 0;
  for (let i = 0; i < warmRuns; i++) {
    gc?.();
    const { measurement: m } = await env.measure(() => recalculate(cells).then(() => undefined));
    runsMs.push(m.wallMs);
    warmRequests += m.requests;
  }
  const after = heapNow();
  const options = env.runtime.engine.options;
  const perMetric = minimumPerMetric(
    shape.projects,
    shape.days,
    env.runtime.engine.cachedProjects()?.length ?? LARGE_UNIVERSE,
    options.maxIdsPerRequest,
    options.wholeUniverseMaxRows
  );
  const { series, points } = env.runtime.engine.stats();
  return {
    title,
    cells: cells.length,
    valuesShown: shown,
    projects: shape.projects,
    metrics: shape.metrics,
    // The catalogues too: the workbook opens with every cache empty.
    minimumRequests: perMetric * shape.metrics + 2,
    cold: { ...cold, outcomes: summary },
    warm: { requests: warmRequests, runsMs, medianMs: median(runsMs) },
    heap: { before, after, forcedGc: gc !== undefined },
    diagnostics: sharedDiagnostics().retained(),
    engine: { series, points },
  };
}

function cardInvocation(i: number): CustomFunctions.CancelableInvocation {
  return { address: `Cards!B${i + 1}`, functionName: "VALUE" };
}

/** One recalculation of the card sheet, each cell's project a card (`cards`) or its id. */
async function cardRecalculation(
  cells: readonly CardCell[],
  cards: ReadonlyMap<string, unknown> | undefined
): Promise<CellOutcome[]> {
  const serials = new Map<string, number>();
  const serial = (day: string): number => {
    let n = serials.get(day);
    if (n === undefined) serials.set(day, (n = dayToSerial(dayNumber(day))));
    return n;
  };
  return Promise.all(
    cells.map(async (cell, i) => {
      try {
        const project = cards ? cards.get(cell.project) : cell.project;
        const date = cell.date === undefined ? null : serial(cell.date);
        return outcomeOfResult(
          await fns.value_(project, cell.metric, date, null, cardInvocation(i))
        );
      } catch (error) {
        return outcomeOfError(error);
      }
    })
  );
}

/**
 * 2,000 cells taking a project card against the same cells taking the project's id, each from the same
 * start (catalogues loaded, nothing else cached): the card must cost no request more.
 */
export async function cardsAtScale(
  env: BenchEnvironment,
  cells: readonly CardCell[] = cardSheet()
): Promise<CardsResult> {
  const ids = [...new Set(cells.map((c) => c.project))];
  await env.quiet();
  await env.coldEngine({ catalogue: true });
  const built = await env.measure(() =>
    Promise.all(
      ids.map(async (id, i) => {
        const grid = (await fns.project_(id, null, {
          address: `Cards!A${i + 1}`,
          functionName: "PROJECT",
        })) as unknown[][];
        return [id, grid[0][0]] as const;
      })
    )
  );
  const cards = new Map<string, unknown>(built.result);
  const run = async (withCards: boolean) => {
    await env.quiet();
    await env.coldEngine({ catalogue: true });
    return env.measure(() => cardRecalculation(cells, withCards ? cards : undefined));
  };
  const withCards = await run(true);
  const withIds = await run(false);
  const same = withCards.result.filter(
    (o, i) => JSON.stringify(o) === JSON.stringify(withIds.result[i])
  ).length;
  return {
    cells: cells.length,
    cards: ids.length,
    cardRequests: built.measurement.requests,
    withCards: {
      requests: withCards.measurement.requests,
      wallMs: withCards.measurement.wallMs,
    },
    withIds: { requests: withIds.measurement.requests, wallMs: withIds.measurement.wallMs },
    sameOutcomes: same,
  };
}

/**
 * Generates, once and unmeasured, every series the big workbooks read: the simulator shares the process, and
 * what it generates on first use must not count as the add-in's heap or time.
 */
async function warmSimulator(env: BenchEnvironment, values: boolean, spills: boolean) {
  const ids = largeProjects();
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += 50) chunks.push(ids.slice(i, i + 50));
  const valueDays = { start: addDays(MODEL_DATE, 1 - BIG_VALUE_DAYS), end: MODEL_DATE };
  const spillDays = { start: addDays(MODEL_DATE, 1 - SPILL_DAYS), end: MODEL_DATE };
  for (const metric of MODEL_METRICS) {
    if (values) await env.naiveClient.getMetric(metric, { projectIds: "all", ...valueDays });
    if (spills)
      for (const chunk of chunks)
        await env.naiveClient.getMetric(metric, { projectIds: chunk, ...spillDays });
  }
}

interface ScaleOptions {
  runs: (part: ScalePart) => boolean;
  progress: (line: string) => void;
  /** Warm recalculations timed per big workbook (median reported). */
  warmRuns?: number;
}

export async function runScale(
  env: BenchEnvironment,
  options: ScaleOptions
): Promise<ScaleResults | undefined> {
  const { runs, progress } = options;
  if (!SCALE_PARTS.some(runs)) return undefined;
  const results: ScaleResults = {};
  if (runs("big-values") || runs("big-spills")) {
    progress("generating the big workbooks' series in the simulator (unmeasured)…");
    await warmSimulator(env, runs("big-values"), runs("big-spills"));
  }
  if (runs("preview")) {
    const preview = await previewBurst(env, builtRegistry());
    progress(
      `formula previews: ${preview.previews} previewed cold with ${preview.cold.requests} requests ` +
        `(${preview.cold.placeholders} placeholders), warm with ${preview.warm.requests} ` +
        `(${preview.warm.sameAsEntered} as entered)`
    );
    results.preview = preview;
  }
  const warmRuns = options.warmRuns ?? 3;
  // The two big workbooks differ only in their cells and in the days each cell reads.
  const measureBig = async (title: string, cells: readonly BenchCell[], days: number) => {
    const shape = { projects: largeProjects().length, metrics: MODEL_METRICS.length, days };
    const result = await bigWorkbook(env, title, cells, shape, warmRuns);
    progress(`${title}: ${result.cold.requests} requests cold`);
    return result;
  };
  if (runs("big-values"))
    results.values = await measureBig("100,000 VALUE cells", bigValueSheet(), BIG_VALUE_DAYS);
  if (runs("big-spills"))
    results.spills = await measureBig("10,000 METRIC spills", bigSpillSheet(), SPILL_DAYS);
  if (runs("cards")) {
    results.cards = await cardsAtScale(env);
    progress(
      `2,000 cells with cards: ${results.cards.withCards.requests} requests, with ids ${results.cards.withIds.requests}`
    );
  }
  return results;
}
