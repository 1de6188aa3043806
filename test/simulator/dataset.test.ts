import golden from "../fixtures/simulator/golden-aave-2024-w01.json";
import { createDataset, OUTAGE, type Dataset } from "../../src/simulator";
import { get, start } from "./helpers";

const TODAY = "2025-06-15";
let dataset: Dataset;
beforeAll(() => {
  dataset = createDataset(TODAY);
});

describe("createDataset", () => {
  it("serves the golden response, byte for byte, on every run", async () => {
    // The golden was taken with UTC-midnight timestamps; the other readings are checked in readings.test.ts.
    const sim = await start({ readings: { timestamps: "utc" } });
    try {
      expect((await get(sim, golden.path)).body).toEqual(golden.response);
    } finally {
      await sim.close();
    }
  });

  it("gives identical series for two datasets of the same day", () => {
    const other = createDataset(TODAY);
    for (const [project, metric] of [
      ["aave", "fees"],
      ["bitcoin", "price"],
      ["uniswap", "user_mau"],
      ["lido-finance", "pf_fully_diluted"],
    ]) {
      expect(other.daily(project, metric)).toEqual(dataset.daily(project, metric));
    }
  });

  it("keeps history unchanged when today moves: a later day only adds data", () => {
    const later = createDataset("2025-09-30");
    const earlier = dataset.daily("uniswap", "revenue");
    const extended = later.daily("uniswap", "revenue");
    expect(extended.slice(0, earlier.length)).toEqual(earlier);
    expect(extended[extended.length - 1].date).toBe("2025-09-30");
  });

  it("has at least 40 projects and 15 metrics of both kinds", () => {
    expect(dataset.projects.length).toBeGreaterThanOrEqual(40);
    expect(dataset.metrics.length).toBeGreaterThanOrEqual(15);
    const kinds = new Set(dataset.metrics.map((m) => m.kind));
    expect(kinds).toEqual(new Set(["flow", "level", "average"]));
  });

  it("lacks some metrics for some projects beyond what their business explains", () => {
    const withDevelopers = dataset.projects.filter((p) =>
      p.metrics.includes("active_developers")
    ).length;
    expect(withDevelopers).toBeGreaterThan(10);
    expect(withDevelopers).toBeLessThan(dataset.projects.length);
    expect(dataset.hasMetric("base", "price")).toBe(false);
    expect(dataset.hasMetric("aave", "active_loans")).toBe(true);
  });

  it("ties metrics together: revenue = fees - supply-side fees, earnings = revenue - expenses", () => {
    const day = { start: "2025-03-01", end: "2025-03-31" };
    const fees = dataset.daily("aave", "fees", day);
    const supply = dataset.daily("aave", "fees_supply_side", day);
    const revenue = dataset.daily("aave", "revenue", day);
    revenue.forEach((r, i) => {
      if (r.value !== null && fees[i].value !== null && supply[i].value !== null) {
        expect(r.value).toBeCloseTo(fees[i].value - supply[i].value, 6);
      }
    });
  });

  it("stops an archived project's series at its archive date", () => {
    const anchor = dataset.project("anchor-protocol");
    expect(anchor).toMatchObject({
      isArchived: true,
      archiveDate: "2022-05-13",
      lastDate: "2022-05-13",
    });
    for (const metric of anchor?.metrics ?? []) {
      const points = dataset.daily("anchor-protocol", metric);
      expect(points[points.length - 1].date <= "2022-05-13").toBe(true);
    }
  });

  it("has a two-week outage of nulls for one project", () => {
    const points = dataset.daily(OUTAGE.projectId, "fees", {
      start: OUTAGE.start,
      end: OUTAGE.end,
    });
    expect(points).toHaveLength(14);
    expect(points.every((p) => p.value === null)).toBe(true);
  });

  it("computes statements and aggregations without HTTP", () => {
    const rows = dataset.statement("aave", "year", "max");
    expect(rows[0]).toMatchObject({
      heading: "2020",
      section: "Income statement",
      metricId: "fees",
      popChange: null,
    });
    expect(dataset.aggregations("aave", ["fees"]).map((r) => r.name)).toEqual([
      "latest",
      "sum_30d",
      "avg_7d",
      "change_30d",
      "trend_90d",
      "ath",
      "atl",
    ]);
  });

  it("refuses a today that is not a date", () => {
    expect(() => createDataset("2025-02-30")).toThrow(/YYYY-MM-DD/);
  });
});

describe("the simulator's today", () => {
  it("follows the clock across midnight UTC", async () => {
    let now = Date.UTC(2025, 5, 15, 23, 59);
    const sim = await start({ now: () => now });
    try {
      const first = (await get(sim, "/v2/projects/aave/metrics?metric_ids=fees&start=2025-06-14"))
        .body as { data: { timestamp: string }[] };
      expect(first.data[0].timestamp).toBe("2025-06-15T00:00:00+02:00");
      now += 2 * 60_000;
      const next = (await get(sim, "/v2/projects/aave/metrics?metric_ids=fees&start=2025-06-14"))
        .body as { data: { timestamp: string }[] };
      expect(next.data[0].timestamp).toBe("2025-06-16T00:00:00+02:00");
    } finally {
      await sim.close();
    }
  });
});
