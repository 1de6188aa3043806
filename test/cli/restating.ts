/**
 * The built CLI in processes of its own against a simulator that restates aave's fees of 2024-02-15 after
 * first serving them (its `served` mode), the runs sharing one cache directory: what the restatement and
 * lineage acceptance tests run. A run "the next day" has its clock a day ahead (a preload); the
 * simulator's is not.
 */
import { execFile } from "child_process";
import { DEMO_API_KEY, startSimulator, type RunningSimulator } from "../../src/simulator";
import { PRELOADS } from "../harness/hostile/cli-command";
import { builtCli } from "../support/node-build";

export const DAY = "2024-02-15";
export const FACTOR = 1.25;
export const VALUE = `VALUE("aave","fees","${DAY}")`;

export interface Restating {
  sim: RunningSimulator;
  /** `eval --cache-dir dir --format json …args`, today or the next day. */
  cli: (
    dir: string,
    nextDay: boolean,
    args: string[]
  ) => Promise<{ code: number; stdout: string; stderr: string }>;
}

export async function startRestating(): Promise<Restating> {
  const cliPath = await builtCli();
  const sim = await startSimulator({
    port: 0,
    rateLimit: null,
    restatements: {
      mode: "served",
      days: [{ projectId: "aave", metricId: "fees", day: DAY, factor: FACTOR }],
    },
  });
  const cli: Restating["cli"] = (dir, nextDay, args) =>
    new Promise((done) =>
      execFile(
        process.execPath,
        [cliPath, "eval", "--cache-dir", dir, "--format", "json", ...args],
        {
          timeout: 120_000,
          env: {
            PATH: process.env.PATH ?? "",
            CRYPTOMETRICS_BASE_URL: sim.url,
            CRYPTOMETRICS_API_KEY: DEMO_API_KEY,
            ...(nextDay
              ? { NODE_OPTIONS: `--require ${PRELOADS.clockAhead}`, CLOCK_OFFSET_MS: "86400000" }
              : {}),
          },
        },
        (error, stdout, stderr) =>
          done({ code: error ? ((error as { code?: number }).code ?? -1) : 0, stdout, stderr })
      )
    );
  return { sim, cli };
}
