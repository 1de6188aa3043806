/**
 * The restatement ledger's size (`npm run bench -- --only ledger`): bytes per recorded change as the ledger writes
 * them (sealed lines, src/engine/ledger/codec.ts), for a year of daily restatements of every figure of a 1,000-cell
 * model, the worst a model meets (every cell, every day: 365,000 changes), and for a provider's refill of a block of
 * days; how long a later session takes to read the year back, and the heap its view holds; and what the first-seen
 * runs of a year of daily refreshes cost per series. Nothing here talks to a service: the figures are the ledger's
 * own, recorded through its real code into a store in memory, with values of the service's full precision.
 */
import { performance } from "node:perf_hooks";
import {
  RestatementLedger,
  MAX_LEDGER_BYTES,
  MemoryLedgerStore,
  encodeRuns,
  NO_RUNS,
  spliceRuns,
  type SeenRuns,
  type Change,
  type SeriesRef,
} from "../../engine";
import { formatDay } from "../../client";
import { mulberry32 } from "../../simulator/util/prng";
import { formatBytes, formatCount, formatDuration } from "./format";

export interface LedgerScenario {
  label: string;
  changes: number;
  bytes: number;
  bytesPerChange: number;
}

export interface LedgerSizeResult {
  /** Days of the year scenario actually recorded (365 in a full run; fewer in the suite's check). */
  days: number;
  /** The model's figures: 50 projects × 20 metrics. */
  cells: number;
  year: LedgerScenario;
  /** The year's bytes as a full year would be (days < 365: scaled by 365 / days). */
  yearBytes: number;
  refill: LedgerScenario;
  /** Reading the year back in a new session: time and the view's heap (undefined without --expose-gc). */
  loadMs: number;
  viewHeapBytes?: number;
  /** First-seen runs of one series after a year of daily refreshes, each bringing a new day, as saved text. */
  seenBytesPerSeriesYear: number;
  maxLedgerBytes: number;
}

const PROJECTS = 50;
const METRICS = 20;
const DAY_MS = 86_400_000;
/** The model's date, and the first day of the year of refreshes (06:00 UTC, after the service's update). */
const MODEL_DAY = 20_454; // 2026-01-01
const FIRST_REFRESH = (MODEL_DAY + 1) * DAY_MS + 6 * 3_600_000;

/** A figure as the service sends it: up to 17 significant digits, from thousands to billions. */
function figure(r: () => number): number {
  return 10 ** (3 + 6 * r()) * (1 + r());
}

async function bytesOf(store: MemoryLedgerStore, ns: string): Promise<number> {
  return (await store.segments(ns)).reduce((n, s) => n + s.bytes, 0);
}

function series(p: number, m: number): SeriesRef {
  return { projectId: `project-${p}`, productId: "", metricId: `metric_${m}`, filter: "" };
}

/** A year of daily restatements of every figure: each day 20 requests (one per metric, 50 projects each). */
async function year(
  days: number
): Promise<{ scenario: LedgerScenario; store: MemoryLedgerStore; now: number }> {
  const r = mulberry32(36);
  const store = new MemoryLedgerStore();
  let now = FIRST_REFRESH;
  // Unbounded here: the bound is what the figures are compared with.
  const ledger = new RestatementLedger({
    store,
    namespace: async () => "bench",
    now: () => now,
    maxBytes: Infinity,
  });
  const values = Array.from({ length: PROJECTS * METRICS }, () => figure(r));
  let changes = 0;
  for (let d = 0; d < days; d++) {
    now = FIRST_REFRESH + d * DAY_MS;
    const batch: Change[] = [];
    for (let m = 0; m < METRICS; m++) {
      const request = `GET /v2/metrics/metric_${m} for ${PROJECTS} projects, ${formatDay(MODEL_DAY)} → ${formatDay(MODEL_DAY)}`;
      for (let p = 0; p < PROJECTS; p++) {
        const i = m * PROJECTS + p;
        const before = values[i];
        // Restated by up to ±5 %, at full precision.
        const after = before * (1 + (r() - 0.5) / 10);
        values[i] = after;
        batch.push({
          series: series(p, m),
          dim: "",
          day: MODEL_DAY,
          before,
          after,
          beforeSeenAt: now - DAY_MS,
          seenAt: now + m * 900,
          request,
        });
      }
    }
    await ledger.record(batch);
    changes += batch.length;
  }
  await ledger.flush();
  const bytes = await bytesOf(store, "bench");
  return {
    scenario: {
      label: `a year of daily restatements of every figure of a ${PROJECTS * METRICS}-cell model`,
      changes,
      bytes,
      bytesPerChange: bytes / changes,
    },
    store,
    now,
  };
}

