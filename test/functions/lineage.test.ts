/**
 * Lineage of frozen figures: the functions called as Excel calls them against the simulator, then each cell's
 * record traced back to the projects and metrics it read and what the service says of them.
 */
import { comps_, metric_, product_metric_, value_ } from "../../src/functions/functions";
import {
  callArguments,
  lineageOf,
  serviceAddress,
  vintageOf,
  type LineageFormula,
} from "../../src/functions/lineage";
import { parseFormula } from "../../src/sheet/formula";
import { currentRuntime, sharedDiagnostics } from "../../src/runtime/runtime";
import { findMetric, metricSource } from "../../src/simulator/data/metrics-catalog";
import { inv, NOW, startHarness, type Harness } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** A cell's lineage input from its diagnostics record, as Freeze reads it. */
function traced(address: string, formula: string): LineageFormula {
  const record = sharedDiagnostics().cell(address);
  if (!record) throw new Error(`no record for ${address}`);
  return {
    range: address,
    formula,
    functionName: record.functionName,
    args: record.args,
    computedAt: record.at,
  };
}

function source() {
  const runtime = currentRuntime();
  return { engine: runtime.engine, baseUrl: runtime.config.baseUrl, via: "service" as const };
}

const described = (metricId: string) => ({
  definition: findMetric(metricId)!.description,
  source: metricSource(findMetric(metricId)!),
});

describe("the lineage of a formula's values", () => {
  it("names every project and metric it reads, with the service's definition and source of each", async () => {
    await value_("Aave", "Revenue", "2026-11-01", null, inv("Sheet1!B2"));
    await metric_(
      [["aave,uniswap"]],
      [["fees"]],
      "2026-11-01",
      "2026-11-03",
      null,
      inv("Sheet1!D2")
    );
    const [one, two] = await lineageOf(source(), [
      traced("Sheet1!B2", '=CRYPTO.VALUE("Aave","Revenue","2026-11-01")'),
      traced("Sheet1!D2", '=CRYPTO.METRIC("aave,uniswap","fees","2026-11-01","2026-11-03")'),
    ]);
    expect(one).toEqual({
      range: "Sheet1!B2",
      formula: '=CRYPTO.VALUE("Aave","Revenue","2026-11-01")',
      vintage: vintageOf(NOW),
      service: h.sim.url,
      via: "service",
      // Resolved as the function resolved them: a name and a capital are the ids.
      metrics: [{ projectId: "aave", metricId: "revenue", ...described("revenue") }],
    });
    expect(two.metrics).toEqual([
      { projectId: "aave", metricId: "fees", ...described("fees") },
      { projectId: "uniswap", metricId: "fees", ...described("fees") },
    ]);
  });

  it("reads COMPS's columns and a product's own detail", async () => {
    await comps_(
      [["aave,gmx"]],
      [["revenue:ttm, market_cap_fully_diluted/fees:30d"]],
      null,
      null,
      inv("Sheet2!A1")
    );
    const [comps] = await lineageOf(source(), [traced("Sheet2!A1", "=CRYPTO.COMPS(…)")]);
    expect(comps.metrics.map((m) => `${m.projectId} ${m.metricId}`)).toEqual([
      "aave revenue",
      "aave market_cap_fully_diluted",
      "aave fees",
      "gmx revenue",
      "gmx market_cap_fully_diluted",
      "gmx fees",
    ]);
    await product_metric_(
      "uniswap",
      "uniswap-v3",
      [["fees"]],
      "2026-11-01",
      "2026-11-02",
      null,
      inv("Sheet2!C1")
    );
    const [product] = await lineageOf(source(), [traced("Sheet2!C1", "=CRYPTO.PRODUCT_METRIC(…)")]);
    expect(product.metrics).toEqual([
      { projectId: "uniswap", productId: "uniswap-v3", metricId: "fees", ...described("fees") },
    ]);
  });

  it("says what it could not resolve, and never guesses", async () => {
    const [row] = await lineageOf(source(), [
      {
        range: "Sheet1!Z9",
        formula: '=CRYPTO.VALUE("aavee","revenue")',
        functionName: "VALUE",
        args: { project: "aavee", metric: "revenu" },
        computedAt: NOW,
      },
    ]);
    expect(row.metrics).toEqual([
      {
        projectId: "aavee",
        metricId: "",
        problem: expect.stringMatching(/unknown project "aavee"/),
      },
    ]);
  });

  it("dates values computed at an instant by the next whole second: vintage= of it holds all they read", () => {
    expect(vintageOf(Date.UTC(2026, 10, 24, 9, 30, 12))).toBe("2026-11-24T09:30:12Z");
    expect(vintageOf(Date.UTC(2026, 10, 24, 9, 30, 12, 1))).toBe("2026-11-24T09:30:13Z");
  });

  it("names the service by scheme, host, port and path: never a user, password, query or fragment", async () => {
    expect(
      serviceAddress("https://alice:s3cret@gw.example.com:8443/team/?key=s3cret#k=s3cret")
    ).toBe("https://gw.example.com:8443/team/");
    expect(serviceAddress("http://127.0.0.1:3001")).toBe("http://127.0.0.1:3001");
    expect(serviceAddress("not a url s3cret")).toBe("(an address that is not a URL)");
    const [row] = await lineageOf(
      { ...source(), baseUrl: "https://bob:s3cret@metrics.example/?token=s3cret" },
      [traced("Sheet1!B2", '=CRYPTO.VALUE("Aave","Revenue","2026-11-01")')]
    );
    expect(row.service).toBe("https://metrics.example");
    expect(JSON.stringify(row)).not.toContain("s3cret");
  });

  it("reads a formula's text: literals by parameter, a nested call's project, and what an expression hides", () => {
    expect(
      callArguments(parseFormula('=CRYPTO.METRIC({"aave";"uniswap"},"fees",TODAY()-7)'))
    ).toEqual({
      functionName: "METRIC",
      args: { project: [["aave"], ["uniswap"]], metric: "fees" },
      computed: [],
    });
    expect(callArguments(parseFormula('VALUE(CRYPTO.PROJECT("aave"),"aa"&"tvl")'))).toEqual({
      functionName: "VALUE",
      args: { project: ["aave"] },
      computed: ["metric"],
    });
  });
});
