/**
 * Request counts of the bench's workloads, asserted: they are deterministic (no rate limit, no latency, a
 * fixed clock), unlike the times, which the bench only reports. Each sheet is evaluated as one Excel
 * recalculation through the custom functions, against the simulator over HTTP on loopback; the naive
 * baseline goes through the same client.
 */
import { createDataset } from "../../src/simulator";
import { engineRecalculate } from "../../src/tools/bench/engine-path";
import { startBenchEnvironment, type BenchEnvironment } from "../../src/tools/bench/environment";
import { installExcelHost, recalculate } from "../../src/tools/bench/excel";
import { naiveRecalculate } from "../../src/tools/bench/naive";
import { compareOutcomes, summarise } from "../../src/tools/bench/outcomes";
import {
  BENCH_NOW,
  BENCH_TODAY,
  MODEL_METRICS,
  distinctProjectCount,
  historySheet,
  hotPathSheet,
  LARGE_UNIVERSE,
  largeModelSheet,
  largeProjects,
  MODEL_DATE,
  modelSheet,
  overlappingRanges,
  sheetProjects,
  statementsSheet,
  type BenchCell,
} from "../../src/tools/bench/workloads";

installExcelHost();

let env: BenchEnvironment;

async function start(
  options: { maxIdsPerRequest?: number; projects?: number } = {}
): Promise<void> {
  env = await startBenchEnvironment({
    scale: null,
    latencyMs: 0,
    now: () => BENCH_NOW,
    engineWindowMs: 5,
    ...options,
  });
}

/**
 * One environment per configuration, shared by its tests: each measurement starts from a cleared request log
 * and an engine prepared as the bench prepares it, and the simulator keeps the series it generated.
 */
function sharedEnvironment(options: { maxIdsPerRequest?: number; projects?: number } = {}): void {
  beforeAll(() => start(options));
  afterAll(() => env.close());
}

/** The add-in's requests for one recalculation of `cells`, its engine prepared as the bench prepares it. */
async function addInRun(cells: readonly BenchCell[], start: "catalogue" | "cold" | "warm") {
  if (start !== "warm") await env.coldEngine({ catalogue: start === "catalogue" });
  return env.measure(() => recalculate(cells));
}

function queryOf(path: string): Record<string, string> {
  const entry = env.simulator.requestLog.find((r) => r.method === "GET" && r.path === path);
  if (!entry) throw new Error(`no request to ${path}`);
  return entry.query;
}

