/**
 * End to end: the CLI's run() in-process over the real functions, runtime, engine and client, against the
 * simulator on loopback HTTP; and once, the built entry (node dist/node/cli/main.js) as a user runs it: the
 * build `npm test` made before jest (test/support/node-build.ts; built once into test-results/ when the sources
 * changed since), never a build of this file's own into the checkout's dist/.
 */
import { execFile } from "child_process";
import { createServer, type AddressInfo } from "net";
import { mkdtempSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join, resolve } from "path";
import { promisify } from "util";
import { defaultDeps, run } from "../../src/cli/main";
import { createRegistry, Registry } from "../../src/sheet/registry";
import * as functions from "../../src/functions/functions";
import {
  createDataset,
  DEMO_API_KEY,
  startSimulator,
  type RunningSimulator,
} from "../../src/simulator";
import { generateFunctionsMeta } from "../../src/tools/gen-functions-meta";
import { validateEntity } from "../../src/sheet/entity";
import { ensureNodeBuild } from "../support/node-build";

const root = resolve(__dirname, "../..");
const execFileAsync = promisify(execFile);

let sim: RunningSimulator;
let registry: Registry;
// The simulator and the runtime both run on the real clock: the dataset's today is the UTC day now.
const dataset = createDataset(new Date().toISOString().slice(0, 10));

beforeAll(async () => {
  sim = await startSimulator({ port: 0, rateLimit: null });
  // What `npm run build:node` writes to functions.meta.json, made from the same source.
  const meta: unknown = JSON.parse(
    await generateFunctionsMeta(resolve(root, "src/functions/functions.ts"))
  );
  registry = createRegistry(meta, functions);
});

afterAll(() => sim.close());

beforeEach(() => sim.clearLog());

async function cli(argv: string[], env: Record<string, string> = {}) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await run(
    argv,
    {
      CRYPTOMETRICS_BASE_URL: sim.url,
      CRYPTOMETRICS_API_KEY: DEMO_API_KEY,
      // This file's own directory (test/support/environment.cjs): run() reads the env it is given.
      CRYPTOMETRICS_CACHE_DIR: process.env.CRYPTOMETRICS_CACHE_DIR,
      ...env,
    },
    { stdout: (t) => void stdout.push(t), stderr: (t) => void stderr.push(t) },
    { ...defaultDeps, loadRegistry: () => registry }
  );
  return { code, stdout: stdout.join(""), stderr: stderr.join("") };
}

function daily(project: string, metric: string, start: string, end: string): number[] {
  return dataset.daily(project, metric, { start, end }).map((p) => p.value as number);
}

