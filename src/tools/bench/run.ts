/**
 * One bench run: every workload through the add-in (custom functions → engine → client) and through the naive
 * baseline, one after the other against the same simulator, each starting with an empty rate-limit window.
 */
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { DEFAULT_LIMITS } from "../../client";
import { DEFAULT_ENGINE_OPTIONS } from "../../engine";
import { measureBundles } from "./bundles";
import { formatCount } from "./format";
import { engineRecalculate } from "./engine-path";
import {
  simulatorWindow,
  startBenchEnvironment,
  type BenchEnvironment,
  type Measurement,
} from "./environment";
import { recalculate } from "./excel";
import { naiveRecalculate } from "./naive";
import { compareOutcomes, summarise, type CellOutcome } from "./outcomes";
import { projectToRealLimit } from "./projection";
import {
  BENCH_PARTS,
  WORKLOAD_IDS,
  type BenchPart,
  type BenchResults,
  type HotPathResult,
  type PersistenceResults,
  type SideResult,
  type WorkloadId,
  type WorkloadResult,
} from "./results";
import { measureSmallTimings } from "./small-timings";
import { reopenSameDay } from "./reopen";
import { measureLedgerSize } from "./ledger-size";
import { tenCliRuns } from "./cli-runs";
import { runScale } from "./scale";
import { gatewayBench } from "./gateway-bench";
import { evaluateTargets } from "./targets";
import {
  BENCH_NOW,
  BENCH_TODAY,
  distinctProjectCount,
  historySheet,
  hotPathSheet,
  LARGE_UNIVERSE,
  largeModelSheet,
  largeProjects,
  liveProjects,
  MODEL_DATE,
  MODEL_METRICS,
  modelSheet,
  overlappingRanges,
  sheetProjects,
  statementsSheet,
  type BenchCell,
} from "./workloads";

interface BenchOptions {
  /** Rate limit speed-up (100: 60 requests per 600 ms). */
  scale: number;
  latencyMs: [number, number];
  webDir: string;
  /** Timed evaluations of the hot path; the median is reported. */
  hotRuns?: number;
  /** The simulator enforces exactly the client's window (see simulatorWindow). */
  strictWindow?: boolean;
  /** Run only these parts (default: all of them). */
  only?: readonly BenchPart[];
  /** The repository (the CLI runs its built entry point from there). */
  root: string;
  /** Speed-up of the minute for "10 CLI runs" (see cli-runs.ts); default BENCH_DEFAULTS.cliScale. */
  cliScale?: number;
  /** Speed-up of the minute for the team gateway (see gateway-bench.ts); default BENCH_DEFAULTS.gatewayScale. */
  gatewayScale?: number;
  progress?: (line: string) => void;
}

/** How the add-in's engine starts a workload: catalogue loaded (the usual), everything cleared, or as left. */
type Start = "catalogue" | "cold" | "warm";

/** Rows of the model, history and hot-path sheets (50 rows each, as in the README's performance table). */
const SHEET_ROWS = 50;

const gc = (globalThis as { gc?: () => void }).gc;

