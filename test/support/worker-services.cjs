/**
 * Services a jest worker keeps for every test file it runs (one Chromium, one redis-server), instead of one per
 * file. A jest worker is a process that runs test files one after another, each in a fresh module registry, so a
 * file's own modules cannot keep anything for the next: this module is loaded by the test environment
 * (environment.cjs) in the worker itself, where it stays loaded, and each file reaches it through the global
 * `__cmWorkerService` the environment sets.
 *
 * Each service runs in a small host process of its own (`node <host script> <options as JSON>`): it starts the
 * service, prints one line of JSON (where to reach it, or why it could not start), and stops the service and
 * removes its temporary files when its standard input closes, which happens however the worker ends (a normal
 * end, a crash, a kill). So no browser or server outlives the run, and nothing is left in /tmp.
 *
 * The hosts get the worker's environment as it was when jest started it, not a test file's: the per-file
 * TMPDIR (environment.cjs) is removed when that file ends, while the service lives on.
 */
const { spawn } = require("child_process");
const { clearTimeout, setTimeout } = require("timers");

/** The worker's environment before any test file changed it. */
const WORKER_ENV = { ...process.env };
/** How long a host may take to print its line: Chromium's start on a loaded 2-core machine is seconds. */
const START_TIMEOUT_MS = 60_000;

/** Running and starting services: host script + options → the host's line. */
const services = new Map();

function start(key, script, options) {
  return new Promise((done, fail) => {
    const host = spawn(process.execPath, [script, JSON.stringify(options)], {
      env: WORKER_ENV,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    const timer = setTimeout(() => {
      host.kill("SIGKILL");
      failed(new Error(`${script} printed nothing within ${START_TIMEOUT_MS} ms\n${err}`));
    }, START_TIMEOUT_MS);
    timer.unref();
    function failed(error) {
      clearTimeout(timer);
      services.delete(key);
      fail(error);
    }
    host.on("error", failed);
    host.stderr.on("data", (d) => (err += d.toString()));
    host.stdout.on("data", (d) => {
      out += d.toString();
      const end = out.indexOf("\n");
      if (end < 0) return;
      clearTimeout(timer);
      const line = out.slice(0, end);
      let parsed;
      try {
        parsed = JSON.parse(line);
      } catch {
        parsed = { error: `unreadable line from ${script}: ${line}` };
      }
      if (parsed.error) return failed(new Error(`${parsed.error}\n${err}`));
      // Ready: the worker must not wait on the host to end (its stdin closes when the worker exits).
      host.stdout.removeAllListeners("data");
      host.stdout.destroy();
      host.stderr.unref();
      host.stdin.unref();
      host.unref();
      done(line);
    });
    host.on("exit", (code, signal) => {
      // A service that dies is started afresh for the next file that asks (the file that used it fails).
      services.delete(key);
      if (!out.includes("\n"))
        failed(new Error(`${script} exited (${code ?? signal}) before it was ready\n${err}`));
    });
  });
}

/**
 * The worker's service started by `script` with these options (one per distinct pair, started on first use):
 * the host's line of JSON, as a string (parsed in the test file's own realm).
 */
function workerService(script, options = {}) {
  const key = `${script}\n${JSON.stringify(options)}`;
  let running = services.get(key);
  if (!running) {
    running = start(key, script, options);
    services.set(key, running);
  }
  return running;
}

module.exports = { workerService };
