/**
 * The taskpane's room, measured in Chromium on the production page at 320 and 450 px and at 200 % zoom of
 * both (160 and 225 CSS px at device scale 2): in every section, Tab reaches every control and each one is
 * fully visible when focused (every probe point answers `elementFromPoint` with the control, not a bar
 * over it); the bars that stay in view (the app bar, the builder's footer) never take more than a third
 * of the pane; the formula being inserted is whole and readable when Insert has focus, the comps builder's
 * included. axe-core checks each state; the figures go to test-results/pane-room.json and the README's
 * screenshots at 320 px and 200 % zoom to assets/screenshots/ (kept unless CM_UPDATE_SCREENSHOTS=1).
 */
import { mkdirSync, writeFileSync } from "fs";
import { join } from "path";
import type { Page } from "playwright-core";
import { ROOT } from "./support/build";
import { screenshot } from "./support/browser";
import { openPaneLab, type Lab } from "./support/pane-lab";
import { expectAccessible, recordAxeStates } from "./support/axe";
import { choose, openSection, pick, type Section } from "./support/taskpane";
import { focusView, PANES, stickyShare, tabWalk, type Pane, type WalkStop } from "./pane-checks";

let lab: Lab;
const figures: Record<string, Record<string, unknown>> = {};

beforeAll(async () => {
  lab = await openPaneLab({ simulator: { readings: { preflight: "refuse" } }, page: false });
}, 300_000);

afterAll(async () => {
  recordAxeStates(__filename);
  mkdirSync(join(ROOT, "test-results"), { recursive: true });
  writeFileSync(join(ROOT, "test-results", "pane-room.json"), JSON.stringify(figures, null, 2));
  await lab?.close();
});

const THIRD = 1 / 3;

/** From the top of the page, Tab through the whole section; every stop checked. */
async function walk(page: Page, state: string): Promise<WalkStop[]> {
  const stops = await tabWalk(page);
  const hidden = stops.filter((s) => !s.fullyVisible);
  const crowded = stops.filter((s) => s.share > THIRD + 0.001);
  expect({ state, hidden, crowded }).toEqual({ state, hidden: [], crowded: [] });
  return stops;
}

function record(pane: Pane, state: string, value: unknown): void {
  (figures[pane.name] ??= {})[state] = value;
}

/** Opens the formula builder on METRIC with its options unfolded: the longest form of the pane. */
async function metricBuilder(page: Page): Promise<void> {
  await openSection(page, "build");
  await choose(page, "builder-function", "METRIC");
  await pick(page, "b-project", ["aave"]);
  await pick(page, "b-metric", ["fees"]);
  await page.waitForFunction(
    () =>
      document.querySelector("#builder-formula")?.textContent ===
      '=CRYPTO.METRIC("aave","fees",TODAY()-365)'
  );
  if ((await page.getAttribute("#b-options", "expanded")) === null)
    await page.locator("#b-options [part='button']").click();
  await page.waitForSelector("#b-opt-order:visible");
}

/** Browse › Sectors › Lending › Edit in the formula builder: the comps builder of the finding. */
async function compsBuilder(page: Page): Promise<void> {
  await openSection(page, "browse");
  if (await page.isVisible("#detail-back")) await page.click("#detail-back");
  await page.click("#ctab-sectors");
  await page.click("#list-sectors [role='option'][data-id='lending']");
  await page.click("#sector-comps-to-builder");
  await page.waitForSelector("#panel-build:visible");
  await page.waitForFunction(() =>
    document.querySelector("#builder-formula")?.textContent?.startsWith("=CRYPTO.COMPS(")
  );
  // The comps preview itself (headed "Project"), not the METRIC preview an earlier step left: the page's
  // layout is measured once the result that changes it has arrived.
  await page.waitForFunction(
    () =>
      document.querySelector("#builder-result thead th")?.textContent === "Project" &&
      document.querySelector("#builder-result td.cell.number") !== null
  );
}

