/**
 * Hostile service data in the taskpane, in a real browser (Debian's Chromium) on the production build: a
 * service that plants markup in names, descriptions, definitions and error messages, and script, data and
 * look-alike URLs in links. Everything is shown as text, nothing it carries runs, and the only links that
 * open are http(s) ones. The build, the simulator and the browser come from the e2e set-up
 * (test/e2e/support/pane-lab.ts).
 */
import type { Browser, Page } from "playwright-core";
import { DEMO_API_KEY, type RunningSimulator } from "../../src/simulator";
import { cspViolations, type Problems } from "../e2e/support/browser";
import { openPaneLab, type PaneLab } from "../e2e/support/pane-lab";
import { openSection } from "../e2e/support/taskpane";
import {
  HOSTILE_ERROR,
  HOSTILE_LINKS,
  HOSTILE_NAME,
  HOSTILE_WHAT,
  startHostileProxy,
  type HostileProxy,
} from "./hostile-proxy";

let lab: PaneLab;
let simulator: RunningSimulator;
let proxy: HostileProxy;
let browser: Browser;
let page: Page;
let problems: Problems;

beforeAll(async () => {
  lab = await openPaneLab();
  ({ simulator, browser, page, problems } = lab);
  proxy = await startHostileProxy(simulator.url);
}, 300_000);

afterAll(async () => {
  await lab?.close();
  await proxy?.close();
});

/** Nothing planted ran or became an element: no handler attributes, no planted image, no flag. */
async function nothingRan(): Promise<void> {
  const found = await page.evaluate(() => ({
    pwned: (window as unknown as { __pwned?: string }).__pwned ?? null,
    handlers: document.querySelectorAll("[onerror], [onload], [onclick]").length,
    images: document.querySelectorAll('img[src="x"]').length,
    inlineScripts: [...document.querySelectorAll("script")].filter((s) => !s.src).length,
  }));
  expect(found).toEqual({ pwned: null, handlers: 0, images: 0, inlineScripts: 0 });
}

test("a service error message full of markup is shown as text", async () => {
  await page.fill("#base-url input", proxy.url);
  await page.click("#save-connection");
  await page.fill("#api-key input", DEMO_API_KEY);
  proxy.failWithMarkup = true;
  await page.click("#test-connection");
  await page.waitForSelector("#connection-result[data-verdict='not-configured']");
  expect(await page.innerText("#connection-result")).toContain(HOSTILE_ERROR);
  await nothingRan();
  proxy.failWithMarkup = false;
  await page.click("#test-connection");
  await page.waitForSelector("#connection-result[data-verdict='valid']");
});

test("names with markup are listed as text", async () => {
  await openSection(page, "browse");
  await page.waitForSelector("#catalogue-count:has-text('projects')");
  await page.fill("#catalogue-search input", "aave");
  const name = page.locator("#list-projects [data-id='aave'] .entry-name");
  expect(await name.innerText()).toBe(HOSTILE_NAME);
  await nothingRan();
});

test("a project's name, description and definitions are shown as text; only http(s) links open", async () => {
  await page.click("#list-projects [data-id='aave']");
  await page.waitForSelector("#insert-value");
  expect(await page.innerText("#detail-title")).toBe(HOSTILE_NAME);
  expect(await page.innerText("#detail")).toContain(HOSTILE_WHAT);
  await page.locator("#detail-metrics-section [part='button']").click();
  // The item opens on its next frame: read its text once it is laid out (innerText of a hidden list is flat).
  await page.locator("#detail-metrics").waitFor({ state: "visible" });
  expect(await page.innerText("#detail-metrics")).toContain(
    "<script>window.__pwned='definition'</script>"
  );

  const anchors = await page.$$eval("#detail a", (as) =>
    as.map((a) => ({
      text: a.textContent ?? "",
      href: a.getAttribute("href") ?? "",
      target: a.getAttribute("target"),
      rel: a.getAttribute("rel"),
    }))
  );
  expect(
    anchors.map((a) => new URL(a.href).protocol).every((p) => p === "https:" || p === "http:")
  ).toBe(true);
  expect(anchors.map((a) => a.href).sort()).toEqual([
    "http://aave.example.org/",
    "https://docs.example.org/aave",
  ]);
  for (const a of anchors)
    expect(a).toMatchObject({ target: "_blank", rel: "noopener noreferrer" });
  // The others are there, as text: the user sees what the service sent, and nothing to click.
  const text = await page.innerText("#detail");
  for (const link of HOSTILE_LINKS.filter((l) => !/^https?:/.test(l.url)))
    expect(text).toContain(link.summary);
  expect(anchors.find((a) => a.href.startsWith("https:"))?.text).toBe(HOSTILE_LINKS[0].summary);
  await nothingRan();
});

test("a click on a planted link opens nothing", async () => {
  const before = browser.contexts()[0].pages().length;
  const planted = page.locator("#detail li", { hasText: "Script:" }).first();
  await planted.click();
  await page.waitForTimeout(200);
  expect(browser.contexts()[0].pages().length).toBe(before);
  await nothingRan();
});

test("no script errors and no Content-Security-Policy violations: nothing even tried to run", async () => {
  expect(problems.errors).toEqual([]);
  expect(problems.csp).toEqual([]);
  expect(await cspViolations(page)).toEqual([]);
});
