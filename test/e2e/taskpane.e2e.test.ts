/**
 * The taskpane in a real browser (Debian's Chromium), against the production build served on loopback and
 * the simulator started in-process. Excel is absent, so the page runs with ?workbook=recording and the tests
 * check what the taskpane asked the workbook to do. One browser for the file; each test continues where
 * the previous one left the page, as a user would. axe-core checks every state visited (WCAG 2.2 AA).
 */
import type { Page } from "playwright-core";
import { createDataset, DEMO_API_KEY } from "../../src/simulator";
import type { RunningSimulator } from "../../src/simulator";
import { cspViolations, screenshot, type Problems } from "./support/browser";
import { SECTOR_COMPS_COLUMNS } from "../../src/taskpane/model/sector-comps";
import { formulaText, idListArg, text } from "../../src/taskpane/model/formula-text";
import { openPaneLab, type PaneLab } from "./support/pane-lab";
import { expectAccessible, recordAxeStates } from "./support/axe";
import { choose, openSection, pick, recordedCalls, statusOf } from "./support/taskpane";

/** The catalogue's size as the simulator serves it: the demo projects, whatever their number. */
const PROJECT_COUNT = createDataset("2026-01-01").projects.length;

let lab: PaneLab;
let simulator: RunningSimulator;
let page: Page;
let problems: Problems;

async function lastCall() {
  return (await recordedCalls(page)).at(-1);
}

beforeAll(async () => {
  lab = await openPaneLab();
  ({ simulator, page, problems } = lab);
}, 300_000);

afterAll(async () => {
  recordAxeStates(__filename);
  await lab?.close();
});

test("a production build opens on Settings: no service URL and no key are built in", async () => {
  expect(await page.isVisible("#panel-settings")).toBe(true);
  expect(await page.innerText("#page-title")).toBe("Settings");
  await expect(page.locator("#key-state").innerText()).resolves.toMatch(/No key saved/);
  expect(await page.inputValue("#base-url input")).toBe("");
  await expectAccessible(page, "first run: settings");
});

test("Settings links to the function reference, the page every function's help opens", async () => {
  const link = page.locator("#settings-help-link");
  expect(await link.getAttribute("href")).toMatch(/^https:\/\/[^/]+\/help\.html$/);
  expect(await link.getAttribute("rel")).toBe("noopener noreferrer");
});

test("a service address that is not one is refused inline, in plain words, with aria-invalid", async () => {
  await page.fill("#base-url input", "foo");
  await page.click("#save-connection");
  await page.waitForSelector("#base-url-error:visible");
  expect(await page.innerText("#base-url-error")).toMatch(/^This is not a web address/);
  expect(await page.getAttribute("#base-url input", "aria-invalid")).toBe("true");
  expect(await page.innerText("#panel-settings")).not.toMatch(/createClient|absolute URL/);
  await expectAccessible(page, "settings: invalid address");
  await page.fill("#base-url input", simulator.url);
  expect(await page.getAttribute("#base-url input", "aria-invalid")).toBeNull();
  await page.click("#save-connection");
  expect(await statusOf(page, "#service-status")).toMatchObject({ kind: "success" });
});

test("a wrong key is rejected and NOT kept; the right one is 'valid' and shown masked only", async () => {
  expect(await page.getAttribute("#api-key input", "type")).toBe("password");
  await page.fill("#api-key input", "cm_wrong_key_0000");
  await page.click("#save-key");
  await page.waitForSelector("#api-key-error:visible");
  expect(await page.innerText("#api-key-error")).toMatch(
    /^Not saved: the service refused this key/
  );
  expect(await page.getAttribute("#api-key input", "aria-invalid")).toBe("true");
  // The field tells the story; the form's line says nothing beside it.
  expect(await page.innerText("#connection-result")).toBe("");
  expect(await page.innerText("#key-state")).toMatch(/No key saved/);
  expect(await page.evaluate(() => localStorage.getItem("cryptometrics.apiKey"))).toBeNull();
  await expectAccessible(page, "settings: key rejected");

  await page.fill("#api-key input", DEMO_API_KEY);
  await page.click("#test-connection");
  await page.waitForSelector("#connection-result[data-verdict='valid']");
  expect(await page.innerText("#connection-result")).toMatch(
    /^Key saved\. Valid key: connected to http:\/\/127\.0\.0\.1/
  );
  expect(await page.innerText("#key-state")).toContain(`••••••••${DEMO_API_KEY.slice(-4)}`);
  // Stored outside the workbook (the page's storage stands in for OfficeRuntime.storage), never shown whole.
  expect(await page.evaluate(() => localStorage.getItem("cryptometrics.apiKey"))).toBe(
    DEMO_API_KEY
  );
  expect(await page.inputValue("#api-key input")).toBe("");
  expect(await page.evaluate(() => document.body.innerText)).not.toContain(DEMO_API_KEY);
  await expectAccessible(page, "settings: connected");
});

