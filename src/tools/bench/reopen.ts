/**
 * "Reopen same day": a workbook calculated in one session, then opened again later that day in a new one (a
 * new runtime: empty memory) over the same saved cache. The add-in's own store, IndexedDB through idb, runs
 * over fake-indexeddb here (Node has no IndexedDB): request counts are what Excel would see; times are those
 * of an in-memory IndexedDB, a floor for a real one. Target: the reopened workbook sends no request.
 */
import "fake-indexeddb/auto";
import { performance } from "node:perf_hooks";
import { configureRuntime, sharedDiagnostics } from "../../runtime/runtime";
import { IdbBlobStore } from "../../runtime/idb-store";
import { DEMO_API_KEY } from "../../simulator";
import type { BenchEnvironment } from "./environment";
import { recalculate } from "./excel";
import { compareOutcomes, type Agreement, type CellOutcome } from "./outcomes";
import type { BenchCell } from "./workloads";

export interface SessionResult {
  requests: number;
  wallMs: number;
}

export interface ReopenResult {
  cells: number;
  /** How much later the workbook is opened again (same UTC day). */
  laterMs: number;
  first: SessionResult;
  reopen: SessionResult & {
    /** Cells whose diagnostics say their values came from the saved cache. */
    restoredCells: number;
  };
  /** The reopened workbook's single-value cells against the first session's. */
  agreement: Agreement;
  /** The saved cache after the first session. */
  store: { entries: number; bytes: number };
}

/** Two hours later: the same UTC day (the bench's clock starts at noon UTC). */
const LATER_MS = 2 * 60 * 60_000;

async function session(
  env: BenchEnvironment,
  database: string,
  now: () => number,
  cells: readonly BenchCell[]
): Promise<{ outcomes: CellOutcome[]; result: SessionResult; store: IdbBlobStore }> {
  const store = new IdbBlobStore({ database, now });
  const runtime = configureRuntime({
    baseUrl: env.simulator.url,
    apiKey: DEMO_API_KEY,
    now,
    rateWindowMs: env.windowMs > 0 ? env.windowMs : undefined,
    client: { retry: env.retry },
    savedCache: { store },
  });
  env.simulator.clearLog();
  const started = performance.now();
  const outcomes = await recalculate(cells);
  const wallMs = performance.now() - started;
  const requests = env.simulator.requestLog.filter((r) => r.method === "GET").length;
  await runtime.flushSaved();
  return { outcomes, result: { requests, wallMs }, store };
}

export async function reopenSameDay(
  env: BenchEnvironment,
  cells: readonly BenchCell[]
): Promise<ReopenResult> {
  const database = `cryptometrics-bench-${Date.now()}`;
  const first = await session(env, database, env.now, cells);
  const usage = await first.store.usage();
  first.store.close();
  await env.quiet();

  const later = (): number => env.now() + LATER_MS;
  const reopened = await session(env, database, later, cells);
  reopened.store.close();
  const restoredCells = sharedDiagnostics()
    .export()
    .cells.filter((c) => c.address.startsWith("Bench!") && c.restored !== undefined).length;
  return {
    cells: cells.length,
    laterMs: LATER_MS,
    first: first.result,
    reopen: { ...reopened.result, restoredCells },
    agreement: compareOutcomes(reopened.outcomes, first.outcomes),
    store: { entries: usage.entries, bytes: usage.bytes },
  };
}
