/**
 * A service that restates a day after it first served it, through the built CLI in its own processes sharing
 * one cache directory: the first run's figure, a run with --refresh the next day that gets the restated one
 * and says on stderr that one figure changed, vintage= of the first day giving the old figure, and CHANGES
 * listing the day with before and after. The simulator restates (its `served` mode) for aave's fees of
 * 2024-02-15; the later runs' clock is a day ahead (a preload), the simulator's is not.
 */
import { mkdtempSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { createDataset, type RunningSimulator } from "../../src/simulator";
import { DAY, FACTOR, startRestating, VALUE, type Restating } from "./restating";

let sim: RunningSimulator;
let cli: Restating["cli"];
beforeAll(async () => {
  ({ sim, cli } = await startRestating());
});
afterAll(() => sim?.close());

const cells = (stdout: string) => JSON.parse(stdout) as unknown[][][];

it("finds the restatement on --refresh, keeps the old figure for vintage=, and lists it in CHANGES", async () => {
  const dir = join(mkdtempSync(join(tmpdir(), "cm-restated-")), "cache");
  const generated = createDataset(new Date().toISOString().slice(0, 10)).daily("aave", "fees", {
    start: DAY,
    end: DAY,
  })[0].value!;
  const today = new Date().toISOString().slice(0, 10);

  const first = await cli(dir, false, [VALUE]);
  expect(first).toMatchObject({ code: 0, stderr: "" });
  expect(cells(first.stdout)[0][0][0]).toBeCloseTo(generated, 6);

  // The next day with --refresh: every figure asked again, the restated one recorded and said on stderr.
  const refreshed = await cli(dir, true, ["--refresh", VALUE]);
  expect(refreshed.code).toBe(0);
  expect(cells(refreshed.stdout)[0][0][0]).toBeCloseTo(generated * FACTOR, 6);
  expect(refreshed.stderr.split("\n").slice(0, 2)).toEqual([
    "cryptometrics: refresh: 1 figure changed since it was last fetched",
    expect.stringMatching(
      new RegExp(`^cryptometrics: changed: aave fees ${DAY}: [\\d,.]+ → [\\d,.]+$`)
    ) as unknown,
  ]);

  // A later run reads the record the refresh wrote: the figure as known at the end of the first day.
  const later = await cli(dir, true, [
    `VALUE("aave","fees","${DAY}","vintage=${today}")`,
    `VALUE("aave","fees","${DAY}")`,
    `CHANGES("aave","fees")`,
  ]);
  expect(later.stderr).toBe("");
  const [asKnown, now, changes] = cells(later.stdout);
  expect(asKnown[0][0]).toBeCloseTo(generated, 6);
  expect(now[0][0]).toBeCloseTo(generated * FACTOR, 6);
  expect(changes[0]).toEqual(["Project", "Metric", "Day", "Before", "After", "Seen"]);
  expect(changes).toHaveLength(2);
  expect(changes[1].slice(0, 3)).toEqual(["aave", "fees", DAY]);
  expect(changes[1][3]).toBeCloseTo(generated, 6);
  expect(changes[1][4]).toBeCloseTo(generated * FACTOR, 6);

  // A refresh that finds nothing new says so.
  const again = await cli(dir, true, ["--refresh", VALUE]);
  expect(again.stderr).toBe(
    "cryptometrics: refresh: no figure changed since they were last fetched\n"
  );
}, 240_000);
