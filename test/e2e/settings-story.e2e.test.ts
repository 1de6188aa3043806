/**
 * Settings that check what they keep and tell one true story, in Chromium against the production page:
 * - a service address is tried before it is kept (as a key is) and a wrong one is refused with what to
 *   change: `…/v2` (drop /v2), the add-in's own origin where nothing serves the interface, a closed port
 *   (which may then be kept unchecked); every error view offers the action that can fix it;
 * - changing the address cancels what was in flight for the old one: an old host answering 503 (a proxy
 *   that forwards only the catalogue check to the simulator) gets no request after the change, and its
 *   "trying again" is gone at once;
 * - each form shows one current status: never a success beside an error, never a line beside the field
 *   error that tells the same story;
 * - every confirmation or error lands where the user looks: next to its button, fully in view (checked
 *   with elementFromPoint), announced (status or alert role), at 320 × 800.
 * axe-core checks every state visited.
 */
import http from "http";
import type { AddressInfo } from "net";
import { createServer } from "net";
import type { Page } from "playwright-core";
import { DEMO_API_KEY, type RunningSimulator } from "../../src/simulator";
import { openPaneLab, type PaneLab } from "./support/pane-lab";
import type { StaticServer } from "./support/static-server";
import { expectAccessible, recordAxeStates } from "./support/axe";
import { openSection, pick, statusOf } from "./support/taskpane";
import { PANES } from "./pane-checks";

let lab: PaneLab;
let simulator: RunningSimulator;
let server: StaticServer;
let page: Page;

