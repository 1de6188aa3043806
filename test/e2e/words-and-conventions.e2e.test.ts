/**
 * The words and the conventions of the pages, in Chromium against the production build:
 * - metric names where people read (a statement's lines in the builder's preview and on a statement
 *   sheet, the detail's metric choices), finance words for COMPS headers ("P/S (TTM)"), changes as
 *   percentages in the preview; the ids stay in the formulas;
 * - Fluent 2 conventions: no error before input, archived as a neutral badge, one primary action per view,
 *   search with its icon and clear button, Fluent accordions (no native <details>), a sector's projects
 *   that open, dropdown options on one line that never run into each other at 320 px;
 * - the README's plain Excel functions around CRYPTO results evaluate on the preview page;
 * - without office.js (its CDN unreachable) the pages say so, with Reload, instead of loading forever.
 * axe-core checks every state visited.
 */
import type { Browser, Page } from "playwright-core";
import { createDataset, DEMO_API_KEY, type RunningSimulator } from "../../src/simulator";
import { openPage } from "./support/browser";
import { openPaneLab, type Lab } from "./support/pane-lab";
import type { StaticServer } from "./support/static-server";
import { expectAccessible, recordAxeStates } from "./support/axe";
import { choose, openSection, pick, recordedCalls, type Section } from "./support/taskpane";
import { PANES } from "./pane-checks";

/** The catalogue's size as the simulator serves it: the demo projects, whatever their number. */
const PROJECT_COUNT = createDataset("2026-01-01").projects.length;

let lab: Lab;
let simulator: RunningSimulator;
let server: StaticServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  lab = await openPaneLab({ simulator: { readings: { preflight: "refuse" } }, page: false });
  ({ simulator, server, browser } = lab);
  page = await lab.connectedPane(PANES[0]);
}, 300_000);

afterAll(async () => {
  recordAxeStates(__filename);
  await lab?.close();
});

const text = (selector: string): Promise<string> => page.innerText(selector);

describe("names where people read, ids where formulas need them", () => {
  test("a statement previewed in the builder names its lines and shows changes as percentages", async () => {
    await openSection(page, "build");
    await choose(page, "builder-function", "STATEMENT");
    await pick(page, "b-project", ["aave"]);
    await page.waitForFunction(
      () => document.querySelector("#builder-formula")?.textContent === '=CRYPTO.STATEMENT("aave")'
    );
    await page.waitForSelector("#builder-result td.cell.number");
    const preview = await text("#builder-result");
    expect(preview).toContain("Supply-side fees");
    expect(preview).not.toContain("fees_supply_side");
    await page.locator("#b-options [part='button']").click();
    await choose(page, "b-opt-values", "pop");
    await page.waitForFunction(
      () =>
        document.querySelector("#builder-formula")?.textContent ===
        '=CRYPTO.STATEMENT("aave",,,"values=pop")'
    );
    await page.waitForFunction(() =>
      /^-?\d+\.\d%$/.test(
        document.querySelector("#builder-result td.cell.number")?.textContent ?? ""
      )
    );
    expect(
      await page.$$eval("#builder-result td.cell.number", (cells) =>
        cells.every((c) => /^-?[\d,]+\.\d%$/.test(c.textContent ?? ""))
      )
    ).toBe(true);
    // Checked from the top, as the other builder states are: a control half under the sticky footer at
    // some scroll position is a smaller target for axe whatever the page.
    await page.evaluate(() => window.scrollTo(0, 0));
    await expectAccessible(page, "words: statement preview, changes as percentages");
  });

  test("a sector's comps previews its columns in finance words; the formula keeps the ids", async () => {
    await openSection(page, "browse");
    await page.click("#ctab-sectors");
    await page.click("#list-sectors [data-id='lending']");
    await page.click("#sector-comps-to-builder");
    await page.waitForFunction(
      () => document.querySelector("#builder-result thead th")?.textContent === "Project"
    );
    const header = await page.$$eval("#builder-result thead th", (cells) =>
      cells.map((c) => c.textContent)
    );
    expect(header).toEqual([
      "Project",
      "Fully diluted market cap",
      "Revenue (TTM)",
      "Fees (TTM)",
      "P/S (TTM)",
    ]);
    expect(await text("#builder-formula")).toContain("market_cap_fully_diluted/revenue:ttm");
    // The rows of the editor are titled as the headers read.
    expect(await text("#b-columns-4-title")).toBe("Column 4: P/S (TTM)");
  });

  test("a statement sheet names its lines; the project's metric choices are names", async () => {
    await openSection(page, "tables");
    await pick(page, "statement-project", ["aave"]);
    await page.click("#statement-static");
    await page.click("#insert-statement");
    await page.waitForSelector("#statement-status[data-kind='success']", { timeout: 20_000 });
    const call = (await recordedCalls(page)).at(-1);
    if (call?.op !== "createSheet") throw new Error("expected a statement sheet");
    const labels = call.plan.blocks.flatMap((b) => b.cells.map((row) => row[0]));
    expect(labels).toContain("Supply-side fees");
    expect(labels).not.toContain("fees_supply_side");
    await page.click("#statement-static");

    await openSection(page, "browse");
    if (await page.isVisible("#detail-back")) await page.click("#detail-back");
    await page.click("#ctab-projects");
    await page.click("#list-projects [data-id='aave']");
    await page.waitForSelector("#detail-metric");
    const choices = await page.$$eval("#detail-metric fluent-option", (options) =>
      options.map((o) => o.textContent?.trim())
    );
    expect(choices).toContain("Supply-side fees");
    expect(choices.filter((c) => /\(\w+\)$/.test(c ?? ""))).toEqual([]);
  });
});

