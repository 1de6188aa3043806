/**
 * Every operation against the simulator over real HTTP on loopback: requests as the service expects
 * them, typed and normalised results, partial success, and the service's 400, 401 and 404.
 */
import { createClient, type ClientConfig, type MetricsClient } from "../../src/client";
import {
  createDataset,
  DEMO_API_KEY,
  startSimulator,
  type RunningSimulator,
} from "../../src/simulator";
import { fakeClock } from "../support/clock";

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const clock = fakeClock(Date.UTC(2024, 5, 1, 12));
let sim: RunningSimulator;
let client: MetricsClient;

function make(overrides: Partial<ClientConfig> = {}): MetricsClient {
  return createClient({
    baseUrl: sim.url,
    apiKey: DEMO_API_KEY,
    now: clock.now,
    sleep: clock.sleep,
    rateLimit: { limit: 10_000, windowMs: 60_000 },
    ...overrides,
  });
}

beforeAll(async () => {
  sim = await startSimulator({ port: 0, now: clock.now, rateLimit: null });
  client = make();
});
afterAll(() => sim.close());
beforeEach(() => sim.clearLog());

const isValue = (v: unknown) => v === null || (typeof v === "number" && Number.isFinite(v));

describe("catalogue operations", () => {
  it("lists projects, marked as simulated data", async () => {
    const { data, errors, meta } = await client.listProjects();
    expect(data.length).toBeGreaterThanOrEqual(40);
    expect(errors).toEqual([]);
    expect(meta).toEqual({ requests: 1, simulated: true, redirects: [] });
    expect(data.find((p) => p.projectId === "aave")?.products.map((p) => p.productId)).toContain(
      "aave-v3"
    );
    expect(data.some((p) => p.isArchived && p.archivedReason)).toBe(true);
  });

  it("reads a project's detail with its open members normalised", async () => {
    const { data } = await client.getProject("aave");
    expect(data.projectId).toBe("aave");
    expect(data.chains).toContain("ethereum");
    expect(data.marketSectors).toContain("lending");
    expect(data.metricAvailability.fees).toBe(true);
  });

  it("reads a product's detail", async () => {
    const { data } = await client.getProduct("aave", "aave-v3");
    expect(data).toMatchObject({ productId: "aave-v3", projectId: "aave" });
  });

  it("lists market sectors and reads one", async () => {
    const sectors = await client.listMarketSectors();
    expect(sectors.data.map((s) => s.id)).toContain("lending");
    const lending = await client.getMarketSector("lending");
    expect(lending.data.projects.map((p) => p.projectId)).toContain("aave");
    expect(lending.data.description.what).toEqual(expect.any(String));
  });

  it("lists metrics", async () => {
    const { data } = await client.listMetrics();
    expect(data.map((m) => m.metricId)).toEqual(expect.arrayContaining(["fees", "revenue", "tvl"]));
  });
});