/** The "old host": forwards the catalogue check (/v2/metrics) to the simulator, answers 503 to the rest. */
let oldHost: http.Server;
let oldHostUrl: string;
const oldHostRequests: { at: number; path: string }[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function startOldHost(target: string): Promise<void> {
  oldHost = http.createServer((req, res) => {
    // A browser asks before sending Authorization to another origin: allow it, as a service would.
    res.setHeader("Access-Control-Allow-Origin", "*");
    if (req.method === "OPTIONS") {
      res.setHeader("Access-Control-Allow-Headers", "Authorization, Accept");
      res.writeHead(204).end();
      return;
    }
    const path = req.url ?? "/";
    oldHostRequests.push({ at: Date.now(), path });
    if (!path.startsWith("/v2/metrics")) {
      res.writeHead(503, { "content-type": "application/json" }).end('{"message":"down"}');
      return;
    }
    const forwarded = http.request(
      `${target}${path}`,
      { headers: { authorization: req.headers.authorization ?? "" } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      }
    );
    forwarded.end();
  });
  return new Promise((done) =>
    oldHost.listen(0, "127.0.0.1", () => {
      oldHostUrl = `http://127.0.0.1:${(oldHost.address() as AddressInfo).port}`;
      done();
    })
  );
}

beforeAll(async () => {
  lab = await openPaneLab({
    simulator: { readings: { preflight: "refuse" } },
    // The page's timers on Playwright's clock (it runs as real time does until a test moves it on): the wait
    // for retries that must not come takes no real time (below).
    page: { viewport: { width: 320, height: 800 }, beforeLoad: (p) => p.clock.install() },
  });
  ({ simulator, server, page } = lab);
  await startOldHost(simulator.url);
}, 300_000);

afterAll(async () => {
  recordAxeStates(__filename);
  await lab?.close();
  oldHost?.close();
});

/** What a form says right now: its status line's kind and text, and its fields' shown errors. */
function storiesIn(
  form: string
): Promise<{ line?: { kind: string; text: string }; fields: string[] }> {
  return page.evaluate((selector) => {
    const root = document.querySelector(selector)!;
    const status = root.querySelector<HTMLElement>(".status");
    const text = status?.innerText.trim() ?? "";
    const fields = [...root.querySelectorAll<HTMLElement>(".field-error")]
      .filter((e) => !e.hidden && e.innerText.trim() !== "")
      .map((e) => e.innerText.trim());
    return {
      line: status?.dataset.kind && text ? { kind: status.dataset.kind, text } : undefined,
      fields,
    };
  }, form);
}

/** One current story: at most one message (the line or a field's error), so never a success beside an error. */
async function expectOneStory(
  form: string
): Promise<{ line?: { kind: string; text: string }; fields: string[] }> {
  const said = await storiesIn(form);
  const messages = (said.line ? 1 : 0) + said.fields.length;
  expect({ form, said, atMostOne: messages <= 1 }).toEqual({ form, said, atMostOne: true });
  return said;
}

async function saveAddress(address: string): Promise<void> {
  await page.fill("#base-url input", address);
  await page.click("#save-connection");
  await page.waitForFunction(
    () =>
      !document.querySelector("#save-connection")?.hasAttribute("disabled-focusable") &&
      (document.querySelector("#service-status")?.getAttribute("data-kind") === "success" ||
        !document.querySelector("#base-url-error")?.hasAttribute("hidden")),
    undefined,
    { timeout: 20_000 }
  );
}

const storedAddress = (): Promise<string | null> =>
  page.evaluate(() => localStorage.getItem("cryptometrics.baseUrl"));

describe("a service address is tried before it is kept", () => {
  test("…/v2 is refused before any request, saying to drop /v2", async () => {
    const before = simulator.requestLog.length;
    await saveAddress(`${simulator.url}/v2`);
    expect(await page.innerText("#base-url-error")).toBe(
      `Not saved. Drop /v2: the address is the part before it (${simulator.url}). The add-in adds /v2/… to it for each request.`
    );
    expect(await page.getAttribute("#base-url input", "aria-invalid")).toBe("true");
    expect(await page.isVisible("#keep-unchecked")).toBe(false);
    expect(await storedAddress()).toBeNull();
    expect(simulator.requestLog.length).toBe(before);
    await expectOneStory("#service-form");
    await expectAccessible(page, "settings: address with /v2 refused");
  });

  test("the add-in's own origin, where nothing serves the interface, is refused: tried, not ruled out", async () => {
    await saveAddress(server.url);
    expect(await page.innerText("#base-url-error")).toBe(
      `Not saved. Nothing at ${server.url} answers like the metrics service: its catalogue (/v2/metrics) is not found there (404). Enter the service's own address, the part before /v2.`
    );
    expect(await page.isVisible("#keep-unchecked")).toBe(false);
    expect(await storedAddress()).toBeNull();
    await expectOneStory("#service-form");
  });

  test("an address nothing answers at is refused, and may be kept unchecked", async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    await saveAddress(dead);
    expect(await page.innerText("#base-url-error")).toMatch(
      /^Not saved\. No answer from http:\/\/127\.0\.0\.1:\d+ \(it could not be reached\)\. .*keep the address unchecked\.$/
    );
    expect(await page.isVisible("#keep-unchecked")).toBe(true);
    expect(await storedAddress()).toBeNull();
    await expectAccessible(page, "settings: address unreachable, may be kept unchecked");
    // Typing a new address withdraws the offer.
    await page.fill("#base-url input", `${dead}/`);
    expect(await page.isVisible("#keep-unchecked")).toBe(false);
  });

  test("the service's address is kept, saying what answered; with no key yet, the key form asks for one", async () => {
    await saveAddress(simulator.url);
    expect(await statusOf(page, "#service-status")).toEqual({
      kind: "success",
      // No key is saved yet: a stand-in went, and the service's 401 is the answer sought.
      text: `Saved. The service at ${simulator.url} answers, and asks for a valid API key. Formulas use it from now on.`,
    });
    expect(await page.isVisible("#base-url-error")).toBe(false);
    expect(await storedAddress()).toBe(simulator.url);
    expect(await statusOf(page, "#connection-result")).toEqual({
      kind: "info",
      text: "Now paste your API key and save it.",
    });
    await expectOneStory("#service-form");
    await expectOneStory("#key-form");
    await expectAccessible(page, "settings: address kept");
  });
});

