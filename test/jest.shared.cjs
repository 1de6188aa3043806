/**
 * What every jest tier shares (jest.config.js makes a project of each tier with it; stryker.config.mjs builds
 * its runs on it).
 */
module.exports = {
  rootDir: require("path").resolve(__dirname, ".."),
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
};