function collectGarbage(): void {
  gc?.();
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** @param keepPaths the add-in's few request paths go into the JSON; the naive thousands do not. */
function side(
  m: Measurement,
  outcomes: readonly CellOutcome[],
  scale: number,
  keepPaths: boolean
): SideResult {
  const { paths, ...counts } = m;
  return {
    ...counts,
    projection: projectToRealLimit(m.requests, m.wallMs, m.throttledMs, scale),
    outcomes: summarise(outcomes),
    ...(keepPaths ? { paths } : {}),
  };
}

class Runner {
  readonly workloads: WorkloadResult[] = [];

  constructor(
    private readonly env: BenchEnvironment,
    private readonly scale: number,
    private readonly progress: (line: string) => void
  ) {}

  async prepare(start: Start): Promise<void> {
    await this.env.quiet();
    if (start === "warm") return;
    await this.env.coldEngine({ catalogue: start === "catalogue" });
    // The catalogue's own requests must not share the measured run's rate-limit window.
    if (start === "catalogue") await this.env.quiet();
  }

  async ours(cells: readonly BenchCell[]) {
    collectGarbage();
    const { result, measurement } = await this.env.measure(() => recalculate(cells));
    return { outcomes: result, measurement };
  }

  async naive(cells: readonly BenchCell[]) {
    await this.env.quiet();
    collectGarbage();
    const { result, measurement } = await this.env.measure(() =>
      naiveRecalculate(this.env.naiveClient, cells)
    );
    return { outcomes: result, measurement };
  }

  record(
    id: WorkloadId,
    title: string,
    cells: readonly BenchCell[],
    ours: { outcomes: CellOutcome[]; measurement: Measurement },
    naive: { outcomes: CellOutcome[]; measurement: Measurement }
  ): void {
    const result: WorkloadResult = {
      id,
      title,
      cells: cells.length,
      ours: side(ours.measurement, ours.outcomes, this.scale, true),
      naive: side(naive.measurement, naive.outcomes, this.scale, false),
      agreement: compareOutcomes(ours.outcomes, naive.outcomes),
    };
    this.workloads.push(result);
    const o = result.ours;
    const n = result.naive;
    this.progress(
      `${title}: add-in ${o.requests} requests in ${Math.round(o.wallMs)} ms, ` +
        `naive ${n.requests} in ${Math.round(n.wallMs)} ms`
    );
  }

  async workload(id: WorkloadId, title: string, cells: readonly BenchCell[], start: Start) {
    await this.prepare(start);
    const ours = await this.ours(cells);
    const naive = await this.naive(cells);
    this.record(id, title, cells, ours, naive);
  }
}

/**
 * The simulator generates each series on first use and keeps it. Asking for every series the workloads read
 * once, before anything is measured, keeps that one-off cost out of both sides' times and out of the heap
 * reading (the simulator shares the process).
 */
async function warmSimulator(env: BenchEnvironment, large: boolean): Promise<void> {
  const projectIds = [...new Set(sheetProjects(SHEET_ROWS))];
  const day = { start: MODEL_DATE, end: MODEL_DATE };
  await Promise.all([
    ...MODEL_METRICS.map((m) => env.naiveClient.getMetric(m, { projectIds, ...day })),
    ...liveProjects(20).map((p) => env.naiveClient.getFinancialStatement(p)),
  ]);
  // One metric at a time: the large universe's series are many (about 15 s to generate).
  if (large)
    for (const m of MODEL_METRICS)
      await env.naiveClient.getMetric(m, { projectIds: "all", ...day });
}

function heapUsed(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

export async function runBench(options: BenchOptions): Promise<BenchResults> {
  const progress = options.progress ?? (() => undefined);
  const startedAt = new Date();
  const loadAverage = loadavg()[0];
  const t0 = performance.now();
  // The clock runs in real time (the limiter's windows must pass) but starts at the same instant every
  // run, so the dataset's "today", and every number, is the same from run to run.
  const offset = BENCH_NOW - Date.now();
  const selected = new Set<BenchPart>(options.only ?? BENCH_PARTS);
  const runs = (id: BenchPart): boolean => selected.has(id);
  const env = await startBenchEnvironment({
    scale: options.scale,
    latencyMs: options.latencyMs,
    now: () => Date.now() + offset,
    strictWindow: options.strictWindow,
    projects: LARGE_UNIVERSE,
  });
  try {
    const bundles = measureBundles(options.webDir);
    progress("warming the simulator (it generates each series on first use)…");
    await warmSimulator(env, runs("large"));
    const runner = new Runner(env, options.scale, progress);
    const model = modelSheet();

    let heap: BenchResults["heap"];
    if (runs("model")) {
      await runner.prepare("catalogue");
      const beforeBytes = heapUsed();
      const modelOurs = await runner.ours(model);
      const afterBytes = heapUsed();
      runner.record("model", "model sheet", model, modelOurs, await runner.naive(model));
      heap = { beforeBytes, afterBytes, forcedGc: gc !== undefined };
    }
    if (runs("warm")) {
      // The warm refresh follows the model sheet; run alone, the model sheet fills the cache unmeasured.
      if (!runs("model")) {
        await runner.prepare("catalogue");
        await recalculate(model);
      }
      await runner.workload("warm", "warm refresh", model, "warm");
    }
    if (runs("large"))
      await runner.workload(
        "large",
        `large model (${formatCount(largeProjects().length)} projects)`,
        largeModelSheet(),
        "catalogue"
      );
    if (runs("history"))
      await runner.workload("history", "history sheet", historySheet(), "catalogue");
    if (runs("overlap"))
      await runner.workload("overlap", "overlapping ranges", overlappingRanges(), "catalogue");
    if (runs("statements"))
      await runner.workload("statements", "statements", statementsSheet(), "catalogue");
    if (runs("cold")) await runner.workload("cold", "cold open", model, "cold");

    let hotPath: HotPathResult | undefined;
    if (runs("hot")) {
      const hot = hotPathSheet();
      await runner.prepare("catalogue");
      await recalculate(hot); // warming: the timed runs below are served from the cache
      const count = options.hotRuns ?? 7;
      const cellRuns: Array<{ outcomes: CellOutcome[]; measurement: Measurement }> = [];
      for (let i = 0; i < count; i++) cellRuns.push(await runner.ours(hot));
      const engineMs: number[] = [];
      for (let i = 0; i < count; i++) {
        collectGarbage();
        const started = performance.now();
        await engineRecalculate(env.runtime.engine, hot);
        engineMs.push(performance.now() - started);
      }
      const byTime = [...cellRuns].sort((a, b) => a.measurement.wallMs - b.measurement.wallMs);
      const typical = byTime[Math.floor(byTime.length / 2)];
      runner.record("hot", "hot path", hot, typical, await runner.naive(hot));
      hotPath = {
        cells: hot.length,
        requests: cellRuns.reduce((sum, r) => sum + r.measurement.requests, 0),
        cellPathMs: median(cellRuns.map((r) => r.measurement.wallMs)),
        enginePathMs: median(engineMs),
        cellPathRunsMs: cellRuns.map((r) => r.measurement.wallMs),
        enginePathRunsMs: engineMs,
      };
    }
    // Excel at scale: before the parts below, which configure runtimes of their own.
    const scale = await runScale(env, { runs, progress });
    // Catalogue search and the simulator's long series: a full run only (no workload of their own).
    let smallTimings: BenchResults["smallTimings"];
    if (!options.only) {
      progress("catalogue search and simulator timings");
      smallTimings = await measureSmallTimings();
    }

    // Last: these configure runtimes and processes of their own.
    const persistence: PersistenceResults = {};
    if (runs("reopen")) {
      progress("reopen same day: a workbook calculated, then opened again in a new session");
      const book = [...model, ...historySheet(), ...statementsSheet()];
      persistence.reopen = await reopenSameDay(env, book);
      const r = persistence.reopen;
      progress(
        `reopen same day: ${r.first.requests} requests in the first session, ${r.reopen.requests} on reopening`
      );
    }
    if (runs("cli-runs")) {
      persistence.cliRuns = await tenCliRuns({
        root: options.root,
        scale: options.cliScale ?? BENCH_DEFAULTS.cliScale,
        latencyMs: options.latencyMs,
        progress,
      });
    }
    if (runs("gateway")) {
      persistence.gateway = await gatewayBench({
        main: join(options.root, "dist", "node", "gateway", "main.js"),
        scale: options.gatewayScale ?? BENCH_DEFAULTS.gatewayScale,
        latencyMs: options.latencyMs,
        progress,
      });
    }

    let ledger: BenchResults["ledger"];
    if (runs("ledger")) {
      progress("restatement ledger: a year of daily restatements of a 1,000-cell model");
      ledger = await measureLedgerSize();
    }

    const cpu = cpus();
    const measured: Omit<BenchResults, "targets"> = {
      startedAt: startedAt.toISOString(),
      durationMs: performance.now() - t0,
      environment: {
        node: process.version,
        platform: `${process.platform} ${process.arch}`,
        cpus: cpu.length,
        cpuModel: cpu[0]?.model ?? "unknown",
        loadAverage,
      },
      settings: {
        scale: options.scale,
        windowMs: env.windowMs,
        simulatorWindowMs: simulatorWindow(env.windowMs, options.strictWindow),
        latencyMs: options.latencyMs,
        engineWindowMs: env.runtime.engine.options.windowMs,
        maxIdsPerRequest: env.runtime.engine.options.maxIdsPerRequest,
        today: BENCH_TODAY,
        sheetRows: SHEET_ROWS,
        distinctProjects: distinctProjectCount(SHEET_ROWS),
        universe: LARGE_UNIVERSE,
        workloads: WORKLOAD_IDS.filter((id) => runs(id)),
      },
      workloads: runner.workloads,
      ...(hotPath ? { hotPath } : {}),
      ...(heap ? { heap } : {}),
      ...(scale ? { scale } : {}),
      bundles,
      ...(smallTimings ? { smallTimings } : {}),
      ...(ledger ? { ledger } : {}),
      ...(persistence.reopen || persistence.cliRuns || persistence.gateway ? { persistence } : {}),
    };
    return { ...measured, targets: evaluateTargets(measured) };
  } finally {
    await env.close();
  }
}

/** Defaults shown in --help and the JSON: the client's and engine's own, unchanged by the bench. */
export const BENCH_DEFAULTS = {
  scale: 100,
  latencyMs: [50, 100] as [number, number],
  maxIdsPerRequest: DEFAULT_LIMITS.maxIdsPerRequest,
  engineWindowMs: DEFAULT_ENGINE_OPTIONS.windowMs,
  /**
   * 5: a 12 s window. The CLI runs as real processes, and a process's start-up (about a second) does not
   * shrink with the scale: at 100× it would span a whole window and hide what consecutive runs do to the
   * service's minute. At 5× a start-up is a tenth of a window (at the real limit, a sixtieth).
   */
  cliScale: 5,
  /**
   * 20: a 3 s window. 50 different models need about 1,100 requests, 18 minutes at the real limit; at 20× the
   * run takes about a minute, while the service's latency (50–100 ms) stays a thirtieth of the window.
   */
  gatewayScale: 20,
};