/** The formula is whole (not cut, not shrunk) and fully visible while Insert has focus. */
async function formulaReadableAtInsert(page: Page): Promise<Record<string, number | boolean>> {
  await page.focus("#builder-insert");
  await page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))
  );
  const insert = await focusView(page);
  expect(insert?.fullyVisible).toBe(true);
  const formula = await page.evaluate(() => {
    const element = document.querySelector<HTMLElement>("#builder-formula")!;
    const box = element.getBoundingClientRect();
    const hits = [
      [box.left + 2, box.top + 2],
      [box.right - 2, box.bottom - 2],
      [(box.left + box.right) / 2, (box.top + box.bottom) / 2],
    ].map(([x, y]) => {
      const hit = document.elementFromPoint(x, y);
      return !!hit && (hit === element || element.contains(hit));
    });
    const insertBox = document.querySelector("#builder-insert")!.getBoundingClientRect();
    return {
      height: Math.round(box.height),
      textHeight: element.scrollHeight,
      characters: element.textContent?.length ?? 0,
      visible: hits.every(Boolean) && box.top >= 0 && box.bottom <= window.innerHeight,
      overlapsInsert: box.bottom > insertBox.top + 0.5,
    };
  });
  // Whole: nothing clipped inside its box; readable: on screen with Insert; not under the button.
  expect(formula.textHeight).toBeLessThanOrEqual(formula.height + 1);
  expect(formula.visible).toBe(true);
  expect(formula.overlapsInsert).toBe(false);
  return formula;
}

const SECTIONS: readonly Section[] = [
  "browse",
  "build",
  "tables",
  "refresh",
  "diagnostics",
  "settings",
];

describe.each(PANES)("the pane at $name", (pane) => {
  let page: Page;
  beforeAll(async () => {
    page = await lab.connectedPane(pane);
  }, 60_000);
  afterAll(() => page?.context().close());

  test("every section: Tab reaches each control fully visible, the bars within a third, no sideways scroll", async () => {
    for (const section of SECTIONS) {
      await openSection(page, section);
      if (section === "build") await metricBuilder(page);
      const stops = await walk(page, `${pane.name} ${section}`);
      expect(stops.length).toBeGreaterThan(2);
      const sideways = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth
      );
      expect({ section, sideways }).toEqual({ section, sideways: 0 });
      const { share, bars } = await stickyShare(page);
      record(pane, section, {
        stops: stops.length,
        barsShare: Number(share.toFixed(3)),
        bars,
        largestShareWhileTabbing: Number(
          stops.reduce((most, s) => Math.max(most, s.share), 0).toFixed(3)
        ),
      });
      await page.evaluate(() => window.scrollTo(0, 0));
      await expectAccessible(page, `${pane.name}: ${section}`);
    }
  }, 240_000);

  test("a project's detail: every control reachable and fully visible", async () => {
    await openSection(page, "browse");
    await page.click("#list-projects [data-id='aave']");
    await page.waitForSelector("#insert-value");
    await page.locator("#detail-metrics-section [part='button']").click();
    const stops = await walk(page, `${pane.name} project detail`);
    expect(stops.map((s) => s.focus)).toContain("fluent-button#insert-statement-formula");
    record(pane, "project detail", { stops: stops.length });
    await expectAccessible(page, `${pane.name}: project detail`);
    await page.click("#detail-back");
  }, 120_000);

  test("the comps builder of a sector: the formula whole and readable at Insert, every control visible", async () => {
    await compsBuilder(page);
    const formula = await formulaReadableAtInsert(page);
    const { share, bars } = await stickyShare(page);
    expect(share).toBeLessThanOrEqual(THIRD + 0.001);
    const stops = await walk(page, `${pane.name} comps builder`);
    expect(stops.map((s) => s.focus)).toContain("fluent-button#builder-insert");
    record(pane, "comps builder", {
      formula,
      barsShare: Number(share.toFixed(3)),
      bars,
      stops: stops.length,
    });
    await page.evaluate(() => window.scrollTo(0, 0));
    await expectAccessible(page, `${pane.name}: comps builder`);
    if (pane.name === "320 px") {
      await page.focus("#builder-insert");
      await screenshot(page, "taskpane-comps-builder-320", { readme: true });
    }
    if (pane.name === "450 px at 200 %") {
      await page.focus("#builder-insert");
      await screenshot(page, "taskpane-comps-builder-450-zoom-200", { readme: true });
    }
    if (pane.name === "320 px at 200 %") {
      await page.focus("#builder-insert");
      await screenshot(page, "taskpane-comps-builder-320-zoom-200", { readme: true });
    }
  }, 120_000);
});
