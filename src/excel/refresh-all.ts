/**
 * Refresh: the engine forgets what it fetched (keeping it only as a fallback should the service fail, so a
 * refresh during an outage shows stale figures marked as such rather than errors), then Excel recalculates.
 * The ribbon's Refresh button and the taskpane's buttons both come here.
 */
import { createLogger } from "../client";
import type { RefreshLog, RefreshRecord, RefreshScope } from "./refresh-log";
import { messageOf } from "../client";

const log = createLogger("commands.refresh");

export interface RefreshDeps {
  /** The shared runtime once configured (readyRuntime); throws why there is none. */
  runtime: () => Promise<{ engine: { refresh(): void } }>;
  recalculate: (scope: RefreshScope) => Promise<void>;
  now: () => number;
  log: RefreshLog;
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

/** The ribbon's ExecuteFunction handler: refresh all, then tell Office the command is done. */
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
