/**
 * The hostile lab's rows for what the CLI keeps and shows outside its results (the key, the cache
 * directory, stale figures) and its shared request budget: each attack of key-and-cache-attacks.ts and the
 * budget's of budget-and-limits-attacks.ts, run as `npm run faults` runs it, must keep its bound. Its bounds
 * and the pages are security-limits.integration.test.ts (the same table, split so both workers share it).
 */
import { BUDGET_ATTACKS } from "../harness/hostile/budget-and-limits-attacks";
import { KEY_AND_CACHE_ATTACKS } from "../harness/hostile/key-and-cache-attacks";
import { describeAttacks } from "./security-table";

describeAttacks([
  ["the key and the cache directory", KEY_AND_CACHE_ATTACKS],
  ["the shared budget", BUDGET_ATTACKS],
]);
