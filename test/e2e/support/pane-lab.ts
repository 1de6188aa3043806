/**
 * The one set-up of the browser tests: the production build (build.ts) served on loopback
 * (static-server.ts), a simulator of the service, Debian's Chromium (browser.ts), and, unless a file opens
 * its own pages, a first page loaded and ready. What a test file needs beyond that is an option: the
 * simulator's settings, a handler at the pages' origin (a team gateway), the first page's path, size and
 * scripts, settings stored before it loads. `close()` ends all of it, and a set-up that fails part-way
 * closes what it had opened before it throws, so no server or browser outlives a failed file.
 *
 * `npm start` (npm-start.e2e.test.ts) is not set up here: that test starts the command users start, which
 * serves its own pages and simulator.
 */
import type http from "http";
import type { Browser, Page } from "playwright-core";
import {
  DEMO_API_KEY,
  startSimulator,
  type RunningSimulator,
  type SimulatorOptions,
} from "../../../src/simulator";
import { ensureBuild } from "./build";
import { launch, openPage, type PageOptions, type Problems } from "./browser";
import { serveStatic, type StaticServer } from "./static-server";

/** The taskpane outside Excel, with the recording workbook the tests read back (recording-entry.ts). */
const TASKPANE = "/taskpane.html?workbook=recording";

/**
 * The simulator's settings unless a file says otherwise: an ephemeral port; no rate limit, since a
 * browser test is about the pages and the limit has tests of its own; CORS preflights answered, the
 * reading under which a page at another origin may send its key in a header. A file's `simulator` option
 * is laid over these one setting at a time (`readings` as a whole: the simulator merges it over its own
 * defaults, so `{ preflight: "refuse" }` is the simulator's default reading).
 */
const SIMULATOR: SimulatorOptions = {
  port: 0,
  rateLimit: null,
  readings: { preflight: "answer" },
};

/** How long a page may take to say it is ready: the build's bundles on a loaded machine. */
const READY_TIMEOUT_MS = 20_000;

export type Viewport = { width: number; height: number };

/** A pane's size: CSS pixels, and device pixels per CSS pixel (2 is the pane at 200 % zoom). */
export interface PaneSize extends Viewport {
  zoom?: number;
}

/** Answers a request at the pages' origin before the files do when it returns true (serveStatic). */
type Mount = (req: http.IncomingMessage, res: http.ServerResponse) => boolean;

/** What runs while the lab is open: the parts a test addresses by URL. */
interface LabParts {
  simulator: RunningSimulator;
  server: StaticServer;
}

interface FirstPage extends PageOptions {
  /** Path and query at the pages' origin. Default: the taskpane with the recording workbook. */
  path?: string;
  /** Default: browser.ts's taskpane width (320 × 900). */
  viewport?: Viewport;
  /**
   * Settings in the pages' localStorage before any script of theirs runs (as the taskpane stores them),
   * on the pages' origin only: office.js's telemetry frame, on another origin, is left alone.
   */
  storage?: (lab: LabParts) => Record<string, string>;
  /** Before the page loads: init scripts, exposed functions, stand-ins for Excel. */
  beforeLoad?: (page: Page, lab: LabParts) => Promise<unknown>;
}

interface PaneLabOptions {
  /** Laid over the lab's simulator settings (SIMULATOR above). */
  simulator?: SimulatorOptions;
  /** A handler at the pages' origin, made once the simulator runs (a gateway in front of it). */
  mount?: (simulator: RunningSimulator) => Promise<Mount>;
  /** The first page, loaded and ready; false when the file opens its own pages. Default: the taskpane. */
  page?: FirstPage | false;
}

