/**
 * The ribbon's commands, registered on the shared-runtime page: "refreshAll" is the Refresh button's
 * ExecuteFunction (manifest.xml). It refreshes the same engine the custom functions and the taskpane use.
 *
 * A ribbon Refresh that finds restatements has no view of its own to list them: when it finds its first,
 * the taskpane is shown (Office.addin.showAsTaskpane, SharedRuntime 1.1, which the manifest requires) and
 * opens on its Refresh view, which lists them as the taskpane's own Refresh all does (the taskpane follows
 * the same record: src/excel/refresh-changes.ts). Where the pane cannot be shown, the list waits there.
 */
import { createLogger, messageOf } from "../client";
import { readyRuntime } from "../runtime/runtime";
import { recalculate, refreshAllCommand, refreshLog } from "../excel/refresh";
import { refreshChanges, tellChanges } from "../excel/refresh-changes";
import { officeExcelRun } from "../excel/office-host";

const log = createLogger("commands");

export const refreshAll = refreshAllCommand({
  runtime: readyRuntime,
  recalculate: (scope) => recalculate(officeExcelRun, scope),
  now: () => Date.now(),
  log: refreshLog,
  changes: refreshChanges,
});

/** Shows the taskpane (the Office edge); a host without the API, or one that refuses, is logged, not thrown. */
export function showTaskpane(
  office: { addin?: { showAsTaskpane(): Promise<void> } } | undefined
): void {
  if (!office?.addin) {
    log.info(
      "the taskpane cannot be shown from a command here: the changes wait in its Refresh view"
    );
    return;
  }
  office.addin
    .showAsTaskpane()
    .catch((error: unknown) =>
      log.warn("could not show the taskpane", { error: messageOf(error) })
    );
}

// Registered at load, as Office expects of a function file; outside Office the call is harmless.
if (typeof Office !== "undefined" && Office.actions) {
  // Office waits for event.completed(), which the command calls however the refresh ends; the promise it
  // returns never rejects (refresh reports failures in its record) and is there for tests.
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  Office.actions.associate("refreshAll", refreshAll);
  tellChanges(refreshChanges, "ribbon", () => showTaskpane(Office));
}