test("the demo banner shows while the data comes from the simulator", async () => {
  await page.waitForSelector("#demo-banner:not([hidden])");
  expect(await page.innerText("#demo-banner")).toBe("Demo data — not real figures");
});

test("Back returns from Settings to the tabs, and the navigation is one row", async () => {
  await page.click("#page-back");
  await page.waitForSelector("#panel-browse:visible");
  const boxes = await page.evaluate(() =>
    ["#tab-browse", "#tab-build", "#tab-tables", "#more-menu"].map((s) => {
      const box = document.querySelector(s)!.getBoundingClientRect();
      return { top: box.top, bottom: box.bottom };
    })
  );
  // One row: the lowest top is above the highest bottom (every box overlaps every other vertically).
  const lowestTop = boxes.reduce((m, b) => Math.max(m, b.top), -Infinity);
  const highestBottom = boxes.reduce((m, b) => Math.min(m, b.bottom), Infinity);
  expect(lowestTop).toBeLessThan(highestBottom);
});

test("search finds projects instantly and an HTML-breaking name is shown as text", async () => {
  await openSection(page, "browse");
  await page.waitForSelector("#catalogue-count:has-text('projects')");
  await expectAccessible(page, "browse: projects");
  await page.fill("#catalogue-search input", "tick");
  const entry = page.locator("#list-projects [data-id='tick-and-tock'] .entry-name");
  expect(await entry.innerText()).toBe(`Tick & Tock "Perps" <beta> 'v2'`);
  expect(await page.evaluate(() => document.querySelectorAll("beta").length)).toBe(0);
  expect(await page.innerText("#catalogue-count")).toBe(`1 of ${PROJECT_COUNT} projects`);

  // A state is a badge, its reason beside it as text.
  await page.fill("#catalogue-search input", "anchor");
  const anchor = "#list-projects [data-id='anchor-protocol']";
  expect(await page.innerText(`${anchor} .badge.archived`)).toBe("Archived");
  expect(await page.innerText(`${anchor} .state-reason`)).toMatch(/^\s*\S/);
  await page.fill("#catalogue-search input", "sushi");
  const sushi = "#list-projects [data-id='sushiswap']";
  expect(await page.innerText(`${sushi} .badge.maintenance`)).toBe("Maintenance");
  expect(await page.innerText(`${sushi} .state-reason`)).toMatch(/^\s*\S/);
});

test("nothing found is a real empty state, with a way back", async () => {
  await page.fill("#catalogue-search input", "zzzz-no-such-thing");
  await page.waitForSelector("#catalogue-empty:visible");
  expect(await page.innerText("#catalogue-empty")).toMatch(
    /No projects match “zzzz-no-such-thing”/
  );
  await expectAccessible(page, "browse: no match");
  await page.click("#catalogue-clear");
  expect(await page.inputValue("#catalogue-search input")).toBe("");
  expect(await page.innerText("#catalogue-count")).toBe(`${PROJECT_COUNT} projects`);
});

test("the Metrics and Sectors tabs show their own lists on first visit, and search filters them", async () => {
  await page.click("#ctab-metrics");
  await page.waitForSelector("#list-metrics [role='option']");
  expect(await page.innerText("#catalogue-count")).toMatch(/^\d+ metrics$/);
  expect(await page.locator("#list-metrics [role='option']").count()).toBeGreaterThan(10);
  await page.fill("#catalogue-search input", "fees");
  expect(await page.innerText("#catalogue-count")).toMatch(/^\d+ of \d+ metrics$/);
  expect(await page.locator("#list-metrics [data-id='fees']").count()).toBe(1);
  await expectAccessible(page, "browse: metrics");
  // The search stays as typed when the tab changes: it now filters the sectors.
  await page.click("#ctab-sectors");
  expect(await page.innerText("#catalogue-count")).toMatch(/^0 of \d+ sectors$/);
  await page.fill("#catalogue-search input", "");
  await page.waitForSelector("#list-sectors [role='option']");
  expect(await page.innerText("#catalogue-count")).toMatch(/^\d+ sectors$/);
  await page.click("#ctab-projects");
  await page.waitForSelector(`#catalogue-count:has-text('${PROJECT_COUNT} projects')`);
});

