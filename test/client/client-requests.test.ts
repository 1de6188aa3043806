import { createClient, CryptometricsError, type MetricsClient } from "../../src/client";
import { API_KEY, fixture, json, scriptedFetch, testClient } from "./helpers";

const BASE = "https://api.example.test";

interface Case {
  operation: string;
  call: (c: MetricsClient) => Promise<{ data: unknown }>;
  fixture: string;
  url: string;
}

const cases: Case[] = [
  {
    operation: "listProjects",
    call: (c) => c.listProjects(),
    fixture: "projects.json",
    url: "/v2/projects",
  },
  {
    operation: "getProject",
    call: (c) => c.getProject("aave"),
    fixture: "project-detail.json",
    url: "/v2/projects/aave",
  },
  {
    operation: "getProjectMetrics",
    call: (c) =>
      c.getProjectMetrics("aave", {
        metricIds: ["fees", "revenue", "tvl"],
        chainIds: ["ethereum", "polygon"],
        productIds: ["aave-v3"],
        marketSectorIds: ["lending"],
        aggregateBy: "chain",
        start: "2024-01-01",
        end: "2024-01-31",
        orderDirection: "asc",
        assetsBridged: false,
      }),
    fixture: "project-metrics.json",
    url:
      "/v2/projects/aave/metrics?metric_ids=fees,revenue,tvl&chain_ids=ethereum,polygon&product_ids=aave-v3" +
      "&market_sector_ids=lending&aggregate_by=chain&start=2024-01-01&end=2024-01-31&order_direction=asc&assets_bridged=false",
  },
  {
    operation: "getProjectMetricAggregations",
    call: (c) => c.getProjectMetricAggregations("aave"),
    fixture: "project-metric-aggregations.json",
    url: "/v2/projects/aave/metric-aggregations",
  },
  {
    operation: "getFinancialStatement",
    call: (c) => c.getFinancialStatement("aave", { timestampGranularity: "month", interval: "2y" }),
    fixture: "financial-statement.json",
    url: "/v2/projects/aave/financial-statement?timestamp_granularity=month&interval=2y",
  },
  {
    operation: "getProduct",
    call: (c) => c.getProduct("aave", "aave-v3"),
    fixture: "product-detail.json",
    url: "/v2/projects/aave/products/aave-v3",
  },
  {
    operation: "getProductMetrics",
    call: (c) =>
      c.getProductMetrics("aave", "aave-v3", {
        metricIds: ["fees", "tvl"],
        chainIds: ["ethereum"],
        start: "2024-01-01",
        end: "2024-01-02",
        aggregateBy: "chain",
        orderDirection: "desc",
        assetsBridged: true,
      }),
    fixture: "product-metrics.json",
    url:
      "/v2/projects/aave/products/aave-v3/metrics?metric_ids=fees,tvl&chain_ids=ethereum&start=2024-01-01" +
      "&end=2024-01-02&aggregate_by=chain&order_direction=desc&assets_bridged=true",
  },
  {
    operation: "listMarketSectors",
    call: (c) => c.listMarketSectors(),
    fixture: "market-sectors.json",
    url: "/v2/market-sectors",
  },
  {
    operation: "getMarketSector",
    call: (c) => c.getMarketSector("lending"),
    fixture: "market-sector-detail.json",
    url: "/v2/market-sectors/lending",
  },
  {
    operation: "listMetrics",
    call: (c) => c.listMetrics(),
    fixture: "metrics.json",
    url: "/v2/metrics",
  },
  {
    operation: "getMetric",
    call: (c) =>
      c.getMetric("fees", {
        projectIds: ["aave", "uniswap"],
        chainIds: ["ethereum"],
        productIds: ["aave-v3"],
        marketSectorIds: ["lending"],
        start: "2024-01-01",
        end: "2024-01-02",
        assetsBridged: false,
      }),
    fixture: "metric-by-id.json",
    url:
      "/v2/metrics/fees?project_ids=aave,uniswap&chain_ids=ethereum&product_ids=aave-v3&market_sector_ids=lending" +
      "&start=2024-01-01&end=2024-01-02&assets_bridged=false",
  },
  {
    operation: "getMetricAggregations",
    call: (c) => c.getMetricAggregations({ projectIds: ["aave", "uniswap"], metricIds: ["fees"] }),
    fixture: "metric-aggregations.json",
    url: "/v2/metric-aggregations?project_ids=aave,uniswap&metric_ids=fees",
  },
  {
    operation: "getMetricsBreakdown",
    call: (c) =>
      c.getMetricsBreakdown("fees", {
        projectIds: ["aave", "uniswap"],
        start: "2024-01-01",
        end: "2024-01-31",
      }),
    fixture: "metrics-breakdown.json",
    url: "/v2/metrics-breakdown/fees?project_ids=aave,uniswap&start_date=2024-01-01&end_date=2024-01-31",
  },

  {
    operation: "v1ListProjects",
    call: (c) => c.v1ListProjects(),
    fixture: "v1-projects.json",
    url: "/v1/projects",
  },
  {
    operation: "v1GetProjectMetrics",

    call: (c) => c.v1GetProjectMetrics("aave", { interval: "1y", dataGranularity: "daily" }),
    fixture: "v1-project-metrics.json",
    url: "/v1/projects/aave/metrics?interval=1y&data_granularity=daily",
  },
];

