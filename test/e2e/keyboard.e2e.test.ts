/**
 * The taskpane by keyboard only, as a user without a pointer runs it: set the service address and the key,
 * browse, open a project, insert, build a formula, build a comps panel's columns, insert a statement, open
 * a page of the More menu and leave it. After every key press (and once its action has finished) keyboard focus is somewhere on the
 * page, never dropped to <body>; a watcher in the page also reports any moment focus fell to <body> in
 * between. axe-core checks each state on the way. Production build, simulator over loopback, 320 px.
 */
import type { Page } from "playwright-core";
import { DEMO_API_KEY, type RunningSimulator } from "../../src/simulator";
import { FUNCTION_SPECS } from "../../src/taskpane/model/function-specs";
import { SECTOR_COMPS_COLUMNS, sectorComps } from "../../src/taskpane/model/sector-comps";
import { openPaneLab, type PaneLab } from "./support/pane-lab";
import { expectAccessible, recordAxeStates } from "./support/axe";
import { focused, recordedCalls } from "./support/taskpane";

let lab: PaneLab;
let simulator: RunningSimulator;
let page: Page;
/** Key presses of the whole walk, for the record. */
let presses = 0;

beforeAll(async () => {
  lab = await openPaneLab({
    page: {
      // Any focus change that leaves focus on <body> once the event loop has moved on is a drop.
      beforeLoad: (page) =>
        page.addInitScript(() => {
          const drops: string[] = [];
          (window as unknown as { __focusDrops: string[] }).__focusDrops = drops;
          document.addEventListener(
            "focusout",
            (event) => {
              const from = event.target as HTMLElement;
              setTimeout(() => {
                if (document.activeElement === document.body && document.hasFocus())
                  drops.push(`${from.tagName.toLowerCase()}#${from.id}`);
              }, 50);
            },
            true
          );
        }),
    },
  });
  ({ simulator, page } = lab);
}, 300_000);

afterAll(async () => {
  recordAxeStates(__filename);
  await lab?.close();
});

afterEach(async () => {
  expect(
    await page.evaluate(() => (window as unknown as { __focusDrops: string[] }).__focusDrops)
  ).toEqual([]);
});

/** Waits for the builder's formula to read `formula`; a timeout says what it read instead. */
async function formulaIs(formula: string): Promise<void> {
  try {
    await page.waitForFunction(
      (f) => document.querySelector("#builder-formula")?.textContent === f,
      formula,
      { timeout: 10_000 }
    );
  } catch (error) {
    const shown = await page.textContent("#builder-formula");
    throw new Error(`the builder's formula is ${JSON.stringify(shown)}, not ${formula}`, {
      cause: error,
    });
  }
}

async function notOnBody(after: string): Promise<string> {
  const where = await focused(page);
  expect({ after, focus: where }).not.toEqual({ after, focus: "body" });
  return where;
}

/** Presses a key (or a chord) and checks focus stayed on the page. */
async function press(key: string): Promise<string> {
  presses++;
  await page.keyboard.press(key);
  return notOnBody(key);
}

async function type(text: string): Promise<void> {
  await page.keyboard.type(text);
  await notOnBody(`typing ${text}`);
}

/** Tab (or Shift+Tab) until `target` (a selector) holds focus; returns how many presses it took. */
async function tabTo(target: string, backwards = false, max = 60): Promise<number> {
  for (let n = 0; n <= max; n++) {
    const here = await page.evaluate(
      (sel) => !!document.activeElement && document.activeElement.matches(sel),
      target
    );
    if (here) return n;
    await press(backwards ? "Shift+Tab" : "Tab");
  }
  throw new Error(
    `${target} not reached with ${max} presses of ${backwards ? "Shift+Tab" : "Tab"}`
  );
}

/** After an action has finished (`done` appears), focus is still where it was: on the action's control. */
async function settled(done: string, stillOn: string): Promise<void> {
  await page.waitForSelector(done);
  expect(await notOnBody(`waiting for ${done}`)).toBe(stillOn);
}

test("set the service address and the key from the keyboard; a pressed button keeps focus", async () => {
  expect(await page.isVisible("#panel-settings")).toBe(true);
  await tabTo("#base-url");
  await type(simulator.url);
  await tabTo("#save-connection");
  await press("Enter");
  await settled("#service-status[data-kind='success']", "fluent-button#save-connection");

  // The key's form comes after the service's.
  await tabTo("#api-key");
  await type(DEMO_API_KEY);
  await tabTo("#save-key");
  await press("Enter");
  await settled("#connection-result[data-verdict='valid']", "fluent-button#save-key");
  await expectAccessible(page, "keyboard: settings, connected");

  // Escape leaves the page; focus goes to the menu that opens it.
  expect(await press("Escape")).toBe("fluent-menu-button#more-menu");
  expect(await page.isVisible("#panel-browse")).toBe(true);
});