test("a project's detail lists its metrics, and Insert writes a ready formula into the active cell", async () => {
  await page.evaluate(() => window.__recordingWorkbook?.select("Sheet1!B2"));
  await page.fill("#catalogue-search input", "aave");
  await page.click("#list-projects [data-id='aave']");
  await page.waitForSelector("#insert-value");
  expect(await page.evaluate(() => document.activeElement?.id)).toBe("detail-title");
  expect(await page.innerText("#detail-title")).toMatch(/Aave/);
  expect(await page.innerText("#detail")).toMatch(/Chains\s+ethereum/);
  await page.locator("#detail-metrics-section [part='button']").click();
  // The item opens on its next frame: read its text once it is laid out (innerText of a hidden list is flat).
  await page.locator("#detail-metrics").waitFor({ state: "visible" });
  const metrics = page.locator("#detail-metrics li");
  expect(await metrics.count()).toBeGreaterThan(3);
  // Each metric with its definition and source, as text.
  expect(await metrics.first().innerText()).toMatch(/\(\w+\)\n.+\nSource: .+/);
  await expectAccessible(page, "browse: project detail, metrics open");
  await page.locator("#detail-metrics-section [part='button']").click();

  await choose(page, "detail-metric", "fees");
  await page.click("#insert-value");
  expect(await statusOf(page, "#detail-status")).toMatchObject({ kind: "success" });
  expect(await lastCall()).toEqual({
    op: "insertFormula",
    address: "Sheet1!B2",
    formula: '=CRYPTO.VALUE("aave","fees")',
  });
  await page.click("#insert-metric");
  await page.waitForFunction(() => window.__recordingWorkbook?.calls.length === 2);
  expect(await lastCall()).toMatchObject({ formula: '=CRYPTO.METRIC("aave","fees",TODAY()-365)' });
  // The project itself, as a card (a data type): its fields then read as =B2.Revenue.
  await page.click("#insert-card");
  await page.waitForFunction(() => window.__recordingWorkbook?.calls.length === 3);
  expect(await lastCall()).toEqual({
    op: "insertFormula",
    address: "Sheet1!B2",
    formula: '=CRYPTO.PROJECT("aave")',
  });
  await page.waitForSelector("#detail-status:has-text('as a card')");
  expect((await statusOf(page, "#detail-status")).text).toMatch(
    /as a card in Sheet1!B2.*=B2\.Revenue/
  );
  await expectAccessible(page, "browse: project detail, inserted");
});

