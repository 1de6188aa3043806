/**
 * The service's day is the UTC day: what a formula shows depends on the machine's time zone only through the
 * date TODAY() returns (the local date, as in Excel). The built command-line evaluator runs the same formulas
 * in four time zones against one simulator, with dates written out, and the day after the service's latest
 * says so in those words.
 */
import { execFile } from "child_process";
import { promisify } from "util";
import { DEMO_API_KEY, startSimulator, type RunningSimulator } from "../../src/simulator";
import { builtCli } from "../support/node-build";

/** The built CLI (test/support/node-build.ts): dist/node/cli/main.js after npm test's build. */
let CLI: string;
const run = promisify(execFile);
const ZONES = ["UTC", "Australia/Sydney", "America/Los_Angeles", "Pacific/Kiritimati"];

let sim: RunningSimulator;
beforeAll(async () => {
  CLI = await builtCli();
  sim = await startSimulator({ port: 0, rateLimit: null });
}, 300_000);
afterAll(() => sim.close());

async function evaluate(zone: string, formulas: readonly string[]): Promise<unknown[]> {
  const args = [
    CLI,
    "eval",
    "--format",
    "json",
    "--no-cache",
    "--base-url",
    sim.url,
    "--api-key",
    DEMO_API_KEY,
    ...formulas,
  ];
  const env = { ...process.env, TZ: zone };
  const { stdout } = await run(process.execPath, args, { env, timeout: 120_000 }).catch(
    (error: { stdout?: string; code?: number }) => {
      // 1: a formula's whole result is an error (printed all the same).
      if (error.code === 1 && error.stdout) return { stdout: error.stdout };
      throw error;
    }
  );
  return JSON.parse(stdout) as unknown[];
}

function utcDay(offsetDays = 0): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

/** Runs `check` again when the UTC day turned while it ran (the service's day moved under it). */
async function withinOneDay(check: () => Promise<void>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const day = utcDay();
    try {
      await check();
      return;
    } catch (error) {
      if (utcDay() === day || attempt > 0) throw error;
    }
  }
}

describe("the time zone of the machine", () => {
  it("changes nothing for dates written out: values, periods, windows, tables, statements", async () => {
    const formulas = [
      'CRYPTO.VALUE("aave","revenue","2024-03-31")',
      'CRYPTO.VALUE("aave","revenue","2024-03-31","period=quarter")',
      'CRYPTO.VALUE("aave","revenue","2024-03-31","window=ttm")',
      'CRYPTO.ASOF("aave","tvl","2024-03-31","period=month")',
      'CRYPTO.METRIC("aave","fees","2024-01-01","2024-12-31","period=month")',
      'CRYPTO.METRIC("aave","fees",DATE(2024,2,27),DATE(2024,3,2))',
      'CRYPTO.STATEMENT("aave","quarter","2y")',
      'CRYPTO.COMPS("aave,uniswap","revenue:ttm, tvl","2025-06-30")',
    ];
    const results = await Promise.all(ZONES.map((zone) => evaluate(zone, formulas)));
    for (const result of results.slice(1)) expect(result).toEqual(results[0]);
  });

  it("names the day after the service's latest as such, in every zone", async () => {
    await withinOneDay(async () => {
      const tomorrow = utcDay(1);
      for (const zone of ZONES) {
        const [result] = await evaluate(zone, [`CRYPTO.VALUE("aave","revenue","${tomorrow}")`]);
        expect(JSON.stringify(result)).toContain(
          `${tomorrow} is after the service's latest day, today ${utcDay()} (UTC)`
        );
      }
    });
  });

  it("differs only through TODAY(): a local date ahead of UTC is a day after the service's latest", async () => {
    await withinOneDay(async () => {
      for (const zone of ZONES) {
        const local = new Intl.DateTimeFormat("en-CA", { timeZone: zone }).format(new Date());
        const [result] = await evaluate(zone, ['CRYPTO.VALUE("aave","revenue",TODAY())']);
        const text = JSON.stringify(result);
        if (local > utcDay()) expect(text).toContain("is after the service's latest day");
        else expect(text).not.toContain("error");
      }
    });
  });
});