describe("cryptometrics eval against the simulator", () => {
  it("prints a value and a dated series as JSON, matching the dataset", async () => {
    const { code, stdout, stderr } = await cli([
      "eval",
      "--format",
      "json",
      '=CRYPTO.VALUE("aave","revenue","2024-03-31")',
      'metric("aave","revenue","2024-01-01","2024-01-03")',
    ]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const [value, series] = JSON.parse(stdout) as [number[][], unknown[][]];
    expect(value[0][0]).toBeCloseTo(daily("aave", "revenue", "2024-03-31", "2024-03-31")[0], 6);
    expect(series[0]).toEqual(["Date", "revenue"]);
    // Dates come back as dates (formatted numbers), printed as YYYY-MM-DD.
    expect(series.slice(1).map((row) => row[0])).toEqual([
      "2024-01-01",
      "2024-01-02",
      "2024-01-03",
    ]);
    const expected = daily("aave", "revenue", "2024-01-01", "2024-01-03");
    series.slice(1).forEach((row, i) => expect(row[1]).toBeCloseTo(expected[i], 6));
  });

  it("evaluates the formulas of one invocation as one recalculation: the engine batches them", async () => {
    const formulas = ["aave", "uniswap", "compound"].map(
      (p) => `VALUE("${p}","fees","2025-01-15")`
    );
    const { code, stdout } = await cli([
      "eval",
      "--format",
      "json",
      ...formulas,
      'VALUE({"lido-finance";"curve"},"fees","2025-01-15")',
    ]);
    expect(code).toBe(0);
    const results = JSON.parse(stdout) as number[][][];
    expect(results.map((grid) => grid.length)).toEqual([1, 1, 1, 2]);
    expect(results[1][0][0]).toBeCloseTo(
      daily("uniswap", "fees", "2025-01-15", "2025-01-15")[0],
      6
    );
    expect(results[3][1][0]).toBeCloseTo(daily("curve", "fees", "2025-01-15", "2025-01-15")[0], 6);
    // Five cells of one metric on one day: one request naming all five projects.
    const fees = sim.requestLog.filter((r) => r.method === "GET" && r.path === "/v2/metrics/fees");
    expect(fees).toHaveLength(1);
    expect(fees[0].query.project_ids.split(",").sort()).toEqual([
      "aave",
      "compound",
      "curve",
      "lido-finance",
      "uniswap",
    ]);
  });

  it("batches a workbook given as a file: 200 VALUE cells (40 projects × 5 metrics) in at most 10 requests", async () => {
    const projects = dataset.projects
      .filter((p) => !p.isArchived)
      .slice(0, 40)
      .map((p) => p.id);
    const metrics = ["fees", "revenue", "tvl", "user_dau", "price"];
    const lines = projects.flatMap((p) =>
      metrics.map((m) => `=CRYPTO.VALUE("${p}","${m}","2025-03-31")`)
    );
    const file = join(mkdtempSync(join(tmpdir(), "cm-cli-")), "model.txt");
    writeFileSync(file, `${lines.join("\n")}\n`);
    const { stdout } = await cli(["eval", "--format", "json", "--file", file]);
    expect(JSON.parse(stdout)).toHaveLength(200);
    const series = sim.requestLog.filter(
      (r) => r.method === "GET" && r.path.startsWith("/v2/metrics/")
    );
    expect(series.length).toBeLessThanOrEqual(10);
    expect(series.every((r) => r.query.project_ids.split(",").length >= 20)).toBe(true);
  });

  it("fetches 120 overlapping METRIC ranges of one series once, and nothing when they are evaluated again", async () => {
    const formulas = Array.from({ length: 120 }, (_, i) => {
      const start = new Date(Date.UTC(2024, 0, 1 + i)).toISOString().slice(0, 10);
      const end = new Date(Date.UTC(2024, 1, 1 + i)).toISOString().slice(0, 10);
      return `METRIC("aave","revenue","${start}","${end}")`;
    });
    expect((await cli(["eval", "--format", "csv", ...formulas])).code).toBe(0);
    const get = () =>
      sim.requestLog.filter(
        (r) => r.method === "GET" && !/^\/v2\/(projects|metrics)$/.test(r.path)
      );
    expect(get()).toHaveLength(1);
    sim.clearLog();
    expect((await cli(["eval", "--format", "csv", ...formulas])).code).toBe(0);
    expect(sim.requestLog).toEqual([]);
  });

  it("exits 1 with the function's #N/A and message for an unknown project", async () => {
    const { code, stdout } = await cli(["eval", 'VALUE("no-such-project","fees","2025-01-15")']);
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /^=CRYPTO\.VALUE\("no-such-project","fees","2025-01-15"\)\n#N\/A .*no-such-project/
    );
  });

  it("reports a missing API key in the cell (#VALUE!, exit 1), not as a usage error", async () => {
    const { code, stdout, stderr } = await cli(
      ["eval", "--format", "json", 'VALUE("aave","fees","2025-01-15")'],
      {
        CRYPTOMETRICS_API_KEY: "",
      }
    );
    expect(code).toBe(1);
    expect(stderr).toBe("");
    const [[[cell]]] = JSON.parse(stdout) as { error: string; message: string }[][][];
    expect(cell.error).toBe("#VALUE!");
    expect(cell.message).toMatch(/API key/);
  });

  it("never shows a rejected key, in results or on stderr", async () => {
    const key = "cm_wrong_key_7f3e9d1c5b";
    const { code, stdout, stderr } = await cli([
      "eval",
      "--api-key",
      key,
      'VALUE("aave","fees","2025-01-15")',
    ]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/#VALUE!/);
    expect(stdout + stderr).not.toContain(key);
  });

  it("refuses a plain-http base URL off loopback: exit 2, one line, nothing sent", async () => {
    const { code, stdout, stderr } = await cli([
      "eval",
      "--base-url",
      "http://metrics.example.com",
      'VALUE("aave","fees")',
    ]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/^cryptometrics: .*http.*\n$/);
    expect(stderr.split("\n")).toHaveLength(2);
    expect(sim.requestLog).toEqual([]);
  });
});

describe("the built entry point", () => {
  let main: string;
  beforeAll(async () => {
    main = join(await ensureNodeBuild(), "cli", "main.js");
  }, 300_000);

  it("runs `node dist/node/cli/main.js eval` with the environment's URL and key, exit 0", async () => {
    const { stdout, stderr } = await execFileAsync(
      process.execPath,
      [main, "eval", "--format", "csv", 'VALUE("aave","revenue","2024-03-31")', "SECTORS()"],
      {
        cwd: root,
        timeout: 30_000,
        env: {
          ...process.env,
          CRYPTOMETRICS_BASE_URL: sim.url,
          CRYPTOMETRICS_API_KEY: DEMO_API_KEY,
        },
      }
    );
    expect(stderr).toBe("");
    const [value, sectors] = stdout.split("\r\n\r\n");
    const [label, figure] = value.trim().split("\r\n");
    expect(label).toBe('"# =CRYPTO.VALUE(""aave"",""revenue"",""2024-03-31"")"');
    // Six decimals, as the table shows figures.
    expect(Number(figure)).toBeCloseTo(daily("aave", "revenue", "2024-03-31", "2024-03-31")[0], 5);
    expect(sectors.split("\r\n").length).toBeGreaterThan(2);
  });

  it("exits 2 with one line and no stack trace for a malformed formula", async () => {
    const failure = await execFileAsync(process.execPath, [main, "eval", 'VALUE("aave"'], {
      cwd: root,
      timeout: 30_000,
      env: { ...process.env, CRYPTOMETRICS_BASE_URL: sim.url },
    }).then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stdout).toBe("");
    expect(failure?.stderr).toBe(
      "cryptometrics: formula 1: unexpected end of formula (expected ')' to close VALUE() at column 13\n"
    );
  });
});