test("the formula builder writes the reference's formula, previews it with the engine, and inserts it", async () => {
  await page.click("#open-builder");
  await page.waitForSelector("#panel-build:visible");
  expect(await page.evaluate(() => document.activeElement?.id)).toBe("tab-build");
  await page.waitForFunction(
    () => document.querySelector("#builder-formula")?.textContent === '=CRYPTO.VALUE("aave","fees")'
  );
  await page.waitForSelector("#builder-result td.cell.number");
  await expectAccessible(page, "build: VALUE with preview");

  await choose(page, "builder-function", "METRIC");
  // A series starts a year back, not at the first day the service has.
  await pick(page, "b-project", ["aave"]);
  await pick(page, "b-metric", ["fees"]);
  await page.waitForFunction(
    () =>
      document.querySelector("#builder-formula")?.textContent ===
      '=CRYPTO.METRIC("aave","fees",TODAY()-365)'
  );
  await choose(page, "b-start-mode", "fixed");
  await page.fill("#b-start-date input", "2024-01-01");
  await choose(page, "b-end-mode", "fixed");
  await page.fill("#b-end-date input", "2024-01-05");
  expect(await page.getAttribute("#b-options", "expanded")).toBeNull();
  await page.locator("#b-options [part='button']").click();
  await choose(page, "b-opt-order", "desc");
  const formula = '=CRYPTO.METRIC("aave","fees","2024-01-01","2024-01-05","order=desc")';
  await page.waitForFunction(
    (f) => document.querySelector("#builder-formula")?.textContent === f,
    formula
  );
  // The preview follows the formula: newest first once order=desc is set.
  await page.waitForFunction(
    () =>
      document.querySelector("#builder-result tbody tr:first-child .cell.date")?.textContent ===
      "2024-01-05"
  );
  await expectAccessible(page, "build: METRIC, options open");

  await page.fill("#b-end-date input", "2024-13-45");
  await page.press("#b-end-date input", "Tab");
  await page.waitForSelector("#b-end-date-error:visible");
  expect(await page.getAttribute("#b-end-date input", "aria-invalid")).toBe("true");
  await expectAccessible(page, "build: invalid date");
  await page.fill("#b-end-date input", "2024-01-05");
  await page.waitForSelector("#b-end-date-error", { state: "hidden" });

  await page.evaluate(() => window.__recordingWorkbook?.select("Sheet1!D4"));
  await page.click("#builder-insert");
  expect(await statusOf(page, "#builder-status")).toMatchObject({ kind: "success" });
  expect(await lastCall()).toEqual({ op: "insertFormula", address: "Sheet1!D4", formula });
  // The footer (formula, Insert, preview) stays in the pane while the parameters scroll.
  const footer = await page.evaluate(() => {
    window.scrollTo(0, document.body.scrollHeight / 3);
    const box = document.querySelector(".builder-footer")!.getBoundingClientRect();
    return { bottom: Math.round(box.bottom), height: window.innerHeight };
  });
  expect(footer.bottom).toBe(footer.height);
  await page.evaluate(() => window.scrollTo(0, 0));
});

test("the builder offers a project as a card and previews the card itself", async () => {
  await choose(page, "builder-function", "PROJECT");
  // The last insert was another function's formula: its message goes with it.
  expect(await page.innerText("#builder-status")).not.toMatch(/Inserted/);
  await pick(page, "b-project", ["aave"]);
  await page.waitForFunction(
    () => document.querySelector("#builder-formula")?.textContent === '=CRYPTO.PROJECT("aave")'
  );
  await page.waitForSelector("section#builder-result.card");
  expect(await page.innerText("#builder-result .card-title")).toBe("Aave");
  expect(await page.locator("#builder-result dt", { hasText: "Revenue TTM" }).count()).toBe(1);
  // Its sections are Fluent 2 accordion items (no native <details> beside the Fluent controls).
  expect(
    await page.locator("#builder-result fluent-accordion-item.card-section").count()
  ).toBeGreaterThan(0);
  expect(await page.locator("#builder-result details").count()).toBe(0);
  await expectAccessible(page, "builder: card preview");
});

test("the builder's COMPS columns start at Insert comps's, take a window and a ratio by pointer, and fit 320 px", async () => {
  await choose(page, "builder-function", "COMPS");
  await pick(page, "b-projects", ["aave", "uniswap"]);
  const formulaIs = (f: string) =>
    page.waitForFunction((x) => document.querySelector("#builder-formula")?.textContent === x, f);
  await formulaIs(
    `=CRYPTO.COMPS("aave,uniswap","${SECTOR_COMPS_COLUMNS.map((c) => c.column).join(",")}")`
  );
  // fees over the last 30 days instead of TTM; revenue TTM removed; P/S becomes price to fees TTM.
  await choose(page, "b-columns-3-window", "30d");
  await page.click("#b-columns-2-remove");
  await choose(page, "b-columns-4-divisor-metric", "fees");
  await formulaIs(
    '=CRYPTO.COMPS("aave,uniswap","market_cap_fully_diluted,fees:30d,market_cap_fully_diluted/fees:ttm")'
  );
  // The preview is COMPS's own panel from the service: a header per column, a row per project.
  await page.waitForFunction(
    () => document.querySelector("#builder-result")?.textContent?.includes("Fees (30d)") === true
  );
  await page.waitForSelector("#builder-result td.cell.number");
  // Not a ratio any more: the divisor's window goes away with it.
  await choose(page, "b-columns-4-divisor-metric", "");
  await page.waitForSelector("#b-columns-4-divisor-window-field", { state: "hidden" });
  await formulaIs(
    '=CRYPTO.COMPS("aave,uniswap","market_cap_fully_diluted,fees:30d,market_cap_fully_diluted")'
  );
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(320);
  // Checked from the top, as the other builder states are (a target half under the sticky header fails
  // axe's target size whatever the page).
  await page.evaluate(() => window.scrollTo(0, 0));
  await expectAccessible(page, "builder: COMPS columns editor");
  await screenshot(page, "builder-comps-columns", { fullPage: true });

  // A new row left without its metric: the inline error, readable in every theme.
  await page.click("#b-columns-add");
  await page.waitForFunction(() =>
    document.activeElement?.matches("#b-columns-5-metric [slot='control']")
  );
  await page.click("#b-columns-label");
  await page.waitForSelector("#b-columns-5-metric-error:visible");
  expect(await page.getAttribute("#b-columns-5-metric [slot='control']", "aria-invalid")).toBe(
    "true"
  );
  // Still to choose (guidance), not an error in the footer; the row's own field says it once left.
  expect(await page.innerText("#builder-hint")).toBe("Column 4: choose a metric.");
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const media of [
    { colorScheme: "dark", forcedColors: "none" },
    { colorScheme: "light", forcedColors: "active" },
  ] as const) {
    await page.emulateMedia(media);
    await page.waitForFunction(
      (dark) => document.documentElement.dataset.theme === (dark ? "dark" : "light"),
      media.colorScheme === "dark"
    );
    await expectAccessible(
      page,
      `builder: COMPS column without a metric, ${media.colorScheme}, forced colours ${media.forcedColors}`
    );
  }
  await page.emulateMedia({ colorScheme: "light", forcedColors: "none" });
  await page.click("#b-columns-5-remove");
  expect(await page.evaluate(() => document.activeElement?.id)).toBe("b-columns-add");
  await page.waitForSelector("#builder-hint:empty", { state: "attached" });
});