test("browse: the list is one tab stop with arrow keys; Enter opens, Escape returns to the entry", async () => {
  await page.waitForSelector("#list-projects [role='option']");
  await tabTo("#tab-browse", true);
  // From the section's tab to the first project: menu, search, catalogue tab, list.
  const toList = await tabTo("#list-projects [role='option']");
  expect(toList).toBeLessThanOrEqual(4);
  expect(await focused(page)).toBe("div#list-projects-0");
  await press("ArrowDown");
  await press("ArrowDown");
  expect(await focused(page)).toBe("div#list-projects-2");
  await press("End");
  expect(await focused(page)).toMatch(/^div#list-projects-\d+$/);
  // One press of Shift+Tab leaves the whole list, wherever in it focus is.
  await press("Shift+Tab");
  expect(await focused(page)).toBe("fluent-tab#ctab-projects");

  await tabTo("#catalogue-search", true);
  await type("aave");
  await tabTo("#list-projects [role='option']");
  expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.id)).toBe(
    "aave"
  );
  await expectAccessible(page, "keyboard: browse, filtered");
  await press("Enter");
  await page.waitForSelector("#insert-value");
  expect(await focused(page)).toBe("h2#detail-title");

  await page.evaluate(() => window.__recordingWorkbook?.select("Sheet1!C3"));
  await tabTo("#insert-value");
  await press("Enter");
  await settled("#detail-status[data-kind='success']", "fluent-button#insert-value");
  expect((await recordedCalls(page)).at(-1)).toMatchObject({
    op: "insertFormula",
    address: "Sheet1!C3",
  });
  await expectAccessible(page, "keyboard: project detail, inserted");

  await press("Escape");
  expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.id)).toBe(
    "aave"
  );
});

test("sectors: arrow to the Sectors tab, open a sector, insert its comps table; Escape returns to it", async () => {
  // From the project entry the browse test returned to: one Shift+Tab leaves the list for its tab.
  await press("Shift+Tab");
  expect(await focused(page)).toBe("fluent-tab#ctab-projects");
  for (let i = 0; i < 2; i++) await press("ArrowRight");
  expect(await focused(page)).toBe("fluent-tab#ctab-sectors");
  await tabTo("#catalogue-search", true);
  await press("Control+A");
  await type("lending");
  await tabTo("#list-sectors [role='option']");
  expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.id)).toBe(
    "lending"
  );
  await press("Enter");
  await page.waitForSelector("#insert-sector-comps");
  expect(await focused(page)).toBe("h2#detail-title");
  // What it will insert is said next to the button (and is the button's description).
  expect(await page.innerText("#sector-comps-note")).toMatch(
    /^One COMPS formula, \d+ projects down: market cap \(fully diluted\), revenue TTM, fees TTM and P\/S/
  );
  const ids = await page.$$eval("#sector-projects [role='option']", (items) =>
    items.map((item) => (item as HTMLElement).dataset.id ?? "")
  );
  expect(ids.length).toBeGreaterThan(1);

  await page.evaluate(() => window.__recordingWorkbook?.select("Sheet1!G2"));
  await tabTo("#insert-sector-comps");
  await press("Enter");
  await settled("#detail-status[data-kind='success']", "fluent-button#insert-sector-comps");
  const expected = sectorComps(ids, SECTOR_COMPS_COLUMNS);
  expect(expected.kind).toBe("formula");
  expect((await recordedCalls(page)).at(-1)).toEqual({
    op: "insertFormula",
    address: "Sheet1!G2",
    formula: expected.kind === "formula" ? expected.formula : "",
  });
  expect(await page.innerText("#detail-status")).toMatch(
    new RegExp(`^Inserted the comps table of .+ \\(${ids.length} projects\\) in Sheet1!G2\\.$`)
  );
  await expectAccessible(page, "keyboard: sector detail, comps inserted");

  await press("Escape");
  expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.id)).toBe(
    "lending"
  );

  // Back to the project the next step opens, by keyboard.
  await press("Shift+Tab");
  for (let i = 0; i < 2; i++) await press("ArrowLeft");
  expect(await focused(page)).toBe("fluent-tab#ctab-projects");
  await tabTo("#catalogue-search", true);
  await press("Control+A");
  await type("aave");
  await tabTo("#list-projects [role='option']");
  expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.id)).toBe(
    "aave"
  );
});

