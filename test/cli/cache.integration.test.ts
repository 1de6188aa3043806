/**
 * The CLI's cache directory as users meet it: the built entry (node dist/node/cli/main.js) run as separate
 * processes, one after another and at the same time, against the simulator on loopback HTTP. The build is the
 * one `npm test` made before jest (test/support/node-build.ts), never one of this file's own into dist/.
 */
import { execFile } from "child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join, resolve } from "path";
import { promisify } from "util";
import { startSimulator, type RunningSimulator } from "../../src/simulator";
import { ensureNodeBuild } from "../support/node-build";

const root = resolve(__dirname, "../..");
const execFileAsync = promisify(execFile);
/** A key as the real service issues them: the test checks it is written nowhere. */
const KEY = "cm_live_Qm7RkT2w9ZbX41sVfD0aHq";

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** One CLI process; the environment's cache directory unless the arguments name one. */
async function cli(
  sim: RunningSimulator,
  args: string[],
  env: Record<string, string> = {}
): Promise<Outcome> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [main, ...args], {
      cwd: root,
      timeout: 90_000,
      env: {
        ...process.env,
        CRYPTOMETRICS_BASE_URL: sim.url,
        CRYPTOMETRICS_API_KEY: KEY,
        ...env,
      },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    if (typeof e.code !== "number") throw error;
    return { code: e.code, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

/** A fresh directory inside this file's temporary directory (test/support/environment.cjs). */
function freshDir(name: string): string {
  return mkdtempSync(join(tmpdir(), `${name}-`));
}

function formulaFile(lines: readonly string[]): string {
  const file = join(freshDir("formulas"), "book.txt");
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

function gets(sim: RunningSimulator) {
  return sim.requestLog.filter((r) => r.method === "GET");
}

function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? allFiles(path) : [path];
  });
}

/** A small workbook: values, a dated series, a statement and a catalogue list. */
const BOOK = [
  ...["aave", "uniswap", "lido-finance"].flatMap((p) =>
    ["fees", "revenue"].map((m) => `=CRYPTO.VALUE("${p}","${m}","2025-03-31")`)
  ),
  '=CRYPTO.METRIC("aave","tvl","2025-01-01","2025-01-10")',
  '=CRYPTO.STATEMENT("aave","quarter")',
  "=CRYPTO.SECTORS()",
];

let sim: RunningSimulator;
/** The built entry, dist/node/cli/main.js (or the same build of the current sources under test-results/). */
let main: string;

beforeAll(async () => {
  main = join(await ensureNodeBuild(), "cli", "main.js");
  sim = await startSimulator({ port: 0, rateLimit: null, apiKeys: [KEY] });
}, 300_000);

afterAll(() => sim?.close());

beforeEach(() => sim.clearLog());

describe("the cache directory between runs", () => {
  it("answers a file evaluated again by a new process on the same day without a request", async () => {
    const dir = freshDir("cache");
    const file = formulaFile(BOOK);
    const first = await cli(sim, ["eval", "--format", "json", "--cache-dir", dir, "--file", file]);
    expect(first).toMatchObject({ code: 0, stderr: "" });
    expect(gets(sim).length).toBeGreaterThan(0);

    sim.clearLog();
    const second = await cli(sim, ["eval", "--format", "json", "--cache-dir", dir, "--file", file]);
    expect(second).toMatchObject({ code: 0, stderr: "" });
    expect(gets(sim)).toEqual([]);
    expect(second.stdout).toBe(first.stdout);

    // Everything in the directory, names and contents: the key is nowhere, the service's origin is.
    const everything = allFiles(dir)
      .map((path) => `${path}\n${readFileSync(path, "utf8")}`)
      .join("\n");
    expect(everything).toContain(new URL(sim.url).origin);
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain(KEY.slice(-10));
  });

  it("shows the saved values when the service cannot be reached the same day", async () => {
    const own = await startSimulator({ port: 0, rateLimit: null, apiKeys: [KEY] });
    const dir = freshDir("cache");
    const file = formulaFile(BOOK);
    const first = await cli(own, ["eval", "--format", "json", "--cache-dir", dir, "--file", file]);
    await own.close();
    const offline = await cli(own, [
      "eval",
      "--format",
      "json",
      "--cache-dir",
      dir,
      "--file",
      file,
    ]);
    expect(offline).toMatchObject({ code: 0, stderr: "" });
    expect(offline.stdout).toBe(first.stdout);
  });

  it("drops a corrupted entry with a note, fetches it afresh, and gives the same figures", async () => {
    const dir = freshDir("cache");
    const file = formulaFile(BOOK);
    const first = await cli(sim, ["eval", "--format", "json", "--cache-dir", dir, "--file", file]);
    const entries = readdirSync(join(dir, "entries"));
    // Damage the biggest entry (the statement or the series): cut in half, as a crash could leave it.
    const victim = entries
      .map((name) => join(dir, "entries", name))
      .sort((a, b) => statSync(b).size - statSync(a).size)[0];
    writeFileSync(victim, readFileSync(victim, "utf8").slice(0, 100));

    sim.clearLog();
    const second = await cli(sim, ["eval", "--format", "json", "--cache-dir", dir, "--file", file]);
    expect(second.code).toBe(0);
    expect(second.stderr).toBe(
      "cryptometrics: warn: [saved-cache] Dropped 1 corrupt entry from the saved cache; it is fetched afresh.\n"
    );
    expect(gets(sim)).toHaveLength(1);
    expect(second.stdout).toBe(first.stdout);
    expect(JSON.parse(readFileSync(victim, "utf8"))).toMatchObject({
      format: "cryptometrics-cache",
    });
  });

  it("reads and saves nothing with --no-cache", async () => {
    const dir = freshDir("cache");
    const file = formulaFile(BOOK.slice(0, 2));
    await cli(sim, ["eval", "--no-cache", "--cache-dir", dir, "--file", file]);
    const requests = gets(sim).length;
    sim.clearLog();
    await cli(sim, ["eval", "--no-cache", "--cache-dir", dir, "--file", file]);
    expect(gets(sim)).toHaveLength(requests);
    expect(readdirSync(dir)).not.toContain("entries");
  });

  it("`cache info` says where the cache is and how big; `cache clear` empties it", async () => {
    const dir = freshDir("cache");
    await cli(sim, ["eval", "--cache-dir", dir, "--file", formulaFile(BOOK)]);
    const info = await cli(sim, ["cache", "info", "--cache-dir", dir]);
    expect(info.code).toBe(0);
    expect(info.stdout).toMatch(
      new RegExp(
        `^Cache directory: ${dir.replace(/[/\\]/g, "\\$&")}\nHolds \\d+ saved answers, [\\d.]+ kB of at most 50 MB`
      )
    );
    const json = JSON.parse(
      (await cli(sim, ["cache", "info", "--format", "json", "--cache-dir", dir])).stdout
    ) as { directory: string; entries: number; bytes: number; maxBytes: number };
    expect(json).toMatchObject({ directory: dir, maxBytes: 50_000_000 });
    expect(json.entries).toBeGreaterThan(5);

    const cleared = await cli(sim, ["cache", "clear", "--cache-dir", dir]);
    expect(cleared.stdout).toBe(
      `Cleared ${json.entries} saved answers (${(json.bytes / 1000).toFixed(json.bytes < 10_000 ? 1 : 0)} kB) and the shared record of request starts from ${dir}.\n`
    );
    const after = JSON.parse(
      (await cli(sim, ["cache", "info", "--format", "json", "--cache-dir", dir])).stdout
    );
    expect(after).toMatchObject({ entries: 0, bytes: 0, oldestUse: null });
    // The budget too: nothing of the shared record of request starts is left.
    expect(readdirSync(join(dir, "rate")).filter((f) => f.endsWith(".json"))).toEqual([]);
  });

  it("refuses eval's flags on the cache command", async () => {
    const outcome = await cli(sim, ["cache", "clear", "--no-cache"]);
    expect(outcome).toEqual({
      code: 2,
      stdout: "",
      stderr: "cryptometrics: --no-cache does not apply to 'cache clear'\n",
    });
  });
});

