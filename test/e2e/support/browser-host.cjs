/**
 * The host of a jest worker's Chromium (test/support/worker-services.cjs): `node browser-host.cjs '<options>'`
 * starts Debian's Chromium through playwright-core as a browser server (options: executablePath, args),
 * prints {"wsEndpoint": …} for the test files to connect to, and closes it when its standard input closes (the
 * worker has ended). Playwright makes Chromium's profile under the host's own temporary directory, removed
 * after the browser has closed.
 */
const { mkdtempSync, rmSync } = require("fs");
const { tmpdir } = require("os");
const { join } = require("path");
const { chromium } = require("playwright-core");

const dir = mkdtempSync(join(tmpdir(), "cm-browser-"));
process.env.TMPDIR = dir;
const options = JSON.parse(process.argv[2] ?? "{}");

function cleanUp() {
  rmSync(dir, { recursive: true, force: true });
}

chromium
  .launchServer({
    executablePath: options.executablePath,
    args: options.args,
    timeout: 30_000,
    // The host ends it when the worker does; a signal to the host is handled below.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  })
  .then(
    (server) => {
      let closing = false;
      const close = () => {
        if (closing) return;
        closing = true;
        server
          .close()
          .catch(() => undefined)
          .finally(() => {
            cleanUp();
            process.exit(0);
          });
      };
      process.stdin.on("end", close);
      process.stdin.on("close", close);
      process.stdin.resume();
      for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, close);
      process.stdout.write(`${JSON.stringify({ wsEndpoint: server.wsEndpoint() })}\n`);
    },
    (error) => {
      process.stdout.write(
        `${JSON.stringify({ error: `Chromium did not start: ${error.message}` })}\n`
      );
      cleanUp();
      process.exit(1);
    }
  );
