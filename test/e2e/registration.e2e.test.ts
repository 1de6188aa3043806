/**
 * The production build (the pages users deploy, served statically) registers its functions as Excel's
 * shared runtime registers them: every id of functions.json associated exactly once, and each associated
 * function, called as Excel calls it, gives the command-line evaluator's result. The same check runs on the
 * pages `npm start` serves (npm-start.e2e.test.ts).
 */
import type { Page } from "playwright-core";
import { DEMO_API_KEY, type RunningSimulator } from "../../src/simulator";
import { STORAGE_KEYS } from "../../src/runtime/settings";
import { cspViolations, type Problems } from "./support/browser";
import { openPaneLab, type PaneLab } from "./support/pane-lab";
import {
  associatedIds,
  callAsExcel,
  cliResults,
  declaredFunctions,
  installExcelRegistration,
  ONE_FORMULA_PER_FUNCTION,
} from "./support/registration";
import type { StaticServer } from "./support/static-server";

let lab: PaneLab;
let simulator: RunningSimulator;
let server: StaticServer;
let page: Page;
let problems: Problems;

beforeAll(async () => {
  lab = await openPaneLab({
    page: {
      path: "/taskpane.html",
      strict: true,
      // A production build carries no service URL or key: the user's saved settings, as the taskpane stores them.
      storage: ({ simulator }) => ({
        [STORAGE_KEYS.baseUrl]: simulator.url,
        [STORAGE_KEYS.apiKey]: DEMO_API_KEY,
      }),
      beforeLoad: installExcelRegistration,
    },
  });
  ({ simulator, server, page, problems } = lab);
}, 300_000);

afterAll(async () => {
  await lab?.close();
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
