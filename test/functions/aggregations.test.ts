import * as fns from "../../src/functions/functions";
import { dataset, excelError, inv, showTable, startHarness, type Harness } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe("aggregation functions", () => {
  it("AGGREGATION returns the service's aggregate of a project's metric", async () => {
    const expected = dataset.aggregations("aave", ["revenue"]).find((r) => r.name === "sum_30d")!;
    expect(await fns.aggregation_("aave", "revenue", "SUM_30D", null, inv())).toBeCloseTo(
      expected.value as number,
      4
    );
  });

  it("AGGREGATION lists the names it knows when asked for another", async () => {
    const error = await excelError(fns.aggregation_("aave", "revenue", "median", null, inv()));
    expect(error.code).toBe("#N/A");
    expect(error.message).toMatch(
      /no aggregation "median" of revenue for aave; available: .*sum_30d/
    );
  });

  it("AGGREGATION cells of one recalculation share one request, each with its own pair's figure", async () => {
    const projects = [
      "aave",
      "uniswap",
      "lido-finance",
      "makerdao",
      "compound",
      "curve",
      "gmx",
      "dydx",
      "pancakeswap",
      "sushiswap",
    ];
    await fns.projects_(null, inv()); // the catalogue, read once, is not what this counts
    h.sim.requestLog.length = 0;
    const got = await Promise.all(
      projects.map((p, i) =>
        fns.aggregation_(p, i % 2 ? "fees" : "revenue", "sum_30d", null, inv())
      )
    );
    // One request for the aggregates; their days are checked against the daily series (one read per metric
    // for every project: a sum_30d of 29 days with data would pass a part as the whole).
    const paths = h.requests();
    expect(paths.filter((p) => p === "/v2/metric-aggregations")).toHaveLength(1);
    expect(paths.filter((p) => p !== "/v2/metric-aggregations").sort()).toEqual([
      "/v2/metrics/fees",
      "/v2/metrics/revenue",
    ]);
    projects.forEach((p, i) => {
      const expected = dataset
        .aggregations(p, [i % 2 ? "fees" : "revenue"])
        .find((r) => r.name === "sum_30d")!;
      expect(got[i]).toBeCloseTo(expected.value as number, 4);
    });
  });

  it("AGGREGATION says so when the metric is not available for the project, the other cells of the batch unharmed", async () => {
    const [missing, fine] = await Promise.all([
      excelError(fns.aggregation_("bitcoin", "revenue", "sum_30d", null, inv())),
      fns.aggregation_("aave", "revenue", "sum_30d", null, inv()),
    ]);
    expect(missing.code).toBe("#N/A");
    expect(typeof fine).toBe("number");
  });

  it("AGGREGATIONS spills rows for projects and metrics, keeping unknown ids visible with their reason", async () => {
    const rows = showTable(
      (await fns.aggregations_([["aave", "nope"]], [["revenue"]], null, inv())) as unknown[][]
    );
    const header = rows[0] as string[];
    expect(header).toEqual(expect.arrayContaining(["project_id", "metric_id", "value"]));
    const pid = header.indexOf("project_id");
    const val = header.indexOf("value");
    expect(rows.filter((r) => r[pid] === "aave").length).toBeGreaterThan(1);
    const unknown = rows.find((r) => r[pid] === "nope")!;
    expect(unknown[val]).toMatch(/^#N\/A: unknown project "nope"/);
  });

  it("BREAKDOWN spills one row per project with the union of the service's fields", async () => {
    const rows = showTable(
      (await fns.breakdown_(
        "fees",
        [["aave"], ["uniswap"]],
        "2024-01-01",
        "2024-03-31",
        null,
        inv()
      )) as unknown[][]
    );
    const header = rows[0] as string[];
    expect(header).toEqual(expect.arrayContaining(["project_id", "value"]));
    expect(
      rows
        .slice(1)
        .map((r) => r[header.indexOf("project_id")])
        .sort()
    ).toEqual(["aave", "uniswap"]);
    const sum = dataset
      .daily("aave", "fees", { start: "2024-01-01", end: "2024-03-31" })
      .reduce((s, p) => s + (p.value ?? 0), 0);
    const aave = rows.find((r) => r[header.indexOf("project_id")] === "aave")!;
    expect(aave[header.indexOf("value")]).toBeCloseTo(sum, 0);
  });
});
