/**
 * `npm run test:fast`: the loop while writing code. The unit tests, transpiled without type checking (as in
 * `npm test`; `npm run typecheck` checks the types), on 2 workers, the planner's property tests at a tenth of
 * their runs. Left out, for `npm test`: the browser tests, tests that spawn processes or servers over the built
 * code or wait on real time (`*.integration.test.ts`), the conformance matrix, the oracle and invariance
 * properties over whole workbooks (test/property: 40 s of the loop's 2 minutes of CPU), the benchmarks' and
 * the tools' tests, and the long reliability runs (faults, soak).
 */
const base = require("../jest.config.js");

process.env.PROPERTY_RUNS_SCALE ??= "0.1";

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  rootDir: "..",
  maxWorkers: 2,
  testPathIgnorePatterns: [
    "/node_modules/",
    "\\.e2e\\.test\\.ts$",
    "\\.integration\\.test\\.ts$",
    "<rootDir>/test/(conformance|bench|tools|reliability|property)/",
  ],
};
