/**
 * The production build (the pages users deploy, served statically) registers its functions as Excel's
 * shared runtime registers them: every id of functions.json associated exactly once, and each associated
 * function, called as Excel calls it, gives the command-line evaluator's result. The same check runs on the
 * pages `npm start` serves (npm-start.e2e.test.ts).
 */
import type { Browser, Page } from "playwright-core";
import { DEMO_API_KEY, startSimulator, type RunningSimulator } from "../../src/simulator";
import { STORAGE_KEYS } from "../../src/runtime/settings";
import { ensureBuild } from "./support/build";
import { cspViolations, launch, openPage, type Problems } from "./support/browser";
import {
  associatedIds,
  callAsExcel,
  cliResults,
  declaredFunctions,
  installExcelRegistration,
  ONE_FORMULA_PER_FUNCTION,
} from "./support/registration";
import { serveStatic, type StaticServer } from "./support/static-server";

let simulator: RunningSimulator;
let server: StaticServer;
let browser: Browser;
let page: Page;
let problems: Problems;

beforeAll(async () => {
  const [built, sim] = await Promise.all([
    ensureBuild(),
    startSimulator({ port: 0, rateLimit: null, readings: { preflight: "answer" } }),
  ]);
  simulator = sim;
  server = await serveStatic(built);
  browser = await launch();
  ({ page, problems } = await openPage(browser, undefined, { strict: true }));
  // A production build carries no service URL or key: the user's saved settings, as the taskpane stores them.
  await page.addInitScript(
    ({ keys, url, key, origin }) => {
      if (location.origin !== origin) return; // office.js's telemetry frame, on another origin
      localStorage.setItem(keys.baseUrl, url);
      localStorage.setItem(keys.apiKey, key);
    },
    { keys: STORAGE_KEYS, url: simulator.url, key: DEMO_API_KEY, origin: server.url }
  );
  await installExcelRegistration(page);
  await page.goto(`${server.url}/taskpane.html`);
  await page.waitForSelector("body[data-ready='true']", { timeout: 20_000 });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([server?.close(), simulator?.close()]);
});

test("every function of functions.json is associated exactly once, by its id", async () => {
  const declared = (await declaredFunctions(page, `${server.url}/taskpane.html`)).map((f) => f.id);
  const ids = await associatedIds(page);
  expect(new Set(declared).size).toBe(declared.length);
  expect([...ids].sort()).toEqual([...declared].sort());
  expect(Object.keys(ONE_FORMULA_PER_FUNCTION).sort()).toEqual([...declared].sort());
});

test("each associated function, called as Excel calls it, gives the command line's result", async () => {
  const declared = await declaredFunctions(page, `${server.url}/taskpane.html`);
  const formulas = Object.values(ONE_FORMULA_PER_FUNCTION);
  const fromCli = await cliResults(formulas, { baseUrl: simulator.url, apiKey: DEMO_API_KEY });
  for (const [i, formula] of formulas.entries()) {
    const inPage = await callAsExcel(page, declared, formula);
    expect({ formula, result: inPage }).toEqual({ formula, result: fromCli[i] });
    expect({ formula, first: inPage[0][0] }).not.toEqual({
      formula,
      first: expect.objectContaining({ error: expect.any(String) }),
    });
  }
});

test("an unknown project comes back as Excel's #N/A with its reason, as on the command line", async () => {
  const declared = await declaredFunctions(page, `${server.url}/taskpane.html`);
  const formula = '=CRYPTO.VALUE("aavee","fees")';
  const [fromCli] = await cliResults([formula], { baseUrl: simulator.url, apiKey: DEMO_API_KEY });
  const inPage = await callAsExcel(page, declared, formula);
  expect(inPage).toEqual(fromCli);
  expect(inPage[0][0]).toEqual({ error: "#N/A", message: expect.stringContaining('"aave"') });
});

test("no script errors, failed loads or Content-Security-Policy violations", async () => {
  expect(problems.errors).toEqual([]);
  expect(problems.csp).toEqual([]);
  expect(await cspViolations(page)).toEqual([]);
});
