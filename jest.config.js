/**
 * jest: three tiers (projects), run together by `npm test` on two workers, or one at a time:
 * - unit: in-process, virtual clocks; no server, browser, build or child process (`npm run test:fast`);
 * - integration: loopback HTTP, the built CLI and bundles, real Redis and processes, the conformance matrix,
 *   the whole-workbook properties, the fault table and the soak, the benchmarks' and the tools' tests
 *   (`npm run test:integration`);
 * - e2e: the pages in Chromium, `npm start` as a user runs it (`npm run test:e2e`).
 * A file's tier comes from its name (`*.integration.test.ts`, `*.e2e.test.ts`) or its folder (below).
 * test/README.md has the table of what each covers and how long it takes.
 */

const shared = require("./test/jest.shared.cjs");

/** Folders whose every test is an integration test (slow, or over whole workbooks), whatever its name. */
const INTEGRATION_FOLDERS = ["conformance", "bench", "tools", "reliability", "property"];

const TIERS = {
  unit: {
    testMatch: ["<rootDir>/test/**/*.test.ts"],
    testPathIgnorePatterns: [
      "/node_modules/",
      "\\.e2e\\.test\\.ts$",
      "\\.integration\\.test\\.ts$",
      `<rootDir>/test/(${INTEGRATION_FOLDERS.join("|")})/`,
    ],
  },
  integration: {
    testMatch: [
      "<rootDir>/test/**/*.integration.test.ts",
      `<rootDir>/test/{${INTEGRATION_FOLDERS.join(",")}}/**/*.test.ts`,
    ],
    testPathIgnorePatterns: ["/node_modules/", "\\.e2e\\.test\\.ts$"],
  },
  e2e: {
    testMatch: ["<rootDir>/test/**/*.e2e.test.ts"],
  },
};

/** @type {import('jest').Config} */
module.exports = {
  // Both cores. Nothing in a test writes a shared path (dist/ is built once, before jest; see test/README.md).
  maxWorkers: 2,
  // A run's setting, not a tier's: jest ignores it inside a project.
  testTimeout: 30000,
  // Files that start the longest first, so that the two workers end together (see the file).
  testSequencer: "<rootDir>/test/support/sequencer.cjs",
  // The ten slowest files, printed at the end, and every file's time in test-results/test-times.json.
  reporters: ["default", "<rootDir>/test/support/slowest-files.cjs"],
  projects: Object.entries(TIERS).map(([displayName, tier]) => ({
    ...shared,
    displayName,
    ...tier,
  })),
};
