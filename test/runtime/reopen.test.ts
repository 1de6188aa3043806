/**
 * A workbook reopened as the add-in meets it: the custom functions (through the Excel edge) over the runtime
 * with its saved cache in IndexedDB (fake-indexeddb; the page uses the same store), against the simulator
 * on loopback HTTP. Each session is a new runtime (empty memory) over the same database, as a new Excel
 * session is.
 */
import "fake-indexeddb/auto";
import * as fns from "../../src/functions/functions";
import { configureRuntime, sharedDiagnostics } from "../../src/runtime/runtime";
import { IdbBlobStore } from "../../src/runtime/idb-store";
import { DEMO_API_KEY, startSimulator, type RunningSimulator } from "../../src/simulator";
import { inv, NOW, show } from "../functions/harness";

const HOUR = 60 * 60_000;

let clock = NOW;
const now = () => clock;
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, now, rateLimit: null });
});
afterAll(() => sim.close());

let databases = 0;

/** A new session: a new runtime over the saved cache in `database` (one per service and key: `url`). */
function session(database: string, url = sim.url) {
  const store = new IdbBlobStore({ database, now });
  const runtime = configureRuntime({
    baseUrl: url,
    apiKey: DEMO_API_KEY,
    now,
    client: { retry: { baseDelayMs: 1, rateLimitedBaseDelayMs: 1, maxDelayMs: 5 } },
    engine: { windowMs: 5 },
    savedCache: { store, writeDelayMs: 0 },
  });
  return { runtime, store };
}

/** The workbook: a series and a single value, each in its own cell. */
async function workbook() {
  const series = (await fns.metric_(
    [["aave"]],
    [["fees"]],
    "2025-03-01",
    "2025-03-05",
    null,
    inv("Book!A1")
  )) as unknown[][];
  const value = await fns.value_("uniswap", "revenue", "2025-03-31", null, inv("Book!D1"));
  return { series: series.map((row) => row.map(show)), value };
}

const gets = () => sim.requestLog.filter((r) => r.method === "GET");

describe("a workbook reopened in a new session", () => {
  beforeEach(() => {
    clock = NOW;
    sim.clearLog();
  });

  it("costs no request the same day, and its cells' diagnostics say the values are saved ones and when they were fetched", async () => {
    const database = `reopen-${++databases}`;
    const first = session(database);
    const before = await workbook();
    await first.runtime.flushSaved();
    first.store.close();
    expect(gets().length).toBeGreaterThan(0);
    expect(sharedDiagnostics().cell("Book!A1")?.restored).toBeUndefined();

    clock = NOW + 3 * HOUR; // later the same UTC day
    sim.clearLog();
    const second = session(database);
    const after = await workbook();
    second.store.close();
    expect(gets()).toEqual([]);
    expect(after).toEqual(before);
    for (const address of ["Book!A1", "Book!D1"]) {
      const record = sharedDiagnostics().cell(address);
      expect(record).toMatchObject({ restored: { fetchedAt: NOW } });
      expect(record?.stale).toBeUndefined();
      expect(record?.error).toBeUndefined();
    }
  });

  it("shows the last values, flagged stale, the next day with the service down", async () => {
    const database = `reopen-${++databases}`;
    const own = await startSimulator({ port: 0, now, rateLimit: null });
    const first = session(database, own.url);
    const before = await workbook();
    await first.runtime.flushSaved();
    first.store.close();
    await own.close();

    // The next UTC day: the series are due again, and the service cannot be reached.
    clock = NOW + 20 * HOUR;
    const next = session(database, own.url);
    const after = await workbook();
    next.store.close();
    expect(after).toEqual(before);
    for (const address of ["Book!A1", "Book!D1"]) {
      const record = sharedDiagnostics().cell(address);
      expect(record?.error).toBeUndefined();
      expect(record?.stale).toMatchObject({ fetchedAt: NOW });
      expect(record?.stale?.reason).toMatch(/reach|connect/i);
    }
  });
});
