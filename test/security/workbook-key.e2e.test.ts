/**
 * The key never reaches the workbook through the taskpane: the real taskpane (production build, Debian's
 * Chromium, recording workbook) is used with a secret key for everything that writes to a workbook
 * (insert from a project's detail, the formula builder, a comparison grid, statements static and live,
 * refresh, freeze); nothing it asks the workbook to write holds the key, and the key is kept in one place
 * only: the page's key-value storage (OfficeRuntime.storage in Excel), outside any workbook. What the
 * Office implementation of those requests writes is checked with office-addin-mock in
 * workbook-writes.test.ts.
 */
import type { Page } from "playwright-core";
import type { RunningSimulator } from "../../src/simulator";
import { openPaneLab, type PaneLab } from "../e2e/support/pane-lab";
import { openSection, pick } from "../e2e/support/taskpane";

const SECRET = "sk_live_TaskpaneSecret9081";

let lab: PaneLab;
let simulator: RunningSimulator;
let page: Page;

beforeAll(async () => {
  lab = await openPaneLab({ simulator: { apiKeys: [SECRET] } });
  ({ simulator, page } = lab);
}, 300_000);

afterAll(async () => {
  await lab?.close();
});

async function succeeded(status: string): Promise<void> {
  await page.waitForSelector(`${status}[data-kind="success"]`);
}

async function callCount(): Promise<number> {
  return page.evaluate(() => window.__recordingWorkbook?.calls.length ?? 0);
}

test("every request to write to the workbook is free of the key; the key lives in the page's storage only", async () => {
  await page.fill("#base-url input", simulator.url);
  await page.click("#save-connection");
  await page.fill("#api-key input", SECRET);
  await page.click("#test-connection");
  await page.waitForSelector("#connection-result[data-verdict='valid']");

  // Insert from a project's detail.
  await openSection(page, "browse");
  await page.waitForSelector("#catalogue-count:has-text('projects')");
  await page.fill("#catalogue-search input", "aave");
  await page.click("#list-projects [data-id='aave']");
  await page.waitForSelector("#insert-value");
  await page.click("#insert-value");
  await succeeded("#detail-status");
  await page.click("#insert-metric");
  await page.waitForFunction(() => (window.__recordingWorkbook?.calls.length ?? 0) >= 2);

  // The formula builder.
  await page.click("#open-builder");
  await page.waitForSelector("#panel-build:visible");
  await page.waitForSelector("#builder-result td.cell.number");
  await page.click("#builder-insert");
  await succeeded("#builder-status");

  // A comparison grid and statements, static and live.
  await openSection(page, "tables");
  await pick(page, "grid-projects", ["aave", "uniswap"]);
  await pick(page, "grid-metrics-table", ["fees"]);
  await page.click("#insert-grid");
  await succeeded("#grid-status");
  await pick(page, "statement-project", ["aave"]);
  await page.click("#statement-static");
  await page.click("#insert-statement");
  await succeeded("#statement-status");
  await page.click("#statement-static");
  await page.click("#insert-statement");
  await page.waitForFunction(
    () =>
      (window.__recordingWorkbook?.calls ?? []).filter((c) => c.op === "createSheet").length === 2
  );

  // Refresh and freeze to values.
  await openSection(page, "refresh");
  await page.click("#refresh-all");
  await succeeded("#refresh-status");
  const before = await callCount();
  await page.click("#freeze");
  await page.waitForFunction((n) => (window.__recordingWorkbook?.calls.length ?? 0) > n, before);

  const calls = await page.evaluate(() => window.__recordingWorkbook?.calls ?? []);
  expect(new Set(calls.map((c) => c.op))).toEqual(
    new Set(["insertFormula", "insertGrid", "createSheet", "recalculate", "freezeToValues"])
  );
  expect(JSON.stringify(calls)).not.toContain(SECRET);

  // Outside the workbook, in one place: the key-value storage, under its own name.
  const storage = await page.evaluate(() => ({
    local: Object.entries(localStorage) as [string, string][],
    session: Object.entries(sessionStorage) as [string, string][],
    cookie: document.cookie,
    text: document.body.innerText,
    url: location.href,
  }));
  expect(storage.local.filter(([, v]) => v.includes(SECRET))).toEqual([
    ["cryptometrics.apiKey", SECRET],
  ]);
  expect(
    JSON.stringify([storage.session, storage.cookie, storage.text, storage.url])
  ).not.toContain(SECRET);
}, 120_000);