describe("the add-in's requests per recalculation", () => {
  sharedEnvironment();
  // The simulator generates a series on first use, blocking its process (seconds on a busy machine): the
  // model sheet's series are generated first, as the bench does, so the measured runs only count requests.
  beforeAll(async () => {
    const projectIds = [...new Set(sheetProjects(50))];
    for (const m of MODEL_METRICS)
      await env.naiveClient.getMetric(m, { projectIds, start: MODEL_DATE, end: MODEL_DATE });
  }, 120_000);

  it("serves the full 1,000-cell model sheet with one request per metric", async () => {
    const cells = modelSheet();
    expect(cells).toHaveLength(1_000);
    const { result, measurement } = await addInRun(cells, "catalogue");
    expect(measurement.requests).toBe(MODEL_METRICS.length);
    expect(new Set(measurement.paths)).toEqual(
      new Set(MODEL_METRICS.map((m) => `/v2/metrics/${m}`))
    );
    const ids = queryOf("/v2/metrics/fees").project_ids.split(",");
    expect(new Set(ids)).toEqual(new Set(sheetProjects(50)));
    // Pairs a project lacks and archived projects are #N/A; everything else has its number.
    expect(summarise(result).numbers).toBeGreaterThan(850);
  });

  it("adds only the project and metric lists on a cold open, and nothing on a warm refresh", async () => {
    const cells = modelSheet();
    const cold = await addInRun(cells, "cold");
    expect(cold.measurement.dataRequests).toBe(MODEL_METRICS.length);
    const catalogue = cold.measurement.paths.filter((p) => !p.startsWith("/v2/metrics/"));
    expect(catalogue.sort()).toEqual(["/v2/metrics", "/v2/projects"]);

    const warm = await addInRun(cells, "warm");
    expect(warm.measurement.requests).toBe(0);
    expect(compareOutcomes(warm.result, cold.result).agree).toBe(1_000);
  });

  it("serves the 50-cell history sheet with one request for every project id", async () => {
    const cells = historySheet();
    const { result, measurement } = await addInRun(cells, "catalogue");
    expect(measurement.paths).toEqual(["/v2/metrics/fees"]);
    expect(queryOf("/v2/metrics/fees")).toMatchObject({ start: "2025-10-01", end: "2026-09-30" });
    expect(summarise(result).tables).toBeGreaterThanOrEqual(44);
  });

  it("serves 365 overlapping dates of one series with one request spanning them all", async () => {
    const { result, measurement } = await addInRun(overlappingRanges(), "catalogue");
    expect(measurement.requests).toBe(1);
    const [path] = measurement.paths;
    expect(queryOf(path)).toMatchObject({ start: "2025-10-01", end: "2026-09-30" });
    const days = createDataset(BENCH_TODAY).daily("aave", "fees", {
      start: "2025-10-01",
      end: "2026-09-30",
    });
    expect(summarise(result).numbers).toBe(days.filter((d) => d.value !== null).length);
  });

  it("sends one request per statement and one per line metric for all their lines' days, plus the catalogues when cold", async () => {
    const cells = statementsSheet();
    const { measurement } = await addInRun(cells, "cold");
    // 20 statements, and the daily series of their lines (each figure checked against them): asked beside
    // the statements, so every statement's lines are in one request per line metric (§4.11 for the 20
    // projects), not one per statement as its answer arrives (40 before).
    // The project list (the ids) and the metric list (the lines' names), once each for all 20.
    expect(measurement.catalogueRequests).toBe(2);
    expect(measurement.paths.filter((p) => p.endsWith("/financial-statement"))).toHaveLength(20);
    const reads = measurement.paths.filter((p) => !p.endsWith("/financial-statement"));
    const catalogues = new Set(["/v2/projects", "/v2/metrics"]);
    const lineReads = reads.filter((p) => !catalogues.has(p));
    expect(lineReads.every((p) => p.startsWith("/v2/metrics/"))).toBe(true);
    expect(lineReads.length).toBeLessThanOrEqual(12);
    expect(measurement.dataRequests).toBeLessThanOrEqual(32);
  });

  it("answers a warm hot path from the cache, in the functions and in the engine alike", async () => {
    const cells = hotPathSheet(10, MODEL_METRICS.slice(0, 4), 5);
    expect(cells).toHaveLength(200);
    const warming = await addInRun(cells, "catalogue");
    expect(warming.measurement.requests).toBe(4);
    const again = await addInRun(cells, "warm");
    expect(again.measurement.requests).toBe(0);
    const engine = await env.measure(() => engineRecalculate(env.runtime.engine, cells));
    expect(engine.result).toBe(200);
    expect(engine.measurement.requests).toBe(0);
  });
});

