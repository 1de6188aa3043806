/**
 * `eval --format json --lineage`: the results as the plain json prints them, inside `{"results", "lineage"}`,
 * with one lineage row per line: its formula, a vintage= instant, the service's address, and the service's
 * definition and source of every project and metric it reads. The CLI in-process with its real runtime (no
 * cache directory) against the simulator over loopback; only the functions' registry is built here rather
 * than read from the build.
 */
import { resolve } from "path";
import { run, defaultDeps, type CliDeps } from "../../src/cli/main";
import { NOT_KEPT } from "../../src/cli/lineage";
import { pageRegistry } from "../../src/functions/page-registry";
import type { Lineage } from "../../src/functions/lineage";
import type { Registry } from "../../src/sheet/registry";
import { DEMO_API_KEY, startSimulator, type RunningSimulator } from "../../src/simulator";
import { findMetric, metricSource } from "../../src/simulator/data/metrics-catalog";
import { generateFunctionsMeta } from "../../src/tools/gen-functions-meta";

let sim: RunningSimulator;
let registry: Registry;

beforeAll(async () => {
  const meta = JSON.parse(
    await generateFunctionsMeta(resolve(__dirname, "../../src/functions/functions.ts"))
  ) as { metadata: unknown };
  registry = pageRegistry(meta.metadata);
  sim = await startSimulator({ port: 0, rateLimit: null });
}, 60_000);
afterAll(() => sim.close());

/** Each run its own runtime (a rate limit of its own makes a new one), so requests are counted afresh. */
let runs = 0;

async function cli(
  args: string[],
  files: Record<string, string> = {}
): Promise<{ code: number; stdout: string; stderr: string; requests: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const deps: CliDeps = {
    ...defaultDeps,
    loadRegistry: () => registry,
    readText: (path) => {
      if (!(path in files)) throw Object.assign(new Error("no such file"), { code: "ENOENT" });
      return files[path];
    },
  };
  const before = sim.requestLog.length;
  const code = await run(
    ["eval", "--no-cache", "--rate-limit", String(600 - ++runs), ...args],
    { CRYPTOMETRICS_BASE_URL: sim.url, CRYPTOMETRICS_API_KEY: DEMO_API_KEY },
    { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t) },
    deps
  );
  const requests = sim.requestLog
    .slice(before)
    .filter((r) => r.method === "GET")
    .map((r) => r.path);
  return { code, stdout: out.join(""), stderr: err.join(""), requests };
}

const described = (metricId: string) => ({
  definition: findMetric(metricId)!.description,
  source: metricSource(findMetric(metricId)!),
});

const FORMULAS = [
  'VALUE("aave","fees","2024-02-15")',
  'VALUE(CRYPTO.PROJECT("uniswap"),"tvl")',
  'METRIC("aave,uniswap","revenue","2024-02-01","2024-02-03")',
];

describe("eval --format json --lineage", () => {
  it("prints the plain results beside one lineage row per formula, each re-derivable with vintage=", async () => {
    const plain = await cli(["--format", "json", ...FORMULAS]);
    const started = Date.now();
    const traced = await cli(["--format", "json", "--lineage", ...FORMULAS]);
    expect(traced).toMatchObject({ code: 0, stderr: "" });
    const out = JSON.parse(traced.stdout) as { results: unknown; lineage: Lineage[] };
    expect(Object.keys(out)).toEqual(["results", "lineage"]);
    expect(out.results).toEqual(JSON.parse(plain.stdout));

    const [value, nested, metric] = out.lineage;
    expect(out.lineage).toHaveLength(3);
    for (const row of out.lineage) {
      expect(row.service).toBe(sim.url);
      expect(row.via).toBe("service");
      // An instant after the values were computed, to the second, as vintage= takes it.
      expect(row.vintage).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(Date.parse(row.vintage)).toBeGreaterThanOrEqual(Math.floor(started / 1000) * 1000);
      expect(Date.parse(row.vintage)).toBeLessThanOrEqual(Date.now() + 1000);
      // No cache directory: nothing kept for a later run to re-derive from, said in every row.
      expect(row.note).toBe(NOT_KEPT);
    }
    expect(value).toMatchObject({
      range: "formula 1",
      formula: '=CRYPTO.VALUE("aave","fees","2024-02-15")',
      metrics: [{ projectId: "aave", metricId: "fees", ...described("fees") }],
    });
    // A project given by a nested call is read through it.
    expect(nested.metrics).toEqual([
      { projectId: "uniswap", metricId: "tvl", ...described("tvl") },
    ]);
    expect(metric.metrics).toEqual([
      { projectId: "aave", metricId: "revenue", ...described("revenue") },
      { projectId: "uniswap", metricId: "revenue", ...described("revenue") },
    ]);
  });

  it("costs the details of the projects it names and nothing else", async () => {
    const plain = await cli(["--format", "json", FORMULAS[0], FORMULAS[2]]);
    const traced = await cli(["--format", "json", "--lineage", FORMULAS[0], FORMULAS[2]]);
    const extra = [...traced.requests];
    for (const path of plain.requests) extra.splice(extra.indexOf(path), 1);
    expect(extra.sort()).toEqual(["/v2/projects/aave", "/v2/projects/uniswap"]);
  });

  it("keeps each line's place: a refused --file line and a project written as an expression say so", async () => {
    const traced = await cli(["--format", "json", "--lineage", "--file", "model.txt"], {
      "model.txt": 'VALUE("aave","tvl")\nVALUE("aave",\nVALUE("aa"&"ve","tvl")\n',
    });
    expect(traced.code).toBe(2);
    const { results, lineage } = JSON.parse(traced.stdout) as {
      results: unknown[];
      lineage: Lineage[];
    };
    expect(results).toHaveLength(3);
    expect(lineage.map((r) => r.range)).toEqual(["model.txt:1", "model.txt:2", "model.txt:3"]);
    expect(lineage[0].metrics).toHaveLength(1);
    expect(lineage[1]).toMatchObject({ vintage: "", metrics: [] });
    expect(lineage[1].note).toMatch(/^not evaluated: model\.txt:2: /);
    expect(lineage[2].metrics).toEqual([]);
    expect(lineage[2].note).toContain(
      "not named here, as computed in the formula: VALUE's project"
    );
  });

  it("is refused with a format that has no place for it, and by cache", async () => {
    for (const format of ["table", "csv"]) {
      const refused = await cli(["--format", format, "--lineage", FORMULAS[0]]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toBe(
        `cryptometrics: --lineage needs --format json (the lineage is printed beside the results as JSON), not '${format}'\n`
      );
      expect(refused.requests).toEqual([]);
    }
    const out: string[] = [];
    const code = await run(
      ["cache", "info", "--lineage"],
      {},
      {
        stdout: () => undefined,
        stderr: (t) => void out.push(t),
      }
    );
    expect(code).toBe(2);
    expect(out.join("")).toBe("cryptometrics: --lineage does not apply to 'cache info'\n");
  });
});