/** A provider's refill: 136 days of one series' revenue restated in one answer. */
async function refill(): Promise<LedgerScenario> {
  const r = mulberry32(136);
  const store = new MemoryLedgerStore();
  const now = FIRST_REFRESH + 200 * DAY_MS;
  const ledger = new RestatementLedger({ store, namespace: async () => "bench", now: () => now });
  const batch: Change[] = Array.from({ length: 136 }, (_, i) => {
    const after = figure(r);
    return {
      series: { projectId: "aave", productId: "", metricId: "revenue", filter: "" },
      dim: "",
      day: MODEL_DAY + i,
      before: after * 2,
      after,
      beforeSeenAt: now - (200 - i) * DAY_MS,
      seenAt: now,
      request: `GET /v2/projects/aave/metrics for 3 metrics, ${formatDay(MODEL_DAY)} → ${formatDay(MODEL_DAY + 199)}`,
    };
  });
  await ledger.record(batch);
  const bytes = await bytesOf(store, "bench");
  return {
    label: "a refill of 136 days of one series in one answer",
    changes: batch.length,
    bytes,
    bytesPerChange: bytes / batch.length,
  };
}

/** A year of daily refreshes of one series, each bringing the new day at its own instant. */
function seenYear(): number {
  let runs: SeenRuns = NO_RUNS;
  for (let d = 0; d < 365; d++) {
    const at = FIRST_REFRESH + d * DAY_MS + (d % 7) * 61_000;
    runs = spliceRuns(runs, MODEL_DAY + d, MODEL_DAY + d, [
      { from: MODEL_DAY + d, to: MODEL_DAY + d, at },
    ]);
  }
  return JSON.stringify(encodeRuns(runs)).length;
}

function heapUsed(): number | undefined {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return undefined;
  gc();
  // The view's columns are typed arrays, outside the JavaScript heap: counted too.
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

export async function measureLedgerSize(
  options: { days?: number } = {}
): Promise<LedgerSizeResult> {
  const days = options.days ?? 365;
  const { scenario, store, now } = await year(days);
  const before = heapUsed();
  const t0 = performance.now();
  const reader = new RestatementLedger({
    store,
    namespace: async () => "bench",
    now: () => now,
    maxBytes: Infinity,
  });
  const view = await reader.view();
  const loadMs = performance.now() - t0;
  const after = heapUsed();
  if (view.size !== scenario.changes)
    throw new Error(`the ledger read back ${view.size} of ${scenario.changes} changes`);
  return {
    days,
    cells: PROJECTS * METRICS,
    year: scenario,
    yearBytes: Math.round((scenario.bytes * 365) / days),
    refill: await refill(),
    loadMs,
    ...(before !== undefined && after !== undefined ? { viewHeapBytes: after - before } : {}),
    seenBytesPerSeriesYear: seenYear(),
    maxLedgerBytes: MAX_LEDGER_BYTES,
  };
}

/** The report's row: bytes per change, the year against the bound, reading it back. */
export function ledgerLines(r: LedgerSizeResult | undefined): string[] {
  if (!r) return [];
  const scaled = r.days === 365 ? "" : ` (${r.days} days recorded, scaled to a year)`;
  const heap = r.viewHeapBytes === undefined ? "" : `, ${formatBytes(r.viewHeapBytes)} held`;
  return [
    `Restatement ledger: ${r.year.bytesPerChange.toFixed(1)} bytes per recorded change for ${r.year.label} ` +
      `(${formatCount(r.year.changes)} changes, ${formatBytes(r.yearBytes)} a year${scaled}; the bound ` +
      `${formatBytes(r.maxLedgerBytes)}, trimmed to ${formatBytes(r.maxLedgerBytes * BOUND_SHARE)}); ` +
      `${r.refill.bytesPerChange.toFixed(1)} bytes per change for ${r.refill.label}. Read back in a new session ` +
      `in ${formatDuration(r.loadMs)}${heap}. First-seen runs of a year of daily refreshes: ` +
      `${formatBytes(r.seenBytesPerSeriesYear)} per series as saved.`,
  ];
}

/** What enforcing the bound leaves (ledger.ts): a year must still fit in it. */
export const BOUND_SHARE = 0.9;
