/**
 * The key as a user running the CLI exposes it, measured where others would find it: the process list
 * while the run goes on (`ps -eo args`, what every local user sees) and npm's debug log (written under
 * ~/.npm/_logs on every `npm run`, success included, readable by others). With --api-key-file, an
 * environment variable or standard input the key is in neither; with --api-key it is in both, and the CLI
 * says so.
 *
 * Real time, on purpose: the process list is read from the running system while the CLI runs, so its answers
 * are slowed (1.5 s) for the run to be still there when the list is read.
 */
import { spawn } from "child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync, existsSync } from "fs";
import { tmpdir } from "os";
import { join, resolve } from "path";
import { DEMO_API_KEY, startSimulator, type RunningSimulator } from "../../src/simulator";
import { thisRunsProcesses } from "../support/process-list";

const ROOT = resolve(__dirname, "../..");
const CLI = join(ROOT, "dist/node/cli/main.js");

let sim: RunningSimulator;
beforeAll(async () => {
  if (!existsSync(CLI))
    throw new Error("dist/node/cli/main.js is missing: run npm run build:node (npm test does)");
  // Slow enough answers that the run is still there when the process list is read.
  sim = await startSimulator({ port: 0, rateLimit: null, latencyMs: 1_500 });
});
afterAll(() => sim?.close());

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The command lines of this run's processes in the process list, sampled while the run went on. */
  processList: string;
  /** npm's debug logs written by the run. */
  npmLogs: string;
}

/** `npm run --silent cli -- eval …` as the README shows it, in a home of its own. */
function npmRun(
  args: string[],
  options: { env?: Record<string, string>; stdin?: string } = {}
): Promise<Run> {
  const home = mkdtempSync(join(tmpdir(), "cm-key-home-"));
  const child = spawn(
    "npm",
    ["run", "--silent", "cli", "--", "eval", "--base-url", sim.url, ...args],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: home,
        npm_config_cache: join(home, ".npm"),
        CRYPTOMETRICS_CACHE_DIR: join(home, "cache"),
        ...options.env,
      },
      stdio: ["pipe", "pipe", "pipe"],
    }
  );
  child.stdin.end(options.stdin ?? "");
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  let processList = "";
  const sampler = setInterval(() => {
    processList += thisRunsProcesses(child.pid, sim.url);
  }, 200);
  return new Promise((done) =>
    child.on("close", (code) => {
      clearInterval(sampler);
      const logs = join(home, ".npm", "_logs");
      const npmLogs = existsSync(logs)
        ? readdirSync(logs)
            .map((f) => readFileSync(join(logs, f), "utf8"))
            .join("\n")
        : "";
      done({ code, stdout, stderr, processList, npmLogs });
    })
  );
}

function keyFile(): string {
  const path = join(mkdtempSync(join(tmpdir(), "cm-key-")), "key");
  writeFileSync(path, `${DEMO_API_KEY}\n`, { mode: 0o600 });
  return path;
}

const FORMULA = 'VALUE("aave","fees","2024-01-15")';

it.each([
  ["--api-key-file FILE", () => ({ args: ["--api-key-file", keyFile(), FORMULA] })],
  [
    "--api-key-file - (standard input)",
    () => ({ args: ["--api-key-file", "-", FORMULA], stdin: `${DEMO_API_KEY}\n` }),
  ],
  [
    "CRYPTOMETRICS_API_KEY",
    () => ({ args: [FORMULA], env: { CRYPTOMETRICS_API_KEY: DEMO_API_KEY } }),
  ],
  [
    "CRYPTOMETRICS_API_KEY_FILE",
    () => ({ args: [FORMULA], env: { CRYPTOMETRICS_API_KEY_FILE: keyFile() } }),
  ],
])(
  "with %s the key is in neither the process list nor npm's log",
  async (_, make) => {
    const { args, env, stdin } = make() as {
      args: string[];
      env?: Record<string, string>;
      stdin?: string;
    };
    const run = await npmRun(args, { env, stdin });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^=CRYPTO\.VALUE\("aave","fees","2024-01-15"\)\n[\d.]+\n$/);
    // The run was seen running, and the key never with it.
    expect(run.processList).toContain("cli/main.js eval");
    expect(run.processList).not.toContain(DEMO_API_KEY);
    expect(run.npmLogs).not.toContain(DEMO_API_KEY);
  },
  60_000
);

it("with --api-key the key is in both, and the CLI warns about exactly that", async () => {
  const run = await npmRun(["--api-key", DEMO_API_KEY, FORMULA]);
  expect(run.code).toBe(0);
  expect(run.stderr).toMatch(
    /^cryptometrics: warning: --api-key puts the key on the command line, where other users of this computer \(ps\) and npm's debug logs can see it/
  );
  expect(run.processList).toContain(DEMO_API_KEY);
  expect(run.npmLogs).toContain(DEMO_API_KEY);
}, 60_000);
