/**
 * A figure re-derived from its lineage row, through the built CLI in its own processes sharing one cache
 * directory: a first run prints aave's fees of 2024-02-15 with --lineage; the service then restates the day
 * (the simulator's `served` mode) and a run the next day with --refresh gets the new figure; the first row's
 * formula with `vintage=<its vintage>` added still gives the first figure, and its metrics carry the
 * service's definition and source. The later runs' clock is a day ahead (a preload), the simulator's is not.
 */
import { mkdtempSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import type { Lineage } from "../../src/functions/lineage";
import { findMetric, metricSource } from "../../src/simulator/data/metrics-catalog";
import { FACTOR, startRestating, VALUE, type Restating } from "./restating";
import type { RunningSimulator } from "../../src/simulator";

let sim: RunningSimulator;
let cli: Restating["cli"];
beforeAll(async () => {
  ({ sim, cli } = await startRestating());
});
afterAll(() => sim?.close());

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
