/**
 * `npm run test:fast`: the loop while writing code. The unit tier of jest.config.js (in-process, virtual clocks:
 * no browser, server, build or child process), on 2 workers, the property tests at a tenth of their runs
 * (PROPERTY_RUNS_SCALE, read by test/support/property-runs.ts; `npm test` runs them in full).
 */
const root = require("../jest.config.js");

process.env.PROPERTY_RUNS_SCALE ??= "0.1";

/** @type {import('jest').Config} */
module.exports = {
  ...root,
  rootDir: "..",
  projects: root.projects.filter((p) => p.displayName === "unit"),
};