describe("Fluent 2 conventions", () => {
  test("no error before input: the builder starts with guidance, not red", async () => {
    // A builder that starts afresh (the choices of the tests above are kept across functions, by design).
    await page.reload();
    await page.waitForSelector("body[data-ready='true']", { timeout: 20_000 });
    await openSection(page, "build");
    await choose(page, "builder-function", "METRIC");
    await page.waitForSelector("#builder-hint:not(:empty)");
    expect(await text("#builder-hint")).toBe("Still to choose: projects, metrics.");
    expect(await page.locator("#builder-problems li").count()).toBe(0);
    expect(await page.locator("#panel-build [aria-invalid='true']").count()).toBe(0);
    expect(await page.locator("#panel-build .field-error:not([hidden])").count()).toBe(0);
    // Guidance in the neutral hint colour, not the error colour.
    const colours = await page.evaluate(() => {
      const hint = getComputedStyle(document.querySelector("#builder-hint")!).color;
      const probe = document.createElement("p");
      probe.className = "problems";
      document.body.append(probe);
      const error = getComputedStyle(probe).color;
      probe.remove();
      return { hint, error };
    });
    expect(colours.hint).not.toBe(colours.error);
    await expectAccessible(page, "conventions: builder before input");
  });

  test("archived is a neutral badge, its reason beside it as text", async () => {
    await openSection(page, "browse");
    if (await page.isVisible("#detail-back")) await page.click("#detail-back");
    await page.fill("#catalogue-search input", "anchor");
    const badge = "#list-projects [data-id='anchor-protocol'] .badge.archived";
    await page.waitForSelector(badge);
    const look = await page.evaluate((selector) => {
      const resolved = (variable: string, property: "color" | "backgroundColor"): string => {
        const probe = document.createElement("span");
        probe.style[property] = `var(${variable})`;
        document.body.append(probe);
        const value = getComputedStyle(probe)[property];
        probe.remove();
        return value;
      };
      const style = getComputedStyle(document.querySelector(selector)!);
      return {
        background: style.backgroundColor,
        color: style.color,
        neutralBackground: resolved("--colorNeutralBackground4", "backgroundColor"),
        neutralColor: resolved("--colorNeutralForeground2", "color"),
        dangerBackground: resolved("--colorStatusDangerBackground1", "backgroundColor"),
      };
    }, badge);
    expect(look.background).toBe(look.neutralBackground);
    expect(look.color).toBe(look.neutralColor);
    expect(look.background).not.toBe(look.dangerBackground);
    await page.click("#list-projects [data-id='anchor-protocol']");
    await page.waitForSelector("#detail-archived");
    expect(await text("#detail-archived .badge")).toBe("Archived");
    expect(await text("#detail-archived")).toMatch(/History kept, no new data\.$/);
    await expectAccessible(page, "conventions: archived project");
    await page.click("#detail-back");
  });

  test("one primary action per view, in every section and detail", async () => {
    const primaries = (): Promise<string[]> =>
      page.$$eval("fluent-button[appearance='primary']", (buttons) =>
        buttons
          .filter((b) => (b as HTMLElement).offsetParent !== null)
          .map((b) => b.id || b.textContent?.trim() || "?")
      );
    const seen: Record<string, string[]> = {};
    for (const section of [
      "browse",
      "build",
      "tables",
      "refresh",
      "diagnostics",
      "settings",
    ] as Section[]) {
      await openSection(page, section);
      seen[section] = await primaries();
    }
    await openSection(page, "browse");
    await page.fill("#catalogue-search input", "");
    await page.click("#list-projects [data-id='aave']");
    await page.waitForSelector("#insert-value");
    seen["project detail"] = await primaries();
    await page.click("#detail-back");
    await page.click("#ctab-sectors");
    await page.click("#list-sectors [data-id='lending']");
    await page.waitForSelector("#insert-sector-comps");
    seen["sector detail"] = await primaries();
    await page.click("#detail-back");
    await page.click("#ctab-projects");
    for (const [view, ids] of Object.entries(seen))
      expect({ view, many: ids.length > 1 ? ids : [] }).toEqual({ view, many: [] });
  });

  test("search has its magnifier and a clear button (and Escape), in a search landmark", async () => {
    await openSection(page, "browse");
    expect(await page.locator("[role='search'] #catalogue-search").count()).toBe(1);
    expect(await page.locator("#catalogue-search [slot='start'] svg").count()).toBe(1);
    expect(await page.isVisible("#catalogue-search-clear")).toBe(false);
    await page.fill("#catalogue-search input", "uni");
    await page.waitForSelector("#catalogue-search-clear:visible");
    expect(await text("#catalogue-count")).toMatch(
      new RegExp(`^\\d+ of ${PROJECT_COUNT} projects$`)
    );
    await expectAccessible(page, "conventions: search with text");
    await page.click("#catalogue-search-clear");
    expect(await page.inputValue("#catalogue-search input")).toBe("");
    expect(await text("#catalogue-count")).toBe(`${PROJECT_COUNT} projects`);
    expect(await page.isVisible("#catalogue-search-clear")).toBe(false);
    await page.fill("#catalogue-search input", "uni");
    await page.press("#catalogue-search input", "Escape");
    expect(await page.inputValue("#catalogue-search input")).toBe("");
    // A picker's search is the same box (without the landmark: it filters a choice).
    await openSection(page, "tables");
    expect(await page.locator("#statement-project-search [slot='start'] svg").count()).toBe(1);
  });

  test("foldable parts are Fluent accordion items; no native <details> anywhere", async () => {
    await openSection(page, "browse");
    await page.click("#list-projects [data-id='aave']");
    await page.waitForSelector("fluent-accordion-item#detail-metrics-section");
    expect(await page.locator("details, summary").count()).toBe(0);
    await openSection(page, "build");
    await choose(page, "builder-function", "METRIC");
    expect(await page.locator("fluent-accordion-item#b-options").count()).toBe(1);
    expect(await page.locator("details, summary").count()).toBe(0);
    await openSection(page, "browse");
    await page.click("#detail-back");
  });

  test("a sector's projects open their detail, and Back returns to the sector", async () => {
    await page.click("#ctab-sectors");
    await page.click("#list-sectors [data-id='lending']");
    await page.waitForSelector("#sector-projects [role='option']");
    await page.click("#sector-projects [data-id='aave']");
    await page.waitForSelector("#insert-value");
    expect(await text("#detail-title")).toBe("Aave");
    expect(await text("#detail-back")).toMatch(/Back to Lending/);
    await expectAccessible(page, "conventions: project opened from its sector");
    await page.click("#detail-back");
    await page.waitForSelector("#sector-projects");
    expect(await text("#detail-title")).toBe("Lending");
    // And by keyboard: Enter on a project.
    await page.focus("#sector-projects [role='option'][tabindex='0']");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#insert-value");
    await page.keyboard.press("Escape");
    await page.waitForSelector("#sector-projects");
    expect(await text("#detail-title")).toBe("Lending");
    await page.click("#detail-back");
    await page.click("#ctab-projects");
  });

  test("dropdown options at 320 px: one line each, none running into the next", async () => {
    await page.click("#list-projects [data-id='aave']");
    await page.waitForSelector("#detail-metric");
    for (const dropdown of ["detail-metric"]) {
      await page.click(`#${dropdown}`);
      await page.waitForSelector(`#${dropdown} fluent-option:visible`);
      const options = await page.$$eval(`#${dropdown} fluent-option`, (list) =>
        list.map((o) => {
          const box = o.getBoundingClientRect();
          const content = o.shadowRoot?.querySelector<HTMLElement>("[part='content']");
          return {
            text: o.textContent?.trim() ?? "",
            top: box.top,
            bottom: box.bottom,
            lines: content ? Math.round(content.getBoundingClientRect().height / 20) : 0,
            cut: content ? content.scrollWidth > content.clientWidth + 1 : true,
          };
        })
      );
      expect(options.length).toBeGreaterThan(5);
      expect(options.filter((o) => o.lines > 1 || o.cut)).toEqual([]);
      for (let i = 1; i < options.length; i++)
        expect(options[i].top).toBeGreaterThanOrEqual(options[i - 1].bottom - 0.5);
      await page.keyboard.press("Escape");
      // Checked closed: open, Fluent's own list scrolls without being a tab stop (its options are reached
      // from the combobox by arrow keys), which axe's scrollable-region rule cannot know.
      await expectAccessible(page, `conventions: ${dropdown} after choosing at 320 px`);
    }
    await page.click("#detail-back");
  });
});

