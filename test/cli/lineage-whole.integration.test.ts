/**
 * STATEMENT and AGGREGATION re-derived from their lineage rows with vintage=, through the built CLI in its own
 * processes sharing one cache directory: a first run prints aave's 2024 statement (which holds the restated
 * day) and an aggregate with --lineage; a run the next day with --refresh sees the day restated, the service's
 * statement (not restated) no longer footing with it; each first row's formula with `vintage=<its vintage>`
 * added gives the first figures again.
 */
import { mkdtempSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import type { Lineage } from "../../src/functions/lineage";
import { startRestating, type Restating } from "./restating";
import type { RunningSimulator } from "../../src/simulator";

let sim: RunningSimulator;
let cli: Restating["cli"];
beforeAll(async () => {
  ({ sim, cli } = await startRestating());
});
afterAll(() => sim?.close());

type Traced = { results: unknown[][][]; lineage: Lineage[] };

const STATEMENT = `STATEMENT("aave","year","max","headers=1")`;
const AGGREGATION = `AGGREGATION("aave","fees","sum_30d")`;

/** A row's formula with vintage= of its vintage as the options: added to them, or as the last argument. */
function asKnownThen(row: Lineage): string {
  return row.formula.startsWith("=CRYPTO.STATEMENT")
    ? row.formula.replace(/"\)$/, `; vintage=${row.vintage}")`)
    : row.formula.replace(/\)$/, `,"vintage=${row.vintage}")`);
}

/** The Fees line's figure for 2024 in a statement table. */
function fees2024(table: unknown[][]): unknown {
  const column = table[0].findIndex((h) => typeof h === "string" && h.includes("2024"));
  return table.find((r) => r[1] === "Fees")![column];
}

it("re-derives a statement and an aggregate from their lineage rows with vintage=", async () => {
  const dir = join(mkdtempSync(join(tmpdir(), "cm-lineage-whole-")), "cache");

  const first = await cli(dir, false, ["--lineage", STATEMENT, AGGREGATION]);
  expect(first).toMatchObject({ code: 0, stderr: "" });
  const { results, lineage } = JSON.parse(first.stdout) as Traced;
  const figure = fees2024(results[0]);
  expect(typeof figure).toBe("number");
  expect(lineage.map((r) => r.formula)).toEqual([`=CRYPTO.${STATEMENT}`, `=CRYPTO.${AGGREGATION}`]);

  // The next day: the refresh records the restated day; the service's statement no longer foots with it.
  const refreshed = await cli(dir, true, ["--refresh", STATEMENT, AGGREGATION]);
  expect(refreshed.code).toBe(0);
  expect(refreshed.stderr).toMatch(/^cryptometrics: refresh: 1 figure changed/);
  const now = JSON.parse(refreshed.stdout) as unknown[][][];
  expect(JSON.stringify(fees2024(now[0]))).toMatch(/but its daily series give/);

  const rederived = await cli(dir, true, lineage.map(asKnownThen));
  expect(rederived).toMatchObject({ code: 0, stderr: "" });
  const [statement, aggregate] = JSON.parse(rederived.stdout) as unknown[][][];
  expect(fees2024(statement)).toBe(figure);
  expect(statement).toEqual(results[0]);
  expect(aggregate[0][0]).toBeCloseTo(results[1][0][0] as number, 6);
}, 240_000);
