/**
 * The ribbon's commands, registered on the shared-runtime page: "refreshAll" is the Refresh button's
 * ExecuteFunction (manifest.xml). It refreshes the same engine the custom functions and the taskpane use.
 */
import { readyRuntime } from "../runtime/runtime";
import { recalculate, refreshAllCommand, refreshLog } from "../excel/refresh";
import { officeExcelRun } from "../excel/office-host";

export const refreshAll = refreshAllCommand({
  runtime: readyRuntime,
  recalculate: (scope) => recalculate(officeExcelRun, scope),
  now: () => Date.now(),
  log: refreshLog,
});

// Registered at load, as Office expects of a function file; outside Office the call is harmless.
if (typeof Office !== "undefined" && Office.actions) {
  // Office waits for event.completed(), which the command calls however the refresh ends; the promise it
  // returns never rejects (refresh reports failures in its record) and is there for tests.
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  Office.actions.associate("refreshAll", refreshAll);
}
