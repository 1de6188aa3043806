/**
 * "10 CLI runs": an analyst's script runs the command line ten times in a row on a 200-formula file, each run
 * for another day and statement view (new data every time), against a service that enforces 60 requests per
 * window for the key. Ours: the CLI as built, every run sharing the cache directory (saved answers and the
 * rate budget). The naive loop: the same runs as separate processes that know nothing of each other (what the
 * CLI did before it had a cache directory: --no-cache and a directory of their own each). Both run the built
 * entry point (node dist/node/cli/main.js) with CRYPTOMETRICS_TIME_SCALE, so that the service's minute runs
 * `scale` times faster in the client and in the simulator alike.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { addDays } from "../../client";
import { createDataset, DEMO_API_KEY, startSimulator } from "../../simulator";
import { BENCH_TODAY, liveProjects, MODEL_DATE } from "./workloads";

export interface CliSide {
  /** GET requests the simulator received, retries included. */
  requests: number;
  /** Of which answered 429. */
  rateLimited: number;
  /** From the first run's start to the last run's end. */
  wallMs: number;
  runsMs: number[];
  /** Runs that exited with a status other than 0 (a formula's whole result an error, or worse). */
  failedRuns: number;
  /** Error cells in the runs' output (#N/A after retries ran out, for one). */
  errorCells: number;
}

export interface CliRunsResult {
  runs: number;
  formulasPerRun: number;
  /** The service's minute runs this many times faster (client and simulator). */
  scale: number;
  /** The scaled window, in the client and in the simulator. */
  windowMs: number;
  latencyMs: [number, number];
  ours: CliSide;
  naive: CliSide;
  /** Runs whose output is the same on both sides. */
  sameOutput: number;
}

const RUNS = 10;
const STATEMENT_PROJECTS = 10;
const VALUE_PROJECTS = 38;
/** Metrics that 38 of the demo's live projects have on every day the runs ask for. */
const VALUE_METRICS = ["fees", "earnings", "transaction_count", "user_dau", "user_mau"];

/**
 * The projects with a value for every metric on every day asked: a cell in error would make its run exit 1,
 * and the comparison is of runs that should all succeed.
 */
function valueProjects(): string[] {
  const dataset = createDataset(BENCH_TODAY);
  const first = addDays(MODEL_DATE, -(RUNS - 1));
  const complete = liveProjects(dataset.projects.filter((p) => !p.isArchived).length).filter((p) =>
    VALUE_METRICS.every((m) => {
      const points = dataset.daily(p, m, { start: first, end: MODEL_DATE });
      return points.length === RUNS && points.every((x) => x.value !== null);
    })
  );
  if (complete.length < VALUE_PROJECTS)
    throw new Error(`only ${complete.length} projects have every value the CLI runs ask for`);
  return complete.slice(0, VALUE_PROJECTS);
}
/** A different statement view per run: granularity × interval (new data, as a new day's values are). */
const VIEWS: ReadonlyArray<[string, string]> = ["quarter", "month", "year", "week"].flatMap((g) =>
  ["1y", "2y", "3y"].map((i): [string, string] => [g, i])
);

/**
 * Run `i`'s file: 190 values (38 projects × 5 metrics on day MODEL_DATE − i) and 10 statements (view i):
 * about 15 requests once batched, every one new.
 */
function cliRunFormulas(i: number, projects: readonly string[] = valueProjects()): string[] {
  const day = addDays(MODEL_DATE, -i);
  const [granularity, interval] = VIEWS[i % VIEWS.length];
  return [
    ...projects.flatMap((p) => VALUE_METRICS.map((m) => `=CRYPTO.VALUE("${p}","${m}","${day}")`)),
    ...liveProjects(STATEMENT_PROJECTS).map(
      (p) => `=CRYPTO.STATEMENT("${p}","${granularity}","${interval}")`
    ),
  ];
}