describe("one rate budget per key across CLI processes", () => {
  /**
   * The simulator enforces 60 requests per 2.5 s for the key; the CLI runs its minute 20 times faster (3 s).
   * The half second between them is slack for the time between a start being recorded and the request
   * reaching the simulator on a busy machine (the bench's reasoning, src/tools/bench/environment.ts); two
   * processes that do not share the budget still send twice the limit at once and are refused.
   */
  const SCALE = "20";
  /**
   * The test lists the projects with a key of its own: a request of the test under the CLI's key would count
   * in the service's window but in no CLI's budget (the 60th CLI request was refused now and then).
   */
  const LISTING_KEY = "cm_test_listing_key";

  async function limited(): Promise<RunningSimulator> {
    return startSimulator({
      port: 0,
      apiKeys: [KEY, LISTING_KEY],
      // More projects than the demo's 46: each process asks for details no other process fetches.
      projects: 120,
      rateLimit: { limit: 60, windowMs: 2_500, retryAfter: false },
    });
  }

  /** 45 project details each (one cheap request apiece) and the project list: 92 requests for two. */
  async function detailBooks(target: RunningSimulator): Promise<[string, string]> {
    const response = await fetch(`${target.url}/v2/projects`, {
      headers: { Authorization: `Bearer ${LISTING_KEY}` },
    });
    const ids = ((await response.json()) as { data: { project_id: string }[] }).data.map(
      (p) => p.project_id
    );
    target.clearLog();
    const book = (part: string[]) =>
      formulaFile(part.map((p) => `=CRYPTO.PROJECT("${p}","chains")`));
    return [book(ids.slice(0, 45)), book(ids.slice(45, 90))];
  }

  it("gets no 429 from two processes at once that together need more than the limit", async () => {
    const limitedSim = await limited();
    try {
      const dir = freshDir("shared");
      const [a, b] = await detailBooks(limitedSim);
      const runs = await Promise.all(
        [a, b].map((file) =>
          cli(limitedSim, ["eval", "--format", "json", "--cache-dir", dir, "--file", file], {
            CRYPTOMETRICS_TIME_SCALE: SCALE,
          })
        )
      );
      expect(runs.map((r) => r.code)).toEqual([0, 0]);
      // Nothing on stderr but, from the run that waits for the other, that it waits for the budget.
      for (const r of runs)
        expect(r.stderr).toMatch(
          /^(cryptometrics: warn: \[rate-limiter\] waiting \d+ s for the request budget \([^)]*shared with the other processes using it\)\n)?$/
        );
      const log = gets(limitedSim);
      expect(log.length).toBeGreaterThan(90);
      expect(log.filter((r) => r.status === 429)).toEqual([]);
    } finally {
      await limitedSim.close();
    }
  });

  it("(control) two processes that do not share it are refused", async () => {
    const limitedSim = await limited();
    try {
      const [a, b] = await detailBooks(limitedSim);
      await Promise.all(
        [a, b].map((file) =>
          cli(limitedSim, ["eval", "--cache-dir", freshDir("apart"), "--file", file], {
            CRYPTOMETRICS_TIME_SCALE: SCALE,
          })
        )
      );
      expect(gets(limitedSim).filter((r) => r.status === 429).length).toBeGreaterThan(0);
    } finally {
      await limitedSim.close();
    }
  });
});
