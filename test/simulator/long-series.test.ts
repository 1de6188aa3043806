/**
 * A 5-year daily series of 10 metrics: one row per day, and the memoised second answer is the generated
 * first one. How long each takes is a figure of `npm run bench`, not a test.
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

it("serves five years of ten daily metrics as one row per day, the same when served again from memory", async () => {
  const path = `/v2/projects/uniswap/metrics?metric_ids=${METRICS}&start=2020-06-16&end=2025-06-15`;
  const generated = await getList(sim, path);
  const memoised = await getList(sim, path);
  // 2020-06-16 to 2025-06-15 inclusive: 5 × 365 days plus 2024-02-29.
  expect(generated.data).toHaveLength(1826);
  expect(new Set(generated.data.map((row) => row.timestamp)).size).toBe(1826);
  expect(memoised).toEqual(generated);
});
