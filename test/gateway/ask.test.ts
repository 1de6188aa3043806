import { parseAsk } from "../../src/gateway/ask";
import { OPERATIONS, matchPath, routeOf } from "../../src/gateway/operations";

const spec = (op: string) => {
  const found = OPERATIONS.find((s) => s.op === op);
  if (!found) throw new Error(op);
  return found;
};

describe("the operations the gateway answers", () => {
  it("are the interface's fifteen: every v2 operation and v1's two, once each", () => {
    expect(OPERATIONS.map(routeOf).sort()).toEqual(
      [
        "/v1/projects",
        "/v1/projects/:projectId/metrics",
        "/v2/market-sectors",
        "/v2/market-sectors/:marketSectorId",
        "/v2/metric-aggregations",
        "/v2/metrics",
        "/v2/metrics-breakdown/:metricId",
        "/v2/metrics/:metricId",
        "/v2/projects",
        "/v2/projects/:projectId",
        "/v2/projects/:projectId/financial-statement",
        "/v2/projects/:projectId/metric-aggregations",
        "/v2/projects/:projectId/metrics",
        "/v2/projects/:projectId/products/:productId",
        "/v2/projects/:projectId/products/:productId/metrics",
      ].sort()
    );
  });

  it("recognise a URL path as an operation, or not at all", () => {
    expect(matchPath(["v2", "projects", "aave", "metrics"])).toMatchObject({
      spec: { op: "getProjectMetrics" },
      ids: ["aave"],
    });
    expect(matchPath(["v2", "projects", "", "metrics"])).toBeUndefined();
    expect(matchPath(["v2", "projects", "aave", "admin"])).toBeUndefined();
    expect(matchPath(["internal"])).toBeUndefined();
  });
});

describe("a request as the gateway reads it", () => {
  it("keys a whole answer by what it asks: lists as sets, parameters in any order", () => {
    const a = parseAsk(
      spec("getMetricAggregations"),
      {},
      "project_ids=b,a&metric_ids=fees,revenue"
    );
    const b = parseAsk(
      spec("getMetricAggregations"),
      {},
      "metric_ids=revenue,fees&project_ids=a,b,a"
    );
    expect(a.key).toBe(b.key);
    expect(parseAsk(spec("getMetricAggregations"), {}, "project_ids=all").key).not.toBe(
      parseAsk(spec("getMetricAggregations"), {}, "").key
    );
  });

  it("sees the series of a metric across projects, and of a project's metrics, with the same keys", () => {
    const across = parseAsk(
      spec("getMetric"),
      { metricId: "fees" },
      "project_ids=uniswap,aave,aave&start=2025-01-01"
    );
    expect(across.series).toMatchObject({
      form: "metric",
      metricId: "fees",
      members: ["uniswap", "aave"],
      end: Infinity,
      direction: "desc",
    });
    const project = parseAsk(
      spec("getProjectMetrics"),
      { projectId: "aave" },
      "metric_ids=fees&order_direction=asc"
    );
    expect(project.series).toMatchObject({
      form: "project",
      projectId: "aave",
      members: ["fees"],
      start: -Infinity,
      direction: "asc",
    });
    // No options on either: the same variant, so (aave, fees) is one series whatever the form.
    expect(across.series?.variant.key).toBe(project.series?.variant.key);
    const chains = parseAsk(
      spec("getProjectMetrics"),
      { projectId: "aave" },
      "metric_ids=fees&chain_ids=base,ethereum"
    );
    const chainsReordered = parseAsk(
      spec("getMetric"),
      { metricId: "fees" },
      "project_ids=aave&chain_ids=ethereum,base"
    );
    expect(chains.series?.variant.key).toBe(chainsReordered.series?.variant.key);
    expect(chains.series?.variant.key).not.toBe(project.series?.variant.key);
  });

  it("keeps whole the answers not made of named series", () => {
    expect(
      parseAsk(spec("getMetric"), { metricId: "fees" }, "project_ids=all").series
    ).toBeUndefined();
    expect(parseAsk(spec("getMetric"), { metricId: "fees" }, "").series).toBeUndefined();
    expect(
      parseAsk(spec("getMetric"), { metricId: "fees" }, "project_ids=aave&start_date=2025-01-01")
        .series
    ).toBeUndefined();
    expect(
      parseAsk(spec("getProjectMetrics"), { projectId: "aave" }, "start=2025-01-01").series
    ).toBeUndefined();
  });

  it.each([
    [
      "an unknown parameter",
      "getProjectMetrics",
      "metric_ids=fees&token=abc",
      /"token" is not a parameter of GET \/v2\/projects\/aave\/metrics/,
    ],
    [
      "a repeated parameter",
      "getProjectMetrics",
      "metric_ids=fees&metric_ids=tvl",
      /given twice: send a list as one comma-separated value/,
    ],
    ["an empty value", "getProjectMetrics", "metric_ids=", /metric_ids is empty/],
    ["an empty id in a list", "getProjectMetrics", "metric_ids=fees,,tvl", /each id of metric_ids/],
    [
      "a date that does not exist",
      "getProjectMetrics",
      "start=2025-02-30",
      /start must be a date written YYYY-MM-DD/,
    ],
    [
      "dates the wrong way round",
      "getProjectMetrics",
      "start=2025-02-02&end=2025-02-01",
      /start \(2025-02-02\) is after end/,
    ],
    [
      "a value outside a closed set",
      "getProjectMetrics",
      "aggregate_by=protocol",
      /aggregate_by must be one of chain, product_id/,
    ],
    [
      "a boolean that is not one",
      "getProjectMetrics",
      "assets_bridged=yes",
      /assets_bridged must be true or false/,
    ],
  ])("refuses %s with 400 and says what to change", (_what, op, query, message) => {
    expect(() => parseAsk(spec(op), { projectId: "aave" }, query)).toThrow(
      expect.objectContaining({ status: 400, message: expect.stringMatching(message) })
    );
  });

  it("refuses path ids that are not ids, and never echoes control characters", () => {
    expect(() => parseAsk(spec("getProject"), { projectId: "a".repeat(201) }, "")).toThrow(
      expect.objectContaining({ status: 400 })
    );
    expect(() => parseAsk(spec("getProject"), { projectId: ".." }, "")).toThrow(
      expect.objectContaining({ status: 400 })
    );
    try {
      parseAsk(spec("getProjectMetrics"), { projectId: "aave" }, "start=%1b%5b31m");
      throw new Error("accepted");
    } catch (error) {
      expect((error as Error).message).not.toContain("\u001b");
    }
  });
});
