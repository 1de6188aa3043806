/**
 * The host of a jest worker's redis-server (test/support/worker-services.cjs): `node redis-host.cjs` starts
 * Debian's redis-server on a free loopback port (redis has no "--port 0" for TCP: a port the operating system
 * just handed out, tried again if taken meanwhile), nothing saved to disk, prints {"port": N}, and stops it when
 * its standard input closes (the worker has ended).
 */
const { spawn } = require("child_process");
const { mkdtempSync, rmSync } = require("fs");
const { createServer } = require("net");
const { tmpdir } = require("os");
const { join } = require("path");
const { clearTimeout, setTimeout } = require("timers");

const REDIS_SERVER = process.env.REDIS_SERVER_PATH ?? "/usr/bin/redis-server";
const READY_TIMEOUT_MS = 10_000;
const dir = mkdtempSync(join(tmpdir(), "cm-redis-"));
let redis;
let port;

function freePort() {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

function launch(port) {
  return new Promise((done, fail) => {
    const child = spawn(
      REDIS_SERVER,
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        dir,
      ],
      { stdio: ["ignore", "pipe", "pipe"] }
    );
    let output = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      fail(new Error(`redis-server did not start within ${READY_TIMEOUT_MS} ms:\n${output}`));
    }, READY_TIMEOUT_MS);
    child.stdout.on("data", (chunk) => {
      output += chunk.toString();
      if (/Ready to accept connections/.test(output)) {
        clearTimeout(timer);
        done(child);
      }
    });
    child.stderr.on("data", (chunk) => (output += chunk.toString()));
    child.on("error", (error) => {
      clearTimeout(timer);
      fail(
        new Error(
          `${REDIS_SERVER} could not be started (apt-get install redis-server): ${error.message}`
        )
      );
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`redis-server exited (${code}) before it was ready:\n${output}`));
    });
  });
}

function stop() {
  redis?.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

async function main() {
  for (let attempt = 0; ; attempt++) {
    try {
      port = await freePort();
      redis = await launch(port);
      break;
    } catch (error) {
      // Taken between the check and the start: another port. Anything else is not a port's doing.
      if (attempt >= 4 || !/Address already in use/.test(error.message)) throw error;
    }
  }
  redis.on("exit", () => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(1);
  });
  process.stdin.on("end", stop);
  process.stdin.on("close", stop);
  process.stdin.resume();
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, stop);
  process.stdout.write(`${JSON.stringify({ port })}\n`);
}

main().catch((error) => {
  process.stdout.write(`${JSON.stringify({ error: error.message })}\n`);
  rmSync(dir, { recursive: true, force: true });
  process.exit(1);
});
