import { parseAsk } from "../../src/gateway/ask";
import { parseQuery } from "../../src/gateway/schema";
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
      parseQuery("project_ids=b,a&metric_ids=fees,revenue")
    );
    const b = parseAsk(
      spec("getMetricAggregations"),
      {},
      parseQuery("metric_ids=revenue,fees&project_ids=a,b,a")
    );
    expect(a.key).toBe(b.key);
    expect(parseAsk(spec("getMetricAggregations"), {}, parseQuery("project_ids=all")).key).not.toBe(
      parseAsk(spec("getMetricAggregations"), {}, parseQuery("")).key
    );
  });

  it("sees the series of a metric across projects, and of a project's metrics, with the same keys", () => {
    const across = parseAsk(
      spec("getMetric"),
      { metricId: "fees" },
      parseQuery("project_ids=uniswap,aave,aave&start=2025-01-01")
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
      parseQuery("metric_ids=fees&order_direction=asc")
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
      parseQuery("metric_ids=fees&chain_ids=base,ethereum")
    );
    const chainsReordered = parseAsk(
      spec("getMetric"),
      { metricId: "fees" },
      parseQuery("project_ids=aave&chain_ids=ethereum,base")
    );
    expect(chains.series?.variant.key).toBe(chainsReordered.series?.variant.key);
    expect(chains.series?.variant.key).not.toBe(project.series?.variant.key);
  });

  it("keeps whole the answers not made of named series", () => {
    expect(
      parseAsk(spec("getMetric"), { metricId: "fees" }, parseQuery("project_ids=all")).series
    ).toBeUndefined();
    expect(
      parseAsk(spec("getMetric"), { metricId: "fees" }, parseQuery("")).series
    ).toBeUndefined();
    expect(
      parseAsk(
        spec("getMetric"),
        { metricId: "fees" },
        parseQuery("project_ids=aave&start_date=2025-01-01")
      ).series
    ).toBeUndefined();
    expect(
      parseAsk(spec("getProjectMetrics"), { projectId: "aave" }, parseQuery("start=2025-01-01"))
        .series
    ).toBeUndefined();
  });

  it.each([
    [
      "an empty id in a list",
      "getProjectMetrics",
      { metric_ids: "fees,,tvl" },
      /Each id of metric_ids/,
    ],
    [
      "an id holding ..",
      "getProjectMetrics",
      { metric_ids: "fees,..,tvl" },
      /Each id of metric_ids/,
    ],
    [
      "a date that does not exist",
      "getProjectMetrics",
      { start: "2025-02-30" },
      /start must be a calendar date written YYYY-MM-DD/,
    ],
    [
      "dates the wrong way round",
      "getProjectMetrics",
      { start: "2025-02-02", end: "2025-02-01" },
      /^start is after end$/,
    ],
    ["a repeated parameter", "getProjectMetrics", { metric_ids: ["fees", "tvl"] }, /once/],
  ])("refuses %s with 400, in words that quote nothing sent", (_what, op, query, message) => {
    expect(() => parseAsk(spec(op), { projectId: "aave" }, query)).toThrow(
      expect.objectContaining({ status: 400, message: expect.stringMatching(message) })
    );
  });

  it("refuses path ids that are not ids (the route's schema refuses them first)", () => {
    for (const id of ["a".repeat(201), "..", "a/b", "a\\b", "a?b", "a#b", "a%2fb", "x..y", ""])
      expect(() => parseAsk(spec("getProject"), { projectId: id }, {})).toThrow(
        expect.objectContaining({ status: 400 })
      );
  });
});
