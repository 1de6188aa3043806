/**
 * A jest reporter: when the run ends, the ten slowest test files (seconds each), so that the next file that
 * grows slow shows in every run's output, and every file's time in test-results/test-times.json (which
 * sequencer.cjs reads to start the longest files first next time). `npm test` prints the ten itself, last of
 * all (test/harness/npm-test.mjs sets CM_SLOWEST_FILES=quiet).
 */
const { mkdirSync, writeFileSync } = require("fs");
const { dirname, join, relative } = require("path");

const TIMES_FILE = "test-results/test-times.json";
const SHOWN = 10;

/** The table of the slowest files, as printed. */
function slowestTable(files, shown = SHOWN) {
  const total = files.reduce((sum, f) => sum + f.seconds, 0);
  const lines = [...files]
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, shown)
    .map((f) => `  ${f.seconds.toFixed(1).padStart(7)} s  ${f.file}`);
  return [
    `Slowest ${Math.min(shown, files.length)} of ${files.length} test files (${total.toFixed(0)} s in all, summed over the workers):`,
    ...lines,
  ].join("\n");
}

class SlowestFiles {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
    this.files = [];
  }

  onTestResult(_test, result) {
    const { start, end } = result.perfStats;
    this.files.push({
      file: relative(this.rootDir, result.testFilePath),
      seconds: Math.max(0, (end - start) / 1000),
      tests: result.numPassingTests + result.numFailingTests + result.numPendingTests,
      failed: result.numFailingTests > 0 || result.testExecError !== undefined,
    });
  }

  onRunComplete() {
    if (this.files.length === 0) return;
    const out = join(this.rootDir, TIMES_FILE);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, `${JSON.stringify({ files: this.files }, null, 2)}\n`);
    if (process.env.CM_SLOWEST_FILES !== "quiet")
      process.stderr.write(`\n${slowestTable(this.files)}\n`);
  }
}

module.exports = SlowestFiles;
module.exports.TIMES_FILE = TIMES_FILE;
module.exports.slowestTable = slowestTable;
