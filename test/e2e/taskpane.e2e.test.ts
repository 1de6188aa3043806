/**
 * The taskpane in a real browser (Debian's Chromium), against the production build served on loopback and
 * the simulator started in-process. Excel is absent, so the page runs with ?workbook=recording and the tests
 * check what the taskpane asked the workbook to do. One browser for the file; each test continues where
 * the previous one left the page, as a user would.
 */
import type { Browser, Page } from "playwright-core";
import { startSimulator, DEMO_API_KEY } from "../../src/simulator";
import type { RunningSimulator } from "../../src/simulator";
import type { RecordedCall } from "../../src/excel/recording-workbook";
import { ensureBuild } from "./support/build";
import { cspViolations, launch, openPage, screenshot, type Problems } from "./support/browser";
import { serveStatic, type StaticServer } from "./support/static-server";

let simulator: RunningSimulator;
let server: StaticServer;
let browser: Browser;
let page: Page;
let problems: Problems;

async function calls(): Promise<RecordedCall[]> {
  return page.evaluate(() => window.__cryptometricsWorkbook?.calls ?? []);
}

async function lastCall(): Promise<RecordedCall | undefined> {
  return (await calls()).at(-1);
}

async function openSection(id: string): Promise<void> {
  await page.click(`#tab-${id}`);
  await page.waitForSelector(`#panel-${id}:not([hidden])`);
}

async function statusOf(selector: string): Promise<{ kind: string; text: string }> {
  const element = page.locator(
    `${selector}:is([data-kind="success"], [data-kind="error"], [data-kind="info"])`
  );
  await element.waitFor();
  return { kind: (await element.getAttribute("data-kind")) ?? "", text: await element.innerText() };
}

beforeAll(async () => {
  const [built, sim] = await Promise.all([
    ensureBuild(),
    startSimulator({ port: 0, rateLimit: null }),
  ]);
  simulator = sim;
  server = await serveStatic(built);
  browser = await launch();
  ({ page, problems } = await openPage(browser));
  await page.goto(`${server.url}/taskpane.html?workbook=recording`);
  await page.waitForSelector("body[data-ready='true']", { timeout: 20_000 });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([server?.close(), simulator?.close()]);
});

test("a production build opens on Settings: no service URL and no key are built in", async () => {
  expect(await page.getAttribute("#tab-settings", "aria-selected")).toBe("true");
  await expect(page.locator("#key-state").innerText()).resolves.toMatch(/No key saved/);
  expect(await page.inputValue("#base-url input")).toBe("");
});

test("the header links to the function reference, the page every function's help opens", async () => {
  const link = page.getByRole("link", { name: "Function reference" });
  expect(await link.getAttribute("href")).toMatch(/^https:\/\/[^/]+\/help\.html$/);
  expect(await link.getAttribute("rel")).toBe("noopener noreferrer");
});

test("the key field is masked, a wrong key is 'rejected', the right one is 'valid' and shown masked only", async () => {
  await page.fill("#base-url input", simulator.url);
  await page.click("#save-connection");
  expect(await statusOf("#service-status")).toMatchObject({ kind: "success" });

  expect(await page.getAttribute("#api-key input", "type")).toBe("password");
  await page.fill("#api-key input", "cm_wrong_key_0000");
  await page.click("#test-connection");
  await page.waitForSelector("#connection-result[data-verdict='key-rejected']");
  expect(await page.innerText("#connection-result")).toMatch(/^Key rejected/);

  await page.fill("#api-key input", DEMO_API_KEY);
  await page.click("#test-connection");
  await page.waitForSelector("#connection-result[data-verdict='valid']");
  expect(await page.innerText("#connection-result")).toMatch(
    /^Valid key: connected to http:\/\/127\.0\.0\.1/
  );
  expect(await page.innerText("#key-state")).toContain(`••••••••${DEMO_API_KEY.slice(-4)}`);
  // Stored outside the workbook (the page's storage stands in for OfficeRuntime.storage), never shown whole.
  expect(await page.evaluate(() => localStorage.getItem("cryptometrics.apiKey"))).toBe(
    DEMO_API_KEY
  );
  expect(await page.inputValue("#api-key input")).toBe("");
  expect(await page.evaluate(() => document.body.innerText)).not.toContain(DEMO_API_KEY);
});

