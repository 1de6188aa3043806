/**
 * A newcomer's first hour, walked once in a fresh `npm start` (the command itself, on free ports: the one
 * npm-start.e2e.test.ts starts, its own checks run first, so that one test file builds and serves it once) in
 * Chromium at 160 CSS px (a 320 px pane at 200 % zoom), as the front-of-house review walked it: the pane
 * marked as demo data from its first paint; the More menu inside the viewport; Settings refusing a pasted
 * `…/v2` in words, Enter submitting, a rate above the service's said; signing in through npm start's demo
 * issuer and the signed-in pane; a year's formula built and previewed through that sign-in (headings,
 * the newest rows, names, the count without the header); the sum of a METRIC's values, checked against
 * the preview sheet's own SUM of the value column; switching function keeping the project; a statement
 * opening on its newest quarter; signing out; the preview page's everyday formulas around CRYPTO calls.
 * Every state is checked by axe with its best-practice rules as well as WCAG 2.2 A/AA, and titles are
 * checked to break between words only.
 */
import { readFileSync } from "fs";
import { request } from "https";
import type { Browser, Page } from "playwright-core";
import devDefaults from "../../src/config/dev-defaults.json";
import { certificatePaths } from "../../src/tools/dev-certs";
import { launch, openPage, type Problems } from "./support/browser";
import { WCAG_AA_TAGS } from "./support/axe";
import type { NpmStart } from "./support/npm-start";
import { choose, openSection, pick } from "./support/taskpane";
import { overlapsIn, popupsOutside } from "./overlap-checks";

const PANE = { width: 160, height: 400 };
const ZOOM = 2;
const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
/** WCAG 2.2 A/AA and axe's best practices (landmarks, headings, unique names). */
const AXE_TAGS = [...WCAG_AA_TAGS, "best-practice"];
const QUARTER = { start: "2024-01-01", end: "2024-03-31", days: 91 };
/** The Excel serials of 2024-01-01 … 2024-03-31 (45292 … 45382), which a SUM over the whole spill adds. */
const DATE_SERIALS = Array.from({ length: QUARTER.days }, (_, i) => 45_292 + i).reduce(
  (a, b) => a + b
);

/**
 * The walk, as a describe block of the file that starts npm start (`session` gives it once started): its own
 * browser context, pages and records; npm start itself is the file's to stop.
 */
