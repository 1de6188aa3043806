/**
 * Prints how long the simulator takes for a 5-year daily series of 10 metrics (first call, which generates
 * the series, then a memoised call). Times are printed, not asserted: machines differ.
 */
import type { RunningSimulator } from "../../src/simulator";
import { getList, start } from "./helpers";

let sim: RunningSimulator;
beforeAll(async () => {
  // Sums over raw rows need every row once; repeated rows have their own tests (repeats.test.ts).
  sim = await start({ duplicateRows: 0 });
});
afterAll(() => sim.close());

const METRICS =
  "fees,revenue,earnings,expenses,token_incentives,tvl,price,market_cap_fully_diluted,user_dau,transaction_count";

it("answers a 5-year daily series of 10 metrics in milliseconds", async () => {
  const path = `/v2/projects/uniswap/metrics?metric_ids=${METRICS}&start=2020-06-16&end=2025-06-15`;
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    rows = (await getList(sim, path)).data.length;
    times.push(performance.now() - started);
  }
  expect(rows).toBe(1826);
  process.stdout.write(
    `simulator speed: 5 years x 10 metrics (${rows} rows): first ${times[0].toFixed(1)} ms, then ${times
      .slice(1)
      .map((t) => t.toFixed(1))
      .join(" ms, ")} ms\n`
  );
});
