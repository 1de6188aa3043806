// Mutation testing (StrykerJS with the jest runner): `npm run mutation` runs every target below, one file at a
// time with its own tests; `npm run mutation -- src/engine/planner.ts` runs one (test/harness/mutation.mjs).
// Sized for a shared 2-core machine: one test process, incremental (only mutants whose code or tests changed
// since the last run are tested again), no type checker (tsc per mutant costs more than the whole run), and
// ts-jest without type checking (tsconfig.test.json: the compile check is `npm run typecheck`'s job).
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const jestShared = require("./test/jest.shared.cjs");

/** Below this score (killed or timed out / all valid mutants, in %) a file fails the run. */
export const THRESHOLD = 90;

/**
 * The core files measured, each with the suites that test it. Related tests only, and fast ones: no browser
 * (test/e2e) and no suite that spawns processes; the whole suite runs in `npm test`, not per mutant.
 * A target may also carry Stryker options of its own (`options`) and environment variables for its test
 * processes (`env`): see the notes beside each.
 */
export const TARGETS = {
  "src/client/http/backoff.ts": {
    tests: ["test/client/http/backoff.test.ts", "test/client/client-resilience.test.ts"],
  },
  "src/client/http/rate-limiter.ts": {
    // Its own suites only: client-resilience runs the limiter through the whole client (seconds per mutant)
    // and pins nothing about it that these do not. The healing suite tests the shared ledger's decisions
    // (claimSlots, settleSlots: a gone process's starts, a clock ahead), on virtual clocks too.
    tests: [
      "test/client/http/rate-limiter.test.ts",
      "test/client/http/rate-limiter-healing.test.ts",
    ],
    // Every test here runs on virtual clocks, the whole file in about a second. A mutant that breaks the pump
    // leaves a promise pending (or sleeps on virtual time for ever): Stryker would wait out its time-out (10 s
    // plus the first run's start-up, 10 s more) and then restart the runner, half a minute each. Jest's own
    // time-out fails such a test in 3 s and the runner stays; Stryker's shorter time-out is for the rest.
    jest: { testTimeout: 3_000 },
    options: { timeoutMS: 2_000, timeoutFactor: 1.25 },
  },
  "src/engine/planner.ts": {
    tests: ["test/engine/planner.test.ts"],
    // Fewer property runs per mutant (the test reads it; `npm test` keeps its full counts): the examples and
    // the brute-force property at a tenth of its runs kill what the full counts kill, in seconds, not a minute.
    env: { PROPERTY_RUNS_SCALE: "0.1" },
    // A mutant that breaks the flow search or the improvement loop spins for ever: cut it short.
    options: { timeoutMS: 3_000, timeoutFactor: 1.25 },
  },
  "src/engine/figures/series-ops.ts": { tests: ["test/engine/figures/series-ops.test.ts"] },
  // The spreadsheet model: Excel's date serials, and the formula tokenizer (through the parser, its one caller).
  "src/sheet/excel-dates.ts": { tests: ["test/sheet/excel-dates.test.ts"] },
  "src/sheet/tokens.ts": {
    tests: [
      "test/sheet/tokens.test.ts",
      "test/sheet/formula.test.ts",
      "test/sheet/formula.property.test.ts",
    ],
  },
  // The figure rules: which days a figure covers and when it is whole, growth and NM, trailing windows, kinds,
  // a day's parts, "latest" and its date, and the COMPS, BREAKDOWN and STATEMENT figure code. The functions'
  // suites run the real functions, engine and client against the simulator (in-process or on loopback).
  "src/engine/figures/rule.ts": {
    tests: ["test/engine/figures/rule.test.ts", "test/engine/figures/completeness.test.ts"],
  },
  "src/engine/figures/completeness.ts": {
    tests: ["test/engine/figures/completeness.test.ts", "test/engine/figures/rule.test.ts"],
  },
  "src/engine/figures/growth.ts": { tests: ["test/engine/figures/growth.test.ts"] },
  "src/engine/figures/trailing-window.ts": {
    tests: ["test/engine/figures/trailing-window.test.ts"],
  },
  "src/engine/figures/metric-kinds.ts": {
    tests: ["test/engine/figures/metric-kinds.test.ts", "test/engine/figures/series-ops.test.ts"],
  },
  "src/engine/figures/partition.ts": { tests: ["test/engine/figures/partition.test.ts"] },
  "src/engine/figures/as-of.ts": { tests: ["test/engine/figures/as-of.test.ts"] },
  "src/functions/impl/comps.ts": {
    tests: [
      "test/functions/comps-terms.test.ts",
      "test/functions/comps.test.ts",
      "test/functions/figure-classes.test.ts",
      "test/functions/labels.test.ts",
    ],
  },
  "src/functions/impl/breakdown.ts": {
    tests: [
      "test/functions/breakdown.test.ts",
      "test/functions/breakdown-bound.test.ts",
      "test/functions/figure-classes.test.ts",
      "test/functions/aggregations.test.ts",
      "test/functions/shapes.test.ts",
      "test/functions/readings.test.ts",
    ],
  },
  "src/functions/impl/statement-figures.ts": {
    tests: [
      "test/functions/statement-figures.test.ts",
      "test/functions/statement.test.ts",
      "test/functions/figure-classes.test.ts",
      // STATEMENT under vintage= (asKnownFigure, readLinesAsKnown).
      "test/functions/vintage-whole.test.ts",
    ],
  },
  "src/functions/impl/statement-periods.ts": {
    tests: ["test/functions/statement-periods.test.ts", "test/functions/statement.test.ts"],
  },
  "src/functions/options.ts": {
    // options.test.ts states every accepted value and every refusal; the taskpane's function-specs suite
    // (the builder against the parser) loads the whole builder for each of the table's static mutants and
    // pins nothing more of this file.
    tests: ["test/functions/options.test.ts", "test/functions/arguments.test.ts"],
  },
};

