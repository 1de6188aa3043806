/**
 * The taskpane against hostile service text and addresses, in a real browser (Debian's Chromium) on the
 * production build (a local-testing build: no ADDIN_ORIGIN). A project name carrying bidirectional
 * overrides ("Aave ‮gnp.exe‬" would show as "Aave exe.png") shows them as U+FFFD, as the CLI does; and the
 * page's Content-Security-Policy lets it send requests to no origin but its own and loopback (the
 * deployed builds' named origins are checked in test/security/csp.test.ts).
 */
import type { Page } from "playwright-core";
import { DEMO_API_KEY, type RunningSimulator } from "../../src/simulator";
import type { Problems } from "../e2e/support/browser";
import { openPaneLab, type PaneLab } from "../e2e/support/pane-lab";
import { openSection } from "../e2e/support/taskpane";
import { startHostileProxy, type HostileProxy } from "./hostile-proxy";

const PLANTED = "Aave \u202egnp.exe\u202c \u2067isolated\u2069";
const SHOWN = "Aave \ufffdgnp.exe\ufffd \ufffdisolated\ufffd";
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

let lab: PaneLab;
let simulator: RunningSimulator;
let proxy: HostileProxy;
let page: Page;
let problems: Problems;

beforeAll(async () => {
  lab = await openPaneLab({ simulator: { readings: { preflight: "refuse" } } });
  ({ simulator, page, problems } = lab);
  proxy = await startHostileProxy(simulator.url, PLANTED);
  await page.fill("#base-url input", proxy.url);
  await page.click("#save-connection");
  await page.fill("#api-key input", DEMO_API_KEY);
  await page.click("#test-connection");
  await page.waitForSelector("#connection-result[data-verdict='valid']");
}, 300_000);

afterAll(async () => {
  await lab?.close();
  await proxy?.close();
});

test("the catalogue lists the name with the placeholder in place of each override", async () => {
  await openSection(page, "browse");
  await page.waitForSelector("#catalogue-count:has-text('projects')");
  await page.fill("#catalogue-search input", "aave");
  const name = page.locator("#list-projects [data-id='aave'] .entry-name");
  expect(await name.innerText()).toBe(SHOWN);
});

test("the project's detail shows it the same way, and no text of the page holds an override", async () => {
  await page.click("#list-projects [data-id='aave']");
  await page.waitForSelector("#insert-value");
  expect(await page.innerText("#detail-title")).toBe(SHOWN);
  const everywhere = await page.evaluate(() => {
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) texts.push(n.textContent ?? "");
    for (const el of document.querySelectorAll("[title], [aria-label]"))
      texts.push(el.getAttribute("title") ?? "", el.getAttribute("aria-label") ?? "");
    return texts.join("\n");
  });
  expect(everywhere).toContain(SHOWN);
  expect(everywhere).not.toMatch(BIDI);
  expect(problems.errors).toEqual([]);
});

test("the page may send requests to loopback (this local build's simulator) and to no other origin", async () => {
  const outcome = await page.evaluate(async (sim) => {
    const blocked: string[] = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      blocked.push(`${e.effectiveDirective} ${e.blockedURI}`)
    );
    const tryFetch = (url: string) =>
      fetch(url, { cache: "no-store" }).then(
        (r) => `answered ${r.status}`,
        () => "refused"
      );
    const elsewhere = await tryFetch("https://metrics.example/v2/projects");
    const local = await tryFetch(`${sim}/v2/metrics`);
    await new Promise((r) => setTimeout(r, 100));
    return { elsewhere, local, blocked };
  }, simulator.url);
  expect(outcome.elsewhere).toBe("refused");
  expect(outcome.blocked).toEqual(["connect-src https://metrics.example/v2/projects"]);
  // Loopback is allowed to this local build (the simulator answers, here without a key: 401).
  expect(outcome.local).toMatch(/^answered \d{3}$/);
});
