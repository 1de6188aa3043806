/**
 * "Not available" is the same answer whichever operation serves a series: §4.11 says so in `errors`, §4.3 and
 * §4.7 only leave the metric out, and the engine then reads the availability the detail publishes.
 */
import { CryptometricsError } from "../../src/client";
import type { AvailabilityLookup } from "../../src/engine/availability";
import { DEFAULT_CACHE_POLICY } from "../../src/cache/policy";
import { dayNumber } from "../../src/client/data/days";
import { SeriesBatcher } from "../../src/engine/series-batcher";
import { SeriesStore } from "../../src/engine/series-store";
import { DEFAULT_VARIANT, type SeriesQuery } from "../../src/engine/series-types";
import { fakeClock, MIDDAY_2026 } from "../support/clock";
import { FakeClient } from "./fake-client";

const WINDOW = 50;

function setup(lookup: AvailabilityLookup) {
  const time = fakeClock(MIDDAY_2026, { held: true });
  const client = new FakeClient();
  const store = new SeriesStore(DEFAULT_CACHE_POLICY, time.now);
  const asked: string[] = [];
  const batcher = new SeriesBatcher(
    client,
    store,
    time.timers,
    { windowMs: WINDOW, deadlineMs: 130_000, maxIdsPerRequest: 50, staleAfterMs: 10_000 },
    (projectId, productId, metricId) => {
      asked.push(`${projectId}/${metricId}`);
      return lookup(projectId, productId, metricId);
    }
  );
  return { time, client, batcher, asked };
}

function q(projectId: string, metricId: string, day = "2025-03-01"): SeriesQuery {
  return {
    projectId,
    metricId,
    start: dayNumber(day),
    end: dayNumber(day),
    variant: DEFAULT_VARIANT,
  };
}

const published: AvailabilityLookup = (projectId, _product, metricId) =>
  Promise.resolve(!(projectId === "gmx" && metricId === "tvl"));

describe("availability of a series served by any operation", () => {
  it("gives the §4.11 issue to a metric §4.3 left out, by the project's published availability", async () => {
    const viaMetric = setup(published);
    const alone = viaMetric.batcher.get(q("gmx", "tvl"));
    await viaMetric.time.advance(WINDOW);
    const fromMetricForm = await alone;
    expect(viaMetric.client.calls.map((c) => c.op)).toEqual(["getMetric"]);
    expect(viaMetric.asked).toEqual([]); // §4.11 said it itself

    const viaProject = setup(published);
    // Three metrics of gmx: one project request is the cheapest plan.
    const cells = ["tvl", "fees", "revenue"].map((m) => viaProject.batcher.get(q("gmx", m)));
    await viaProject.time.advance(WINDOW);
    const [fromProjectForm] = await Promise.all(cells);
    expect(viaProject.client.calls.map((c) => c.op)).toEqual(["getProjectMetrics"]);
    expect(viaProject.asked).toEqual(["gmx/tvl"]);

    expect(fromProjectForm.issue).toEqual(fromMetricForm.issue);
    expect(fromProjectForm.issue).toEqual({
      code: "metric-not-available",
      message: 'metric "tvl" is not available for project "gmx"',
    });
  });

  it("leaves an available series with nothing in range as no data", async () => {
    const { time, batcher, asked } = setup(published);
    const cells = ["fees", "revenue"].map((m) => batcher.get(q("aave", m, "2023-06-01")));
    await time.advance(WINDOW);
    const answers = await Promise.all(cells);
    expect(answers.map((a) => a.issue)).toEqual([undefined, undefined]);
    expect(answers.map((a) => a.dims.get("") ?? [])).toEqual([[], []]);
    expect(asked.sort()).toEqual(["aave/fees", "aave/revenue"]);
  });

  it("fails the series whose availability cannot be read rather than guess, keeping the others", async () => {
    const down = new CryptometricsError("server", "getProject: 503", { operation: "getProject" });
    const { time, batcher } = setup(() => Promise.reject(down));
    const tvl = batcher.get(q("gmx", "tvl"));
    const fees = batcher.get(q("gmx", "fees"));
    const revenue = batcher.get(q("gmx", "revenue"));
    await time.advance(WINDOW);
    await expect(tvl).rejects.toBe(down);
    expect((await fees).dims.get("")).toHaveLength(1);
    expect((await revenue).dims.get("")).toHaveLength(1);
  });
});