describe("each form tells one current story", () => {
  test("a valid key, then a refused one, then a test, then forgetting it: one message at a time", async () => {
    await page.fill("#api-key input", DEMO_API_KEY);
    await page.click("#save-key");
    await page.waitForSelector("#connection-result[data-verdict='valid']");
    expect((await expectOneStory("#key-form")).line?.text).toMatch(/^Key saved\. Valid key/);

    await page.fill("#api-key input", "cm_wrong_key_0000");
    await page.click("#save-key");
    await page.waitForSelector("#api-key-error:visible");
    // The refusal replaces the success; the line does not say "valid" beside it.
    expect(await expectOneStory("#key-form")).toEqual({
      fields: [
        "Not saved: the service refused this key. Paste the whole key from your account page.",
      ],
    });
    await expectAccessible(page, "settings: key refused, one story");

    await page.fill("#api-key input", "");
    await page.click("#test-connection");
    await page.waitForSelector("#connection-result[data-verdict='valid']");
    expect((await expectOneStory("#key-form")).line?.kind).toBe("success");

    await page.click("#forget-key");
    await page.waitForSelector("#forget-key", { state: "hidden" });
    // What the line says and what the key line above it says agree.
    expect(await expectOneStory("#key-form")).toEqual({
      line: {
        kind: "success",
        text: "Your key was removed from this computer. Paste a key to use the service again.",
      },
      fields: [],
    });
    expect(await page.innerText("#key-state")).toMatch(/^No key saved/);

    await page.click("#test-connection");
    await page.waitForSelector("#connection-result[data-kind='error']");
    const said = await expectOneStory("#key-form");
    expect(said.line?.text).toMatch(/^No usable API key/);
    await expectAccessible(page, "settings: no key, tested");

    await page.fill("#api-key input", DEMO_API_KEY);
    await page.click("#save-key");
    await page.waitForSelector("#connection-result[data-verdict='valid']");
    await expectOneStory("#key-form");
  });
});