test("a sector's comps opens in the builder with its projects and Insert comps's columns, to edit there", async () => {
  await openSection(page, "browse");
  if (await page.isVisible("#detail-back")) await page.click("#detail-back");
  await page.click("#ctab-sectors");
  await page.fill("#catalogue-search input", "lending");
  await page.click("#list-sectors [role='option'][data-id='lending']");
  await page.waitForSelector("#sector-comps-to-builder");
  const ids = await page.$$eval("#sector-projects [role='option']", (items) =>
    items.map((item) => (item as HTMLElement).dataset.id ?? "")
  );
  expect(ids.length).toBeGreaterThan(1);
  await expectAccessible(page, "sector detail: comps actions");
  await page.click("#sector-comps-to-builder");
  await page.waitForSelector("#panel-build:visible");
  const columns = SECTOR_COMPS_COLUMNS.map((c) => c.column).join(",");
  await page.waitForFunction(
    (f) => document.querySelector("#builder-formula")?.textContent === f,
    formulaText("COMPS", [idListArg(ids), text(columns)])
  );
  // The columns are rows to edit, not a text to retype.
  expect(await page.locator("#b-columns-rows .comps-row").count()).toBe(
    SECTOR_COMPS_COLUMNS.length
  );
  expect(await page.getAttribute("#b-columns-2-window", "value")).toBe("ttm");

  // Back where the next tests expect the catalogue: the projects, unfiltered.
  await openSection(page, "browse");
  await page.click("#detail-back");
  await page.click("#ctab-projects");
  await page.fill("#catalogue-search input", "");
  await page.waitForSelector(`#catalogue-count:has-text('${PROJECT_COUNT} projects')`);
});

test("Insert statement builds a formatted worksheet named after the project: static, then live", async () => {
  await openSection(page, "tables");
  await expectAccessible(page, "tables");
  await pick(page, "statement-project", ["aave"]);
  await page.click("#statement-static");
  await page.click("#insert-statement");
  expect(await statusOf(page, "#statement-status")).toMatchObject({ kind: "success" });
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
  // Losses in parentheses, as statements print them.
  expect(formats).toContainEqual({ numberFormat: "#,##0_);(#,##0)" });
  expect(formats).toContainEqual({ numberFormat: "0.0%_);(0.0%)" });
  expect(formats.filter((f) => f.bold).length).toBeGreaterThan(3);

  await page.click("#statement-static");
  await page.click("#insert-statement");
  await page.waitForFunction(
    () =>
      (window.__recordingWorkbook?.calls ?? []).filter((c) => c.op === "createSheet").length === 2
  );
  const live = await lastCall();
  if (live?.op !== "createSheet") throw new Error("expected a second sheet");
  expect(live.sheetName).toBe("Aave (2)");
  expect(live.plan.blocks.flatMap((b) => b.cells.flat())).toContainEqual({
    formula: '=CRYPTO.STATEMENT("aave","quarter","1y","headers=2")',
  });
  await expectAccessible(page, "tables: statement inserted");
});