describe("the large model", () => {
  sharedEnvironment({ projects: LARGE_UNIVERSE });
  // The bench measures all 20 metrics; three keep this test's series generation short, and the plan is per
  // metric: one request each, whatever the number of metrics.
  const metrics = ["fees", "price", "tvl"];
  // The simulator generates a series on first use, blocking its process (a few seconds for 500 projects, far
  // more on a busy machine): warmed first, as the bench does, so no attempt of the client times out.
  beforeAll(async () => {
    for (const m of metrics)
      await env.naiveClient.getMetric(m, { projectIds: "all", start: MODEL_DATE, end: MODEL_DATE });
  }, 120_000);

  it("serves 500 projects on one date with one request per metric, every project at once", async () => {
    const cells = largeModelSheet(LARGE_UNIVERSE, metrics);
    expect(cells).toHaveLength(1_500);
    expect(new Set(cells.map((c) => c.project)).size).toBe(500);
    const { result, measurement } = await addInRun(cells, "catalogue");
    expect(measurement.requests).toBe(metrics.length);
    expect(new Set(measurement.paths)).toEqual(new Set(metrics.map((m) => `/v2/metrics/${m}`)));
    for (const entry of env.simulator.requestLog)
      expect(entry.query).toMatchObject({ project_ids: "all", start: MODEL_DATE, end: MODEL_DATE });
    // Prices of projects without a token, TVL of profiles without one, archived projects: #N/A.
    expect(summarise(result).numbers).toBeGreaterThan(1_000);
  }, 90_000);

  it("gives the naive baseline's numbers, cell for cell", async () => {
    const cells = largeModelSheet(LARGE_UNIVERSE, metrics).filter((_, i) => i % 7 === 0);
    const ours = await addInRun(cells, "catalogue");
    const naive = await env.measure(() => naiveRecalculate(env.naiveClient, cells));
    expect(naive.measurement.requests).toBe(cells.length);
    const agreement = compareOutcomes(ours.result, naive.result);
    expect(agreement.firstDifference).toBeUndefined();
    expect(agreement.agree).toBe(cells.length);
    expect(largeProjects()).toHaveLength(500);
  }, 60_000);
});

describe("the history sheet split by the client's id chunks", () => {
  sharedEnvironment({ maxIdsPerRequest: 20 });

  it("asks every project at once when the answer stays small (46 projects × 365 days)", async () => {
    const { measurement } = await addInRun(historySheet(), "catalogue");
    expect(measurement.requests).toBe(1);
    expect(env.simulator.requestLog[0].query.project_ids).toBe("all");
  });

  it("sends one request per chunk of project ids when every project at once would be too large", async () => {
    const options = env.runtime.engine.options;
    options.wholeUniverseMaxRows = 10_000;
    const { measurement } = await addInRun(historySheet(), "catalogue").finally(() => {
      options.wholeUniverseMaxRows = 20_000;
    });
    const chunks = Math.ceil(distinctProjectCount(50) / 20);
    expect(measurement.requests).toBe(chunks);
    const sent = env.simulator.requestLog.flatMap((r) => r.query.project_ids.split(","));
    expect(sent).toHaveLength(distinctProjectCount(50));
    expect(new Set(sent)).toEqual(new Set(sheetProjects(50)));
  });
});

describe("the naive baseline", () => {
  sharedEnvironment();

  it.each<[string, BenchCell[]]>([
    ["model sheet", modelSheet(5, MODEL_METRICS.slice(0, 4))],
    ["history sheet", historySheet(5)],
    ["overlapping ranges", overlappingRanges(30)],
    ["statements", statementsSheet(3)],
  ])("sends one request per cell of the %s, again on every refresh", async (_name, cells) => {
    for (let refresh = 0; refresh < 2; refresh++) {
      const { measurement } = await env.measure(() => naiveRecalculate(env.naiveClient, cells));
      expect(measurement.requests).toBe(cells.length);
    }
  });

  it("gives the add-in's answers, cell for cell", async () => {
    const cells = [...modelSheet(10), ...overlappingRanges(30)];
    const naive = await env.measure(() => naiveRecalculate(env.naiveClient, cells));
    expect(naive.measurement.requests).toBe(cells.length);
    const ours = await addInRun(cells, "catalogue");
    const agreement = compareOutcomes(ours.result, naive.result);
    expect(agreement.firstDifference).toBeUndefined();
    expect(agreement.agree).toBe(cells.length);
    expect(summarise(naive.result).numbers).toBeGreaterThan(150);
  });
});
