/**
 * The gateway answers the service's interface: every v2 operation and v1's two, through the project's own
 * client, give what the service itself gives (data, partial-success errors, the simulated mark), whatever form
 * the answer was fetched in; and answers are shared by what they contain, not by the text of the URL.
 */
import { createClient, type MetricsClient } from "../../src/client";
import { checkServiceAddress } from "../../src/runtime/address-check";
import { startSimulator, type RunningSimulator } from "../../src/simulator";
import { CALLS, CALL_RANGE } from "./support/calls";
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

const range = CALL_RANGE;

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

describe("the settings' address check, pointed at the gateway", () => {
  it("keeps the gateway's address: the catalogue with a token, the interface's 401 without one", async () => {
    const before = simulator.requestLog.length;
    // No header at all: the interface's 401, as the service answers it.
    const bare = await fetch(`${gw.url}/v2/metrics`);
    expect(bare.status).toBe(401);
    expect(bare.headers.get("www-authenticate")).toMatch(/^Bearer/);
    // No key saved yet: the check sends its stand-in, refused as the service refuses it.
    const noKey = await checkServiceAddress(gw.url, { apiKey: async () => undefined });
    expect(noKey).toEqual(expect.objectContaining({ ok: true, keyRefused: true }));
    const wrongKey = await checkServiceAddress(gw.url, { apiKey: "tok_not_in_the_file" });
    expect(wrongKey).toEqual(expect.objectContaining({ ok: true, keyRefused: true }));
    // Refused callers cost the service nothing.
    expect(simulator.requestLog.length).toBe(before);

    const withToken = await checkServiceAddress(gw.url, { apiKey: TOKEN });
    expect(withToken).toEqual(expect.objectContaining({ ok: true, simulated: true }));
    expect(withToken.message).toMatch(/answers \(\d+ metrics\)/);
  });

  it("refuses an address under the gateway that is not the service's (404 for /v2/v2/metrics)", async () => {
    const verdict = await checkServiceAddress(`${gw.url}/api`, { apiKey: TOKEN });
    expect(verdict).toEqual(expect.objectContaining({ ok: false, mayKeepUnchecked: false }));
    expect(verdict.message).toMatch(/not found there \(404\)/);
  });
});
