/**
 * The order in which jest hands test files to its two workers: the longest first, so that no long file starts
 * last while the other worker sits idle. A file's length is its time in the last run on this checkout
 * (test-results/test-times.json, written by slowest-files.cjs; or jest's own record); in a fresh clone, as CI
 * has, the committed figures of the slowest files (test-times.seed.json); else a guess from its tier: a browser
 * test takes tens of seconds, an integration test about ten, a unit test one or two. Equal guesses go larger
 * file first, as jest's own order does.
 */
const { readFileSync } = require("fs");
const { join, relative } = require("path");
const Sequencer = require("@jest/test-sequencer").default;
const { TIMES_FILE } = require("./slowest-files.cjs");

/** Seconds a file of each tier is taken to last when no run has timed it. */
const GUESS_SECONDS = { e2e: 30, integration: 10, unit: 1.5 };

/** The seconds each file took when last run here, over the committed figures of the slowest files. */
function recordedTimes(rootDir) {
  const times = new Map();
  try {
    const seed = JSON.parse(readFileSync(join(__dirname, "test-times.seed.json"), "utf8"));
    for (const [file, seconds] of Object.entries(seed.files)) times.set(file, seconds);
  } catch {
    // No seed: guesses only.
  }
  try {
    const { files } = JSON.parse(readFileSync(join(rootDir, TIMES_FILE), "utf8"));
    for (const f of files) times.set(f.file, f.seconds);
  } catch {
    // No run recorded yet on this checkout.
  }
  return times;
}

class LongestFirst extends Sequencer {
  sort(tests) {
    const rootDir = tests[0]?.context.config.rootDir;
    const recorded = rootDir ? recordedTimes(rootDir) : new Map();
    const sizes = new Map();
    const size = (test) => {
      if (!sizes.has(test.path)) sizes.set(test.path, test.context.hasteFS.getSize(test.path) ?? 0);
      return sizes.get(test.path);
    };
    const seconds = (test) => {
      const file = relative(test.context.config.rootDir, test.path);
      const known = recorded.get(file) ?? (this.time(test) ?? 0) / 1000;
      return known > 0
        ? known
        : (GUESS_SECONDS[test.context.config.displayName?.name] ?? GUESS_SECONDS.unit);
    };
    for (const test of tests) test.duration = seconds(test) * 1000;
    return tests.sort((a, b) => b.duration - a.duration || size(b) - size(a));
  }
}

module.exports = LongestFirst;
