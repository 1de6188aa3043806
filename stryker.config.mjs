// Mutation testing (StrykerJS with the jest runner): `npm run mutation` runs every target below, one file at a
// time with its own tests; `npm run mutation -- src/engine/planner.ts` runs one (scripts/mutation.mjs).
// Sized for a shared 2-core machine: one test process, incremental (only mutants whose code or tests changed
// since the last run are tested again), no type checker (tsc per mutant costs more than the whole run), and
// ts-jest without type checking (tsconfig.mutation.json: the compile check is `npm run typecheck`'s job).
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const jestConfig = require("./jest.config.js");

/** Below this score (killed or timed out / all valid mutants, in %) a file fails the run. */
export const THRESHOLD = 90;

/**
 * The core files measured, each with the suites that test it. Related tests only, and fast ones: no browser
 * (test/e2e) and no suite that spawns processes; the whole suite runs in `npm test`, not per mutant.
 */
export const TARGETS = {
  "src/client/http/backoff.ts": [
    "test/client/http/backoff.test.ts",
    "test/client/client-resilience.test.ts",
  ],
  "src/client/http/rate-limiter.ts": [
    "test/client/http/rate-limiter.test.ts",
    "test/client/client-resilience.test.ts",
  ],
  "src/engine/planner.ts": ["test/engine/planner.test.ts"],
  "src/engine/series-ops.ts": ["test/engine/series-ops.test.ts"],
  "src/functions/options.ts": [
    "test/functions/options.test.ts",
    "test/functions/arguments.test.ts",
    "test/taskpane/function-specs.test.ts",
  ],
};

/** The jest configuration of a run over `tests`: the project's, with type-check-free ts-jest. */
export function jestFor(tests) {
  return {
    ...jestConfig,
    testMatch: tests.map((t) => `<rootDir>/${t}`),
    transform: {
      ...jestConfig.transform,
      "^.+\\.ts$": ["ts-jest", { tsconfig: "<rootDir>/tsconfig.mutation.json" }],
    },
  };
}

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: "npm",
  testRunner: "jest",
  jest: {
    projectType: "custom",
    config: jestFor([...new Set(Object.values(TARGETS).flat())]),
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
