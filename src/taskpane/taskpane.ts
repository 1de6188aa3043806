/**
 * The taskpane bundle's entry on the shared-runtime page. Inside Excel it drives the workbook through
 * Excel.run; opened in a plain browser (Office reports no host) the custom functions get the little host
 * they need, and there is no workbook, unless a test has put a recording one on the page before it loaded.
 */
import { refreshLog } from "../excel/refresh";
import { refreshChanges } from "../excel/refresh-changes";
import { loadPageRegistry } from "../functions/page-registry";
import { completeBrowserHost } from "../sheet/browser-host";
import { buildConfig } from "../runtime/build-config";
import { officeCacheControls, officeSettings, officeSignIn } from "../runtime/office";
import { readyRuntime, sharedDiagnostics } from "../runtime/runtime";
import { startApp } from "./app";
import { officeWorkbook } from "../excel/office-workbook";
import { CatalogueStore } from "./model/catalogue-store";
import { startPage, watchPageSource } from "./page-start";
import { followTheme } from "../ui/fluent";
import { noWorkbook, type WorkbookPort } from "../excel/port";

declare global {
  interface Window {
    /** A workbook a test injected before the page loaded (the browser tests' recording one). */
    __cryptometricsWorkbook?: WorkbookPort;
  }
}

function browserWorkbook(): WorkbookPort {
  return window.__cryptometricsWorkbook ?? noWorkbook();
}

startPage(
  "app",
  typeof Office === "undefined" ? undefined : () => Office.onReady(),
  async (root, info) => {
    const inExcel = info.host === Office.HostType.Excel;
    if (!inExcel) completeBrowserHost();
    // Office's theme inside Office; outside it (no host), the system's colour scheme.
    followTheme(() => (info.host ? Office.context?.officeTheme : undefined));
    const source = watchPageSource();
    await startApp(root, {
      build: buildConfig,
      settings: officeSettings(),
      signIn: await officeSignIn(),
      runtime: readyRuntime,
      diagnostics: sharedDiagnostics(),
      cache: officeCacheControls(),
      workbook: inExcel ? officeWorkbook() : browserWorkbook(),
      source,
      catalogue: new CatalogueStore(async () => (await readyRuntime()).engine),
      registry: () => loadPageRegistry(),
      refreshLog,
      refreshChanges,
      now: () => Date.now(),
    });
  }
);