describe("every operation", () => {
  it.each(cases)(
    "$operation sends one authenticated GET to its path and returns typed data",
    async (c) => {
      const { fetch, requests } = scriptedFetch(json(fixture(c.fixture)));
      const { client } = testClient(fetch);
      const result = await c.call(client);
      expect(requests).toHaveLength(1);
      expect(requests[0].url).toBe(`${BASE}${c.url}`);
      expect(requests[0].init.method).toBe("GET");
      expect(requests[0].init.headers.Authorization).toBe(`Bearer ${API_KEY}`);
      expect(
        Array.isArray(result.data) ? result.data.length : Object.keys(result.data as object).length
      ).toBeGreaterThan(0);
    }
  );

  it("covers every method of the client", () => {
    const { client } = testClient(scriptedFetch(json({ data: [] })).fetch);
    const methods = Object.keys(client).filter(
      (k) =>
        typeof (client as unknown as Record<string, unknown>)[k] === "function" &&
        !["on", "subscribe"].includes(k)
    );
    expect(methods.sort()).toEqual(cases.map((c) => c.operation).sort());
  });
});

describe("results", () => {
  it("hands over data and partial errors together", async () => {
    const { client } = testClient(scriptedFetch(json(fixture("metric-by-id.json"))).fetch);
    const result = await client.getMetric("fees", {
      projectIds: ["aave", "uniswap", "nope", "bitcoin"],
    });
    expect(result.data).toHaveLength(3);
    expect(result.errors).toEqual([
      { code: "NOT_FOUND", field: "project_ids", value: "nope" },
      { code: "METRIC_NOT_AVAILABLE", projectId: "bitcoin", metricId: "fees" },
      {
        code: "UNRECOGNISED",
        entry: { code: "SOMETHING_NEW", detail: "a shape the interface does not describe" },
      },
    ]);
    expect(result.meta).toEqual({ requests: 1, simulated: false, redirects: [] });
  });

  it("sorts project metric rows as requested even when the server does not", async () => {
    const { client } = testClient(scriptedFetch(json(fixture("project-metrics.json"))).fetch);
    const asc = await client.getProjectMetrics("aave", { orderDirection: "asc" });
    expect(asc.data.map((r) => r.date)).toEqual(["2024-01-01", "2024-01-02", "2024-01-03"]);
    const { client: c2 } = testClient(scriptedFetch(json(fixture("project-metrics.json"))).fetch);
    const byDefault = await c2.getProjectMetrics("aave");
    expect(byDefault.data.map((r) => r.date)).toEqual(["2024-01-03", "2024-01-02", "2024-01-01"]);
  });

  it("sorts breakdown rows by date then breakdown member", async () => {
    const { client } = testClient(
      scriptedFetch(json(fixture("project-metrics-by-chain.json"))).fetch
    );
    const result = await client.getProjectMetrics("aave", {
      aggregateBy: "chain",
      orderDirection: "asc",
    });
    expect(result.data.map((r) => `${r.date}/${r.chain}`)).toEqual([
      "2024-01-01/ethereum",
      "2024-01-01/polygon",
      "2024-01-02/ethereum",
    ]);
  });

  it("sorts multi-project rows by date, then in the order the projects were asked", async () => {
    const { client } = testClient(scriptedFetch(json(fixture("metric-by-id.json"))).fetch);
    const result = await client.getMetric("fees", {
      projectIds: ["uniswap", "aave"],
      orderDirection: "asc",
    });
    expect(result.data.map((r) => `${r.date}/${r.projectId}`)).toEqual([
      "2024-01-01/uniswap",
      "2024-01-01/aave",
      "2024-01-02/aave",
    ]);
  });

  it("sorts statement periods oldest first, keeping statement order within a period", async () => {
    const { client } = testClient(scriptedFetch(json(fixture("financial-statement.json"))).fetch);
    const result = await client.getFinancialStatement("aave");
    expect(result.data.map((r) => `${r.heading}/${r.metricId}`)).toEqual([
      "Q1 '24/fees",
      "Q1 '24/revenue",
      "Q2 '24/fees",
    ]);
  });

  it("gives every row a column for each requested metric, except those reported unknown", async () => {
    const body = {
      data: [{ timestamp: "2024-01-01T00:00:00.000Z", project_id: "aave", fees: 1 }],
      errors: [{ code: "NOT_FOUND", field: "metric_ids", value: "nonsense" }],
    };
    const { client } = testClient(scriptedFetch(json(body)).fetch);
    const result = await client.getProjectMetrics("aave", {
      metricIds: ["fees", "revenue", "nonsense"],
    });
    expect(result.data[0].values).toEqual({ fees: 1, revenue: null });
  });

  it("marks data from the simulator as simulated", async () => {
    const { client } = testClient(
      scriptedFetch(json({ data: [] }, 200, { "x-cryptometrics-simulated": "true" })).fetch
    );
    expect((await client.listMetrics()).meta.simulated).toBe(true);
  });
});

