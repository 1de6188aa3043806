/**
 * What the functions do where the interface is loose, checked one by one (test/conformance runs the whole
 * corpus under every reading): the documented operation where the open one cannot be trusted (the daily
 * series for BREAKDOWN, §4.4 for AGGREGATION), shares over every project asked, partial-success errors.
 */
import * as fns from "../../src/functions/functions";
import { currentRuntime, sharedDiagnostics } from "../../src/runtime/runtime";
import { dataset, excelError, inv, showTable, startHarness, type Harness } from "./harness";

let h: Harness;
beforeAll(async () => {
  // 60 projects: more than one request's 50 ids.
  h = await startHarness({}, { projects: 60, duplicateRows: 0 });
});
afterAll(() => h.close());
beforeEach(() => {
  currentRuntime().engine.clear();
  h.sim.clearLog();
  h.sim.setKnobs({ readings: undefined, reportUnavailable: false });
});

const queries = () => h.sim.requestLog.filter((r) => r.method === "GET");

describe("BREAKDOWN", () => {
  it("computes its shares over every project asked, from their daily series in requests of 50 ids", async () => {
    const rows = showTable(
      (await fns.breakdown_(
        "fees",
        null as never,
        "2026-10-01",
        "2026-10-31",
        null,
        inv()
      )) as unknown[][]
    );
    const header = rows[0] as string[];
    expect(header).toEqual([
      "project_id",
      "project_name",
      "metric_id",
      "value",
      "share",
      "start_date",
      "end_date",
    ]);
    const shares = rows.slice(1).map((r) => r[header.indexOf("share")] as number);
    expect(shares.length).toBeGreaterThan(50);
    expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
    // The figures are the daily series' (§4.11), never the breakdown operation's (§4.13), whose rows do not
    // say which days they cover.
    expect(queries().filter((r) => r.path.startsWith("/v2/metrics-breakdown/"))).toEqual([]);
    const sent = queries().filter((r) => r.path === "/v2/metrics/fees");
    expect(sent.length).toBeGreaterThan(0);
    for (const r of sent)
      if (r.query.project_ids !== "all")
        expect(r.query.project_ids.split(",").length).toBeLessThanOrEqual(50);
  });

  it("reads the last 30 days when no period is given, and names each row's project by the catalogue", async () => {
    const rows = showTable(
      (await fns.breakdown_("fees", [["aave"]], null, null, null, inv())) as unknown[][]
    );
    expect(rows[1].slice(0, 3)).toEqual(["aave", "Aave", "fees"]);
    expect(rows[1].slice(5)).toEqual(["2026-10-22", "2026-11-20"]);
    expect(queries().at(-1)?.query).toMatchObject({ start: "2026-10-22", end: "2026-11-20" });
  });

  it("labels its rows with the days they cover whatever date names the breakdown operation takes", async () => {
    // A service that takes start/end for §4.13 and ignores the names it does not know answered the old
    // BREAKDOWN with its default period, shown as the period asked.
    const expected = dataset
      .daily("aave", "fees", { start: "2024-01-01", end: "2024-01-31" })
      .reduce((s, p) => s + (p.value ?? 0), 0);
    for (const readings of [
      {},
      { breakdownDates: "start", unknownParams: "ignore" },
      { breakdownDates: "both", unknownParams: "ignore" },
    ] as const) {
      currentRuntime().engine.clear();
      h.sim.setKnobs({ readings: undefined });
      h.sim.setKnobs({ readings });
      const rows = showTable(
        (await fns.breakdown_(
          "fees",
          [["aave"]],
          "2024-01-01",
          "2024-01-31",
          null,
          inv()
        )) as unknown[][]
      );
      expect({ readings, value: rows[1][3], days: rows[1].slice(5) }).toEqual({
        readings,
        value: expect.closeTo(expected, 4) as unknown,
        days: ["2024-01-01", "2024-01-31"],
      });
    }
  });

  it("gives a listed project the metric does not apply to a row saying so", async () => {
    h.sim.setKnobs({ reportUnavailable: true });
    const rows = showTable(
      (await fns.breakdown_(
        "tvl",
        [["aave"], ["bitcoin"]],
        "2026-10-01",
        "2026-10-31",
        null,
        inv()
      )) as unknown[][]
    );
    expect(rows[2][0]).toBe("bitcoin");
    expect(rows[2][3]).toMatch(/^#N\/A: .*tvl.*not available.*bitcoin|^#N\/A: .*bitcoin.*tvl/);
  });
});

describe("AGGREGATION", () => {
  it("asks a project's own aggregations (§4.4) when §4.12's rows cannot be read, with the same figure", async () => {
    const expected = await fns.aggregation_("aave", "revenue", "sum_30d", null, inv());
    currentRuntime().engine.clear();
    h.sim.clearLog();
    h.sim.setKnobs({ readings: { aggregationsRows: "opaque" } });
    expect(await fns.aggregation_("aave", "revenue", "sum_30d", null, inv())).toBe(expected);
    expect(
      queries()
        .map((r) => r.path)
        .filter((p) => /aggregations/.test(p))
    ).toEqual(["/v2/metric-aggregations", "/v2/projects/aave/metric-aggregations"]);
  });
});

describe("sectors=", () => {
  it("is decided by the sector's own project list (§4.9), not the detail's open member", async () => {
    await fns.projects_(null, inv());
    h.sim.clearLog();
    expect(await fns.value_("aave", "fees", "2024-01-15", "sectors=lending", inv())).toEqual(
      expect.any(Number)
    );
    expect(queries().map((r) => r.path)).toContain("/v2/market-sectors/lending");
    expect(queries().map((r) => r.path)).not.toContain("/v2/projects/aave");
    const error = await excelError(
      fns.value_("uniswap", "fees", "2024-01-15", "sectors=lending", inv())
    );
    expect(error.message).toBe('uniswap is not in sector "lending"; its sectors: exchanges');
  });
});

describe("breakdown=product_id", () => {
  it("reads each product's own metrics (§4.7): products that add up to the project", async () => {
    const rows = showTable(
      (await fns.metric_(
        [["aave"]],
        [["fees"]],
        "2024-01-01",
        "2024-01-01",
        "breakdown=product_id",
        inv()
      )) as unknown[][]
    );
    expect(rows.map((r) => r[1])).toEqual(["Product", "aave-v1", "aave-v2", "aave-v3"]);
    const total = dataset.daily("aave", "fees", { start: "2024-01-01", end: "2024-01-01" })[0]
      .value!;
    expect(rows.slice(1).reduce((s, r) => s + (r[2] as number), 0)).toBeCloseTo(total, 4);
    const paths = queries().map((r) => r.path);
    expect(paths).toContain("/v2/projects/aave/products/aave-v2/metrics");
    expect(paths.some((p) => p === "/v2/projects/aave/metrics")).toBe(false);
  });
});

describe("an unreadable catalogue entry", () => {
  it("is left out and noted in the diagnostics; the catalogue still serves", async () => {
    h.sim.setKnobs({ readings: { catalogueEntries: "unusable" } });
    const rows = (await fns.projects_(null, inv())) as unknown[][];
    expect(rows.length).toBe(61);
    expect(sharedDiagnostics().notes()[0].text).toMatch(
      /^listProjects\(\): 2 entries of the answer could not be read and were left out \(data\[0\]\.products\[3\]\.product_id/
    );
  });
});

describe("an answer that cannot be read", () => {
  it("says so, not that the service could not be reached", async () => {
    h.sim.setKnobs({ fault: "html-200" });
    try {
      const error = await excelError(fns.value_("aave", "fees", "2024-01-15", null, inv()));
      expect(error.message).toMatch(
        /^The service's answer could not be read: .* Run the command again later; if it persists, check --base-url or CRYPTOMETRICS_BASE_URL\.$/
      );
    } finally {
      h.sim.setKnobs({ fault: null });
    }
  });
});
