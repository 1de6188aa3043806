/**
 * Excel at scale, the request counts the bench reports, asserted (no rate limit, no latency, a fixed clock):
 * 2,000 cells taking a project card cost what the same cells with ids cost; a burst of 50 formula previews
 * costs nothing; a big workbook's cold recalculation sends the plan's minimum and its warm one nothing. The
 * bench's times and heap figures are reported only (npm run bench).
 */
import * as fns from "../../src/functions/functions";
import { MAX_RECORD_BYTES } from "../../src/runtime/diagnostics";
import { createRegistry } from "../../src/sheet/registry";
import { generateFunctionsMeta } from "../../src/tools/gen-functions-meta";
import { startBenchEnvironment, type BenchEnvironment } from "../../src/tools/bench/environment";
import { installExcelHost } from "../../src/tools/bench/excel";
import { bigWorkbook, cardsAtScale, previewBurst } from "../../src/tools/bench/scale";
import {
  bigSpillSheet,
  bigValueSheet,
  cardSheet,
  SPILL_DAYS,
} from "../../src/tools/bench/scale-workloads";
import { BENCH_NOW, LARGE_UNIVERSE, MODEL_METRICS } from "../../src/tools/bench/workloads";

installExcelHost();

let env: BenchEnvironment;
beforeAll(async () => {
  env = await startBenchEnvironment({
    scale: null,
    latencyMs: 0,
    now: () => BENCH_NOW,
    engineWindowMs: 20,
    projects: LARGE_UNIVERSE,
  });
}, 60_000);
afterAll(() => env.close());

describe("cards as arguments at scale", () => {
  it("2,000 cells taking a PROJECT card send the requests of the same cells with ids: one per metric", async () => {
    const cells = cardSheet();
    expect(cells).toHaveLength(2_000);
    const result = await cardsAtScale(env, cells);
    expect(result.cards).toBe(50);
    expect(result.sameOutcomes).toBe(2_000);
    expect(result.withCards.requests).toBe(result.withIds.requests);
    expect(result.withIds.requests).toBe(MODEL_METRICS.length);
  }, 300_000);
});

describe("formula previews at scale", () => {
  it("a burst of 50 previews asks nothing, cold or after Enter, and shows what Enter shows once held", async () => {
    const meta: unknown = JSON.parse(
      await generateFunctionsMeta(require.resolve("../../src/functions/functions.ts"))
    );
    const burst = await previewBurst(env, createRegistry(meta, fns));
    expect(burst.previews).toBe(50);
    expect(burst.cold).toMatchObject({ requests: 0, placeholders: 50 });
    expect(burst.warm).toMatchObject({ requests: 0, placeholders: 0, sameAsEntered: 50 });
  }, 300_000);
});

describe("big workbooks (smaller copies of the bench's)", () => {
  it("METRIC spills of a year stay cached: cold at the plan's minimum, warm at no request", async () => {
    const cells = bigSpillSheet(50);
    const result = await bigWorkbook(
      env,
      "METRIC spills",
      cells,
      { projects: 50, metrics: MODEL_METRICS.length, days: SPILL_DAYS },
      1
    );
    expect(result.cold.requests).toBe(result.minimumRequests);
    expect(result.warm.requests).toBe(0);
    expect(result.engine.series).toBe(cells.length);
  }, 300_000);

  it("a VALUE model is cold at the plan's minimum, warm at no request, its diagnostics bounded", async () => {
    // The demo universe: a metric asked of every project stays small to generate.
    const demo = await startBenchEnvironment({ scale: null, latencyMs: 0, now: () => BENCH_NOW });
    try {
      const cells = bigValueSheet(40, MODEL_METRICS, 10);
      const shape = { projects: 40, metrics: MODEL_METRICS.length, days: 10 };
      await bigWorkbook(demo, "VALUE cells", cells, shape, 0); // the simulator generates its series
      const result = await bigWorkbook(demo, "VALUE cells", cells, shape, 1);
      expect(result.cold.requests).toBe(result.minimumRequests);
      expect(result.warm.requests).toBe(0);
      expect(result.diagnostics.cells).toBeLessThanOrEqual(6_250);
      expect(result.diagnostics.bytes).toBeLessThanOrEqual(MAX_RECORD_BYTES);
    } finally {
      await demo.close();
    }
  }, 300_000);
});