test("Refresh all asks for a full recalculation and shows when it ran", async () => {
  await openSection(page, "refresh");
  expect(await page.evaluate(() => document.activeElement?.id)).toBe("page-title");
  await expectAccessible(page, "refresh");
  await page.click("#refresh-all");
  expect(await statusOf(page, "#refresh-status")).toMatchObject({ kind: "success" });
  expect(await lastCall()).toEqual({ op: "recalculate", scope: "all" });
  expect(await page.innerText("#last-refresh")).toMatch(
    /^Last refresh: \d\d:\d\d:\d\d UTC \(all, from the taskpane\)/
  );
  await page.click("#freeze");
  await page.waitForFunction(
    () => window.__recordingWorkbook?.calls.at(-1)?.op === "freezeToValues"
  );
  expect(await lastCall()).toMatchObject({ op: "freezeToValues", scope: "selection" });
  await page.keyboard.press("Escape");
  await page.waitForSelector("#panel-refresh", { state: "hidden" });
  expect(await page.evaluate(() => document.activeElement?.id)).toBe("more-menu");
});

test("diagnostics show usage against the limit and export JSON without the key", async () => {
  await openSection(page, "diagnostics");
  expect(await page.innerText("#usage-text")).toMatch(/^\d+ of 60 requests in the last minute$/);
  await page.click("#export-diagnostics");
  await page.waitForSelector("#diagnostics-json:not([hidden])");
  const exported = JSON.parse(
    await page.evaluate(
      () => (document.getElementById("diagnostics-json") as HTMLElement & { value: string }).value
    )
  ) as { settings: { apiKey: string }; usage: { requestsTotal: number } };
  expect(exported.settings.apiKey).toBe(`••••••••${DEMO_API_KEY.slice(-4)}`);
  expect(JSON.stringify(exported)).not.toContain(DEMO_API_KEY);
  expect(exported.usage.requestsTotal).toBeGreaterThan(0);
  await expectAccessible(page, "diagnostics: exported");
});

test("Settings show the cache saved in IndexedDB, which never holds the key, and Clear cache empties it", async () => {
  await openSection(page, "settings");
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
  expect(await statusOf(page, "#cache-status")).toMatchObject({ kind: "success" });
  expect(await page.innerText("#cache-state")).toMatch(
    /^0 bytes in 0 answers, on this computer \(limit 50 MB/
  );
  await expectAccessible(page, "settings: cache cleared");
});

test("every section fits 320 px without scrolling sideways, and every control has a name", async () => {
  for (const section of [
    "browse",
    "build",
    "tables",
    "refresh",
    "diagnostics",
    "settings",
  ] as const) {
    await openSection(page, section);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
    expect({ section, overflow }).toEqual({ section, overflow: 320 });
    await expectAccessible(page, `${section} at 320 px`);
  }
});

test("the production page at 320 px in light, dark and forced colours passes axe (screenshots kept)", async () => {
  await openSection(page, "browse");
  if (await page.isVisible("#detail-back")) await page.click("#detail-back");
  await page.fill("#catalogue-search input", "");
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator("#list-projects [role='option']").first().waitFor();
  for (const [name, media] of [
    ["taskpane-production", { colorScheme: "light", forcedColors: "none" }],
    ["taskpane-production-dark", { colorScheme: "dark", forcedColors: "none" }],
    ["taskpane-production-forced-colors", { colorScheme: "light", forcedColors: "active" }],
  ] as const) {
    await page.emulateMedia(media);
    await page.waitForFunction(
      (dark) => document.documentElement.dataset.theme === (dark ? "dark" : "light"),
      media.colorScheme === "dark"
    );
    await page.focus("#tab-browse");
    await screenshot(page, name);
    await expectAccessible(page, `browse: ${name}`);
  }
  await page.emulateMedia({ colorScheme: "light", forcedColors: "none" });
});

test("no script errors and no Content-Security-Policy violations", async () => {
  expect(problems.errors).toEqual([]);
  expect(problems.csp).toEqual([]);
  expect(await cspViolations(page)).toEqual([]);
});
