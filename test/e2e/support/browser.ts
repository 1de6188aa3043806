/**
 * Debian's Chromium driven by playwright-core (no browser downloads): one browser per jest worker, pages
 * that load office.js from the local npm copy in place of Microsoft's CDN, and a record of everything the
 * page complained about (script errors, Content-Security-Policy violations) for the tests to assert on.
 */
import { createHash, X509Certificate } from "crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "fs";
import { dirname, join } from "path";
import { chromium, type Browser, type Page } from "playwright-core";
import { ROOT } from "./build";
import { recordingWorkbookScript } from "./recording-bundle";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const OFFICE_JS = join(ROOT, "node_modules/@microsoft/office-js/dist");
const CDN = "https://appsforoffice.microsoft.com/lib/1/hosted/";
const TELEMETRY = "https://telemetryservice.firstpartyapps.oaspapps.com";
const SCREENSHOTS = join(ROOT, "test-results", "screenshots");
const COMMITTED_SCREENSHOTS = join(ROOT, "assets", "screenshots");

/**
 * Chromium's way to trust one certificate without a system CA store: the base64 SHA-256 of its public key
 * (SubjectPublicKeyInfo), given to --ignore-certificate-errors-spki-list. Only that certificate is accepted;
 * a server presenting any other one still fails the page load.
 */
function spkiHash(certificatePem: Buffer): string {
  const spki = new X509Certificate(certificatePem).publicKey.export({
    type: "spki",
    format: "der",
  });
  return createHash("sha256").update(spki).digest("base64");
}

interface LaunchOptions {
  /** A server certificate (PEM) the browser accepts, as a user who trusted it would. */
  trustCertificate?: Buffer;
}

/** The worker's services (test/support/worker-services.cjs), set by the test environment. */
type WorkerService = (script: string, options: object) => Promise<string>;
export const BROWSER_HOST = join(__dirname, "browser-host.cjs");

/**
 * A browser for a test file: the jest worker's own Chromium (one per worker and set of launch options, started
 * by the first file that asks and reused by the next ones; see browser-host.cjs), connected to anew. Closing it
 * closes the file's contexts and pages and disconnects; the browser stays for the worker's next file. Outside
 * the project's test environment, a Chromium of its own.
 */
export async function launch(options: LaunchOptions = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: install Debian's package (apt-get install chromium) or set CHROMIUM_PATH`
    );
  }
  const settings = launchSettings(options);
  const workerService = (globalThis as { __cmWorkerService?: WorkerService }).__cmWorkerService;
  if (!workerService) return chromium.launch({ ...settings, timeout: 20_000 });
  const { wsEndpoint } = JSON.parse(await workerService(BROWSER_HOST, settings)) as {
    wsEndpoint: string;
  };
  return chromium.connect(wsEndpoint, { timeout: 20_000 });
}

/** How Chromium is started for these options (the worker keeps one browser per distinct settings). */
export function launchSettings(options: LaunchOptions = {}): {
  executablePath: string;
  args: string[];
} {
  return {
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
      ...(options.trustCertificate
        ? [`--ignore-certificate-errors-spki-list=${spkiHash(options.trustCertificate)}`]
        : []),
    ],
  };
}

export interface Problems {
  errors: string[];
  csp: string[];
}

export interface PageOptions {
  /**
   * Count failed resource loads as errors too. Tests that provoke failures on purpose (a wrong key) leave it
   * off; a page that must load cleanly (what `npm start` serves) turns it on.
   */
  strict?: boolean;
  /** Device pixels per CSS pixel: 2 with a viewport of half the pane's width is the pane at 200 % zoom. */
  deviceScaleFactor?: number;
}

/** A page at the taskpane's width, office.js served locally, problems collected. */
export async function openPage(
  browser: Browser,
  viewport = { width: 320, height: 900 },
  options: PageOptions = {}
): Promise<{ page: Page; problems: Problems }> {
  const context = await browser.newContext({
    viewport,
    reducedMotion: "reduce",
    deviceScaleFactor: options.deviceScaleFactor,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const problems: Problems = { errors: [], csp: [] };
  await page.route(`${CDN}**`, async (route) => {
    const file = join(
      OFFICE_JS,
      new URL(route.request().url()).pathname.replace("/lib/1/hosted/", "")
    );
    if (!existsSync(file)) return route.fulfill({ status: 404 });
    return route.fulfill({ status: 200, contentType: "text/javascript", body: readFileSync(file) });
  });
  // office.js outside Office opens a telemetry frame; there is no network here, so answer it empty.
  await page.route(`${TELEMETRY}/**`, (route) =>
    route.fulfill({
      status: 200,
      contentType: "text/html",
      body: "<!doctype html><title>telemetry</title>",
    })
  );
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (e) =>
      seen.push(`${e.violatedDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`)
    );
  });
  // A page opened with ?workbook=recording gets the recording workbook (a test double, in no bundle).
  await page.addInitScript({ path: await recordingWorkbookScript() });
  page.on("pageerror", (error) => problems.errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    const text = message.text();
    if (/Content Security Policy/i.test(text)) problems.csp.push(text);
    // Failed HTTP statuses are logged by the browser; the tests provoke some (a wrong key) on purpose.
    else if (options.strict || !/^Failed to load resource/.test(text))
      problems.errors.push(`${text} (${message.location().url})`);
  });
  return { page, problems };
}

/** Violations the page itself saw (securitypolicyviolation events), beside those logged to the console. */
export function cspViolations(page: Page): Promise<string[]> {
  return page.evaluate(
    () => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? []
  );
}

/**
 * Saves a screenshot under test-results/screenshots/ (git-ignored). The README's pictures (`readme: true`,
 * taken from the pages `npm start` serves, as users first see them) are also copied to assets/screenshots/
 * when none is there yet or CM_UPDATE_SCREENSHOTS=1: figures move with the simulator's calendar, so
 * refreshing the committed copies on every run would dirty every checkout.
 */
export async function screenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean; readme?: boolean } = {}
): Promise<string> {
  const file = join(SCREENSHOTS, `${name}.png`);
  mkdirSync(dirname(file), { recursive: true });
  await page.screenshot({
    path: file,
    fullPage: options.fullPage ?? false,
    animations: "disabled",
    caret: "hide",
  });
  const committed = join(COMMITTED_SCREENSHOTS, `${name}.png`);
  if (!options.readme) return file;
  if (!existsSync(committed) || process.env.CM_UPDATE_SCREENSHOTS === "1") {
    mkdirSync(COMMITTED_SCREENSHOTS, { recursive: true });
    copyFileSync(file, committed);
  }
  return file;
}
