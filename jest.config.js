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

/** What every tier shares (stryker.config.mjs builds its runs on it too). */
const shared = {
  rootDir: __dirname,
  // jest's node environment with a temporary tree per test file, which spawned processes inherit, and the
  // worker's long-lived services (one Chromium, one redis-server; see the file).
  testEnvironment: "<rootDir>/test/support/environment.cjs",
  roots: ["<rootDir>/test"],
  transform: {
    // Transpile only: the types are checked once, by `npm run typecheck`, not again per test file. The built-ins
    // each module reads are bound once, out of the vm context's slow path (see the file).
    "^.+\\.ts$": [
      "<rootDir>/test/support/ts-transform.cjs",
      { tsconfig: "<rootDir>/tsconfig.test.json" },
    ],
    // @microsoft/app-manifest (the unified-manifest schema validator) requires strip-bom, which ships as ESM
    // only; jest's CommonJS loader needs it compiled.
    "/node_modules/strip-bom/.+\\.js$": ["ts-jest", { tsconfig: { allowJs: true } }],
    // jose (JWT/JWKS, the gateway's sign-in) ships as ESM only too; ts-jest would lower its class fields (see the file).
    "/node_modules/jose/.+\\.js$": "<rootDir>/test/support/esm-to-cjs.js",
  },
  transformIgnorePatterns: ["^(?!.*/node_modules/(strip-bom|jose)/).*/node_modules/"],
  // office-addin-mock pulls office-addin-manifest, whose ESM-only dependencies break jest's CJS loader;
  // the mock only needs its OfficeApp enum, which the shim exports.
  moduleNameMapper: {
    "^office-addin-manifest$": "<rootDir>/test/support/office-addin-manifest-shim.ts",
  },
  testTimeout: 30000,
};

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
module.exports.shared = shared;
