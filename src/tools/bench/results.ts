/** The shape of one bench run, as printed and as written to bench-results/*.json. */
import type { BundleReport } from "./bundles";
import type { Agreement, OutcomeSummary } from "./outcomes";
import type { Measurement } from "./environment";
import type { Projection } from "./projection";
import type { SmallTimings } from "./small-timings";
import type { ReopenResult } from "./reopen";
import type { CliRunsResult } from "./cli-runs";
import { SCALE_PARTS, type ScalePart, type ScaleResults } from "./scale";
import type { GatewayBenchResult } from "./gateway-bench";
import type { LedgerSizeResult } from "./ledger-size";

export type WorkloadId =
  "model" | "large" | "history" | "overlap" | "statements" | "warm" | "cold" | "hot";

/** Every workload, in the order a full run measures them (`--only` picks some). */
export const WORKLOAD_IDS: readonly WorkloadId[] = [
  "model",
  "warm",
  "large",
  "history",
  "overlap",
  "statements",
  "cold",
  "hot",
];

/** What `--only` selects: the workloads, Excel at scale, and the runs across sessions and processes. */
export type BenchPart = WorkloadId | ScalePart | "reopen" | "cli-runs" | "gateway" | "ledger";

export const BENCH_PARTS: readonly BenchPart[] = [
  ...WORKLOAD_IDS,
  ...SCALE_PARTS,
  "reopen",
  "cli-runs",
  "gateway",
  "ledger",
];

/** Across sessions and processes: the saved cache and the shared rate budget. */
export interface PersistenceResults {
  reopen?: ReopenResult;
  cliRuns?: CliRunsResult;
  /** A team on the gateway: analysts on several processes, one Redis (gateway-bench.ts). */
  gateway?: GatewayBenchResult;
}

/** One evaluator's run of one workload: its measurement, with the paths optional. */
export interface SideResult extends Omit<Measurement, "paths"> {
  projection: Projection;
  outcomes: OutcomeSummary;
  /** The add-in's request paths in arrival order (the naive side's are one per cell, left out). */
  paths?: string[];
}

export interface WorkloadResult {
  id: WorkloadId;
  title: string;
  cells: number;
  ours: SideResult;
  naive: SideResult;
  /** Single-value cells on which both evaluators agree. */
  agreement: Agreement;
}

export interface HotPathResult {
  cells: number;
  /** Requests sent by the timed evaluations (0 when the cache is warm). */
  requests: number;
  /** Median of the timed runs: every cell through CRYPTO.VALUE (functions layer and engine). */
  cellPathMs: number;
  /** Median of the timed runs: the engine's work per cell (catalogue lookups and the cached series). */
  enginePathMs: number;
  cellPathRunsMs: number[];
  enginePathRunsMs: number[];
}

export interface HeapResult {
  /** process.memoryUsage().heapUsed before and after the model sheet (catalogue loaded before). */
  beforeBytes: number;
  afterBytes: number;
  /** Whether a GC was forced before each reading (node --expose-gc). */
  forcedGc: boolean;
}

export interface TargetCheck {
  label: string;
  measured: string;
  target: string;
  met: boolean;
  /** For a missed target: why, and what would reach it. */
  note?: string;
}

export interface BenchSettings {
  scale: number;
  /** The scaled rate-limit window of the client's limiter (60 requests per windowMs). */
  windowMs: number;
  /** The window the simulator checks (see simulatorWindow in environment.ts). */
  simulatorWindowMs: number;
  latencyMs: [number, number];
  engineWindowMs: number;
  maxIdsPerRequest: number;
  today: string;
  /** Rows of the 50-row sheets, and the distinct projects on them (the demo dataset has 46). */
  sheetRows: number;
  distinctProjects: number;
  /** Projects the simulator serves (the large model's universe). */
  universe: number;
  /** The workloads run (all, unless `--only` chose some). */
  workloads: WorkloadId[];
}

export interface BenchResults {
  startedAt: string;
  durationMs: number;
  environment: {
    node: string;
    platform: string;
    cpus: number;
    cpuModel: string;
    /** One-minute load average when the run started: above the CPU count, times are noisy. */
    loadAverage: number;
  };
  settings: BenchSettings;
  workloads: WorkloadResult[];
  /** Absent when `--only` left the hot path out. */
  hotPath?: HotPathResult;
  /** Absent when `--only` left the model sheet out. */
  heap?: HeapResult;
  /** Absent when `--only` left both "reopen" and "cli-runs" out. */
  persistence?: PersistenceResults;
  bundles: BundleReport;
  /** Excel at scale: previews, the 100,000-cell and 10,000-spill workbooks, cards (absent when not run). */
  scale?: ScaleResults;
  /** Catalogue search and simulator timings (absent from runs recorded before they were measured). */
  smallTimings?: SmallTimings;
  /** The restatement ledger's size (ledger-size.ts; absent when not run). */
  ledger?: LedgerSizeResult;
  targets: TargetCheck[];
}