test("the demo banner shows while the data comes from the simulator", async () => {
  await page.waitForSelector("#demo-banner:not([hidden])");
  expect(await page.innerText("#demo-banner")).toBe("Demo data — not real figures");
});

test("search finds projects instantly and an HTML-breaking name is shown as text", async () => {
  await openSection("browse");
  await page.waitForSelector("#catalogue-count:has-text('projects')");
  await page.fill("#catalogue-search", "tick");
  const entry = page.locator("#list-projects .entry[data-id='tick-and-tock'] .entry-name");
  expect(await entry.innerText()).toBe(`Tick & Tock "Perps" <beta> 'v2'`);
  expect(await page.evaluate(() => document.querySelectorAll("beta").length)).toBe(0);
  expect(await page.innerText("#catalogue-count")).toBe("1 of 46 projects");

  await page.fill("#catalogue-search", "anchor");
  expect(
    await page.innerText("#list-projects .entry[data-id='anchor-protocol'] .badge.archived")
  ).toMatch(/^Archived: \S/);
  await page.fill("#catalogue-search", "sushi");
  expect(
    await page.innerText("#list-projects .entry[data-id='sushiswap'] .badge.maintenance")
  ).toMatch(/^Maintenance: \S/);
});

test("a project's detail lists its metrics, and Insert writes a ready formula into the active cell", async () => {
  await page.evaluate(() => window.__cryptometricsWorkbook?.select("Sheet1!B2"));
  await page.fill("#catalogue-search", "aave");
  await page.click("#list-projects .entry[data-id='aave']");
  await page.waitForSelector("#insert-value");
  expect(await page.innerText("#detail-title")).toMatch(/Aave/);
  expect(await page.innerText("#detail")).toMatch(/Chains\s+ethereum/);
  await page.click("#detail-metrics-box summary");
  const metrics = page.locator("#detail-metrics li");
  expect(await metrics.count()).toBeGreaterThan(3);
  // Each metric with its definition and source, as text.
  expect(await metrics.first().innerText()).toMatch(/\(\w+\)\n.+\nSource: .+/);
  await page.click("#detail-metrics-box summary");

  await page.selectOption("#detail-metric", "fees");
  await page.click("#insert-value");
  expect(await statusOf("#detail-status")).toMatchObject({ kind: "success" });
  expect(await lastCall()).toEqual({
    op: "insertFormula",
    address: "Sheet1!B2",
    formula: '=CRYPTO.VALUE("aave","fees")',
  });
  await page.click("#insert-metric");
  await page.waitForFunction(() => window.__cryptometricsWorkbook?.calls.length === 2);
  expect(await lastCall()).toMatchObject({ formula: '=CRYPTO.METRIC("aave","fees",TODAY()-365)' });
  // The project itself, as a card (a data type): its fields then read as =B2.Revenue.
  await page.click("#insert-card");
  await page.waitForFunction(() => window.__cryptometricsWorkbook?.calls.length === 3);
  expect(await lastCall()).toEqual({
    op: "insertFormula",
    address: "Sheet1!B2",
    formula: '=CRYPTO.PROJECT("aave")',
  });
  expect((await statusOf("#detail-status")).text).toMatch(/as a card in Sheet1!B2.*=B2\.Revenue/);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, "taskpane-production");
});