/**
 * The smoke run CI makes (`npm run mutation -- --smoke`): one small function of one target (about ten mutants,
 * every one tested afresh, no incremental record), so that the mutation tooling cannot break unseen again.
 */
export const SMOKE = { file: "src/sheet/excel-dates.ts", lines: "18-23" };

/**
 * The jest configuration of a run over `tests`: what the project's tiers share (test/jest.shared.cjs: the
 * environment, the type-check-free transform), and a target's own settings (`overrides`) last. Stryker runs it
 * in its sandbox, so the project's own root directory is left out (jest takes the sandbox's).
 */
export function jestFor(tests, overrides = {}) {
  const { rootDir: _rootDir, ...shared } = jestShared;
  return {
    ...shared,
    // jest's default time-out is 5 s; the project's runs take 30 s (jest.config.js).
    testTimeout: 30_000,
    ...overrides,
    // Stryker's jest runner loads the test environment itself (require.resolve from its working directory, the
    // sandbox) and leaves <rootDir> as it is: name the file relative to that directory.
    testEnvironment: shared.testEnvironment.replace(/^<rootDir>\//, "./"),
    testMatch: tests.map((t) => `<rootDir>/${t}`),
  };
}

/**
 * Where Stryker's jest runner reads a configuration to lay jestFor()'s over: package.json, which has none, so
 * that jestFor()'s is the whole of it (over jest.config.js, each tier would run the target's tests again).
 */
export const JEST_CONFIG_FILE = "package.json";

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: "npm",
  testRunner: "jest",
  jest: {
    projectType: "custom",
    configFile: JEST_CONFIG_FILE,
    config: jestFor([...new Set(Object.values(TARGETS).flatMap((t) => t.tests))]),
    // The targets name their tests: jest's own guess (every suite importing the file) pulls in slow ones.
    enableFindRelatedTests: false,
  },
  mutate: Object.keys(TARGETS),
  coverageAnalysis: "perTest",
  concurrency: 1,
  incremental: true,
  incrementalFile: "reports/mutation/incremental.json",
  reporters: ["html", "json", "clear-text", "progress"],
  htmlReporter: { fileName: "reports/mutation/index.html" },
  jsonReporter: { fileName: "reports/mutation/report.json" },
  thresholds: { high: THRESHOLD, low: 80, break: THRESHOLD },
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
  // The sandbox needs the sources, tests and configs only.
  ignorePatterns: [
    "dist",
    "coverage",
    "reports",
    "test-results",
    "bench-results",
    "test/e2e",
    "*.log",
  ],
  timeoutMS: 10_000,
};
