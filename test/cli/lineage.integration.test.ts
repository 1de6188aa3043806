/**
 * A figure re-derived from its lineage row, through the built CLI in its own processes sharing one cache
 * directory: a first run prints aave's fees of 2024-02-15 with --lineage; the service then restates the day
 * (the simulator's `served` mode) and a run the next day with --refresh gets the new figure; the first row's
 * formula with `vintage=<its vintage>` added still gives the first figure, and its metrics carry the
 * service's definition and source. The later runs' clock is a day ahead (a preload), the simulator's is not.
 */
import { execFile } from "child_process";
import { mkdtempSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import type { Lineage } from "../../src/functions/lineage";
import { DEMO_API_KEY, startSimulator, type RunningSimulator } from "../../src/simulator";
import { findMetric, metricSource } from "../../src/simulator/data/metrics-catalog";
import { PRELOADS } from "../harness/hostile/cli-command";
import { builtCli } from "../support/node-build";

let CLI: string;
const DAY = "2024-02-15";
const FACTOR = 1.25;
const VALUE = `VALUE("aave","fees","${DAY}")`;

let sim: RunningSimulator;
beforeAll(async () => {
  CLI = await builtCli();
  sim = await startSimulator({
    port: 0,
    rateLimit: null,
    restatements: {
      mode: "served",
      days: [{ projectId: "aave", metricId: "fees", day: DAY, factor: FACTOR }],
    },
  });
});
afterAll(() => sim?.close());

function cli(
  dir: string,
  nextDay: boolean,
  args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) =>
    execFile(
      process.execPath,
      [CLI, "eval", "--cache-dir", dir, "--format", "json", ...args],
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
}

type Traced = { results: unknown[][][]; lineage: Lineage[] };

/** The lineage row's formula with vintage= of its vintage as the options (VALUE's fourth argument). */
function asKnownThen(row: Lineage): string {
  expect(row.formula).toBe(`=CRYPTO.${VALUE}`);
  return row.formula.replace(/\)$/, `,"vintage=${row.vintage}")`);
}

it("re-derives a restated figure from its lineage row with vintage=", async () => {
  const dir = join(mkdtempSync(join(tmpdir(), "cm-lineage-")), "cache");

  const first = await cli(dir, false, ["--lineage", VALUE]);
  expect(first).toMatchObject({ code: 0, stderr: "" });
  const { results, lineage } = JSON.parse(first.stdout) as Traced;
  const figure = results[0][0][0] as number;
  const [row] = lineage;
  expect(row).toEqual({
    range: "formula 1",
    formula: `=CRYPTO.${VALUE}`,
    vintage: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) as unknown,
    service: sim.url,
    via: "service",
    metrics: [
      {
        projectId: "aave",
        metricId: "fees",
        definition: findMetric("fees")!.description,
        source: metricSource(findMetric("fees")!),
      },
    ],
  });

  // The service restates the day; a refresh the next day records it and shows the new figure.
  const refreshed = await cli(dir, true, ["--refresh", "--lineage", VALUE]);
  expect(refreshed.code).toBe(0);
  expect(refreshed.stderr).toMatch(/^cryptometrics: refresh: 1 figure changed/);
  const now = JSON.parse(refreshed.stdout) as Traced;
  expect(now.results[0][0][0]).toBeCloseTo(figure * FACTOR, 6);
  expect(Date.parse(now.lineage[0].vintage)).toBeGreaterThan(Date.parse(row.vintage));

  // The first row re-derived: its formula as known at its vintage gives the first figure; the refreshed
  // row's vintage gives the restated one.
  const rederived = await cli(dir, true, [asKnownThen(row), asKnownThen(now.lineage[0])]);
  expect(rederived).toMatchObject({ code: 0, stderr: "" });
  const [then, later] = JSON.parse(rederived.stdout) as unknown[][][];
  expect(then[0][0]).toBe(figure);
  expect(later[0][0]).toBe(now.results[0][0][0]);
}, 240_000);
