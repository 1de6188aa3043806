/**
 * The taskpane when the service is down, in a real browser (Debian's Chromium) against the production build:
 * the verdict of Test connection comes within seconds, what was shown for the old connection is cleared,
 * the failure is an alert in plain words with Retry and Go to Settings, and Retry recovers once the service
 * answers again. "Down" is a real closed port on loopback (connection refused), as a stopped service is;
 * "back" is the simulator started on that same port. axe-core checks every state visited (WCAG 2.2 AA).
 */
import { createServer } from "net";
import type { Page } from "playwright-core";
import { startSimulator, DEMO_API_KEY } from "../../src/simulator";
import type { RunningSimulator } from "../../src/simulator";
import type { Problems } from "./support/browser";
import { openPaneLab, type PaneLab } from "./support/pane-lab";
import { expectAccessible, recordAxeStates } from "./support/axe";
import { connect, focused, openSection, statusOf } from "./support/taskpane";

let lab: PaneLab;
let simulator: RunningSimulator;
let revived: RunningSimulator | undefined;
let page: Page;
let problems: Problems;
/** A loopback port nothing listens on: taken from the system, then released. */
let deadPort: number;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Internal names and retry mechanics a user should never read. */
const CODE_WORDS =
  /list[A-Z]\w+\(|getProject|createClient|gave up after|attempts\)|ECONNREFUSED|fetch failed/;

beforeAll(async () => {
  const [opened, port] = await Promise.all([openPaneLab(), freePort()]);
  lab = opened;
  ({ simulator, page, problems } = opened);
  deadPort = port;
}, 300_000);

afterAll(async () => {
  recordAxeStates(__filename);
  await lab?.close();
  await revived?.close();
});

test("connected to the service, a project's detail is open", async () => {
  await connect(page, simulator.url);
  await page.click("#page-back");
  await page.click("#list-projects [data-id='aave']");
  await page.waitForSelector("#insert-value");
  expect(await page.innerText("#detail-title")).toMatch(/Aave/);
});

test("Test connection says the service cannot be reached within a few seconds, with Test again", async () => {
  await openSection(page, "settings");
  await page.fill("#base-url input", `http://127.0.0.1:${deadPort}`);
  await page.click("#save-connection");
  // Tried before it is kept: nothing answers, so it is not saved, and may be kept unchecked.
  await page.waitForSelector("#base-url-error:visible", { timeout: 20_000 });
  expect(await page.innerText("#base-url-error")).toMatch(/^Not saved\. No answer from/);
  await page.click("#keep-unchecked");
  expect(await statusOf(page, "#service-status")).toMatchObject({ kind: "success" });
  // What was said about the old connection went with it.
  expect(await page.getAttribute("#connection-result", "data-verdict")).toBeNull();

  const started = Date.now();
  await page.click("#test-connection");
  await page.waitForSelector("#connection-result[data-verdict='unreachable']", { timeout: 20_000 });
  // The verdict's own policy gives up within 3 s; the bound is far from it so a busy machine passes.
  expect(Date.now() - started).toBeLessThan(10_000);
  const alert = page.locator("#connection-result [role='alert']");
  expect(await alert.innerText()).not.toMatch(CODE_WORDS);
  expect(await page.isVisible("#connection-result [data-action='retry']")).toBe(true);
  // The key is kept: it could not be checked, not refused.
  expect(await page.innerText("#key-state")).toContain(`••••••••${DEMO_API_KEY.slice(-4)}`);
  await expectAccessible(page, "settings: service unreachable");
});

test("the old connection's detail is cleared; loading the catalogue fails as an alert with Retry and Go to Settings", async () => {
  await page.click("#page-back");
  await page.waitForSelector("#panel-browse:visible");
  // The detail opened over the old connection is gone, not shown stale over the new one.
  expect(await page.isVisible("#detail-title")).toBe(false);
  expect(await page.isVisible("#insert-value")).toBe(false);

  // The client's whole retry budget for a silent service runs before the alert: well under a minute.
  await page.waitForSelector("#catalogue-status [role='alert']", { timeout: 60_000 });
  const alert = await page.innerText("#catalogue-status [role='alert']");
  expect(alert).toMatch(/catalogue/i);
  expect(alert).not.toMatch(CODE_WORDS);
  expect(await page.getAttribute("#catalogue-status", "data-kind")).toBe("error");
  // No list of the old connection is left under the alert.
  expect(await page.locator("#list-projects [role='option']").count()).toBe(0);
  expect(await page.isVisible("#catalogue-status [data-action='retry']")).toBe(true);
  expect(await page.isVisible("#catalogue-status [data-action='settings']")).toBe(true);
  await expectAccessible(page, "browse: service down");
}, 90_000);

test("Go to Settings opens Settings from the alert, and Back returns to it", async () => {
  await page.click("#catalogue-status [data-action='settings']");
  await page.waitForSelector("#panel-settings:visible");
  expect(await page.innerText("#page-title")).toBe("Settings");
  expect(await focused(page)).not.toBe("body");
  await page.click("#page-back");
  await page.waitForSelector("#panel-browse:visible");
  expect(await page.isVisible("#catalogue-status [data-action='retry']")).toBe(true);
});

test("Retry loads the catalogue once the service answers again, and the alert goes", async () => {
  revived = await startSimulator({
    port: deadPort,
    host: "127.0.0.1",
    rateLimit: null,
    readings: { preflight: "answer" },
  });
  await page.focus("#catalogue-status [data-action='retry']");
  await page.keyboard.press("Enter");
  expect(await focused(page)).not.toBe("body");
  await page.locator("#list-projects [role='option']").first().waitFor({ timeout: 30_000 });
  expect(await page.locator("#catalogue-status [role='alert']").count()).toBe(0);
  expect(await page.isVisible("#list-projects [data-id='aave']")).toBe(true);
  expect(await focused(page)).not.toBe("body");
  await expectAccessible(page, "browse: recovered after Retry");
}, 60_000);

test("no script errors and no Content-Security-Policy violations", () => {
  expect(problems.csp).toEqual([]);
  // A refused connection is reported by Chromium as a failed load; nothing else may fail.
  expect(problems.errors.filter((e) => !/ERR_CONNECTION_REFUSED|Failed to fetch/.test(e))).toEqual(
    []
  );
});
