/**
 * A jest reporter: when the run ends, the ten slowest test files of the run (seconds each), so that the next
 * file that grows slow shows in every run's output, and each file's time in test-results/test-times.json (the
 * files of this run updated, the others kept), which sequencer.cjs reads to start the longest files first. `npm test` prints the ten itself, last of
 * all (test/harness/npm-test.mjs sets CM_SLOWEST_FILES=quiet).
 */
const { mkdirSync, readFileSync, writeFileSync } = require("fs");
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

function earlierTimes(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8")).files;
  } catch {
    return [];
  }
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
    // A run of some files updates theirs and keeps the others' (the next full run's order needs them all).
    const run = new Set(this.files.map((f) => f.file));
    const kept = earlierTimes(out).filter((f) => !run.has(f.file));
    const at = new Date().toISOString();
    const files = [...this.files.map((f) => ({ ...f, at })), ...kept];
    writeFileSync(out, `${JSON.stringify({ lastRun: at, files }, null, 2)}\n`);
    if (process.env.CM_SLOWEST_FILES !== "quiet")
      process.stderr.write(`\n${slowestTable(this.files)}\n`);
  }
}

module.exports = SlowestFiles;
module.exports.TIMES_FILE = TIMES_FILE;
module.exports.slowestTable = slowestTable;
