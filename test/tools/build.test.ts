/**
 * The production build, as shipped: functions.json generated from the JSDoc (ids, parameters, optional flags),
 * the custom functions registered in functions.js, localhost rewritten to the production origin, the help page.
 *
 * One production build serves the whole suite (`npm test` makes it before jest; test/support/web-build.ts):
 * the bundles and pages are read from it as built. What a deployment's origin changes (ADDIN_ORIGIN:
 * functions.json's help links, the help page, both manifests) is made by one step of webpack.config.js, run
 * here as webpack runs it, with ADDIN_ORIGIN set, over that build's functions.json: a second full build would
 * cost half a minute for the same assets. The test also checks that the build's own assets are exactly what
 * that step makes for localhost, so the step checked here is the one the build ran.
 */
import { readFileSync } from "fs";
import { join, resolve } from "path";
import { sources } from "webpack";
import {
  checkManifestStructure,
  checkUnifiedStructure,
  compareManifests,
  validateUnifiedManifest,
} from "../../src/tools/manifest-check";
import { ensureBuild } from "../support/web-build";

const root = resolve(__dirname, "../..");
const ORIGIN = "https://addin.example.com/";
/** The assets the origin step makes (from functions.json), and the ones it takes as webpack built them. */
const ORIGIN_ASSETS = ["functions.json", "help.html", "manifest.xml", "manifest.json"] as const;

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

interface Plugin {
  name?: string;
  apply(compiler: unknown): void;
  definitions?: Record<string, string>;
}
type MakeConfig = (
  env: Record<string, string>,
  argv: { mode: string }
) => { plugins: Plugin[]; output: { path: string } };

/** webpack.config.js for a production build under these variables (restored after). */
function productionConfig(vars: Record<string, string | undefined>) {
  const saved = { ...process.env };
  for (const [k, v] of Object.entries(vars))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  try {
    // webpack.config.js is CommonJS, loaded as webpack loads it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return (require(join(root, "webpack.config.js")) as MakeConfig)({}, { mode: "production" });
  } finally {
    process.env = saved;
  }
}

/**
 * The origin step of a production config, run as webpack runs it at the end of a compilation (processAssets)
 * over the given functions.json: the assets it leaves.
 */
function runOriginStep(
  config: ReturnType<typeof productionConfig>,
  functionsJson: string
): Record<string, string> {
  const step = config.plugins.find((p) => p.name === "CryptometricsHelp");
  if (!step) throw new Error("webpack.config.js has no CryptometricsHelp step");
  const assets = new Map<string, sources.Source>([
    ["functions.json", new sources.RawSource(functionsJson)],
  ]);
  let processAssets: (() => void) | undefined;
  const compilation = {
    hooks: { processAssets: { tap: (_: unknown, fn: () => void) => (processAssets = fn) } },
    getAsset: (name: string) => {
      const source = assets.get(name);
      return source && { name, source };
    },
    updateAsset: (name: string, source: sources.Source) => assets.set(name, source),
    emitAsset: (name: string, source: sources.Source) => {
      if (assets.has(name)) throw new Error(`${name} emitted twice`);
      assets.set(name, source);
    },
  };
  step.apply({
    hooks: { thisCompilation: { tap: (_: string, fn: (c: unknown) => void) => fn(compilation) } },
  });
  if (!processAssets) throw new Error("the CryptometricsHelp step tapped no processAssets");
  processAssets();
  return Object.fromEntries(
    [...assets].map(([name, source]) => [name, source.source().toString()])
  );
}

/** What an HTML minifier keeps of a page: its text (entities read) and its element ids, spaces aside. */
function pageText(html: string): string {
  const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" };
  return html
    .replace(/<style[^>]*>[\s\S]*?<\/style>/g, "")
    .replace(/<[^>]*\bid="?([^"\s>]+)"?[^>]*>/g, " #$1 ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => entities[e])
    .replace(/\s+/g, "");
}

let built: string;
/** The build's assets for ORIGIN: the build's own files, and the origin step's output for ORIGIN. */
let deployed: Record<string, string>;

beforeAll(async () => {
  built = await ensureBuild();
  const local = Object.fromEntries(
    ORIGIN_ASSETS.map((name) => [name, readFileSync(join(built, name), "utf8")])
  );
  deployed = runOriginStep(
    productionConfig({ ADDIN_ORIGIN: ORIGIN, CRYPTOMETRICS_BASE_URL: undefined }),
    local["functions.json"]
  );
}, 300_000);

describe("the origin step checked here is the one the build ran", () => {
  it("makes, for localhost, exactly the functions.json, help page and manifests of the build", () => {
    const local = runOriginStep(
      productionConfig({ ADDIN_ORIGIN: undefined, CRYPTOMETRICS_BASE_URL: undefined }),
      readFileSync(join(built, "functions.json"), "utf8")
    );
    for (const name of ORIGIN_ASSETS) {
      const asBuilt = readFileSync(join(built, name), "utf8");
      // webpack's production minimizer then rewrites the help page (tags, quotes, spaces, its style sheet):
      // the page's text and anchors are what it keeps.
      const kept = name === "help.html" ? pageText : (text: string) => text;
      expect({ name, text: kept(local[name]) }).toEqual({ name, text: kept(asBuilt) });
    }
  });

  it("gives the pages the deployment's help link", () => {
    const define = productionConfig({ ADDIN_ORIGIN: ORIGIN }).plugins.find(
      (p) => p.definitions?.__CM_BUILD__
    )?.definitions?.__CM_BUILD__;
    expect(JSON.parse(define ?? "{}")).toMatchObject({
      mode: "production",
      helpUrl: `${ORIGIN}help.html`,
    });
  });
});

/** A file as deployed at ORIGIN: the origin step's output, or the build's file where the origin changes nothing. */
const read = (file: string) => deployed[file] ?? readFileSync(join(built, file), "utf8");

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
      AGGREGATION: "project,metric,name,options?",
      AGGREGATIONS: "projects?[],metrics?[],options?",
      BREAKDOWN: "metric,projects?[],start?,end?,options?",
      CHANGES: "projects[],metrics[],since?",
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
