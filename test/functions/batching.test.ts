import * as fns from "../../src/functions/functions";
import { currentRuntime } from "../../src/runtime/runtime";
import { dataset, inv, startHarness, type Harness } from "./harness";

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(() => h.close());

const projects = dataset.projects
  .filter((p) => !p.isArchived)
  .slice(0, 40)
  .map((p) => p.id);
const metrics = ["fees", "revenue", "tvl", "user_dau", "price"];

describe("batching across a recalculation", () => {
  it("serves 200 VALUE cells (40 projects × 5 metrics, one date) with one request per metric", async () => {
    const cells = projects.flatMap((p) =>
      metrics.map((m) =>
        Promise.resolve(fns.value_(p, m, "2025-06-30", null, inv())).catch((e: Error) => e)
      )
    );
    await Promise.all(cells);
    const series = h.requests().filter((path) => !/^\/v2\/(projects|metrics)$/.test(path));
    expect(series.length).toBeLessThanOrEqual(10);
    expect(series.every((path) => path.startsWith("/v2/metrics/"))).toBe(true);
    expect(
      h.requests().filter((path) => path === "/v2/projects" || path === "/v2/metrics")
    ).toHaveLength(2);
  });

  it("serves 120 overlapping METRIC ranges of one series with one request, and a repeat with none", async () => {
    const formulas = () =>
      Array.from({ length: 120 }, (_, i) => {
        const start = new Date(Date.UTC(2024, 0, 1 + i)).toISOString().slice(0, 10);
        const end = new Date(Date.UTC(2024, 0, 31 + i)).toISOString().slice(0, 10);
        return fns.metric_([["aave"]], [["revenue"]], start, end, null, inv());
      });
    await Promise.all(formulas());
    expect(
      h.requests().filter((p) => p.includes("revenue") || p.includes("/projects/aave/metrics"))
    ).toHaveLength(1);
    h.sim.clearLog();
    await Promise.all(formulas());
    expect(h.requests()).toEqual([]);
  });

  it("fetches afresh after a refresh, and settles every cell", async () => {
    await fns.value_("aave", "fees", "2025-01-01", null, inv());
    h.sim.clearLog();
    currentRuntime().engine.refresh();
    await fns.value_("aave", "fees", "2025-01-01", null, inv());
    expect(h.requests().length).toBeGreaterThanOrEqual(1);
    expect(currentRuntime().engine.stats().waiting).toBe(0);
  });

  it("drops a cell Excel cancels from the batch", async () => {
    const invocation = inv();
    const cancelled = Promise.resolve(
      fns.value_("aave", "fees", "2023-01-01", null, invocation)
    ).catch((e: { code: string }) => e.code);
    const kept = fns.value_("aave", "fees", "2023-06-01", null, inv());
    await new Promise((r) => setImmediate(r)); // let both reach the engine's window
    await new Promise((r) => setTimeout(r, 1));
    invocation.onCanceled!();
    expect(await cancelled).toBe("#N/A");
    expect(typeof (await kept)).toBe("number");
  });
});