describe("the README's plain Excel functions on the preview page", () => {
  test("SUM, AVERAGE, MIN, MAX, INDEX, ROWS and COLUMNS around a CRYPTO result give what the data says", async () => {
    const { page: preview } = await openPage(browser, { width: 1000, height: 800 });
    await preview.goto(`${server.url}/preview.html`);
    await preview.evaluate(
      ([url, key]) => {
        localStorage.setItem("cryptometrics.baseUrl", url);
        localStorage.setItem("cryptometrics.apiKey", key);
      },
      [simulator.url, DEMO_API_KEY]
    );
    await preview.reload();
    await preview.waitForSelector("body[data-ready='true']", { timeout: 20_000 });
    const enter = async (address: string, formula: string): Promise<string> => {
      await preview.click(`#cell-${address}`);
      await preview.fill("#formula-input", formula);
      await preview.press("#formula-input", "Enter");
      await preview.waitForFunction((id) => {
        const shown = document.getElementById(id)?.textContent ?? "";
        return shown !== "" && shown !== "#BUSY!";
      }, `cell-${address}`);
      return preview.innerText(`#cell-${address}`);
    };
    const january = 'CRYPTO.METRIC("aave","fees","2024-01-01","2024-01-31","dates=0; headers=0")';
    // The simulator's own series: the oracle.
    const days = createDataset(new Date().toISOString().slice(0, 10))
      .daily("aave", "fees", { start: "2024-01-01", end: "2024-01-31" })
      .map((p) => p.value ?? 0);
    const sum = days.reduce((a, b) => a + b, 0);
    const shown = (value: number): string =>
      new Intl.NumberFormat("en-US", { maximumFractionDigits: value >= 1000 ? 0 : 2 }).format(
        value
      );
    expect(await enter("A1", `=SUM(${january})`)).toBe(shown(sum));
    expect(await enter("A2", `=AVERAGE(${january})`)).toBe(shown(sum / days.length));
    const least = days.reduce((a, b) => Math.min(a, b), Infinity);
    const most = days.reduce((a, b) => Math.max(a, b), -Infinity);
    expect(await enter("A3", `=MIN(${january})`)).toBe(shown(least));
    expect(await enter("A4", `=MAX(${january})`)).toBe(shown(most));
    expect(await enter("A5", `=INDEX(${january},3)`)).toBe(shown(days[2]));
    expect(await enter("A6", `=ROWS(${january})`)).toBe("31");
    expect(
      await enter("A7", '=COLUMNS(CRYPTO.METRIC("aave","fees,revenue","2024-01-01","2024-01-31"))')
    ).toBe("3");
    // The README's own line, as written there.
    expect(
      await enter(
        "A8",
        '=SUM(CRYPTO.METRIC("aave","fees","2024-01-01","2024-01-31","dates=0; headers=0"))'
      )
    ).toBe(shown(sum));
    await expectAccessible(preview, "preview: plain Excel functions");
    await preview.context().close();
  });
});

describe("without office.js", () => {
  test.each(["taskpane.html", "preview.html"])(
    "%s says it could not start, and why, with Reload, instead of loading forever",
    async (file) => {
      const context = await browser.newContext({ viewport: { width: 320, height: 800 } });
      const bare = await context.newPage();
      // Microsoft's CDN unreachable, as behind a proxy that blocks it.
      await bare.route("https://appsforoffice.microsoft.com/**", (route) => route.abort());
      await bare.goto(`${server.url}/${file}`);
      await bare.waitForSelector("#office-missing[role='alert']", { timeout: 20_000 });
      expect(await bare.innerText("#office-missing")).toMatch(
        /Cryptometrics could not start\s+Office's script \(office\.js, from appsforoffice\.microsoft\.com\) did not load/
      );
      expect(await bare.isVisible("#office-reload")).toBe(true);
      expect(await bare.locator("text=Loading").count()).toBe(0);
      await expectAccessible(bare, `${file} without office.js`);
      await context.close();
    }
  );
});