test("the formula builder writes the reference's formula, previews it with the engine, and inserts it", async () => {
  await page.click("#open-builder");
  await page.waitForSelector("#panel-build:not([hidden])");
  await page.waitForFunction(
    () => document.querySelector("#builder-formula")?.textContent === '=CRYPTO.VALUE("aave","fees")'
  );
  await page.waitForSelector("#builder-result td.cell.number");

  await page.selectOption("#builder-function", "METRIC");
  await page.selectOption("#b-project", ["aave"]);
  await page.selectOption("#b-metric", ["fees"]);
  await page.selectOption("#b-start-mode", "fixed");
  await page.fill("#b-start-date", "2024-01-01");
  await page.selectOption("#b-end-mode", "fixed");
  await page.fill("#b-end-date", "2024-01-05");
  await page.selectOption("#b-opt-order", "desc");
  const formula = '=CRYPTO.METRIC("aave","fees","2024-01-01","2024-01-05","order=desc")';
  await page.waitForFunction(
    (f) => document.querySelector("#builder-formula")?.textContent === f,
    formula
  );
  await page.waitForSelector("#builder-result td.cell.date");
  const firstDate = await page
    .locator("#builder-result tr")
    .nth(1)
    .locator("td")
    .first()
    .innerText();
  expect(firstDate).toBe("2024-01-05");

  await page.evaluate(() => window.__cryptometricsWorkbook?.select("Sheet1!D4"));
  await page.click("#builder-insert");
  expect(await statusOf("#builder-insert-status")).toMatchObject({ kind: "success" });
  expect(await lastCall()).toEqual({ op: "insertFormula", address: "Sheet1!D4", formula });
});

test("the builder offers a project as a card and previews the card itself", async () => {
  await page.selectOption("#builder-function", "PROJECT");
  await page.selectOption("#b-project", ["aave"]);
  await page.waitForFunction(
    () => document.querySelector("#builder-formula")?.textContent === '=CRYPTO.PROJECT("aave")'
  );
  await page.waitForSelector("section#builder-result.card");
  expect(await page.innerText("#builder-result .card-title")).toBe("Aave");
  expect(await page.locator("#builder-result dt", { hasText: "Revenue TTM" }).count()).toBe(1);
});