export function describeNewcomerWalk(session: () => NpmStart): void {
  describe("a newcomer's first hour", () => {
    let app: NpmStart;
    let browser: Browser;
    let page: Page;
    let problems: Problems;
    const checked: string[] = [];

    /** axe on the page as it is now: no violation of WCAG 2.2 A/AA nor of the best practices. */
    async function expectNoAxeViolations(on: Page, state: string): Promise<void> {
      if (!(await on.evaluate(() => typeof (window as { axe?: unknown }).axe === "object")))
        await on.evaluate(AXE_SOURCE);
      const result = (await on.evaluate(
        (tags) =>
          (
            window as unknown as {
              axe: { run(context: Document, options: unknown): Promise<unknown> };
            }
          ).axe.run(document, {
            runOnly: { type: "tag", values: tags },
            resultTypes: ["violations"],
          }),
        AXE_TAGS
      )) as { violations: { id: string; nodes: { target: unknown[] }[] }[] };
      const violations = result.violations.map((v) => ({
        rule: v.id,
        nodes: v.nodes.map((n) => n.target.map(String).join(" ")),
      }));
      checked.push(state);
      expect({ state, violations }).toEqual({ state, violations: [] });
    }

    /** Words of titles drawn over two lines ("Setti/ngs"): a title breaks between words only. */
    function splitTitleWords(on: Page): Promise<string[]> {
      return on.evaluate(() => {
        const split: string[] = [];
        for (const title of document.querySelectorAll<HTMLElement>(
          "h1, h2, h3, h4, .page-title, .card-title"
        )) {
          if (title.offsetParent === null) continue;
          const walker = document.createTreeWalker(title, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const text = node.textContent ?? "";
            for (const match of text.matchAll(/\S+/g)) {
              const range = document.createRange();
              range.setStart(node, match.index);
              range.setEnd(node, match.index + match[0].length);
              const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
              if (lines.size > 1) split.push(match[0]);
            }
          }
        }
        return split;
      });
    }

    /** GET through npm start's gateway with the demo key, trusting only the development CA. */
    function gatewayGet(path: string): Promise<unknown> {
      return new Promise((done, fail) => {
        const req = request(
          `${app.urls.service}${path}`,
          {
            ca: readFileSync(certificatePaths.ca),
            headers: { authorization: `Bearer ${devDefaults.demoApiKey}` },
          },
          (res) => {
            let body = "";
            res.on("data", (chunk: Buffer) => (body += chunk.toString()));
            res.on("end", () => done(JSON.parse(body)));
          }
        );
        req.on("error", fail);
        req.end();
      });
    }

    /** A number as the pages show one of a thousand or more: grouped, no decimals. */
    const shown = (value: number): string => Math.round(value).toLocaleString("en-US");
    const numberIn = (text: string): number => Number(text.replace(/,/g, ""));

    async function formulaIs(formula: string): Promise<void> {
      await page.waitForFunction(
        (f) => document.querySelector("#builder-formula")?.textContent === f,
        formula,
        { timeout: 20_000 }
      );
    }

    beforeAll(async () => {
      app = session();
      browser = await launch({ trustCertificate: readFileSync(certificatePaths.cert) });
      ({ page, problems } = await openPage(browser, PANE, {
        strict: true,
        deviceScaleFactor: ZOOM,
      }));
      // When the banner first enters the page, whether it shows: demo data is marked from the first paint.
      await page.addInitScript(() => {
        const w = window as unknown as { __bannerAtFirst?: boolean };
        new MutationObserver((_, observer) => {
          const banner = document.getElementById("demo-banner");
          if (!banner) return;
          w.__bannerAtFirst = !banner.hidden;
          observer.disconnect();
        }).observe(document, { childList: true, subtree: true });
      });
    }, 60_000);

    afterAll(async () => {
      process.stdout.write(
        `newcomer walk: axe (best practices included) on ${checked.length} states\n`
      );
      await browser?.close();
    });

    test("npm start says what it builds, where everything is, and how to try sign-in", () => {
      const output = app.output();
      expect(output).toContain("Building the pages with webpack");
      expect(output).toMatch(/Manifest:\s+\S+manifest\.xml/);
      expect(output).toMatch(/Unified manifest:\s+\S+manifest\.json/);
      expect(output).toContain(
        "Demo sign-in:    Settings > Use the team gateway > Sign in  (as Demo Analyst"
      );
    });

    test("the pane opens marked as demo data, its titles whole and its menu inside the viewport", async () => {
      await page.goto(app.urls.taskpane);
      await page.waitForSelector("body[data-ready='true']", { timeout: 60_000 });
      expect(
        await page.evaluate(() => (window as { __bannerAtFirst?: boolean }).__bannerAtFirst)
      ).toBe(true);
      expect(await page.innerText("#demo-banner")).toBe("Demo data — not real figures");
      await page.locator("#list-projects [role='option']").first().waitFor({ timeout: 60_000 });
      expect(await splitTitleWords(page)).toEqual([]);
      await expectNoAxeViolations(page, "pane as opened");

      await page.click("#more-menu");
      await page.waitForSelector("#menu-settings:visible");
      expect(await popupsOutside(page)).toEqual([]);
      await expectNoAxeViolations(page, "the More menu open");
      await page.click("#menu-settings");
      await page.waitForSelector("#panel-settings:visible");
      expect(await splitTitleWords(page)).toEqual([]);
      await expectNoAxeViolations(page, "Settings as opened");
    });

    test("Settings: a pasted …/v2 is refused in words, Enter submits, a rate above the service's is said", async () => {
      await page.fill("#base-url input", `${app.urls.service}/v2`);
      await page.press("#base-url input", "Enter");
      await page.waitForSelector("#base-url-error:visible");
      expect(await page.innerText("#base-url-error")).toBe(
        `Not saved. Drop /v2: the address is the part before it (${app.urls.service}). The add-in adds /v2/… to it for each request.`
      );
      expect(await overlapsIn(page, "#panel-settings")).toEqual([]);
      await expectNoAxeViolations(page, "Settings: an address with /v2 refused");

      await page.fill("#base-url input", app.urls.service);
      await page.fill("#rate-limit input", "1000");
      await page.press("#rate-limit input", "Enter");
      await page.waitForSelector("#service-status[data-kind='info']");
      expect(await page.innerText("#service-status")).toMatch(
        /1,000 a minute is more than the 60 the service allows a key/
      );
      await expectNoAxeViolations(page, "Settings: a rate above the service's kept, said");
      await page.fill("#rate-limit input", "60");
      await page.press("#rate-limit input", "Enter");
      await page.waitForSelector("#service-status[data-kind='success']");
    });

    test("sign-in through npm start's demo issuer: signed out, then the signed-in pane", async () => {
      await page.click("#mode-gateway");
      await page.waitForSelector("#sign-in-state[data-state='signed-out']");
      expect(await page.innerText("#mode-state")).toBe(
        "Team gateway: you sign in, and the gateway at the service address calls the service for you. No key is kept on this computer."
      );
      expect(await page.isVisible("#sign-in")).toBe(true);
      expect(await page.isVisible("#api-key")).toBe(false);
      await expectNoAxeViolations(page, "team gateway: signed out");

      await page.click("#sign-in");
      await page.waitForSelector("#sign-in-state[data-state='signed-in']", { timeout: 20_000 });
      expect(await page.innerText("#sign-in-state")).toBe(
        "Signed in as Demo Analyst (analyst@demo.example)."
      );
      await page.waitForSelector("#team-budget-section:not([hidden])");
      expect(await page.innerText("#team-budget-label")).toMatch(
        /^Team budget: \d+ of 60 requests this minute, as the gateway counts them$/
      );
      await page.waitForSelector("#own-key-section:not([hidden])");
      // Nothing secret on this computer: no key, no token.
      const stored = await page.evaluate(() => JSON.stringify({ ...window.localStorage }));
      expect(stored).not.toContain(devDefaults.demoApiKey);
      expect(stored).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
      expect(await overlapsIn(page, "#panel-settings")).toEqual([]);
      await expectNoAxeViolations(page, "team gateway: signed in as Demo Analyst");
    });

    test("a quarter of revenue built and previewed through the sign-in: headings, newest rows, names", async () => {
      const authorizations: string[] = [];
      page.on("request", (r) => {
        const path = new URL(r.url()).pathname;
        if (/^\/v2\/(projects\/aave\/metrics|metrics\/revenue)/.test(path))
          authorizations.push(r.headers()["authorization"] ?? "");
      });
      await openSection(page, "build");
      await choose(page, "builder-function", "METRIC");
      await pick(page, "b-project", ["aave"]);
      await pick(page, "b-metric", ["revenue"]);
      await choose(page, "b-start-mode", "fixed");
      await page.fill("#b-start-date input", QUARTER.start);
      await choose(page, "b-end-mode", "fixed");
      await page.fill("#b-end-date input", QUARTER.end);
      await formulaIs(`=CRYPTO.METRIC("aave","revenue","${QUARTER.start}","${QUARTER.end}")`);
      await page.waitForSelector("#builder-result thead th", { timeout: 30_000 });

      // Computed with the sign-in's token, not a key: the series came through the gateway as Demo Analyst.
      expect(authorizations.length).toBeGreaterThan(0);
      expect(authorizations.every((a) => /^Bearer eyJ[\w-]+\.[\w-]+\.[\w-]+$/.test(a))).toBe(true);

      const headings = await page.$$eval("#builder-result thead th", (cells) =>
        cells.map((c) => ({ scope: c.getAttribute("scope"), text: c.textContent }))
      );
      expect(headings).toEqual([
        { scope: "col", text: "Date" },
        { scope: "col", text: "Revenuerevenue" },
      ]);
      expect(await page.innerText("#builder-result thead .cell-id")).toBe("revenue");
      // The count leaves the header row out; the rows shown are the newest, and it says so.
      await page.waitForSelector("#builder-status:has-text('rows')");
      expect(await page.innerText("#builder-status")).toBe(`Preview: ${QUARTER.days} rows, below.`);
      expect(await page.innerText("#builder-result .result-rows")).toBe(
        `The newest 6 rows of ${QUARTER.days}: the formula spills them all.`
      );
      const lastRow = page.locator("#builder-result tbody tr").last();
      expect(await lastRow.locator("th[scope='row']").innerText()).toBe(QUARTER.end);
      // The newest figure is the service's, as the gateway gives it.
      const answer = (await gatewayGet(
        `/v2/projects/aave/metrics?metric_ids=revenue&start=${QUARTER.end}&end=${QUARTER.end}`
      )) as { data: { revenue: number }[] };
      expect(await lastRow.locator("td").innerText()).toBe(shown(Number(answer.data[0].revenue)));
      // No landmark named twice (the preview is one region).
      expect(await page.locator("[role='region'][aria-label='Preview']").count()).toBe(1);
      await expectNoAxeViolations(page, "builder: METRIC previewed through the sign-in");
    });

    test("Sum the values gives the values alone: the full spill's SUM less the date serials", async () => {
      await page.click("#b-sum");
      await formulaIs(
        `=SUM(CRYPTO.METRIC("aave","revenue","${QUARTER.start}","${QUARTER.end}","headers=0; dates=0"))`
      );
      await page.waitForSelector("#builder-status:has-text('Preview ready')", { timeout: 30_000 });
      const summed = numberIn(await page.innerText("#builder-result td"));
      // What Excel's SUM over the whole spill gives, computed by the preview sheet, minus the serials it added.
      const { page: sheet } = await openPage(
        browser,
        { width: 1000, height: 800 },
        { strict: true }
      );
      await sheet.goto(app.urls.preview);
      await sheet.waitForSelector("body[data-ready='true']", { timeout: 60_000 });
      const enter = async (address: string, formula: string): Promise<string> => {
        await sheet.click(`#cell-${address}`);
        await sheet.fill("#formula-input", formula);
        await sheet.press("#formula-input", "Enter");
        await sheet.waitForFunction((id) => {
          const text = document.getElementById(id)?.textContent ?? "";
          return text !== "" && text !== "#BUSY!";
        }, `cell-${address}`);
        return sheet.innerText(`#cell-${address}`);
      };
      await enter("A1", `=CRYPTO.METRIC("aave","revenue","${QUARTER.start}","${QUARTER.end}")`);
      const whole = numberIn(await enter("D1", "=SUM(A1#)"));
      const column = numberIn(await enter("D2", `=SUM(B2:B${QUARTER.days + 1})`));
      expect(Math.abs(whole - DATE_SERIALS - summed)).toBeLessThanOrEqual(1);
      expect(Math.abs(column - summed)).toBeLessThanOrEqual(1);
      await sheet.context().close();
      await expectNoAxeViolations(page, "builder: the sum of the values");
    });

    test("switching the function keeps the project; a statement opens on its newest quarter", async () => {
      await page.click("#b-sum");
      await choose(page, "builder-function", "VALUE");
      await formulaIs('=CRYPTO.VALUE("aave","revenue")');
      await choose(page, "builder-function", "STATEMENT");
      await formulaIs('=CRYPTO.STATEMENT("aave")');
      await page.waitForFunction(
        () => /Metric/.test(document.querySelector("#builder-result thead")?.textContent ?? ""),
        undefined,
        { timeout: 30_000 }
      );
      const scroll = await page.$eval("#builder-result .result-scroll", (box) => {
        const heads = [...box.querySelectorAll("thead th")];
        const last = heads[heads.length - 1].getBoundingClientRect();
        const metric = heads[1].getBoundingClientRect();
        const shownBox = box.getBoundingClientRect();
        return {
          scrolled: box.scrollLeft > 0,
          newestInView: last.right <= shownBox.right + 1 && last.left >= shownBox.left - 1,
          metricInView: metric.left >= shownBox.left - 1,
        };
      });
      expect(scroll).toEqual({ scrolled: true, newestInView: true, metricInView: true });
      expect(await page.innerText("#builder-result tbody tr:first-child th[scope='row']")).toBe(
        "Fees"
      );
      await expectNoAxeViolations(page, "builder: a statement on its newest quarter");
    });

    test("signing out forgets the account", async () => {
      await openSection(page, "settings");
      await page.click("#sign-out");
      await page.waitForSelector("#sign-in-state[data-state='signed-out']");
      expect(await page.innerText("#sign-in-status")).toBe(
        "Signed out. Your account is forgotten on this computer."
      );
      await expectNoAxeViolations(page, "team gateway: signed out again");
      expect(problems.errors).toEqual([]);
      expect(problems.csp).toEqual([]);
    });

    test("the preview page at 160 CSS px: demo data marked at once, Excel's everyday formulas", async () => {
      const { page: preview, problems: previewProblems } = await openPage(browser, PANE, {
        strict: true,
        deviceScaleFactor: ZOOM,
      });
      await preview.goto(app.urls.preview);
      await preview.waitForSelector("body[data-ready='true']", { timeout: 60_000 });
      // Before any formula: marked.
      await preview.waitForSelector("#demo-banner:not([hidden])", { timeout: 5_000 });
      await expectNoAxeViolations(preview, "preview page as opened");
      for (const [address, formula, expected] of [
        ["A1", "=1e6", "1,000,000"],
        ["A2", "=ROUND(2.675,2)", "2.68"],
        ["A3", '=IFERROR(1/0,"none")', "none"],
        ["A4", '=TEXT(DATE(2024,3,31),"mmm yyyy")', "Mar 2024"],
        ["A5", "=SUM(A1:A2;3)", "1,000,006"],
      ] as const) {
        await preview.click(`#cell-${address}`);
        await preview.fill("#formula-input", formula);
        await preview.press("#formula-input", "Enter");
        await preview.waitForFunction(
          ([id, text]) => document.getElementById(id)?.textContent === text,
          [`cell-${address}`, expected] as const,
          { timeout: 20_000 }
        );
      }
      // Enter put the user back on the sheet, as in Excel.
      expect(await preview.evaluate(() => document.activeElement?.id)).toBe("cell-A5");
      await expectNoAxeViolations(preview, "preview page: everyday formulas");
      expect(previewProblems.errors).toEqual([]);
      await preview.context().close();
    });
  });
}
