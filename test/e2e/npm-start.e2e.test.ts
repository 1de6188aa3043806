/**
 * What the README tells a user to run, run as a user runs it: `npm start` spawned as a child process in a fresh
 * copy of the checkout (support/npm-start.ts; its build step, the webpack dev server with the team gateway at
 * its origin, and the simulator behind it, on free ports given through its own flags), the printed URLs opened
 * in Chromium, which trusts the office-addin-dev-certs certificate and nothing else. The pages walk the path
 * users walk: every request to their own origin, none to the simulator, which answers no CORS preflight (the
 * interface promises GET only). Any script error or console error on a page fails its test. A newcomer's first
 * hour is walked next in the same npm start (newcomer-walk.ts). Ctrl+C then stops everything and frees the
 * ports. The README's screenshots are taken here, from these pages.
 */
import { existsSync, readFileSync } from "fs";
import { request } from "https";
import { resolve } from "path";
import type { Browser, Page } from "playwright-core";
import { certificatePaths } from "../../src/tools/dev-certs";
import devDefaults from "../../src/config/dev-defaults.json";
import { cspViolations, launch, openPage, screenshot, type Problems } from "./support/browser";
import { expectAccessible, recordAxeStates } from "./support/axe";
import { portIsFree, startNpmStart, type NpmStart } from "./support/npm-start";
import {
  associatedIds,
  callAsExcel,
  cliResults,
  declaredFunctions,
  installExcelRegistration,
  ONE_FORMULA_PER_FUNCTION,
} from "./support/registration";
import { describeNewcomerWalk } from "./newcomer-walk";

let app: NpmStart;
let browser: Browser;

