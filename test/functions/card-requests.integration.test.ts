/**
 * Cards are cheap: 50 cards in one recalculation cost no more requests than the cells a user would write for
 * the same figures (the profile's PROJECT field, every metric's VALUE, each statement line's VALUE by quarter,
 * the history that dates the launch), and a warm card costs none. Counted on the simulator's request log,
 * over loopback HTTP, each workbook in a runtime of its own (a cold cache).
 */
import * as fns from "../../src/functions/functions";
import { configureRuntime } from "../../src/runtime/runtime";
import {
  createDataset,
  DEMO_API_KEY,
  startSimulator,
  type RunningSimulator,
} from "../../src/simulator";
import { inv, NOW, TODAY } from "./harness";

const PROJECTS = 50;
const dataset = createDataset(TODAY, { projects: PROJECTS });
const projects = dataset.projects.slice(0, PROJECTS);

/** The statement lines a card's Financials shows, and the quarters it shows them for. */
const LINES = [
  "fees",
  "fees_supply_side",
  "revenue",
  "token_incentives",
  "expenses",
  "earnings",
  "tvl",
  "active_loans",
  "user_dau",
  "user_mau",
  "market_cap_fully_diluted",
  "tokenholders",
];
const QUARTER_ENDS = ["2025-12-31", "2026-03-31", "2026-06-30", "2026-09-30"];

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, now: () => NOW, rateLimit: null, projects: PROJECTS });
});
afterAll(() => sim.close());

function coldRuntime(): void {
  configureRuntime({
    baseUrl: sim.url,
    apiKey: DEMO_API_KEY,
    now: () => NOW,
    // The counts are the point here, not the pace: the client's limiter would only stretch the test.
    rateLimitPerMinute: 100_000,
    client: { retry: { baseDelayMs: 1, rateLimitedBaseDelayMs: 1, maxDelayMs: 5 } },
    engine: { windowMs: 20 },
  });
  sim.clearLog();
}

function requests(): string[] {
  return sim.requestLog.filter((r) => r.method === "GET").map((r) => r.path);
}

const settle = (calls: Promise<unknown>[]) =>
  Promise.all(calls.map((c) => c.catch((error: unknown) => error)));

/** What a user writes to get a card's figures without cards, all in one recalculation. */
function sameFiguresAsCells(): Promise<unknown>[] {
  return projects.flatMap((p) => [
    fns.project_(p.id, "chains", inv()),
    ...p.metrics.map((m) => Promise.resolve(fns.value_(p.id, m, null, null, inv()))),
    ...LINES.filter((m) => p.metrics.includes(m)).flatMap((m) =>
      QUARTER_ENDS.map((end) => Promise.resolve(fns.value_(p.id, m, end, "period=quarter", inv())))
    ),
    // The launch date: the first row of the anchor metric's whole history.
    fns.metric_(
      [[p.id]],
      [[p.metrics.includes("fees") ? "fees" : p.metrics[0]]],
      null,
      null,
      null,
      inv()
    ),
  ]);
}

const cards = () => settle(projects.map((p) => fns.project_(p.id, null, inv())));
const isCard = (c: unknown) =>
  Array.isArray(c) &&
  ((c as unknown[][])[0][0] as { type?: unknown } | undefined)?.type === "Entity";

describe("50 cards in one recalculation", () => {
  it("cost no more requests than the cells for the same figures", async () => {
    coldRuntime();
    await settle(sameFiguresAsCells());
    const cells = requests().length;

    coldRuntime();
    expect((await cards()).every(isCard)).toBe(true);
    const cold = requests().length;
    process.stdout.write(
      `50 cards, cold: ${cold} requests; the same figures as cells: ${cells} requests\n`
    );
    expect(cold).toBeLessThanOrEqual(cells);
    // The two catalogues, one detail per project, then a request per metric (not per card).
    expect(cold).toBeLessThanOrEqual(2 + PROJECTS + dataset.metrics.length + 5);
  }, 300_000);

  it("cost no request when warm", async () => {
    sim.clearLog();
    expect((await cards()).every(isCard)).toBe(true);
    process.stdout.write(`50 cards, warm: ${requests().length} requests\n`);
    expect(requests()).toEqual([]);
  }, 300_000);
});
