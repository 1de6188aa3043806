/**
 * The production bundles' sizes, gzipped, on the suite's one production build: a bundle that passes its
 * bound fails `npm test`, not only the bench's report. functions.js (the script Excel loads for every
 * workbook) and the shared-runtime page's scripts are held to the bench's targets; the parts loaded on demand
 * are named by their content.
 */
import { readdirSync } from "node:fs";
import { measureBundles, ON_DEMAND_CHUNK } from "../../src/tools/bench/bundles";
import { TARGETS } from "../../src/tools/bench/targets";
import { ensureBuild } from "../support/web-build";

let web: string;
beforeAll(async () => {
  web = await ensureBuild();
}, 300_000);

describe("the production bundles", () => {
  it("keep functions.js under its target", () => {
    const { functions } = measureBundles(web);
    expect(functions.gzipBytes).toBeLessThan(TARGETS.functionsGzipBytes);
  });

  it("keep the shared-runtime page's scripts under their target", () => {
    const [page] = measureBundles(web).pages;
    expect(page.page).toBe("taskpane.html");
    expect(page.gzipBytes).toBeLessThan(TARGETS.taskpaneGzipBytes);
  });

  it("load the rarely used functions from chunks of their own, none of them in functions.js", () => {
    const { onDemand } = measureBundles(web);
    const names = (onDemand ?? []).map((c) => c.file.replace(/\.[0-9a-f]{8}\.js$/, ""));
    expect(names).toEqual(
      expect.arrayContaining(["fn-aggregations", "fn-catalogue", "fn-statement", "fn-series"])
    );
    for (const c of onDemand ?? []) expect(c.file).toMatch(ON_DEMAND_CHUNK);
  });

  it("load what a workbook of daily figures never runs from chunks of their own", () => {
    const chunks = readdirSync(web)
      .filter((f) => /\.[0-9a-f]{8}\.js$/.test(f))
      .map((f) => f.replace(/\.[0-9a-f]{8}\.js$/, ""));
    // The saved cache's code and store, the summaries' and sectors' requests, "did you mean", the filters'
    // checks, vintage= and the restatement ledger.
    expect(chunks).toEqual(
      expect.arrayContaining([
        "saved-cache",
        "client-occasional",
        "suggest",
        "fn-filters",
        "fn-vintage",
        "ledger",
      ])
    );
  });
});