describe("series operations", () => {
  it("reads a project's metrics as wide rows over exactly the asked range, in the asked order", async () => {
    const asc = await client.getProjectMetrics("aave", {
      metricIds: ["fees", "tvl"],
      start: "2024-05-01",
      end: "2024-05-10",
      orderDirection: "asc",
    });
    expect(asc.data.map((r) => r.date)).toEqual(
      Array.from({ length: 10 }, (_, i) => `2024-05-${String(i + 1).padStart(2, "0")}`)
    );
    for (const row of asc.data) {
      expect(Object.keys(row.values).sort()).toEqual(["fees", "tvl"]);
      expect(Object.values(row.values).every(isValue)).toBe(true);
    }
    const desc = await client.getProjectMetrics("aave", {
      metricIds: ["fees"],
      start: "2024-05-01",
      end: "2024-05-10",
    });
    expect(desc.data[0].date).toBe("2024-05-10");
  });

  it("breaks a project's metric down by chain", async () => {
    const { data } = await client.getProjectMetrics("aave", {
      metricIds: ["fees"],
      aggregateBy: "chain",
      start: "2024-05-01",
      end: "2024-05-01",
    });
    expect(new Set(data.map((r) => r.chain))).toEqual(
      new Set(["ethereum", "polygon", "avalanche", "arbitrum", "optimism", "base"])
    );
  });

  it("reads aggregations and the financial statement", async () => {
    const aggregations = await client.getProjectMetricAggregations("aave");
    expect(aggregations.data.map((a) => a.aggregation)).toEqual(
      expect.arrayContaining(["sum_30d", "latest"])
    );
    const statement = await client.getFinancialStatement("aave", {
      timestampGranularity: "month",
      interval: "1y",
    });
    expect(statement.data.every((r) => r.granularity === "month" && DATE.test(r.date))).toBe(true);
    const dates = statement.data.map((r) => r.date);
    expect(dates).toEqual([...dates].sort());
  });

  it("reads a product's metrics as long rows", async () => {
    const { data } = await client.getProductMetrics("aave", "aave-v3", {
      metricIds: ["fees"],
      start: "2024-05-01",
      end: "2024-05-03",
    });
    expect(data.map((r) => [r.date, r.metricId])).toEqual([
      ["2024-05-03", "fees"],
      ["2024-05-02", "fees"],
      ["2024-05-01", "fees"],
    ]);
  });

  it("reads one metric across projects, aggregations across projects and the breakdown", async () => {
    const metric = await client.getMetric("fees", {
      projectIds: ["uniswap", "aave"],
      start: "2024-05-01",
      end: "2024-05-02",
    });
    expect(metric.data.map((r) => `${r.date}/${r.projectId}`)).toEqual([
      "2024-05-02/uniswap",
      "2024-05-02/aave",
      "2024-05-01/uniswap",
      "2024-05-01/aave",
    ]);
    const aggregations = await client.getMetricAggregations({
      projectIds: ["aave"],
      metricIds: ["fees"],
    });
    expect(aggregations.data.length).toBeGreaterThan(0);
    expect(aggregations.data.every((r) => r.projectId === "aave" && r.metricId === "fees")).toBe(
      true
    );
    const ask = () =>
      client.getMetricsBreakdown("fees", {
        projectIds: ["aave", "uniswap"],
        start: "2024-05-01",
        end: "2024-05-31",
      });
    // The breakdown's rows are not shown by the interface: by default they name projects by name only.
    const breakdown = await ask();
    expect(breakdown.data.map((r) => [r.projectName, r.projectId])).toEqual([
      ["Uniswap", undefined],
      ["Aave", undefined],
    ]);
    expect(sim.requestLog.at(-1)?.query).toEqual({
      project_ids: "aave,uniswap",
      start_date: "2024-05-01",
      end_date: "2024-05-31",
    });
    sim.setKnobs({ readings: { breakdownRows: "full" } });
    try {
      expect((await ask()).data.map((r) => r.projectId)).toEqual(["uniswap", "aave"]);
    } finally {
      sim.setKnobs({ readings: undefined });
    }
    // start/end instead, for a service that takes the other metric operations' names.
    await client
      .getMetricsBreakdown("fees", {
        projectIds: ["aave"],
        start: "2024-05-01",
        end: "2024-05-31",
        dateNames: "start",
      })
      .catch(() => undefined);
    expect(sim.requestLog.at(-1)?.query).toEqual({
      project_ids: "aave",
      start: "2024-05-01",
      end: "2024-05-31",
    });
  });

  it("reads v1's two operations", async () => {
    const projects = await client.v1ListProjects();
    expect(projects.data.some((p) => p.projectId === "aave")).toBe(true);

    const metrics = await client.v1GetProjectMetrics("aave", {
      interval: "7d",
      dataGranularity: "daily",
    });
    expect(metrics.data.length).toBe(7);
    expect(metrics.data.every((r) => r.date !== undefined && DATE.test(r.date))).toBe(true);
  });
});