describe("splitting long id lists", () => {
  const projects = Array.from({ length: 120 }, (_, i) => `project-${String(i).padStart(3, "0")}`);

  it("splits a project list over several requests and merges data and errors", async () => {
    const { fetch, requests } = scriptedFetch(async (req) => {
      const ids = new URL(req.url).searchParams.get("project_ids")?.split(",") ?? [];
      return json({
        data: ids.map((id) => ({
          timestamp: "2024-01-01T00:00:00.000Z",
          project_id: id,
          metric_id: "fees",
          value: 1,
        })),
        errors: [
          { code: "NOT_FOUND", field: "project_ids", value: `missing-in-${ids[0]}` },
          { code: "NOT_FOUND", field: "chain_ids", value: "mars" },
        ],
      });
    });
    const { client } = testClient(fetch, { maxIdsPerRequest: 50 });
    const result = await client.getMetric("fees", { projectIds: projects, chainIds: ["mars"] });
    expect(
      requests.map((r) => new URL(r.url).searchParams.get("project_ids")?.split(",").length)
    ).toEqual([50, 50, 20]);
    expect(result.data.map((r) => r.projectId)).toEqual(projects);
    // Each request reports its own unknown project; the repeated unknown chain appears once.
    expect(result.errors).toHaveLength(4);
    expect(
      result.errors.filter((e) => e.code === "NOT_FOUND" && e.field === "chain_ids")
    ).toHaveLength(1);
    expect(result.meta.requests).toBe(3);
  });

  it("takes each limit given, the default for one left out, and refuses one out of range", async () => {
    const { fetch, requests } = scriptedFetch(json({ data: [] }));
    // maxIdsPerRequest left undefined: the default (50) splits 120 ids into three requests.
    const { client } = testClient(fetch, { maxIdsPerRequest: undefined });
    await client.getMetricAggregations({ projectIds: projects });
    expect(requests).toHaveLength(3);
    expect(() => testClient(fetch, { timeoutMs: 0 })).toThrow(
      "createClient: timeoutMs must be a positive number, got 0"
    );
    expect(() => testClient(fetch, { maxRedirects: -1 })).toThrow(/maxRedirects must be >= 0/);
  });

  it("keeps every URL within the length limit", async () => {
    const { fetch, requests } = scriptedFetch(json({ data: [] }));
    const { client } = testClient(fetch, { maxUrlLength: 300, maxIdsPerRequest: 1000 });
    await client.getMetricAggregations({ projectIds: projects });
    expect(requests.length).toBeGreaterThan(1);
    for (const r of requests) expect(r.url.length).toBeLessThanOrEqual(300);
    const sent = requests.flatMap(
      (r) => new URL(r.url).searchParams.get("project_ids")?.split(",") ?? []
    );
    expect(sent).toEqual(projects);
  });

  it("merges wide rows of a metric list split over requests into one row per date", async () => {
    const metrics = ["fees", "revenue", "tvl", "price", "earnings"];
    const { fetch, requests } = scriptedFetch(async (req) => {
      const ids = new URL(req.url).searchParams.get("metric_ids")?.split(",") ?? [];
      const row = (date: string) =>
        Object.fromEntries<string | number>([
          ["timestamp", `${date}T00:00:00.000Z`],
          ["project_id", "aave"],
          ...ids.map((m): [string, number] => [m, m.length]),
        ]);
      return json({ data: [row("2024-01-02"), row("2024-01-01")] });
    });
    const { client } = testClient(fetch, { maxIdsPerRequest: 2 });
    const result = await client.getProjectMetrics("aave", { metricIds: metrics });
    expect(requests).toHaveLength(3);
    expect(result.data).toHaveLength(2);
    expect(result.data[0]).toMatchObject({
      date: "2024-01-02",
      values: { fees: 4, revenue: 7, tvl: 3, price: 5, earnings: 8 },
    });
  });

  it("sends 'all' as is and never splits it", async () => {
    const { fetch, requests } = scriptedFetch(json({ data: [] }));
    const { client } = testClient(fetch);
    await client.getMetric("fees", { projectIds: "all" });
    await client.getMetricAggregations();
    await client.getMetricsBreakdown("fees");
    expect(requests.map((r) => r.url)).toEqual([
      `${BASE}/v2/metrics/fees?project_ids=all`,
      `${BASE}/v2/metric-aggregations?project_ids=all`,
      `${BASE}/v2/metrics-breakdown/fees`,
    ]);
  });
});

