/**
 * Large universes: a metric asked of more projects than one request holds is asked of every project at
 * once (§4.11 `project_ids=all`) when the answer stays small, with the same numbers as the chunked plan.
 */
import * as fns from "../../src/functions/functions";
import { currentRuntime } from "../../src/runtime/runtime";
import { createDataset, DEMO_API_KEY } from "../../src/simulator";
import { inv, show, startHarness, TODAY, type Harness } from "./harness";

const UNIVERSE = 130;
const universe = createDataset(TODAY, { projects: UNIVERSE });
const projects = universe.projects.slice(0, 120).map((p) => p.id);
const metrics = ["fees", "price", "tvl"];
const DATE = "2026-09-30";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({}, { projects: UNIVERSE });
  // The simulator generates a series on first use, blocking its process: warmed here, so that no attempt of
  // the client under test times out on a busy machine.
  const headers = { Authorization: `Bearer ${DEMO_API_KEY}` };
  for (const m of metrics)
    await fetch(`${h.sim.url}/v2/metrics/${m}?project_ids=all&start=2025-10-01&end=${DATE}`, {
      headers,
    }).then((r) => r.arrayBuffer());
}, 120_000);
afterAll(() => h.close());

async function fresh(): Promise<void> {
  currentRuntime().engine.clear();
  await currentRuntime().engine.projects();
  await currentRuntime().engine.metrics();
  h.sim.clearLog();
}

function sheet(): Promise<unknown[]> {
  return Promise.all(
    projects.flatMap((p) =>
      metrics.map((m) =>
        Promise.resolve(fns.value_(p, m, DATE, null, inv())).then(show, (e: unknown) =>
          (show(e) as string).slice(0, 4)
        )
      )
    )
  );
}

function metricRequests(): Array<Record<string, string>> {
  return h.sim.requestLog
    .filter((r) => r.method === "GET" && r.path.startsWith("/v2/metrics/"))
    .map((r) => r.query);
}

describe("a model over a large universe", () => {
  it("asks each metric of every project in one request, and the values are the chunked plan's", async () => {
    await fresh();
    const whole = await sheet();
    const sent = metricRequests();
    expect(sent).toHaveLength(metrics.length);
    expect(sent.every((q) => q.project_ids === "all" && q.start === DATE && q.end === DATE)).toBe(
      true
    );

    // The same sheet with the every-project form turned off: three chunks of ids per metric.
    currentRuntime().engine.options.wholeUniverseMaxRows = 0;
    try {
      await fresh();
      const chunked = await sheet();
      expect(metricRequests()).toHaveLength(metrics.length * 3);
      expect(whole).toEqual(chunked);
    } finally {
      currentRuntime().engine.options.wholeUniverseMaxRows = 20_000;
    }
    // Projects without a token have no price: #N/A, never a number from another project.
    const prices = whole.filter((_, i) => i % metrics.length === 1);
    const tokenless = projects.filter((id) => !universe.project(id)!.metrics.includes("price"));
    expect(tokenless.length).toBeGreaterThan(5);
    for (const id of tokenless) expect(prices[projects.indexOf(id)]).toBe("#N/A");
    const daily = universe.daily(projects[60], "fees", { start: DATE, end: DATE })[0]?.value;
    expect(whole[60 * metrics.length]).toBe(daily ?? "#N/A");
  });

  it("keeps id lists for a range too long to ask of every project", async () => {
    await fresh();
    await Promise.all(
      // Archived projects have no data in the year: their cells are #N/A.
      projects.map((p) =>
        fns.metric_([[p]], [["fees"]], "2025-10-01", DATE, null, inv()).catch(() => null)
      )
    );
    const sent = metricRequests();
    expect(sent).toHaveLength(3);
    expect(sent.every((q) => q.project_ids !== "all")).toBe(true);
  });
});