test("Insert statement builds a formatted worksheet named after the project: static, then live", async () => {
  await openSection("tables");
  await page.selectOption("#statement-project", ["aave"]);
  await page.click("#statement-static");
  await page.click("#insert-statement");
  expect(await statusOf("#statement-status")).toMatchObject({ kind: "success" });
  const staticSheet = await lastCall();
  if (staticSheet?.op !== "createSheet")
    throw new Error(`expected a new sheet, got ${JSON.stringify(staticSheet)}`);
  expect(staticSheet.sheetName).toBe("Aave");
  const plan = staticSheet.plan;
  expect(plan.freeze).toEqual({ rows: 5, columns: 1 });
  const cells = plan.blocks[0].cells;
  expect(cells[0][0]).toBe("Aave — financial statement");
  expect(cells[1][0]).toEqual(
    expect.stringMatching(
      /^As of \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC .*Demo data — not real figures$/
    )
  );
  expect(cells[3][0]).toBe("Metric");
  expect(cells[3][1]).toEqual(expect.stringMatching(/^Q\d '\d\d$/));
  const formats = plan.formats.map((f) => f.format);
  expect(formats).toContainEqual({ numberFormat: "#,##0;-#,##0" });
  expect(formats).toContainEqual({ numberFormat: "0.0%;-0.0%" });
  expect(formats.filter((f) => f.bold).length).toBeGreaterThan(3);

  await page.click("#statement-live");
  await page.click("#insert-statement");
  await page.waitForFunction(
    () =>
      (window.__cryptometricsWorkbook?.calls ?? []).filter((c) => c.op === "createSheet").length ===
      2
  );
  const live = await lastCall();
  if (live?.op !== "createSheet") throw new Error("expected a second sheet");
  expect(live.sheetName).toBe("Aave (2)");
  expect(live.plan.blocks.flatMap((b) => b.cells.flat())).toContainEqual({
    formula: '=CRYPTO.STATEMENT("aave","quarter","1y","headers=2")',
  });
});

test("Refresh all asks for a full recalculation and shows when it ran", async () => {
  await openSection("refresh");
  await page.click("#refresh-all");
  expect(await statusOf("#refresh-status")).toMatchObject({ kind: "success" });
  expect(await lastCall()).toEqual({ op: "recalculate", scope: "all" });
  expect(await page.innerText("#last-refresh")).toMatch(
    /^Last refresh: \d\d:\d\d:\d\d UTC \(all, from the taskpane\)/
  );
  await page.click("#freeze");
  await page.waitForFunction(
    () => window.__cryptometricsWorkbook?.calls.at(-1)?.op === "freezeToValues"
  );
  expect(await lastCall()).toMatchObject({ op: "freezeToValues", scope: "selection" });
});

test("diagnostics show usage against the limit and export JSON without the key", async () => {
  await openSection("diagnostics");
  expect(await page.innerText("#usage-text")).toMatch(/^\d+ of 60 requests in the last minute$/);
  await page.click("#export-diagnostics");
  await page.waitForSelector("#diagnostics-json:not([hidden])");
  const exported = JSON.parse(await page.inputValue("#diagnostics-json")) as {
    settings: { apiKey: string };
    usage: { requestsTotal: number };
  };
  expect(exported.settings.apiKey).toBe(`••••••••${DEMO_API_KEY.slice(-4)}`);
  expect(JSON.stringify(exported)).not.toContain(DEMO_API_KEY);
  expect(exported.usage.requestsTotal).toBeGreaterThan(0);
});

test("Settings show the cache saved in IndexedDB, which never holds the key, and Clear cache empties it", async () => {
  await openSection("settings");
  // The catalogue the Browse section loaded was written behind; Settings read the size again every 10 s.
  await page.waitForFunction(
    () =>
      /^[^0].* answers?, on this computer/.test(
        document.querySelector("#cache-state")?.textContent ?? ""
      ),
    undefined,
    { timeout: 25_000, polling: 250 }
  );
  const dump = await page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open("cryptometrics-cache");
        open.onerror = () => reject(open.error ?? new Error("indexedDB.open failed"));
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction(["entries", "usage"]);
          const keys = tx.objectStore("entries").getAllKeys();
          const values = tx.objectStore("entries").getAll();
          tx.oncomplete = () => {
            db.close();
            resolve(JSON.stringify([keys.result, values.result]));
          };
        };
      })
  );
  expect(dump).toContain("projectId");
  expect(dump).not.toContain(DEMO_API_KEY);

  await page.click("#clear-cache");
  expect(await statusOf("#cache-status")).toMatchObject({ kind: "success" });
  expect(await page.innerText("#cache-state")).toMatch(
    /^0 bytes in 0 answers, on this computer \(limit 50 MB/
  );
});

test("keyboard: the section tabs take arrow keys; every control has a name; nothing scrolls sideways at 320 px", async () => {
  await page.focus("#tab-diagnostics");
  await page.keyboard.press("ArrowRight");
  expect(await page.evaluate(() => document.activeElement?.id)).toBe("tab-settings");
  expect(await page.getAttribute("#tab-settings", "aria-selected")).toBe("true");

  for (const section of ["browse", "build", "tables", "refresh", "diagnostics", "settings"]) {
    await openSection(section);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
    expect({ section, overflow }).toEqual({ section, overflow: 320 });
    const unnamed = await page.evaluate(() =>
      [
        ...document.querySelectorAll<HTMLElement>(
          "button, input, select, textarea, fluent-button, fluent-text-field, a[href]"
        ),
      ]
        .filter((el) => el.offsetParent !== null)
        .filter((el) => {
          const labelled = el.getAttribute("aria-label") || el.getAttribute("aria-labelledby");
          const byFor = el.id && document.querySelector(`label[for="${el.id}"]`);
          const inLegend = el.closest("fieldset")?.querySelector("legend");
          return !labelled && !byFor && !(el.textContent ?? "").trim() && !inLegend;
        })
        .map((el) => el.id || el.tagName)
    );
    expect({ section, unnamed }).toEqual({ section, unnamed: [] });
  }
});

test("no script errors and no Content-Security-Policy violations", async () => {
  expect(problems.errors).toEqual([]);
  expect(problems.csp).toEqual([]);
  expect(await cspViolations(page)).toEqual([]);
});