interface RunOutcome {
  code: number;
  stdout: string;
  ms: number;
}

function runCli(args: readonly string[], env: NodeJS.ProcessEnv, cwd: string): Promise<RunOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["dist/node/cli/main.js", ...args],
      // Far beyond any run: a naive run held up by 429 backoffs must finish, not be cut and left out.
      { cwd, env, timeout: 15 * 60_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({ code, stdout, ms: performance.now() - started });
      }
    );
  });
}

function errorCells(stdout: string): number {
  try {
    const grids = JSON.parse(stdout) as unknown[][][];
    return grids
      .flat(2)
      .filter((cell) => typeof cell === "object" && cell !== null && "error" in cell).length;
  } catch {
    return 0;
  }
}

interface CliRunsOptions {
  root: string;
  scale: number;
  latencyMs: [number, number];
  progress: (line: string) => void;
}

export async function tenCliRuns(options: CliRunsOptions): Promise<CliRunsResult> {
  const windowMs = 60_000 / options.scale;
  // The service's rule, scaled: 60 starts per window for the key, checked exactly (no slack for latency).
  const sim = await startSimulator({
    port: 0,
    today: BENCH_TODAY,
    latencyMs: options.latencyMs,
    rateLimit: { limit: 60, windowMs, retryAfter: false },
  });
  const work = mkdtempSync(join(tmpdir(), "cryptometrics-bench-cli-"));
  try {
    const projects = valueProjects();
    const files = Array.from({ length: RUNS }, (_, i) => {
      const file = join(work, `run-${i + 1}.txt`);
      writeFileSync(file, `${cliRunFormulas(i, projects).join("\n")}\n`);
      return file;
    });
    const env = {
      ...process.env,
      CRYPTOMETRICS_BASE_URL: sim.url,
      CRYPTOMETRICS_API_KEY: DEMO_API_KEY,
      CRYPTOMETRICS_TIME_SCALE: String(options.scale),
    };
    const side = async (
      name: string,
      argsFor: (i: number) => string[]
    ): Promise<{ side: CliSide; outputs: string[] }> => {
      // Nothing from before counts against this side's first window.
      await new Promise((resolve) => setTimeout(resolve, windowMs + options.latencyMs[1] + 50));
      sim.clearLog();
      const started = performance.now();
      const outcomes: RunOutcome[] = [];
      for (let i = 0; i < RUNS; i++) {
        const outcome = await runCli(
          ["eval", "--format", "json", "--file", files[i], ...argsFor(i)],
          env,
          options.root
        );
        outcomes.push(outcome);
        options.progress(`10 CLI runs, ${name}: run ${i + 1} in ${Math.round(outcome.ms)} ms`);
      }
      const wallMs = performance.now() - started;
      const gets = sim.requestLog.filter((r) => r.method === "GET");
      return {
        side: {
          requests: gets.length,
          rateLimited: gets.filter((r) => r.status === 429).length,
          wallMs,
          runsMs: outcomes.map((o) => o.ms),
          failedRuns: outcomes.filter((o) => o.code !== 0).length,
          errorCells: outcomes.reduce((n, o) => n + errorCells(o.stdout), 0),
        },
        outputs: outcomes.map((o) => o.stdout),
      };
    };
    const shared = join(work, "cache");
    const ours = await side("add-in", () => ["--cache-dir", shared]);
    const naive = await side("naive", (i) => [
      "--no-cache",
      "--cache-dir",
      join(work, `apart-${i}`),
    ]);
    return {
      runs: RUNS,
      formulasPerRun: cliRunFormulas(0, projects).length,
      scale: options.scale,
      windowMs,
      latencyMs: options.latencyMs,
      ours: ours.side,
      naive: naive.side,
      sameOutput: ours.outputs.filter((o, i) => o === naive.outputs[i]).length,
    };
  } finally {
    await sim.close();
    rmSync(work, { recursive: true, force: true });
  }
}