test("build: open in the builder, change the function with the keyboard, pick, insert", async () => {
  await press("Enter");
  await page.waitForSelector("#open-builder");
  await tabTo("#open-builder");
  await press("Enter");
  await page.waitForSelector("#panel-build:visible");
  expect(await focused(page)).toBe("fluent-tab#tab-build");
  await page.waitForSelector("#builder-result td.cell");

  // The function dropdown: open, move down from VALUE to METRIC (as many steps as functions before it), choose.
  await tabTo("#builder-function [slot='control']");
  await press("Enter");
  const steps = FUNCTION_SPECS.findIndex((spec) => spec.name === "METRIC");
  for (let i = 0; i < steps; i++) await press("ArrowDown");
  await press("Enter");
  await page.waitForFunction(
    () =>
      (document.getElementById("builder-function") as HTMLElement & { value: string }).value ===
      "METRIC"
  );
  // The project and metric opened with (the detail's default, revenue) are kept across the switch, however
  // many functions the arrows passed; a second metric is picked by keyboard.
  await formulaIs('=CRYPTO.METRIC("aave","revenue",TODAY()-365)');
  await tabTo("#b-metric-search");
  await type("fees");
  await press("Tab");
  await press("Space");
  await formulaIs('=CRYPTO.METRIC("aave","revenue,fees",TODAY()-365)');
  await expectAccessible(page, "keyboard: builder, METRIC");
  await page.evaluate(() => window.__recordingWorkbook?.select("Sheet1!E5"));
  await tabTo("#builder-insert");
  await press("Enter");
  await settled("#builder-status[data-kind='success']", "fluent-button#builder-insert");
  expect((await recordedCalls(page)).at(-1)).toEqual({
    op: "insertFormula",
    address: "Sheet1!E5",
    formula: '=CRYPTO.METRIC("aave","revenue,fees",TODAY()-365)',
  });
});

/** True when keyboard focus is on `selector` (an element in the page's light DOM). */
function focusIs(selector: string): Promise<boolean> {
  return page.evaluate((sel) => !!document.activeElement?.matches(sel), selector);
}

/** Opens the focused Fluent dropdown, arrows down to the option of `value`, chooses it. */
async function chooseByKeyboard(dropdownId: string, value: string): Promise<void> {
  const values = await page.$$eval(`#${dropdownId} fluent-option`, (options) =>
    options.map((o) => o.getAttribute("value"))
  );
  const target = values.indexOf(value);
  expect(target).toBeGreaterThanOrEqual(0);
  const from = values.indexOf(
    await page.evaluate(
      (id) => (document.getElementById(id) as HTMLElement & { value: string }).value,
      dropdownId
    )
  );
  await press("Enter");
  for (let i = Math.max(from, 0); i < target; i++) await press("ArrowDown");
  await press("Enter");
  await page.waitForFunction(
    ([id, v]) => (document.getElementById(id) as HTMLElement & { value: string }).value === v,
    [dropdownId, value] as const
  );
}