/** A request over https, trusting only the development CA (as a browser that imported it would). */
function get(
  url: string,
  headers: Record<string, string> = {},
  method = "GET"
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((done, fail) => {
    const req = request(url, { ca: readFileSync(certificatePaths.ca), headers, method }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => done({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on("error", fail);
    req.end();
  });
}

/** A fresh page that fails on anything the page complains about, failed loads included. */
async function strictPage(viewport: {
  width: number;
  height: number;
}): Promise<{ page: Page; problems: Problems }> {
  return openPage(browser, viewport, { strict: true });
}

async function expectNoProblems(page: Page, problems: Problems): Promise<void> {
  expect(problems.errors).toEqual([]);
  expect(problems.csp).toEqual([]);
  expect(await cspViolations(page)).toEqual([]);
}

beforeAll(async () => {
  app = await startNpmStart();
  browser = await launch({ trustCertificate: readFileSync(certificatePaths.cert) });
}, 660_000);

afterAll(async () => {
  recordAxeStates(__filename);
  await browser?.close();
  app?.kill();
});

describe("npm start", () => {
  it("prints the pages, the service at their origin, the manifest to sideload for its ports, and the demo key", () => {
    const origin = `https://localhost:${app.port}`;
    expect(app.urls).toEqual({
      taskpane: `${origin}/taskpane.html`,
      preview: `${origin}/preview.html`,
      service: origin,
      simulator: `https://localhost:${app.simulatorPort}`,
      // Not the default port: the manifests to sideload are the served copies, written to files of their own.
      manifest: expect.stringMatching(new RegExp(`cryptometrics-${app.port}-manifest\\.xml$`)),
    });
    const output = app.output();
    // Both manifests are files, as the README's sideloading table names them: the unified one for Excel on
    // the web and current desktops, the XML one for perpetual Office; never the repository's (port 3000).
    const unifiedFile = /Unified manifest:\s+(\S+)/.exec(output)?.[1] ?? "";
    expect(unifiedFile).toMatch(new RegExp(`cryptometrics-${app.port}-manifest\\.json$`));
    expect(output).toContain(`Excel on the web, Windows 2501+, Mac 16.103+: ${unifiedFile}`);
    expect(output).toContain(
      `Upload My Add-in; on the desktop: npx office-addin-debugging start ${unifiedFile}`
    );
    expect(output).toContain(`older builds: ${app.urls.manifest}`);
    expect(output).not.toMatch(/office-addin-debugging start manifest\.xml/);
    for (const file of [app.urls.manifest, unifiedFile]) {
      const sideloaded = readFileSync(file, "utf8");
      expect(sideloaded).toContain(`${origin}/taskpane.html`);
      expect(sideloaded).not.toContain("https://localhost:3000/");
    }
    // It says what it is doing while it builds, not nothing for half a minute.
    expect(output).toContain("Building the pages with webpack");
    expect(output).toContain(devDefaults.demoApiKey);
  });

  it("serves the pages, the functions, their metadata and the manifest over https with the development certificates", async () => {
    const page = await get(app.urls.taskpane);
    expect(page.status).toBe(200);
    for (const bundle of ["functions.js", "commands.js", "taskpane.js"])
      expect(page.body).toContain(`src="${bundle}"`);
    const metadata = JSON.parse(
      (await get(`https://localhost:${app.port}/functions.json`)).body
    ) as { functions: { id: string; helpUrl: string }[] };
    expect(metadata.functions.map((f) => f.id)).toContain("METRIC");
    // Help links point at this server, not at the default port.
    expect(metadata.functions[0].helpUrl).toMatch(
      new RegExp(`^https://localhost:${app.port}/help\\.html#`)
    );
    const manifest = await get(`https://localhost:${app.port}/manifest.xml`);
    expect(manifest.body).toContain(`https://localhost:${app.port}/taskpane.html`);
    expect(manifest.body).not.toContain("https://localhost:3000/");
    // The unified twin, served beside it, for the same port.
    const unified = JSON.parse((await get(`https://localhost:${app.port}/manifest.json`)).body) as {
      validDomains: string[];
    };
    expect(unified.validDomains).toEqual([`https://localhost:${app.port}`]);
    // The file printed for sideloading is that served manifest.
    expect(readFileSync(app.urls.manifest, "utf8")).toBe(manifest.body);
    expect((await get(`https://localhost:${app.port}/office-js/office.js`)).status).toBe(200);
  });

  it("serves the team gateway at the pages' origin: the demo key opens it, nothing else does", async () => {
    const ok = await get(`${app.urls.service}/v2/metrics`, {
      authorization: `Bearer ${devDefaults.demoApiKey}`,
    });
    expect(ok.status).toBe(200);
    expect(ok.headers["x-cryptometrics-simulated"]).toBe("true");
    expect(JSON.parse(ok.body)).toMatchObject({
      data: expect.arrayContaining([expect.objectContaining({ metric_id: "fees" })]),
    });
    expect((await get(`${app.urls.service}/v2/metrics`)).status).toBe(401);
    expect(
      (await get(`${app.urls.service}/v2/metrics`, { authorization: "Bearer cm_guess" })).status
    ).toBe(401);
    // Anyone may ask whether it is ready; only a caller it knows learns how it runs.
    expect(JSON.parse((await get(`${app.urls.service}/readyz`)).body)).toEqual({ status: "ready" });
    const ready = JSON.parse(
      (
        await get(`${app.urls.service}/readyz`, {
          authorization: `Bearer ${devDefaults.demoApiKey}`,
        })
      ).body
    ) as { status: string; store: string };
    expect(ready).toMatchObject({ status: "ready", store: "memory" });
  });

  it("runs the simulator behind it over https with the demo key, answering no CORS preflight", async () => {
    const ok = await get(`${app.urls.simulator}/v2/metrics`, {
      authorization: `Bearer ${devDefaults.demoApiKey}`,
    });
    expect(ok.status).toBe(200);
    expect((await get(`${app.urls.simulator}/v2/metrics`)).status).toBe(401);
    const preflight = await get(
      `${app.urls.simulator}/v2/metrics`,
      {
        origin: app.urls.service,
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization",
      },
      "OPTIONS"
    );
    expect(preflight.status).toBe(405);
    expect(preflight.headers["access-control-allow-headers"]).toBeUndefined();
  });
});

describe("the pages npm start serves, in Chromium", () => {
  it("the shared-runtime page loads functions, commands and taskpane, renders its tabs and the demo banner", async () => {
    const { page, problems } = await strictPage({ width: 320, height: 900 });
    await page.goto(app.urls.taskpane);
    await page.waitForSelector("body[data-ready='true']", { timeout: 30_000 });
    const scripts = await page.evaluate(() =>
      [...document.scripts].map((s) => new URL(s.src, location.href).pathname)
    );
    expect(scripts).toEqual(
      expect.arrayContaining(["/functions.js", "/commands.js", "/taskpane.js"])
    );
    const sections = page.getByRole("tablist", { name: "Cryptometrics" });
    const tabs = await sections.getByRole("tab").allInnerTexts();
    expect(tabs).toEqual(["Browse", "Build", "Tables"]);
    // Development builds start on the simulator with its demo key: straight to Browse, data flowing.
    expect(await sections.getByRole("tab", { name: "Browse" }).getAttribute("aria-selected")).toBe(
      "true"
    );
    await page.waitForSelector("#demo-banner:not([hidden])", { timeout: 30_000 });
    expect(await page.innerText("#demo-banner")).toBe("Demo data — not real figures");
    await page.waitForSelector("#catalogue-count:has-text('projects')", { timeout: 30_000 });
    await page.locator("#list-projects [role='option']").first().waitFor();
    // The README's pictures: light, dark and forced colours, the section tab focused as a keyboard user
    // arriving on the pane sees it. Each one checked by axe too.
    for (const [name, media] of [
      ["taskpane", { colorScheme: "light", forcedColors: "none" }],
      ["taskpane-dark", { colorScheme: "dark", forcedColors: "none" }],
      ["taskpane-forced-colors", { colorScheme: "light", forcedColors: "active" }],
    ] as const) {
      await page.emulateMedia(media);
      await page.waitForFunction(
        (dark) => document.documentElement.dataset.theme === (dark ? "dark" : "light"),
        media.colorScheme === "dark"
      );
      await page.focus("#tab-browse");
      await screenshot(page, name, { readme: true });
      await expectAccessible(page, `npm start: taskpane, ${name}`);
    }
    await expectNoProblems(page, problems);
    await page.context().close();
  });

  it("the preview page is already connected to its own origin and spills METRIC as 11 rows × 3 columns, against a simulator that answers no preflight", async () => {
    const { page, problems } = await strictPage({ width: 1000, height: 800 });
    // Every request the page makes to the service: to its own origin (the gateway), none to the simulator,
    // no preflight anywhere (the simulator would refuse it).
    const serviceRequests: Array<{ method: string; origin: string }> = [];
    page.on("request", (r) => {
      const url = new URL(r.url());
      if (/^\/v[12]\//.test(url.pathname))
        serviceRequests.push({ method: r.method(), origin: url.origin });
    });
    await page.goto(app.urls.preview);
    await page.waitForSelector("body[data-ready='true']", { timeout: 30_000 });
    // No form to fill: the connection is the page's own origin (the gateway) with the demo key, folded away.
    await page.waitForSelector("#connection-label:has-text('key')");
    expect(await page.innerText("#connection-label")).toContain(
      `Connection: ${app.urls.service} · key ••••••••${devDefaults.demoApiKey.slice(-4)}`
    );
    // The Connection form is a Fluent accordion item: its heading button says it is folded.
    expect(await page.getAttribute("#connection-item [part='button']", "aria-expanded")).toBe(
      "false"
    );

    await page.click("#cell-A1");
    await page.fill(
      "#formula-input",
      '=CRYPTO.METRIC("aave","fees,revenue","2024-01-01","2024-01-10")'
    );
    await page.press("#formula-input", "Enter");
    await page.waitForFunction(() => {
      const text = document.getElementById("cell-A1")?.textContent ?? "";
      return text !== "" && text !== "#BUSY!";
    });
    const text = (address: string): Promise<string> => page.innerText(`#cell-${address}`);
    expect([await text("A1"), await text("B1"), await text("C1")]).toEqual([
      "Date",
      "fees",
      "revenue",
    ]);
    expect(await text("A2")).toBe("2024-01-01");
    expect(await text("A11")).toBe("2024-01-10");
    expect(await text("C11")).toMatch(/^[\d,]+(\.\d+)?$/);
    // Exactly 11 × 3: nothing below or to the right of the spill.
    expect(await text("A12")).toBe("");
    expect(await text("D1")).toBe("");
    await page.waitForSelector("#demo-banner:not([hidden])");
    expect(serviceRequests.length).toBeGreaterThan(0);
    expect(
      serviceRequests.filter((r) => r.method !== "GET" || r.origin !== app.urls.service)
    ).toEqual([]);

    await page.click("#cell-E1");
    await page.fill(
      "#formula-input",
      '=CRYPTO.VALUE("aave","revenue",DATE(2024,3,31),"period=quarter")'
    );
    await page.press("#formula-input", "Enter");
    await page.waitForFunction(() =>
      /\d/.test(document.getElementById("cell-E1")?.textContent ?? "")
    );
    await page.click("#cell-E3");
    await page.fill("#formula-input", '=CRYPTO.VALUE("aavee","fees")');
    await page.press("#formula-input", "Enter");
    await page.waitForFunction(() => document.getElementById("cell-E3")?.textContent === "#N/A");
    await page.click("#cell-E3");
    await screenshot(page, "preview", { readme: true });
    await expectAccessible(page, "npm start: preview");

    // A project as a card: the card icon in the cell, its card beside the sheet as it first opens (title,
    // key figures, profile; the rest folded), one field read by dot access.
    for (const [address, formula] of [
      ["A14", '=CRYPTO.PROJECT("aave")'],
      ["B14", "=A14.Symbol"],
    ]) {
      await page.click(`#cell-${address}`);
      await page.fill("#formula-input", formula);
      await page.press("#formula-input", "Enter");
    }
    await page.waitForFunction(() => document.getElementById("cell-B14")?.textContent === "AAVE");
    await page.click("#cell-A14");
    await page.waitForSelector("#card");
    await screenshot(page, "preview-card", { readme: true });
    await expectNoProblems(page, problems);
    await page.context().close();
  });

  it("the function reference loads", async () => {
    const { page, problems } = await strictPage({ width: 1000, height: 800 });
    await page.goto(`https://localhost:${app.port}/help.html`);
    expect(await page.locator("h1").innerText()).toMatch(/function reference/);
    expect(await page.locator("#metric").count()).toBe(1);
    await expectAccessible(page, "npm start: function reference");
    await expectNoProblems(page, problems);
    await page.context().close();
  });

  it("registers every function as Excel's shared runtime does, each giving the command line's result", async () => {
    const { page, problems } = await strictPage({ width: 320, height: 900 });
    await installExcelRegistration(page);
    await page.goto(app.urls.taskpane);
    await page.waitForSelector("body[data-ready='true']", { timeout: 30_000 });

    const declared = await declaredFunctions(page, app.urls.taskpane);
    const ids = await associatedIds(page);
    expect([...ids].sort()).toEqual(declared.map((f) => f.id).sort());
    expect(Object.keys(ONE_FORMULA_PER_FUNCTION).sort()).toEqual(declared.map((f) => f.id).sort());

    const formulas = Object.values(ONE_FORMULA_PER_FUNCTION);
    // The command line through the same gateway, as the README tells a team to point it.
    const fromCli = await cliResults(formulas, {
      baseUrl: app.urls.service,
      apiKey: devDefaults.demoApiKey,
      extraCaFile: certificatePaths.ca,
    });
    for (const [i, formula] of formulas.entries()) {
      const inPage = await callAsExcel(page, declared, formula);
      expect({ formula, result: inPage }).toEqual({ formula, result: fromCli[i] });
      // Data, not an error that happens to match: each formula is chosen to succeed on the simulator.
      expect({ formula, first: inPage[0][0] }).not.toEqual({
        formula,
        first: expect.objectContaining({ error: expect.any(String) }),
      });
    }
    await expectNoProblems(page, problems);
    await page.context().close();
  });
});

// The newcomer's walk in the same npm start: one build and one server for both (newcomer-walk.ts).
describeNewcomerWalk(() => app);

describe("Ctrl+C", () => {
  it("stops npm start and everything it started, and frees both ports", async () => {
    const ended = await app.interrupt();
    // npm itself ends by the signal, as in a terminal; the start script stops its servers and exits 0.
    expect(ended.code === 0 || ended.signal === "SIGINT").toBe(true);
    expect(app.output()).toContain("Stopping…");
    expect(await portIsFree(app.port)).toBe(true);
    expect(await portIsFree(app.simulatorPort)).toBe(true);
    // The manifest written for these ports goes with it.
    expect(existsSync(app.urls.manifest)).toBe(false);
    // The repository's files are untouched by a run (no generated manifest or build in the tree).
    expect(readFileSync(resolve(app.checkout, "manifest.xml"), "utf8")).toContain(
      "https://localhost:3000/"
    );
  });
});
