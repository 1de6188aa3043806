/**
 * The gateway answers the service's interface: every v2 operation and v1's two, through the project's own
 * client, give what the service itself gives (data, partial-success errors, the simulated mark), whatever form
 * the answer was fetched in; and answers are shared by what they contain, not by the text of the URL.
 */
import { createClient, type MetricsClient } from "../../src/client";
import { startSimulator, type RunningSimulator } from "../../src/simulator";
import { startTestGateway, type TestGateway } from "./support/in-process";

const SERVICE_KEY = "cm_service_key_iface_91be";
const TOKEN = "tok_iface_reader_0b7";

let simulator: RunningSimulator;
let gw: TestGateway;
let direct: MetricsClient;
let through: MetricsClient;

beforeAll(async () => {
  simulator = await startSimulator({
    port: 0,
    rateLimit: null,
    apiKeys: [SERVICE_KEY],
    today: "2026-11-20",
  });
  gw = await startTestGateway({
    serviceUrl: simulator.url,
    serviceKey: SERVICE_KEY,
    tokens: { reader: TOKEN },
  });
  direct = createClient({ baseUrl: simulator.url, apiKey: SERVICE_KEY });
  through = createClient({ baseUrl: gw.url, apiKey: TOKEN });
});

afterAll(async () => {
  await gw?.close();
  await simulator?.close();
});

const upstream = (): Array<{ path: string; query: Record<string, string> }> =>
  simulator.requestLog
    .filter((r) => r.method === "GET")
    .map(({ path, query }) => ({ path, query }));

type Call = (
  c: MetricsClient
) => Promise<{ data: unknown; errors: readonly unknown[]; meta: { simulated: boolean } }>;

const range = { start: "2026-09-01", end: "2026-09-10" };

/** One call per operation of the interface (and the shapes of their options). */
const CALLS: Record<string, Call> = {
  listProjects: (c) => c.listProjects(),
  getProject: (c) => c.getProject("aave"),
  "getProjectMetrics (metrics named)": (c) =>
    c.getProjectMetrics("aave", { metricIds: ["fees", "revenue", "tvl"], ...range }),
  "getProjectMetrics (every metric)": (c) => c.getProjectMetrics("aave", range),
  "getProjectMetrics (by chain, oldest first)": (c) =>
    c.getProjectMetrics("aave", {
      metricIds: ["fees"],
      aggregateBy: "chain",
      orderDirection: "asc",
      ...range,
    }),
  "getProjectMetrics (an unknown metric)": (c) =>
    c.getProjectMetrics("aave", { metricIds: ["fees", "no_such_metric"], ...range }),
  getProjectMetricAggregations: (c) => c.getProjectMetricAggregations("aave"),
  getFinancialStatement: (c) =>
    c.getFinancialStatement("aave", { timestampGranularity: "month", interval: "1y" }),
  getProduct: (c) => c.getProduct("aave", "aave-v3"),
  getProductMetrics: (c) =>
    c.getProductMetrics("aave", "aave-v3", { metricIds: ["fees", "tvl"], ...range }),
  listMarketSectors: (c) => c.listMarketSectors(),
  getMarketSector: (c) => c.getMarketSector("lending"),
  listMetrics: (c) => c.listMetrics(),
  "getMetric (projects named, some unknown or without it)": (c) =>
    c.getMetric("tvl", { projectIds: ["aave", "bitcoin", "no-such-project", "uniswap"], ...range }),
  "getMetric (every project)": (c) =>
    c.getMetric("fees", { projectIds: "all", start: "2026-09-30", end: "2026-09-30" }),
  "getMetric (bridged assets left out)": (c) =>
    c.getMetric("tvl", { projectIds: ["aave", "lido-finance"], assetsBridged: false, ...range }),
  getMetricAggregations: (c) =>
    c.getMetricAggregations({ projectIds: ["aave", "uniswap"], metricIds: ["fees"] }),
  getMetricsBreakdown: (c) =>
    c.getMetricsBreakdown("fees", { projectIds: ["aave", "uniswap", "curve"], ...range }),
  v1ListProjects: (c) => c.v1ListProjects(),
  v1GetProjectMetrics: (c) =>
    c.v1GetProjectMetrics("aave", { interval: "30d", dataGranularity: "daily" }),
};