export interface Lab extends LabParts {
  browser: Browser;
  /** A page of its own context (browser.ts's openPage), not loaded yet. */
  openPage(viewport?: Viewport, options?: PageOptions): Promise<{ page: Page; problems: Problems }>;
  /**
   * The taskpane at a pane's size, connected to the simulator: the service address and the demo key
   * stored as Settings stores them, then the page reloaded and waited for until its catalogue and the
   * demo banner show. `query` defaults to the recording workbook's.
   */
  connectedPane(size: PaneSize, query?: string): Promise<Page>;
  /** Closes the browser, then the pages' server and the simulator. */
  close(): Promise<void>;
}

/** A lab with its first page loaded and ready. */
export interface PaneLab extends Lab {
  page: Page;
  problems: Problems;
}

async function openFirstPage(
  lab: Lab,
  first: FirstPage
): Promise<{ page: Page; problems: Problems }> {
  const { path = TASKPANE, viewport, storage, beforeLoad, ...options } = first;
  const opened = await lab.openPage(viewport, options);
  if (storage)
    await opened.page.addInitScript(
      ({ entries, origin }) => {
        if (location.origin !== origin) return;
        for (const [key, value] of entries) localStorage.setItem(key, value);
      },
      { entries: Object.entries(storage(lab)), origin: lab.server.url }
    );
  await beforeLoad?.(opened.page, lab);
  await opened.page.goto(`${lab.server.url}${path}`);
  await opened.page.waitForSelector("body[data-ready='true']", { timeout: READY_TIMEOUT_MS });
  return opened;
}

/** Starts everything; on any failure, closes what was started and throws. */
export function openPaneLab(options: PaneLabOptions & { page: false }): Promise<Lab>;
export function openPaneLab(options?: PaneLabOptions & { page?: FirstPage }): Promise<PaneLab>;
export async function openPaneLab(options: PaneLabOptions = {}): Promise<Lab | PaneLab> {
  const servers: { close(): Promise<void> }[] = [];
  let browser: Browser | undefined;
  const closeAll = async (): Promise<void> => {
    // The browser first (its pages stop asking), then the servers together, as each file used to.
    await browser?.close();
    await Promise.all(servers.splice(0).map((s) => s.close()));
  };
  try {
    // The build and the simulator (with what stands in front of it) at once: the build is the long part.
    const [built, started] = await Promise.allSettled([
      ensureBuild(),
      startSimulator({ ...SIMULATOR, ...options.simulator }).then(async (simulator) => {
        servers.push(simulator);
        return { simulator, mount: await options.mount?.(simulator) };
      }),
    ]);
    if (built.status === "rejected") throw built.reason;
    if (started.status === "rejected") throw started.reason;
    const { simulator, mount } = started.value;
    const server = await serveStatic(built.value, mount);
    servers.push(server);
    const chromium = await launch();
    browser = chromium;
    const lab: Lab = {
      simulator,
      server,
      browser: chromium,
      openPage: (viewport, pageOptions) => openPage(chromium, viewport, pageOptions),
      connectedPane: (size, query) => connectedPane(lab, size, query),
      close: closeAll,
    };
    if (options.page === false) return lab;
    return { ...lab, ...(await openFirstPage(lab, options.page ?? {})) };
  } catch (error) {
    await closeAll();
    throw error;
  }
}

async function connectedPane(
  lab: Lab,
  size: PaneSize,
  query = "?workbook=recording"
): Promise<Page> {
  const { page } = await lab.openPage(
    { width: size.width, height: size.height },
    { deviceScaleFactor: size.zoom }
  );
  await page.goto(`${lab.server.url}/taskpane.html${query}`);
  await page.evaluate(
    ([url, key]) => {
      localStorage.setItem("cryptometrics.baseUrl", url);
      localStorage.setItem("cryptometrics.apiKey", key);
    },
    [lab.simulator.url, DEMO_API_KEY]
  );
  await page.reload();
  await page.waitForSelector("body[data-ready='true']", { timeout: READY_TIMEOUT_MS });
  await page.waitForSelector("#list-projects [role='option']");
  await page.waitForSelector("#demo-banner:not([hidden])");
  return page;
}