describe("input checks before any request", () => {
  const bad: [string, (c: MetricsClient) => Promise<unknown>, RegExp][] = [
    [
      "a date that is not YYYY-MM-DD",
      (c) => c.getProjectMetrics("aave", { start: "01/02/2024" }),
      /start "01\/02\/2024" is not a date/,
    ],
    ["an impossible date", (c) => c.getMetric("fees", { end: "2024-02-30" }), /end "2024-02-30"/],
    [
      "start after end",
      (c) => c.getProductMetrics("aave", "v3", { start: "2024-02-01", end: "2024-01-01" }),
      /start 2024-02-01 is after end 2024-01-01/,
    ],
    [
      "an interval outside the closed set",
      (c) => c.getFinancialStatement("aave", { interval: "7d" as never }),
      /interval "7d" is not one of 1m, 1y, 2y, 3y, 5y, max/,
    ],
    [
      "a granularity outside the closed set",
      (c) => c.getFinancialStatement("aave", { timestampGranularity: "day" as never }),
      /timestampGranularity/,
    ],
    [
      "an aggregate_by outside the closed set",
      (c) => c.getProjectMetrics("aave", { aggregateBy: "version" as never }),
      /aggregateBy "version"/,
    ],
    [
      "an order direction outside the closed set",
      (c) => c.getMetric("fees", { orderDirection: "up" as never }),
      /orderDirection "up"/,
    ],
    [
      "a non-boolean assets_bridged",
      (c) => c.getMetric("fees", { assetsBridged: "no" as never }),
      /assetsBridged must be true or false/,
    ],
    ["an empty id", (c) => c.getProject("  "), /projectId is empty/],
    ["a path traversal id", (c) => c.getProject(".."), /is not an id/],
    [
      "an id with a comma",
      (c) => c.getMetric("fees", { projectIds: ["aave,uniswap"] }),
      /contains a comma/,
    ],
    ["an empty id list", (c) => c.getProjectMetrics("aave", { metricIds: [] }), /empty list/],
  ];

  it.each(bad)(
    "refuses %s with an invalid-input error and sends nothing",
    async (_what, call, message) => {
      const { fetch, requests } = scriptedFetch(json({ data: [] }));
      const { client, events } = testClient(fetch);
      const error = await call(client).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CryptometricsError);
      expect(error).toMatchObject({ kind: "invalid-input" });
      expect((error as Error).message).toMatch(message);
      expect(requests).toHaveLength(0);
      expect(events.map((e) => e.type)).toEqual(["error"]);
    }
  );

  it("names the operation and the ids in the message", async () => {
    const { client } = testClient(scriptedFetch(json({ data: [] })).fetch);
    await expect(
      client.getProductMetrics("aave", "aave-v3", { start: "tomorrow" })
    ).rejects.toMatchObject({
      message: expect.stringMatching(/^getProductMetrics\(aave, aave-v3\): start "tomorrow"/),
      operation: "getProductMetrics",
      ids: ["aave", "aave-v3"],
    });
  });

  it("trims ids and drops duplicates", async () => {
    const { fetch, requests } = scriptedFetch(json({ data: [] }));
    const { client } = testClient(fetch);
    await client.getMetric(" fees ", { projectIds: [" aave", "aave", "uniswap "] });
    expect(requests[0].url).toBe(`${BASE}/v2/metrics/fees?project_ids=aave,uniswap`);
  });
});