describe("changing the address cancels what was in flight for the old one", () => {
  test("no request reaches the old host after the change, and its 'trying again' goes at once", async () => {
    await saveAddress(oldHostUrl);
    expect(await statusOf(page, "#service-status")).toMatchObject({ kind: "success" });
    await page.click("#page-back");
    // The old host fails the catalogue: the client retries, and says so.
    await page.waitForSelector("#catalogue-status:has-text('trying again')", { timeout: 30_000 });
    const beforeChange = oldHostRequests.filter((r) => !r.path.startsWith("/v2/metrics")).length;
    expect(beforeChange).toBeGreaterThanOrEqual(2);

    await openSection(page, "settings");
    await saveAddress(simulator.url);
    expect(await statusOf(page, "#service-status")).toMatchObject({ kind: "success" });
    const changedAt = Date.now();
    await page.click("#page-back");
    // No status outlives its cause: the old host's "trying again" is gone, the new list is there.
    await page.waitForSelector("#list-projects [data-id='aave']", { timeout: 10_000 });
    expect(await page.innerText("#catalogue-status")).not.toMatch(/trying again/);
    // The old client's schedule would have retried within these seconds (0.5, 1, 2, 4 s apart): the page's
    // clock runs them now, then anything they sent has half a second to reach the old host.
    await page.clock.runFor(8_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const afterChange = oldHostRequests.filter((r) => r.at >= changedAt);
    expect(afterChange).toEqual([]);
    expect(await page.innerText("#catalogue-status")).toBe("");
    await expectAccessible(page, "browse: after the address changed");
  }, 90_000);
});

describe("every error view offers the action that can fix it", () => {
  test("an address saved before it was checked: Browse and Test connection say it is wrong and lead to it", async () => {
    await page.evaluate(
      (url) => localStorage.setItem("cryptometrics.baseUrl", `${url}/v2`),
      simulator.url
    );
    await page.reload();
    await page.waitForSelector("body[data-ready='true']", { timeout: 20_000 });
    await page.waitForSelector("#catalogue-status [role='alert']", { timeout: 30_000 });
    expect(await page.innerText("#catalogue-status [role='alert']")).toMatch(
      /does not answer like the metrics service.*Check the address in Settings/
    );
    // Waiting cannot help: Go to Settings, no Retry.
    expect(await page.isVisible("#catalogue-status [data-action='settings']")).toBe(true);
    expect(await page.locator("#catalogue-status [data-action='retry']").count()).toBe(0);
    await expectAccessible(page, "browse: wrong address saved earlier");

    await page.click("#catalogue-status [data-action='settings']");
    await page.waitForSelector("#panel-settings:visible");
    await page.click("#test-connection");
    await page.waitForSelector("#connection-result[data-verdict='wrong-address']");
    expect(await page.innerText("#connection-result [role='alert']")).toMatch(/^Wrong address: /);
    expect(await page.locator("#connection-result [data-action='retry']").count()).toBe(0);
    await page.click("#connection-result [data-action='fix-address']");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("base-url");
    expect(await page.isVisible("#base-url-error")).toBe(true);
    await expectAccessible(page, "settings: wrong address flagged");

    await saveAddress(simulator.url);
    expect(await statusOf(page, "#service-status")).toMatchObject({ kind: "success" });
  }, 90_000);
});

/** The message is fully in view and beside its button (at most `near` px below it), and announced. */
async function expectInView(status: string, button: string, near = 120): Promise<void> {
  const where = await page.evaluate(
    ([s, b]) => {
      const line = document.querySelector<HTMLElement>(s)!;
      const shown = line.querySelector<HTMLElement>("[role='alert'], [role='status']:not(:empty)")!;
      const box = shown.getBoundingClientRect();
      const hit = (x: number, y: number): boolean => {
        const at = document.elementFromPoint(x, y);
        return !!at && (shown === at || shown.contains(at) || at.contains(shown));
      };
      const visible =
        box.height > 0 &&
        box.top >= 0 &&
        box.bottom <= window.innerHeight &&
        hit(box.left + 4, box.top + 4) &&
        hit(box.left + 4, box.bottom - 4);
      const buttonBox = document.querySelector(b)!.getBoundingClientRect();
      return {
        visible,
        role: shown.getAttribute("role"),
        below: Math.round(box.top - buttonBox.bottom),
        top: Math.round(box.top),
      };
    },
    [status, button] as const
  );
  expect(where.visible).toBe(true);
  expect(["status", "alert"]).toContain(where.role);
  expect(where.below).toBeGreaterThanOrEqual(-40);
  expect(where.below).toBeLessThanOrEqual(near);
}

describe("every confirmation or error appears where the user's eyes are (320 × 800)", () => {
  let pane: Page;
  beforeAll(async () => {
    pane = await lab.connectedPane(PANES[0]);
    page = pane;
  }, 60_000);
  afterAll(() => pane?.context().close());

  test("inserting from a project's detail: the result under the buttons, in view", async () => {
    await page.click("#list-projects [data-id='aave']");
    await page.waitForSelector("#insert-value");
    await page.click("#insert-value");
    await page.waitForSelector("#detail-status[data-kind='success']");
    await expectInView("#detail-status", "#insert-value", 200);
    await expectAccessible(page, "messages: project insert");
  });

  test("inserting a sector's comps: the result under its buttons, in view", async () => {
    await page.click("#detail-back");
    await page.click("#ctab-sectors");
    await page.click("#list-sectors [data-id='lending']");
    await page.click("#insert-sector-comps");
    await page.waitForSelector("#detail-status[data-kind='success']");
    await expectInView("#detail-status", "#sector-comps-to-builder");
    await page.click("#insert-sector");
    await page.waitForSelector("#sector-grid-status[data-kind='success']");
    await expectInView("#sector-grid-status", "#insert-sector");
    await expectAccessible(page, "messages: sector inserts");
  });

  test("inserting from the builder and a statement sheet: the result beside the button", async () => {
    await openSection(page, "build");
    await pick(page, "b-project", ["aave"]);
    await pick(page, "b-metric", ["fees"]);
    await page.waitForSelector("#builder-insert:not([disabled-focusable])");
    await page.click("#builder-insert");
    await page.waitForSelector("#builder-status[data-kind='success']");
    await expectInView("#builder-status", "#builder-insert");
    await openSection(page, "tables");
    await pick(page, "statement-project", ["aave"]);
    await page.click("#insert-statement");
    await page.waitForSelector("#statement-status[data-kind='success']", { timeout: 20_000 });
    await expectInView("#statement-status", "#insert-statement");
    await expectAccessible(page, "messages: builder and statement inserts");
  });
});

describe("outside Excel", () => {
  let pane: Page;
  beforeAll(async () => {
    pane = await lab.connectedPane(PANES[0], "");
    page = pane;
  }, 60_000);
  afterAll(() => pane?.context().close());

  test("'This needs Excel' is said next to the button, in view, with no Retry that cannot help", async () => {
    await page.click("#list-projects [data-id='aave']");
    await page.waitForSelector("#insert-value");
    await page.click("#insert-value");
    await page.waitForSelector("#detail-status [role='alert']");
    expect(await page.innerText("#detail-status")).toMatch(/This needs Excel/);
    expect(await page.locator("#detail-status [data-action='retry']").count()).toBe(0);
    await expectInView("#detail-status", "#insert-value", 200);
    await expectAccessible(page, "outside Excel: insert refused in view");
  });
});
