/**
 * The production build, as shipped: functions.json generated from the JSDoc (ids, parameters, optional flags),
 * the custom functions registered in functions.js, localhost rewritten to the production origin, the help page.
 */
import { mkdtempSync, readFileSync, rmSync } from "fs";
import { tmpdir } from "os";
import { join, resolve } from "path";
import { execFileSync } from "child_process";
import {
  checkManifestStructure,
  checkUnifiedStructure,
  compareManifests,
  validateUnifiedManifest,
} from "../../src/tools/manifest-check";

const root = resolve(__dirname, "../..");
const ORIGIN = "https://addin.example.com/";
let out: string;

interface Fn {
  id: string;
  name: string;
  helpUrl: string;
  parameters: Array<{
    name: string;
    optional?: boolean;
    dimensionality?: string;
    description: string;
  }>;
  result: { dimensionality?: string };
  options?: { requiresAddress?: boolean; cancelable?: boolean };
}

beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), "cm-build-"));
  // webpack-cli in its own process: copy-webpack-plugin loads ESM modules, which jest's VM cannot.
  execFileSync(
    process.execPath,
    [
      require.resolve("webpack-cli/bin/cli.js"),
      "--mode",
      "production",
      "--output-path",
      out,
      "--no-devtool",
    ],
    { cwd: root, env: { ...process.env, ADDIN_ORIGIN: ORIGIN }, stdio: "pipe" }
  );
}, 180_000);

afterAll(() => rmSync(out, { recursive: true, force: true }));

const read = (file: string) => readFileSync(join(out, file), "utf8");

describe("production build", () => {
  it("generates functions.json with every CRYPTO function, its parameters and optional flags", () => {
    const { functions } = JSON.parse(read("functions.json")) as { functions: Fn[] };
    const signatures = Object.fromEntries(
      functions.map((f) => [
        f.id,
        f.parameters
          .map(
            (p) => `${p.name}${p.optional ? "?" : ""}${p.dimensionality === "matrix" ? "[]" : ""}`
          )
          .join(","),
      ])
    );
    expect(signatures).toEqual({
      VALUE: "project,metric,date?,options?",
      ASOF: "project,metric,date?,options?",
      COMPS: "projects[],columns[],date?,options?",
      METRIC: "project[],metric[],start?,end?,options?",
      STATEMENT: "project,granularity?,interval?,options?",
      PROJECTS: "options?",
      PROJECT: "project,field?",
      PRODUCT: "project,product,field?",
      PRODUCT_METRIC: "project,product,metric[],start?,end?,options?",
      METRICS: "project?",
      SECTORS: "",
      SECTOR: "sector",
      AGGREGATION: "project,metric,name",
      AGGREGATIONS: "projects?[],metrics?[]",
      BREAKDOWN: "metric,projects?[],start?,end?",
    });
    for (const f of functions) {
      expect(f.name).toBe(f.id);
      expect(f.helpUrl).toBe(`${ORIGIN}help.html#${f.id.toLowerCase()}`);
      expect(f.options?.requiresAddress).toBe(true);
      for (const p of f.parameters) expect(p.description.length).toBeGreaterThan(5);
    }
    const cancelable = functions.filter((f) => f.options?.cancelable).map((f) => f.id);
    expect(cancelable).toEqual(["VALUE", "ASOF", "COMPS", "METRIC", "PRODUCT_METRIC"]);
    const scalar = functions.filter((f) => f.result.dimensionality !== "matrix").map((f) => f.id);
    expect(scalar).toEqual(["VALUE", "ASOF", "AGGREGATION"]);
  });

  it("registers every function in functions.js", () => {
    const { functions } = JSON.parse(read("functions.json")) as { functions: Fn[] };
    const bundle = read("functions.js");
    for (const f of functions) expect(bundle).toContain(`"${f.id}"`);
    expect(bundle).toMatch(/CustomFunctions\.associate/);
  });

  it("points the manifest at the production origin and keeps its shared-runtime structure", () => {
    const manifest = read("manifest.xml");
    expect(manifest).not.toMatch(/https?:\/\/localhost/);
    expect(manifest).toContain(`${ORIGIN}taskpane.html`);
    expect(checkManifestStructure(manifest)).toEqual([]);
  });

  it("writes the unified manifest.json for the same origin and functions, valid against its schema", async () => {
    const unified = JSON.parse(read("manifest.json")) as Record<string, unknown>;
    expect(JSON.stringify(unified)).not.toMatch(/https?:\/\/localhost/);
    expect(unified.validDomains).toEqual([new URL(ORIGIN).origin]);
    expect(JSON.stringify(unified)).toContain(`"metadataUrl":"${ORIGIN}functions.json"`);
    expect(checkUnifiedStructure(unified)).toEqual([]);
    expect(compareManifests(read("manifest.xml"), unified)).toEqual([]);
    expect(await validateUnifiedManifest(unified)).toEqual([]);
  });

  it("writes a help page with an anchor for every function", () => {
    const help = read("help.html");
    const { functions } = JSON.parse(read("functions.json")) as { functions: Fn[] };
    // The page is minified (unquoted attributes), so match the anchor either way.
    for (const f of functions) expect(help).toMatch(new RegExp(`id="?${f.id.toLowerCase()}[">]`));
    expect(help).toContain("=CRYPTO.METRIC(project, metric, [start], [end], [options])");
  });

  it("loads office.js from Microsoft's CDN, then the functions bundle before the taskpane's", () => {
    const page = read("taskpane.html");
    const scripts = [...page.matchAll(/<script[^>]*src="?([^"\s>]+)/g)].map((m) => m[1]);
    expect(scripts[0]).toBe("https://appsforoffice.microsoft.com/lib/1/hosted/office.js");
    expect(scripts.indexOf("functions.js")).toBeGreaterThan(0);
    expect(scripts.indexOf("functions.js")).toBeLessThan(scripts.indexOf("taskpane.js"));
  });
});
