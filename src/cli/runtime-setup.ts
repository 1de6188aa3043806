/**
 * The one place the CLI configures the runtime the functions run on: base URL and key, the real fetch, the
 * cache directory's saved answers (FileBlobStore) and its shared record of request starts (FileStartLedger).
 * The runtime refuses a base URL it will not talk to (plain http off loopback) with an error of kind
 * "invalid-input", which main.ts turns into a usage error.
 */
import type { Change } from "../engine";
import type { Lineage } from "../functions/lineage";
import { runLineage, type LineageInput } from "./lineage";
import { FileLedgerStore } from "./cache/restatement-files";
import { scaledRetryPolicy } from "../client";
import { namespaceSource } from "../runtime/cache-namespace";
import { configureRuntime, currentRuntime } from "../runtime/runtime";
import { FileStartLedger } from "./cache/file-ledger";
import { FileBlobStore } from "./cache/file-store";
import type { CacheSettings } from "./cache/settings";

/** As src/runtime's configureRuntime takes them; an empty key means "none set" (the cells will say so). */
export interface RuntimeSettings {
  baseUrl: string;
  apiKey: string;
  /** Requests per minute; default the service's 60. */
  rateLimitPerMinute?: number;
}

const SERVICE_MINUTE_MS = 60_000;
/**
 * A person runs the command and reads its answer: an address where nothing answers is said after one more
 * try (about a second), not after six over ten seconds as a workbook riding out a server's restart.
 */
const CLI_REFUSED_ATTEMPTS = 2;

let configured: string | undefined;

export function configureCliRuntime(settings: RuntimeSettings, cache?: CacheSettings): void {
  // Evaluations in one process with the same service, key and cache share the runtime, hence its memory (as
  // a workbook's recalculations do): the same formulas again cost no request.
  const identity = JSON.stringify([settings, cache ?? null]);
  if (configured === identity) return;
  const scale = cache?.timeScale ?? 1;
  configureRuntime({
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
    rateLimitPerMinute: settings.rateLimitPerMinute,
    ...(cache
      ? {
          rateLedger: new FileStartLedger(
            cache.dir,
            namespaceSource(settings.baseUrl, settings.apiKey)
          ),
          // The record of restatements beside the saved answers (src/engine/ledger): what vintage= and
          // CHANGES read, across runs.
          savedCache: cache.saved
            ? {
                store: new FileBlobStore({ dir: cache.dir, maxBytes: cache.maxBytes }),
                ledger: new FileLedgerStore(cache.dir),
              }
            : undefined,
        }
      : {}),
    ...(scale !== 1 ? { rateWindowMs: SERVICE_MINUTE_MS / scale } : {}),
    client: {
      retry: {
        ...(scale !== 1 ? scaledRetryPolicy(scale) : {}),
        maxRefusedAttempts: CLI_REFUSED_ATTEMPTS,
      },
    },
  });
  configured = identity;
}

/**
 * `eval --refresh`: everything the formulas use is fetched again, even where the cache is fresh (what was
 * held stays the fallback and the reference the answers are compared with); returns the restatements the
 * run records, as they are recorded.
 */
export function refreshCliRuntime(): () => readonly Change[] {
  const runtime = currentRuntime();
  runtime.engine.refresh();
  const found: Change[] = [];
  runtime.ledger.subscribe((changes) => {
    for (const c of changes) found.push(c);
  });
  return () => found;
}

/** How long the CLI waits for its answers to reach the disk before it exits anyway. */
const SAVE_DEADLINE_MS = 10_000;

/** Waits until the answers fetched are saved in the cache directory (or the deadline passes). */
export async function settleCliRuntime(): Promise<void> {
  let flush: Promise<void>;
  try {
    flush = currentRuntime().flushSaved();
  } catch {
    return; // nothing configured, nothing to save
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, SAVE_DEADLINE_MS);
  });
  await Promise.race([flush, deadline]);
  clearTimeout(timer);
}

/** How long an interrupted run waits to report its requests under way before it exits anyway. */
const RELEASE_DEADLINE_MS = 2_000;

/**
 * The run was interrupted: its starts still open in the shared record count as answered now (the limiter's
 * release), reported before the process exits, within RELEASE_DEADLINE_MS.
 */
export async function releaseCliRuntime(): Promise<void> {
  let limiter;
  try {
    limiter = currentRuntime().client.limiter;
  } catch {
    return; // nothing configured, nothing started
  }
  limiter.release();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, RELEASE_DEADLINE_MS);
  });
  await Promise.race([limiter.settled(), deadline]);
  clearTimeout(timer);
}

/** The cells answered with kept (stale) values since the last call (none before the runtime is configured). */
export function takeStaleAnswers(): ReadonlyMap<string, { fetchedAt: number; reason: string }> {
  try {
    return currentRuntime().diagnostics.takeStale();
  } catch {
    return new Map();
  }
}

/**
 * --lineage: each line's lineage row, from the run's runtime (its catalogues and project details, the
 * address it called). The CLI calls the service with a key of its own: the service is what answered, even
 * at a gateway's address.
 */
export function lineageOfRun(inputs: readonly LineageInput[], kept: boolean): Promise<Lineage[]> {
  const runtime = currentRuntime();
  return runLineage(
    { engine: runtime.engine, baseUrl: runtime.config.baseUrl, via: "service" },
    inputs,
    kept
  );
}