test("build comps: remove the default columns, build P/S on TTM revenue by keyboard, insert", async () => {
  // From Insert (the step before): back up to the function dropdown, METRIC → COMPS.
  await tabTo("#builder-function [slot='control']", true);
  await press("Enter");
  const up =
    FUNCTION_SPECS.findIndex((spec) => spec.name === "METRIC") -
    FUNCTION_SPECS.findIndex((spec) => spec.name === "COMPS");
  for (let i = 0; i < up; i++) await press("ArrowUp");
  await press("Enter");
  await page.waitForFunction(
    () =>
      (document.getElementById("builder-function") as HTMLElement & { value: string }).value ===
      "COMPS"
  );
  // METRIC's project is kept (aave); uniswap is added by keyboard.
  await tabTo("#b-projects-search");
  await press("Control+A");
  await type("uniswap");
  await press("Tab");
  await press("Space");
  // The columns start at Insert comps's, and the preview computes them.
  const defaults = SECTOR_COMPS_COLUMNS.map((c) => c.column).join(",");
  await page.waitForFunction(
    (f) => document.querySelector("#builder-formula")?.textContent === f,
    `=CRYPTO.COMPS("aave,uniswap","${defaults}")`
  );
  await page.waitForSelector("#builder-result td.cell.number");
  await expectAccessible(page, "keyboard: builder, COMPS default columns");

  // Remove column moves focus to the next row's metric, and from the last row to Add column.
  const rows = SECTOR_COMPS_COLUMNS.length;
  for (let i = 1; i <= rows; i++) {
    await tabTo(`#b-columns-${i}-remove`);
    await press("Enter");
    await page.waitForSelector(`#b-columns-${i}`, { state: "detached" });
    expect(
      await focusIs(
        i < rows ? `#b-columns-${i + 1}-metric [slot='control']` : "fluent-button#b-columns-add"
      )
    ).toBe(true);
  }
  // Nothing is wrong yet: what is left to do is guidance, not an error.
  expect(await page.innerText("#builder-hint")).toBe("Add a column.");
  expect(await page.innerText("#builder-problems")).toBe("");

  // Add column: focus on the new row's metric; leaving it empty is an inline error.
  const row = `b-columns-${rows + 1}`;
  await press("Enter");
  await page.waitForSelector(`#${row}`);
  await page.waitForFunction(
    (sel) => !!document.activeElement?.matches(sel),
    `#${row}-metric [slot='control']`
  );
  await press("Tab");
  await page.waitForSelector(`#${row}-metric-error:visible`);
  expect(await page.getAttribute(`#${row}-metric [slot='control']`, "aria-invalid")).toBe("true");
  expect(await page.innerText(`#${row}-metric-error`)).toBe("Column 1: choose a metric.");
  await expectAccessible(page, "keyboard: builder, COMPS column without a metric");

  await tabTo(`#${row}-metric [slot='control']`, true);
  await chooseByKeyboard(`${row}-metric`, "market_cap_fully_diluted");
  await page.waitForSelector(`#${row}-metric-error`, { state: "hidden" });
  expect(await page.getAttribute(`#${row}-metric [slot='control']`, "aria-invalid")).toBeNull();
  await tabTo(`#${row}-divisor-metric [slot='control']`);
  await chooseByKeyboard(`${row}-divisor-metric`, "revenue");
  await tabTo(`#${row}-divisor-window [slot='control']`);
  await chooseByKeyboard(`${row}-divisor-window`, "ttm");
  const formula = '=CRYPTO.COMPS("aave,uniswap","market_cap_fully_diluted/revenue:ttm")';
  await page.waitForFunction(
    (f) => document.querySelector("#builder-formula")?.textContent === f,
    formula
  );
  // The preview evaluates it against the service: one row per project, a number in the P/S column. The
  // previous formula's preview (the plain P/S column) may still be showing: wait for this one's.
  await page.waitForSelector("#builder-result td.cell.number");
  await page.waitForFunction(() =>
    document.querySelector<HTMLElement>("#builder-result")?.innerText.includes("P/S (TTM)")
  );
  expect(await page.innerText("#builder-result")).toContain("P/S (TTM)");
  await expectAccessible(page, "keyboard: builder, COMPS P/S column");

  await page.evaluate(() => window.__recordingWorkbook?.select("Sheet1!H2"));
  await tabTo("#builder-insert");
  await press("Enter");
  await settled("#builder-status[data-kind='success']", "fluent-button#builder-insert");
  expect((await recordedCalls(page)).at(-1)).toEqual({
    op: "insertFormula",
    address: "Sheet1!H2",
    formula,
  });
});

test("tables: arrow to the Tables tab, pick a project, insert a statement sheet", async () => {
  await tabTo("#tab-build", true);
  await press("ArrowRight");
  expect(await focused(page)).toBe("fluent-tab#tab-tables");
  await page.waitForSelector("#panel-tables:visible");
  await tabTo("#statement-project-search");
  await type("aave");
  await press("Tab");
  await press("Space");
  await tabTo("#insert-statement");
  await press("Enter");
  await settled("#statement-status[data-kind='success']", "fluent-button#insert-statement");
  expect((await recordedCalls(page)).at(-1)).toMatchObject({
    op: "createSheet",
    sheetName: "Aave",
  });
  await expectAccessible(page, "keyboard: tables, statement inserted");
});

test("the More menu: open it, choose Diagnostics, read, Escape back to the menu button", async () => {
  await tabTo("#more-menu", true);
  await press("Enter");
  await page.waitForSelector("fluent-menu-list:popover-open");
  await expectAccessible(page, "keyboard: menu open");
  // Arrow keys move inside the menu.
  for (let i = 0; i < 4; i++) {
    if (await page.evaluate(() => document.activeElement?.id === "menu-diagnostics")) break;
    await press("ArrowDown");
  }
  expect(await focused(page)).toBe("fluent-menu-item#menu-diagnostics");
  await press("Enter");
  await page.waitForSelector("#panel-diagnostics:visible");
  await page.waitForFunction(() => document.activeElement?.id === "page-title");
  await expectAccessible(page, "keyboard: diagnostics page");
  await tabTo("#export-diagnostics");
  await press("Enter");
  await settled("#export-status[data-kind='success']", "fluent-button#export-diagnostics");
  expect(await press("Escape")).toBe("fluent-menu-button#more-menu");
  expect(presses).toBeGreaterThan(20);
});
