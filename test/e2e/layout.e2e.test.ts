/**
 * The taskpane's room for content, measured on the production page in Chromium: one row of navigation at
 * 320 px, the height taken above the content at 320 and 450 px, the Tab presses from the top of the page to
 * the first project and past the project list, and no sideways scroll at 320 px nor at 200 % zoom of a
 * 450 px pane (a 225 CSS px viewport at device scale 2), in every section and on the help page. The
 * figures are written to test-results/layout-figures.json; the bounds asserted are far from them.
 */
import { mkdirSync, writeFileSync } from "fs";
import { join } from "path";
import type { Page } from "playwright-core";
import { ROOT } from "./support/build";
import { openPaneLab, type Lab } from "./support/pane-lab";
import { expectAccessible, recordAxeStates } from "./support/axe";
import { openSection, type Section } from "./support/taskpane";

let lab: Lab;
const figures: Record<string, unknown> = {};

beforeAll(async () => {
  lab = await openPaneLab({ page: false });
}, 300_000);

afterAll(async () => {
  recordAxeStates(__filename);
  mkdirSync(join(ROOT, "test-results"), { recursive: true });
  writeFileSync(
    join(ROOT, "test-results", "layout-figures.json"),
    JSON.stringify(figures, null, 2)
  );
  await lab?.close();
});

/** The taskpane, connected to the simulator (settings stored as the Settings page stores them). */
const connectedPane = (width: number, zoom = 1): Promise<Page> =>
  lab.connectedPane({ width, height: 900, zoom });

/** Header height, and where the first content of Browse starts (what the header and banner take). */
function header(page: Page): Promise<{ header: number; contentTop: number }> {
  return page.evaluate(() => ({
    header: Math.round(document.querySelector("header")!.getBoundingClientRect().height),
    contentTop: Math.round(document.querySelector("#panel-browse")!.getBoundingClientRect().top),
  }));
}

async function pressesUntil(page: Page, inside: string, leave = false, max = 200): Promise<number> {
  for (let n = 0; n <= max; n++) {
    const within = await page.evaluate((sel) => !!document.activeElement?.closest(sel), inside);
    if (within !== leave) return n;
    await page.keyboard.press("Tab");
  }
  throw new Error(`focus did not ${leave ? "leave" : "reach"} ${inside} in ${max} presses`);
}

const SECTIONS: readonly Section[] = [
  "browse",
  "build",
  "tables",
  "refresh",
  "diagnostics",
  "settings",
];

async function sideways(page: Page): Promise<Record<string, number>> {
  const widths: Record<string, number> = {};
  for (const section of SECTIONS) {
    await openSection(page, section);
    widths[section] = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth
    );
  }
  await openSection(page, "browse");
  await page.click("#list-projects [data-id='aave']");
  await page.waitForSelector("#insert-value");
  widths["project detail"] = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth
  );
  await page.click("#detail-back");
  return widths;
}

test("at 320 px: one row of navigation, a header of one row and a line, five Tab presses to the first project", async () => {
  const page = await connectedPane(320);
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
  const measured = await header(page);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const toFirstProject = await pressesUntil(page, "#list-projects");
  const throughList = await pressesUntil(page, "#list-projects", true);
  figures["320px"] = { ...measured, toFirstProject, tabStopsInProjectList: throughList };
  // Before this layout: a 135 px header, content from 225 px, 6 presses, one stop per project (46).
  expect(measured.contentTop).toBeLessThan(120);
  expect(toFirstProject).toBeLessThanOrEqual(5);
  expect(throughList).toBe(1);
  expect(await sideways(page)).toEqual({
    ...Object.fromEntries(SECTIONS.map((s) => [s, 0])),
    "project detail": 0,
  });
  await page.context().close();
});

test("at 450 px the header is one row and a line too", async () => {
  const page = await connectedPane(450);
  const measured = await header(page);
  figures["450px"] = measured;
  expect(measured.contentTop).toBeLessThan(120);
  await page.context().close();
});

test("at 200 % zoom of a 450 px pane nothing scrolls sideways, in any section or a project's detail", async () => {
  const page = await connectedPane(225, 2);
  const widths = await sideways(page);
  figures["225px (200 % of 450 px)"] = { overflow: widths, ...(await header(page)) };
  expect(widths).toEqual({
    ...Object.fromEntries(SECTIONS.map((s) => [s, 0])),
    "project detail": 0,
  });
  await expectAccessible(page, "browse at 200 % zoom of 450 px");
  await page.context().close();
});

test("the help page fits 320 px, has a main landmark, and passes axe", async () => {
  const { page } = await lab.openPage({ width: 320, height: 900 });
  await page.goto(`${lab.server.url}/help.html`);
  expect(await page.locator("main").count()).toBe(1);
  expect(
    await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth
    )
  ).toBe(0);
  await expectAccessible(page, "help page at 320 px");
  await page.context().close();
});
