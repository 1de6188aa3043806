import {
  normaliseMetrics,
  normaliseProductDetail,
  normaliseProjectDetail,
  normaliseProjects,
} from "../../../src/client/data/normalise-catalogue";
import {
  normaliseMarketSectorDetail,
  normaliseMarketSectors,
} from "../../../src/client/data/normalise-sectors";
import {
  normaliseMultiProjectRows,
  normalisePartialErrors,
  normaliseProductMetricRows,
  normaliseProjectMetricRows,
} from "../../../src/client/data/normalise-series";
import {
  normaliseBreakdownRows,
  normaliseMetricAggregationRows,
  normaliseOpenRows,
  normaliseProjectAggregations,
  normaliseStatementRows,
} from "../../../src/client/data/normalise-summaries";
import { ShapeError } from "../../../src/client/data/read";
import { isMetricAvailable } from "../../../src/client";
import { Notes } from "../../../src/client/data/notes";
import type { JsonValue } from "../../../src/client";
import { fixture } from "../helpers";

const data = (name: string) => (fixture(name) as { data: JsonValue }).data;
const errors = (name: string) => (fixture(name) as { errors?: JsonValue }).errors;

describe("catalogue shapes", () => {
  it("reads projects with products, archive and maintenance flags", () => {
    const [aave, old, maintained] = normaliseProjects(data("projects.json"), new Notes());
    expect(aave).toEqual({
      projectId: "aave",
      name: "Aave",
      symbol: "AAVE",
      pricesourceId: "aave",
      url: "/v2/projects/aave",
      isArchived: false,
      products: [
        {
          productId: "aave-v3",
          productName: "Aave V3",
          symbol: "AAVE",
          url: "/v2/projects/aave/products/aave-v3",
        },
      ],
    });
    expect(old).toMatchObject({
      isArchived: true,
      archivedReason: "Protocol sunset",
      name: 'Old & <Gone> "DEX"',
    });
    expect(maintained).toMatchObject({
      isArchived: false,
      maintenanceReason: "Data source migration",
      products: [],
    });
  });

  it("reads project detail, open members included", () => {
    const detail = normaliseProjectDetail(data("project-detail.json"));
    expect(detail).toMatchObject({
      projectId: "aave",
      description: {
        who: "Aave Labs",
        what: "A lending protocol",
        how: "Over-collateralised loans",
      },
      marketSectors: ["lending"],
      chains: ["ethereum", "polygon", "arbitrum"],
      links: [{ summary: "Website", url: "https://aave.com" }],
      aggregateByOptions: { fees: ["chain", "product_id"], tvl: ["chain"] },
      metricAvailability: { fees: true, revenue: true, tvl: true, price: false },
      availabilityPublished: true,
      metricDefinitions: [{ metricId: "fees", definition: "Interest paid by borrowers" }],
      metricSources: [{ metricId: "fees", definition: "On-chain events" }],
    });
    expect(detail.raw.project_id).toBe("aave");
  });

  it("copes with the other shapes the open members take", () => {
    const detail = normaliseProjectDetail(data("project-detail-variant.json"));
    expect(detail.description).toEqual({ text: "A decentralised exchange" });
    expect(detail.marketSectors).toEqual(["exchanges"]);
    expect(detail.chains).toEqual(["ethereum", "base"]);
    expect(detail.metricAvailability).toEqual({ fees: true, revenue: true, trading_volume: true });
    // Published as a list: a metric it does not list is not available.
    expect(isMetricAvailable(detail, "fees")).toBe(true);
    expect(isMetricAvailable(detail, "tvl")).toBe(false);
    expect(detail.metricDefinitions).toEqual([]);
    expect(detail.links).toEqual([]);
    expect(detail.aggregateByOptions).toBeNull();
  });

  it("reads market_sectors in every form to the same ids", () => {
    for (const form of [
      ["lending", "exchanges"],
      [{ market_sector_id: "lending" }, { id: "exchanges", name: "Exchanges" }],
      { lending: "Lending", exchanges: true, derivatives: false },
      { market_sector_ids: ["lending", "exchanges"] },
      "lending, exchanges",
    ] as JsonValue[]) {
      const detail = normaliseProjectDetail({ project_id: "p", market_sectors: form });
      expect([form, detail.marketSectors]).toEqual([form, ["lending", "exchanges"]]);
    }
  });

  it("reads metric_availability in every form, an unlisted metric unavailable in each", () => {
    const forms: JsonValue[] = [
      "fees,revenue",
      " fees , revenue ",
      '["fees","revenue"]',
      '{"fees":true,"revenue":true}',
      ["fees", { metric_id: "revenue" }],
      { fees: true, revenue: "yes" },
      { fees: true, revenue: true, tvl: false },
    ];
    for (const form of forms) {
      const detail = normaliseProjectDetail({ project_id: "p", metric_availability: form });
      expect([form, isMetricAvailable(detail, "fees")]).toEqual([form, true]);
      expect([form, isMetricAvailable(detail, "revenue")]).toEqual([form, true]);
      expect([form, isMetricAvailable(detail, "tvl")]).toEqual([form, false]);
    }
    // Nothing published: nothing known.
    const silent = normaliseProjectDetail({ project_id: "p" });
    expect(isMetricAvailable(silent, "fees")).toBeUndefined();
  });

  it("reads product detail with list-shaped open members", () => {
    expect(normaliseProductDetail(data("product-detail.json"), "aave")).toMatchObject({
      productId: "aave-v3",
      projectId: "aave",
      marketSectors: ["lending"],
      metricAvailability: { fees: true, tvl: true },
      aggregateByOptions: ["chain"],
    });
  });

  it("reads market sectors, a sector's detail and the metric list", () => {
    expect(normaliseMarketSectors(data("market-sectors.json"), new Notes())).toEqual([
      { id: "lending", name: "Lending", url: "/v2/market-sectors/lending" },
      { id: "exchanges", name: "Exchanges" },
    ]);
    expect(normaliseMarketSectorDetail(data("market-sector-detail.json"), new Notes())).toEqual({
      marketSectorId: "lending",
      name: "Lending",
      description: { what: "Borrowing and lending", how: "Pools of deposits" },
      projects: [
        { projectId: "aave", name: "Aave", url: "/v2/projects/aave" },
        { projectId: "compound", name: "compound" },
      ],
    });
    expect(normaliseMetrics(data("metrics.json"), new Notes())[1]).toEqual({
      metricId: "tvl",
      metricName: "TVL",
      description: "Total value locked",
    });
  });

  it("calls a list none of whose entries can be read malformed, naming where", () => {
    expect(() => normaliseProjects([{ name: "no id" }], new Notes())).toThrow(ShapeError);
    expect(() => normaliseProjects([{ name: "no id" }], new Notes())).toThrow("data[0].project_id");
    expect(() => normaliseProjects({ not: "a list" }, new Notes())).toThrow("expected an array");
  });

  it("leaves out an entry it cannot read, keeps the rest and notes it", () => {
    const notes = new Notes();
    const projects = normaliseProjects(
      [
        {
          project_id: "aave",
          name: "Aave",
          products: [{ product_id: null }, { product_id: "v3" }],
        },
        { project_id: null, name: "Broken" },
        "not an object",
        { project_id: "uniswap", products: [{ product_id: null }] },
      ],
      notes
    );
    expect(projects.map((p) => [p.projectId, p.products.map((x) => x.productId)])).toEqual([
      ["aave", ["v3"]],
      ["uniswap", []],
    ]);
    expect(notes.list()).toEqual([
      expect.stringMatching(
        /^4 entries of the answer could not be read and were left out \(data\[0\]\.products\[0\]\.product_id: expected a non-empty string, got null; data\[1\]\.project_id: .*; data\[2\]: expected an object/
      ),
    ]);
    expect(normaliseMetrics([{ metric_id: "fees" }, { metric_id: null }], notes)).toEqual([
      { metricId: "fees", metricName: "fees", description: "" },
    ]);
  });
});

describe("series shapes", () => {
  it("reads wide project metric rows: ISO timestamps to dates, every value number | null", () => {
    const rows = normaliseProjectMetricRows(data("project-metrics.json"), "aave");
    expect(rows[0]).toEqual({
      date: "2024-01-02",
      projectId: "aave",
      projectName: "Aave",
      values: { fees: 232787544.26598746, revenue: 1250.5, tvl: null },
    });
    expect(rows[1].values).toEqual({ fees: 1000, revenue: 12.25, tvl: 5.5e9 });
    expect(rows[2]).toMatchObject({
      date: "2024-01-03",
      values: { fees: 3, revenue: null, tvl: 7 },
    });
  });

  it("keeps the breakdown member of rows broken down by chain", () => {
    const rows = normaliseProjectMetricRows(data("project-metrics-by-chain.json"), "aave");
    expect(rows.map((r) => [r.date, r.chain, r.values.fees])).toEqual([
      ["2024-01-01", "polygon", 2],
      ["2024-01-02", "ethereum", 10],
      ["2024-01-01", "ethereum", 9],
    ]);
  });

  it("calls a row without a readable date malformed", () => {
    expect(() => normaliseProjectMetricRows([{ fees: 1 }], "aave")).toThrow("no timestamp or date");
    expect(() => normaliseProjectMetricRows([{ timestamp: "soon", fees: 1 }], "aave")).toThrow(
      "not a date"
    );
  });

  it("reads product metric rows, which carry date instead of timestamp", () => {
    expect(normaliseProductMetricRows(data("product-metrics.json"))).toEqual([
      { date: "2024-01-01", metricId: "tvl", value: 100.5, chainId: "ethereum" },
      { date: "2024-01-02", metricId: "fees", value: 4 },
      { date: "2024-01-01", metricId: "fees", value: null },
    ]);
  });

  it("reads project aggregations with string, number and null values", () => {
    expect(
      normaliseProjectAggregations(data("project-metric-aggregations.json"), "aave").map(
        (r) => r.value
      )
    ).toEqual([123456.78, 5100000000, null]);
  });

  it("reads statement rows with numeric pop_change and null where missing", () => {
    const rows = normaliseStatementRows(data("financial-statement.json"));
    expect(rows[1]).toEqual({
      date: "2024-01-01",
      heading: "Q1 '24",
      subheading: "Jan 1 – Mar 31, 2024",
      granularity: "quarter",
      projectName: "Aave",
      section: "Income statement",
      metricId: "fees",
      value: 100,
      popChange: null,
      definition: "Fees",
    });
    expect(rows[0].popChange).toBe(1);
    expect(rows[2].popChange).toBeNull();
  });

  it("reads long multi-project rows", () => {
    expect(normaliseMultiProjectRows(data("metric-by-id.json"), "fees")[0]).toEqual({
      date: "2024-01-01",
      projectId: "uniswap",
      projectName: "Uniswap",
      metricId: "fees",
      value: 5,
    });
  });

  it("lifts what it recognises from open rows and keeps each row as received", () => {
    const aggregations = normaliseMetricAggregationRows(data("metric-aggregations.json"));
    expect(aggregations[0]).toMatchObject({
      projectId: "aave",
      metricId: "fees",
      aggregation: "sum_30d",
      value: 99.5,
    });
    expect(aggregations[0].fields.extra).toEqual({ note: "kept" });
    expect(aggregations[1]).toMatchObject({
      projectId: "uniswap",
      aggregation: "latest",
      value: 7,
    });

    const breakdown = normaliseBreakdownRows(data("metrics-breakdown.json"));
    expect(breakdown[0]).toMatchObject({
      share: 0.75,
      startDate: "2024-01-01",
      endDate: "2024-01-31",
      value: 75,
    });
    expect(breakdown[1]).toMatchObject({ share: 0.25, value: 25 });

    const v1 = normaliseOpenRows(data("v1-project-metrics.json"));
    expect(v1.map((r) => r.date)).toEqual(["2022-01-01", "2022-01-02", "2022-01-03"]);
    expect(v1[2].projectName).toBe("Aave");
    expect(normaliseOpenRows({ single: "object" })).toEqual([{ fields: { single: "object" } }]);
    expect(() => normaliseOpenRows("text")).toThrow(ShapeError);
  });
});

describe("partial errors", () => {
  it("types both kinds of entry and keeps unknown entries instead of dropping them", () => {
    expect(normalisePartialErrors(errors("metric-by-id.json"))).toEqual([
      { code: "NOT_FOUND", field: "project_ids", value: "nope" },
      { code: "METRIC_NOT_AVAILABLE", projectId: "bitcoin", metricId: "fees" },
      {
        code: "UNRECOGNISED",
        entry: { code: "SOMETHING_NEW", detail: "a shape the interface does not describe" },
      },
    ]);
  });

  it("treats an absent or null errors member as none", () => {
    expect(normalisePartialErrors(undefined)).toEqual([]);
    expect(normalisePartialErrors(null)).toEqual([]);
  });
});