describe("the gateway answers the service's interface", () => {
  it.each(Object.keys(CALLS))(
    "%s: the same data, errors and simulated mark as the service",
    async (name) => {
      const call = CALLS[name];
      const expected = await call(direct);
      const got = await call(through);
      expect(got.data).toEqual(expected.data);
      expect(got.errors).toEqual(expected.errors);
      expect(got.meta.simulated).toBe(true);
    }
  );

  it("says 'not available' for a metric a project lacks, even when the series came through another form first", async () => {
    // bitcoin's tvl through a project's metrics (§4.3: simply absent), then across projects (§4.11 reports it).
    const viaProject = await through.getProjectMetrics("bitcoin", {
      metricIds: ["fees", "tvl"],
      ...range,
    });
    expect(viaProject.errors).toEqual([]);
    const expected = await direct.getMetric("tvl", { projectIds: ["bitcoin"], ...range });
    expect(expected.errors).toEqual([
      { code: "METRIC_NOT_AVAILABLE", projectId: "bitcoin", metricId: "tvl" },
    ]);
    expect((await through.getMetric("tvl", { projectIds: ["bitcoin"], ...range })).errors).toEqual(
      expected.errors
    );
  });
});

describe("answers shared by what they contain", () => {
  beforeEach(() => simulator.clearLog());

  it("asks the service once for the same projects listed in another order", async () => {
    const a = await through.getMetric("revenue", {
      projectIds: ["uniswap", "aave", "curve"],
      start: "2026-08-01",
      end: "2026-08-05",
    });
    const b = await through.getMetric("revenue", {
      projectIds: ["curve", "uniswap", "aave"],
      start: "2026-08-01",
      end: "2026-08-05",
    });
    expect(upstream()).toHaveLength(1);
    expect(new Set(b.data.map((r) => JSON.stringify(r)))).toEqual(
      new Set(a.data.map((r) => JSON.stringify(r)))
    );
  });

  it("answers a project's metrics from series fetched across projects, asking only for what is missing", async () => {
    const days = { start: "2026-05-01", end: "2026-05-05" };
    await through.getMetric("earnings", { projectIds: ["aave", "curve"], ...days });
    await through.getMetric("fees", { projectIds: ["aave", "curve"], ...days });
    simulator.clearLog();
    const inner = { start: "2026-05-02", end: "2026-05-04" };
    const metricIds = ["fees", "earnings", "revenue"];
    const wide = await through.getProjectMetrics("aave", { metricIds, ...inner });
    // The gateway asked for revenue alone: fees and earnings were there, fetched in the other form.
    expect(upstream()).toEqual([
      { path: "/v2/projects/aave/metrics", query: { metric_ids: "revenue", ...inner } },
    ]);
    expect(wide.data).toEqual(
      (await direct.getProjectMetrics("aave", { metricIds, ...inner })).data
    );
  });

  it("keeps a shorter range inside a longer one: no request for days already fetched", async () => {
    await through.getProjectMetrics("curve", {
      metricIds: ["tvl"],
      start: "2026-07-01",
      end: "2026-07-31",
    });
    simulator.clearLog();
    const inner = await through.getMetric("tvl", {
      projectIds: ["curve"],
      start: "2026-07-10",
      end: "2026-07-12",
    });
    expect(inner.data.map((r) => r.date)).toEqual(["2026-07-12", "2026-07-11", "2026-07-10"]);
    expect(upstream()).toEqual([]);
  });

  it("asks the service once for a whole answer asked with its lists in another order", async () => {
    await through.getMetricAggregations({
      projectIds: ["aave", "curve"],
      metricIds: ["fees", "revenue"],
    });
    await through.getMetricAggregations({
      projectIds: ["curve", "aave"],
      metricIds: ["revenue", "fees"],
    });
    expect(upstream()).toHaveLength(1);
  });

  it("fetches a need once for callers asking at the same moment", async () => {
    const asks = Array.from({ length: 8 }, () =>
      through.getMetric("user_dau", {
        projectIds: ["aave", "uniswap"],
        start: "2026-06-01",
        end: "2026-06-30",
      })
    );
    await Promise.all(asks);
    expect(upstream()).toHaveLength(1);
  });
});
