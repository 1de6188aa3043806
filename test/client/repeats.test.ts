/**
 * Answers normalised once, in the client: a row the service sends more than once (same day, project, metric
 * and chain or product) reaches callers once, so no sum counts it twice, and the result says what was
 * collapsed. Copies that disagree leave the value empty (nothing says which one is right).
 */
import { RepeatCounter } from "../../src/client/data/distinct";
import {
  distinctAggregationRows,
  distinctStatementRows,
} from "../../src/client/data/distinct-summaries";
import { fixture, json, scriptedFetch, testClient } from "./helpers";

describe("repeated rows", () => {
  it("collapses repeated wide rows of project metrics to one per day, null filled by a copy's value", async () => {
    const { fetch } = scriptedFetch(json(fixture("project-metrics-repeated.json")));
    const { client } = testClient(fetch);
    const { data, meta } = await client.getProjectMetrics("aave", {
      metricIds: ["fees", "revenue", "tvl"],
      orderDirection: "asc",
    });
    expect(data.map((r) => [r.date, r.values.fees, r.values.revenue, r.values.tvl])).toEqual([
      // 10 and 11 for the same day: a conflict, left empty (a third copy saying 10 does not settle it).
      ["2024-01-01", 100, null, 6e9],
      ["2024-01-02", 200, 20, 7e9],
      ["2024-01-03", 300, 30, 8e9],
    ]);
    expect(meta.repeats).toEqual({
      copies: 4,
      conflicts: 1,
      examples: ["aave revenue on 2024-01-01: 10 and 11"],
      // The conflict's key, so the engine can tell it from a day without data.
      conflicted: [{ date: "2024-01-01", projectId: "aave", metricId: "revenue" }],
    });
  });

  it("collapses repeated metric-by-id rows per project and day", async () => {
    const { fetch } = scriptedFetch(json(fixture("metric-by-id-repeated.json")));
    const { client } = testClient(fetch);
    const { data, meta } = await client.getMetric("fees", {
      projectIds: ["aave", "uniswap"],
      orderDirection: "asc",
    });
    expect(data.map((r) => [r.date, r.projectId, r.value])).toEqual([
      ["2024-01-01", "aave", 100],
      ["2024-01-01", "uniswap", 800],
      ["2024-01-02", "aave", 200],
      ["2024-01-02", "uniswap", 900],
    ]);
    expect(meta.repeats).toEqual({ copies: 3, conflicts: 0, examples: [], conflicted: [] });
  });

  it("collapses repeated product rows per day, metric and chain", async () => {
    const { fetch } = scriptedFetch(json(fixture("product-metrics-repeated.json")));
    const { client } = testClient(fetch);
    const { data, meta } = await client.getProductMetrics("aave", "aave-v3", {
      metricIds: ["fees"],
      aggregateBy: "chain",
      orderDirection: "asc",
    });
    expect(data.map((r) => [r.date, r.chainId, r.value])).toEqual([
      ["2024-01-01", "ethereum", null],
      ["2024-01-02", "arbitrum", 5],
      ["2024-01-02", "ethereum", 20],
    ]);
    expect(meta.repeats).toEqual({
      copies: 3,
      conflicts: 1,
      examples: ["fees (ethereum) on 2024-01-01: 10 and 12"],
      conflicted: [{ date: "2024-01-01", metricId: "fees", chain: "ethereum" }],
    });
  });

  it("says nothing when every row came once", async () => {
    const { fetch } = scriptedFetch(json(fixture("metric-by-id.json")));
    const { client } = testClient(fetch);
    const { meta } = await client.getMetric("fees", { projectIds: ["aave", "uniswap"] });
    expect(meta.repeats).toBeUndefined();
  });
});

describe("repeated statement and aggregation rows", () => {
  const row = (date: string, metricId: string, value: number | null, popChange: number | null) => ({
    date,
    heading: "Q1 '24",
    subheading: "Jan 1 – Mar 31, 2024",
    granularity: "quarter",
    projectName: "Aave",
    section: "Income statement",
    metricId,
    value,
    popChange,
    definition: "",
  });

  it("keeps one statement row per period, section and metric; a conflict empties value and change", () => {
    const counter = new RepeatCounter();
    const out = distinctStatementRows(
      [
        row("2024-01-01", "fees", 10, 0.1),
        row("2024-01-01", "revenue", 4, null),
        row("2024-01-01", "fees", 10, 0.1),
        row("2024-01-01", "revenue", 5, 0.2),
      ],
      counter
    );
    expect(out.map((r) => [r.metricId, r.value, r.popChange])).toEqual([
      ["fees", 10, 0.1],
      ["revenue", null, null],
    ]);
    expect(counter.note()).toMatchObject({ copies: 2, conflicts: 1 });
  });

  it("keeps one aggregation per metric and name", () => {
    const counter = new RepeatCounter();
    const agg = (aggregation: string, value: number) => ({
      projectId: "aave",
      projectName: "Aave",
      metricId: "fees",
      aggregation,
      value,
    });
    const out = distinctAggregationRows(
      [agg("sum_30d", 3), agg("latest", 1), agg("sum_30d", 3)],
      counter
    );
    expect(out.map((r) => [r.aggregation, r.value])).toEqual([
      ["sum_30d", 3],
      ["latest", 1],
    ]);
    expect(counter.note()).toEqual({ copies: 1, conflicts: 0, examples: [], conflicted: [] });
  });
});