describe("partial success", () => {
  it("returns the valid data with one NOT_FOUND per unknown id, naming the parameter", async () => {
    const { data, errors } = await client.getProjectMetrics("aave", {
      metricIds: ["fees", "no-such-metric"],
      chainIds: ["ethereum", "mars"],
      start: "2024-05-01",
      end: "2024-05-02",
    });
    expect(data).toHaveLength(2);
    expect(errors).toEqual(
      expect.arrayContaining([
        { code: "NOT_FOUND", field: "metric_ids", value: "no-such-metric" },
        { code: "NOT_FOUND", field: "chain_ids", value: "mars" },
      ])
    );
    expect(data[0].values).not.toHaveProperty("no-such-metric");
  });

  it("reports a project lacking the metric as METRIC_NOT_AVAILABLE", async () => {
    const { data, errors } = await client.getMetric("tvl", {
      projectIds: ["aave", "bitcoin", "nope"],
      start: "2024-05-01",
      end: "2024-05-01",
    });
    expect(data.map((r) => r.projectId)).toEqual(["aave"]);
    expect(errors).toEqual(
      expect.arrayContaining([
        { code: "METRIC_NOT_AVAILABLE", projectId: "bitcoin", metricId: "tvl" },
        { code: "NOT_FOUND", field: "project_ids", value: "nope" },
      ])
    );
  });

  it("splits a long project list over several requests and merges data and errors", async () => {
    // Archived projects have no data for recent dates, nor a project launched later (and rightly no error):
    // leave them out.
    const launched = createDataset("2024-06-01").projects.filter((p) => p.launch <= "2024-05-01");
    const live = new Set(launched.map((p) => p.id));
    const all = (await client.listProjects()).data
      .filter((p) => !p.isArchived && live.has(p.projectId))
      .map((p) => p.projectId);
    const asked = [...all, "unknown-1", "unknown-2"];
    const small = make({ maxIdsPerRequest: 10 });
    sim.clearLog();
    const { data, errors, meta } = await small.getMetric("fees", {
      projectIds: asked,
      start: "2024-05-01",
      end: "2024-05-01",
    });
    const sent = sim.requestLog.map((e) => e.query.project_ids.split(","));
    expect(sent.length).toBe(Math.ceil(asked.length / 10));
    expect(meta.requests).toBe(sent.length);
    expect(sent.flat()).toEqual(asked);
    const answered = new Set([
      ...data.map((r) => r.projectId),
      ...errors.flatMap((e) =>
        e.code === "METRIC_NOT_AVAILABLE" ? [e.projectId] : e.code === "NOT_FOUND" ? [e.value] : []
      ),
    ]);
    expect(answered).toEqual(new Set(asked));
  });
});

describe("service errors", () => {
  it("passes on a 400, with the service's message when it sends one", async () => {
    // §7 shows no error bodies: by default there is none to quote.
    await expect(client.v1GetProjectMetrics("aave", { interval: "2m" })).rejects.toMatchObject({
      kind: "invalid-input",
      status: 400,
      message: "v1GetProjectMetrics(aave): invalid input (HTTP 400)",
    });
    sim.setKnobs({ readings: { errorBodies: "json" } });
    try {
      await expect(client.v1GetProjectMetrics("aave", { interval: "2m" })).rejects.toMatchObject({
        kind: "invalid-input",
        status: 400,
        message: expect.stringMatching(
          /^v1GetProjectMetrics\(aave\): invalid input \(HTTP 400\): Invalid value for interval/
        ),
      });
    } finally {
      sim.setKnobs({ readings: undefined });
    }
  });

  it("reports a wrong key as unauthorized, without ever putting a key in a URL", async () => {
    await expect(make({ apiKey: "wrong-key-0000" }).listProjects()).rejects.toMatchObject({
      kind: "unauthorized",
      status: 401,
    });
    expect(JSON.stringify(sim.requestLog)).not.toContain("wrong-key-0000");
  });

  it("reports unknown projects and products as not found", async () => {
    await expect(client.getProject("no-such-project")).rejects.toMatchObject({
      kind: "not-found",
      status: 404,
      ids: ["no-such-project"],
    });
    await expect(client.getProduct("aave", "no-such-product")).rejects.toMatchObject({
      kind: "not-found",
      ids: ["aave", "no-such-product"],
    });
  });

  it("sends nothing for an input the service would refuse", async () => {
    await expect(
      client.getFinancialStatement("aave", { interval: "7d" as never })
    ).rejects.toMatchObject({ kind: "invalid-input" });
    expect(sim.requestLog).toHaveLength(0);
  });
});
