/**
 * Refresh: the engine forgets what it fetched (keeping it only as a fallback should the service fail, so a
 * refresh during an outage shows stale figures marked as such rather than errors), then Excel recalculates.
 * The ribbon's Refresh button and the taskpane's buttons both come here. This module holds the Excel half
 * (recalculate), the refresh itself and the ribbon's command, and the record of the last refresh.
 */
import { createLogger, messageOf } from "../client";
import type { RefreshScope } from "./port";
import type { ExcelRun } from "./office-host";
import type { ChangeFeed, RefreshChanges } from "./refresh-changes";

export type { RefreshScope };

const log = createLogger("commands.refresh");

// --- Recalculation, the Excel half of Refresh ---------------------------------------------------------
// The engine's cache is marked stale first (by the caller), then Excel re-runs the formulas. Non-volatile
// custom functions are not recalculated by an ordinary recalc, so "all" asks for a full one; "selection"
// recalculates the selected range.

export function recalculate(run: ExcelRun, scope: RefreshScope): Promise<void> {
  return run(async (context) => {
    if (scope === "all") context.workbook.application.calculate("Full");
    else context.workbook.getSelectedRange().calculate();
    await context.sync();
  });
}

// --- The last refresh ---------------------------------------------------------------------------------
// Whoever ran it (the ribbon's Refresh button or the taskpane), so the taskpane can show its time. One
// instance per page: the taskpane bundle depends on the commands bundle, so both use this one.

export interface RefreshRecord {
  at: number;
  scope: RefreshScope;
  source: "ribbon" | "taskpane";
  ok: boolean;
  message: string;
}

export class RefreshLog {
  private record?: RefreshRecord;
  private readonly listeners = new Set<(record: RefreshRecord) => void>();

  get last(): RefreshRecord | undefined {
    return this.record;
  }

  add(record: RefreshRecord): void {
    this.record = record;
    for (const l of [...this.listeners]) l(record);
  }

  subscribe(listener: (record: RefreshRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export const refreshLog = new RefreshLog();

// --- Refresh and the ribbon's command ----------------------------------------------------------------

export interface RefreshDeps {
  /** The shared runtime once configured (readyRuntime); throws why there is none. */
  runtime: () => Promise<{ engine: { refresh(): void }; ledger?: ChangeFeed }>;
  recalculate: (scope: RefreshScope) => Promise<void>;
  now: () => number;
  log: RefreshLog;
  /** Where a Refresh all's restatements are collected (refresh-changes.ts), listened to before it starts. */
  changes?: RefreshChanges;
}

/** "14:05:09 UTC" */
export function clockTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 19)} UTC`;
}

export async function refresh(
  deps: RefreshDeps,
  scope: RefreshScope,
  source: RefreshRecord["source"]
): Promise<RefreshRecord> {
  const what = scope === "all" ? "every CRYPTO formula" : "the selected cells";
  let record: RefreshRecord;
  try {
    const runtime = await deps.runtime();
    // Listening before anything is fetched again: every restatement the recalculation finds is counted.
    if (scope === "all" && runtime.ledger) deps.changes?.start(runtime.ledger, deps.now(), source);
    runtime.engine.refresh();
    await deps.recalculate(scope);
    const at = deps.now();
    record = { at, scope, source, ok: true, message: `Refreshed ${what} at ${clockTime(at)}.` };
  } catch (error) {
    const reason = messageOf(error);
    log.warn("refresh failed", { scope, source, error: reason });
    record = {
      at: deps.now(),
      scope,
      source,
      ok: false,
      message: `Could not refresh ${what}: ${reason}`,
    };
  }
  deps.log.add(record);
  return record;
}

/**
 * The ribbon's ExecuteFunction handler: refresh all, then tell Office the command is done. The changes it
 * finds arrive later, as the formulas settle: commands.ts tells the user of them (tellChanges).
 */
export function refreshAllCommand(
  deps: RefreshDeps
): (event?: { completed(): void }) => Promise<void> {
  return async (event) => {
    try {
      await refresh(deps, "all", "ribbon");
    } finally {
      event?.completed();
    }
  };
}