describe("a wrong address, said in words", () => {
  it("a base URL ending /v2 is refused before any request, saying to drop it, as the taskpane says", async () => {
    const { code, stdout, stderr } = await cli([
      "eval",
      "--base-url",
      `${sim.url}/v2`,
      "PROJECTS()",
    ]);
    expect({ code, stdout }).toEqual({ code: 2, stdout: "" });
    expect(stderr).toBe(
      `cryptometrics: base URL ${sim.url}/v2: Drop /v2: the address is the part before it (${sim.url}). The CLI adds /v2/… to it for each request.\n`
    );
    expect(sim.requestLog).toEqual([]);
  });

  it("https to the plain-http simulator says to use http, once, without OpenSSL's text", async () => {
    const host = new URL(sim.url).host;
    const { code, stdout } = await cli([
      "eval",
      "--base-url",
      `https://${host}`,
      'VALUE("aave","tvl")',
    ]);
    expect(code).toBe(1);
    expect(stdout).toContain(
      `${host} answers plain http, not https: use http://${host} as the address`
    );
    expect(stdout).not.toMatch(/SSL routines|ERR_SSL|gave up after/);
  });

  it("an address where nothing answers is said after two attempts, not six", async () => {
    const closed = await new Promise<number>((done) => {
      const server = createServer();
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => done(port));
      });
    });
    const { code, stdout } = await cli([
      "eval",
      "--base-url",
      `http://127.0.0.1:${closed}`,
      'VALUE("aave","tvl")',
    ]);
    expect(code).toBe(1);
    expect(stdout).toContain(
      `nothing answers at 127.0.0.1:${closed} (connection refused): is the server running? (gave up after 2 attempts)`
    );
    expect(stdout).not.toMatch(/ECONNREFUSED|fetch failed/);
  });
});

describe("cards through the CLI", () => {
  it("acts as a current Excel: json prints a card as its Excel.EntityCellValue, table as its text", async () => {
    const json = await cli(["eval", "--format", "json", 'PROJECT("aave")']);
    expect(json.stderr).toBe("");
    expect(json.code).toBe(0);
    const [[[card]]] = JSON.parse(json.stdout) as Excel.EntityCellValue[][][];
    expect(card).toMatchObject({ type: "Entity", text: "Aave" });
    expect(card.properties?.Id).toEqual({ type: "String", basicValue: "aave" });
    expect(validateEntity(card)).toEqual([]);

    const table = await cli(["eval", 'PROJECT("aave")']);
    expect(table.stdout).toBe('=CRYPTO.PROJECT("aave")\nAave\n');
  });

  it("acts as an older Excel with --legacy-host: the field/value table, dates as plain serials", async () => {
    const { code, stdout, stderr } = await cli([
      "eval",
      "--legacy-host",
      "--format",
      "json",
      'PROJECT("aave")',
      'METRIC("aave","fees","2024-01-01","2024-01-02")',
    ]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const [project, series] = JSON.parse(stdout) as [unknown[][], unknown[][]];
    expect(project[0]).toEqual(["field", "value"]);
    expect(project).toContainEqual(["symbol", "AAVE"]);
    expect(series.slice(1).map((row) => row[0])).toEqual([45292, 45293]);
  });

  it("evaluates FIELDVALUE and a CRYPTO call nested in another one", async () => {
    const { code, stdout, stderr } = await cli([
      "eval",
      "--format",
      "json",
      'FIELDVALUE(CRYPTO.PROJECT("aave"),"Symbol")',
      'CRYPTO.METRIC(CRYPTO.PROJECT("aave"),"revenue","2024-03-01","2024-03-03")',
      'CRYPTO.METRIC("aave","revenue","2024-03-01","2024-03-03")',
    ]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const [symbol, byCard, byId] = JSON.parse(stdout) as unknown[][][];
    expect(symbol).toEqual([["AAVE"]]);
    expect(byCard).toEqual(byId);
    expect(byCard).toHaveLength(4);
  });
});
