/**
 * The production bundles' sizes, gzipped, on the suite's one production build: a bundle that passes its
 * bound fails `npm test`, not only the bench's report. functions.js (the script Excel loads for every
 * workbook) is held to its ceiling until it meets the bench's target; the shared-runtime page's scripts to
 * theirs; the functions' chunks loaded on demand are named by their content.
 */
import { measureBundles, ON_DEMAND_CHUNK } from "../../src/tools/bench/bundles";
import { FUNCTIONS_GZIP_CEILING, TARGETS } from "../../src/tools/bench/targets";
import { ensureBuild } from "../support/web-build";

let web: string;
beforeAll(async () => {
  web = await ensureBuild();
}, 300_000);

describe("the production bundles", () => {
  it("keep functions.js under its ceiling", () => {
    const { functions } = measureBundles(web);
    expect(functions.gzipBytes).toBeLessThan(FUNCTIONS_GZIP_CEILING);
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
});
