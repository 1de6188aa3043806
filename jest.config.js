/** @type {import('jest').Config} */
module.exports = {
  preset: "ts-jest",
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // office-addin-mock pulls office-addin-manifest, whose ESM-only dependencies break jest's CJS loader;
  // the mock only needs its OfficeApp enum (see ../shared/notes/office-addin-facts.md).
  moduleNameMapper: {
    "^office-addin-manifest$": "<rootDir>/test/support/office-addin-manifest-shim.ts",
  },
  testTimeout: 30000,
};
