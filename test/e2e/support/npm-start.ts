/**
 * `npm start` as a user runs it: the npm script itself (its build step included) in its own process group,
 * as a terminal runs a foreground command, so Ctrl+C (SIGINT to the group) reaches npm and everything under
 * it. The ports are free ones the operating system hands out, passed through the flags `npm start` documents
 * (`npm start -- --port N --simulator-port M`), so a run never collides with another one on this machine;
 * users keep the defaults, 3000 and 3001.
 *
 * It runs in a copy of the checkout, as a fresh clone holds it (the files as they are now, without dist/ or
 * anything else a build or a test leaves; node_modules linked, as `npm ci` would have installed the same):
 * npm start's build step writes dist/node, and in the checkout itself that rewrote the build other test files
 * and their gateway processes were loading at the same time.
 */
import { spawn, type ChildProcess } from "child_process";
import { cpSync, mkdtempSync, symlinkSync } from "fs";
import { createServer } from "net";
import { tmpdir } from "os";
import { join, relative, sep } from "path";
import { ROOT } from "./build";

/** What a fresh clone does not hold: git's own files, the installed modules (linked), builds, test output. */
const NOT_IN_A_CLONE = new Set([
  ".git",
  "node_modules",
  "dist",
  "test-results",
  "bench-results",
  "reports",
  "coverage",
  ".stryker-tmp",
]);

/** A copy of the checkout under this test file's temporary directory, for npm start to build and run in. */
function freshCheckout(): string {
  const dir = join(mkdtempSync(join(tmpdir(), "cm-checkout-")), "cryptometrics-excel");
  cpSync(ROOT, dir, {
    recursive: true,
    filter: (source) => !NOT_IN_A_CLONE.has(relative(ROOT, source).split(sep)[0]),
  });
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}

const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
/** The build step and webpack's first compilation take 20–60 s here; ten minutes means something hangs. */
const START_TIMEOUT_MS = 600_000;
const STOP_TIMEOUT_MS = 30_000;

export interface NpmStart {
  /** The copy of the checkout npm start runs in (freshCheckout). */
  checkout: string;
  /** Everything npm start printed so far (stdout and stderr, interleaved as they came). */
  output(): string;
  /**
   * The URLs npm start printed, read from its output as a user reads them: the pages, the service they call (the
   * team gateway at their own origin), the simulator behind it, and the manifest to sideload (a file).
   */
  urls: { taskpane: string; preview: string; service: string; simulator: string; manifest: string };
  port: number;
  simulatorPort: number;
  /**
   * Ctrl+C: SIGINT to the process group; resolves with how npm ended (an exit code, or the signal, as npm
   * ends on Ctrl+C) once every process of the group has gone.
   */
  interrupt(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** For afterAll: whatever is still running is killed. */
  kill(): void;
}

/** A port nothing listens on right now (the OS picks it), for a server started a moment later. */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on("error", fail);
    server.listen(0, "localhost", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

/** True when a server could listen on the port (on localhost, where npm start listens). */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const server = createServer();
    server.once("error", () => done(false));
    server.listen(port, "localhost", () => server.close(() => done(true)));
  });
}

function printed(output: string, label: string): string {
  const match = new RegExp(`^\\s*${label}:\\s+(\\S+)`, "m").exec(output);
  if (!match) throw new Error(`npm start did not print its "${label}" line:\n${output}`);
  return match[1];
}

function alive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function startNpmStart(): Promise<NpmStart> {
  const checkout = freshCheckout();
  const port = await freePort();
  let simulatorPort = await freePort();
  while (simulatorPort === port) simulatorPort = await freePort();
  const child: ChildProcess = spawn(
    NPM,
    ["start", "--", "--port", String(port), "--simulator-port", String(simulatorPort)],
    { cwd: checkout, detached: true, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env } }
  );
  const pid = child.pid;
  if (pid === undefined) throw new Error("npm start could not be spawned");
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on("exit", (code, signal) => done({ code, signal }))
  );

  await new Promise<void>((ready, fail) => {
    const deadline = setTimeout(() => {
      clearInterval(poll);
      fail(
        new Error(`npm start printed no "Press Ctrl+C" within ${START_TIMEOUT_MS} ms:\n${output}`)
      );
    }, START_TIMEOUT_MS);
    const poll = setInterval(() => {
      if (/Press Ctrl\+C to stop/.test(output)) {
        clearInterval(poll);
        clearTimeout(deadline);
        ready();
      } else if (child.exitCode !== null) {
        clearInterval(poll);
        clearTimeout(deadline);
        fail(new Error(`npm start exited early (${child.exitCode}):\n${output}`));
      }
    }, 200);
  });

  const kill = (): void => {
    if (alive(pid)) process.kill(-pid, "SIGKILL");
  };
  return {
    checkout,
    output: () => output,
    urls: {
      taskpane: printed(output, "Add-in page"),
      preview: printed(output, "Preview page"),
      service: printed(output, "Service"),
      simulator: printed(output, "Simulator"),
      manifest: printed(output, "Manifest"),
    },
    port,
    simulatorPort,
    kill,
    interrupt: async () => {
      process.kill(-pid, "SIGINT");
      let timer: NodeJS.Timeout | undefined;
      const ended = await Promise.race([
        exited,
        new Promise<never>((_, fail) => {
          timer = setTimeout(
            () => fail(new Error(`npm start still running ${STOP_TIMEOUT_MS} ms after Ctrl+C`)),
            STOP_TIMEOUT_MS
          );
        }),
      ]).finally(() => clearTimeout(timer));
      // npm has exited; its children (the dev server and simulator) must be gone too.
      for (let i = 0; i < 100 && alive(pid); i += 1) await new Promise((r) => setTimeout(r, 100));
      if (alive(pid)) throw new Error("processes of npm start outlived Ctrl+C");
      return ended;
    },
  };
}
