/**
 * The test environment of every test file (jest's node environment, plus a temporary tree of the file's own).
 *
 * Each test file gets a directory under the system's temporary directory, removed when the file ends, and the
 * worker process's own environment points into it while the file runs:
 * - TMPDIR: what `os.tmpdir()` gives the file and every process it starts (the CLI, Chromium, redis-server),
 *   so a test that stops half-way, or a child that outlives its test, leaves nothing in /tmp;
 * - CRYPTOMETRICS_CACHE_DIR and XDG_CACHE_HOME: the CLI's saved answers and shared rate budget, so no test
 *   reads or fills the user's ~/.cache, and no file sees another's answers or budget.
 *
 * Set here, not in a setup file: a test file's `process.env` is jest's copy, which neither `os.tmpdir()` nor
 * a spawned process reads; the worker's own environment is what they inherit. A worker runs one file at a time.
 *
 * The environment also hands each file the worker's long-lived services (one Chromium, one redis-server for
 * every file the worker runs): `globalThis.__cmWorkerService`, see worker-services.cjs.
 */
const { chmodSync, mkdirSync, mkdtempSync, rmSync } = require("fs");
const { tmpdir } = require("os");
const { join } = require("path");
const { TestEnvironment } = require("jest-environment-node");
const { workerService } = require("./worker-services.cjs");

const VARIABLES = ["TMPDIR", "CRYPTOMETRICS_CACHE_DIR", "XDG_CACHE_HOME"];

class IsolatedEnvironment extends TestEnvironment {
  async setup() {
    await super.setup();
    this.saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
    this.root = mkdtempSync(join(tmpdir(), "cm-test-"));
    // Others may pass through (not list): tests that start the CLI as another user reach their files here.
    chmodSync(this.root, 0o711);
    const tmp = join(this.root, "tmp");
    mkdirSync(tmp, { mode: 0o711 });
    chmodSync(tmp, 0o711);
    const values = {
      TMPDIR: tmp,
      CRYPTOMETRICS_CACHE_DIR: join(this.root, "cache", "cryptometrics"),
      XDG_CACHE_HOME: join(this.root, "cache"),
    };
    for (const [name, value] of Object.entries(values)) {
      process.env[name] = value;
      this.global.process.env[name] = value;
    }
    this.global.__cmWorkerService = workerService;
  }

  async teardown() {
    for (const [name, value] of Object.entries(this.saved ?? {})) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    if (this.root) rmSync(this.root, { recursive: true, force: true });
    await super.teardown();
  }
}

module.exports = IsolatedEnvironment;