describe("API key", () => {
  it("fails as unauthorized, saying to set the key, before any request when no key is set", async () => {
    for (const apiKey of ["", "   ", () => undefined, async () => ""]) {
      const { fetch, requests } = scriptedFetch(json({ data: [] }));
      const { client } = testClient(fetch, { apiKey });
      await expect(client.listProjects()).rejects.toMatchObject({
        kind: "unauthorized",
        message: expect.stringMatching(/no API key is set$/),
      });
      expect(requests).toHaveLength(0);
    }
  });

  it("reads the key afresh for every call, so a key pasted at runtime is used at once", async () => {
    let key: string | undefined;
    const { fetch, requests } = scriptedFetch(json({ data: [] }));
    const { client } = testClient(fetch, { apiKey: async () => key });
    await expect(client.listMetrics()).rejects.toMatchObject({ kind: "unauthorized" });
    key = "first-key-1234";
    await client.listMetrics();
    key = "second-key-5678";
    await client.listMetrics();
    expect(requests.map((r) => r.init.headers.Authorization)).toEqual([
      "Bearer first-key-1234",
      "Bearer second-key-5678",
    ]);
  });

  it("settles at the deadline even when the key store never answers", async () => {
    const { fetch, requests } = scriptedFetch(json({ data: [] }));
    const { client, timers } = testClient(fetch, {
      apiKey: () => new Promise(() => undefined),
      deadlineMs: 9000,
    });
    const pending = client.listMetrics();
    await timers.fireWhenSet(9000);
    await expect(pending).rejects.toMatchObject({
      kind: "timeout",
      message: "listMetrics(): the call's deadline passed while reading the API key",
    });
    expect(requests).toHaveLength(0);
  });

  it("refuses a key containing spaces without echoing it", async () => {
    const { client } = testClient(scriptedFetch(json({ data: [] })).fetch, { apiKey: "abcd efgh" });
    const error = (await client.listMetrics().catch((e: unknown) => e)) as CryptometricsError;
    expect(error.kind).toBe("unauthorized");
    expect(JSON.stringify(error)).not.toContain("abcd efgh");
  });
});

describe("base URL", () => {
  it("refuses plain http off loopback when the client is created, before any request", () => {
    const { fetch, requests } = scriptedFetch(json({ data: [] }));
    expect(() =>
      createClient({ baseUrl: "http://api.example.com", apiKey: API_KEY, fetch })
    ).toThrow(/plain http is only allowed for loopback/);
    expect(requests).toHaveLength(0);
  });

  it("accepts http on loopback and keeps a path prefix", async () => {
    const { fetch, requests } = scriptedFetch(json({ data: [] }));
    const client = createClient({ baseUrl: "http://127.0.0.1:3001/api/", apiKey: API_KEY, fetch });
    await client.listMetrics();
    expect(client.baseUrl).toBe("http://127.0.0.1:3001/api");
    expect(requests[0].url).toBe("http://127.0.0.1:3001/api/v2/metrics");
  });
});
