/**
 * A real Redis for a test file: Debian's redis-server on a free loopback port (redis has no "--port 0" for TCP:
 * a port the operating system just handed out is taken, and tried again if another run took it meanwhile), with
 * nothing saved to disk. It can be stopped and started again on the same port (the gateway must rejoin).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const REDIS_SERVER = process.env.REDIS_SERVER_PATH ?? "/usr/bin/redis-server";

export function freeLoopbackPort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  readonly pid: number | undefined;
  /** Stops it (SIGTERM, or SIGKILL); resolves once it has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port (empty: nothing was saved). */
  start(): Promise<void>;
}

function launch(port: number, dir: string): Promise<ChildProcess> {
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
      fail(new Error(`redis-server did not start within 10 s:\n${output}`));
    }, 10_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (/Ready to accept connections/.test(output)) {
        clearTimeout(timer);
        child.stdout?.off("data", onData);
        done(child);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`redis-server exited (${code}) before it was ready:\n${output}`));
    });
  });
}

export async function startRedis(): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), "cm-redis-"));
  let child: ChildProcess | undefined;
  let port = 0;
  for (let attempt = 0; attempt < 5 && !child; attempt++) {
    port = await freeLoopbackPort();
    try {
      child = await launch(port, dir);
    } catch (error) {
      if (attempt === 4) throw error;
    }
  }
  const exitOf = (c: ChildProcess): Promise<void> =>
    c.exitCode !== null || c.signalCode !== null
      ? Promise.resolve()
      : new Promise((done) => c.once("exit", () => done()));
  const server: RedisServer = {
    url: `redis://127.0.0.1:${port}`,
    port,
    get pid() {
      return child?.pid;
    },
    async stop(signal = "SIGTERM") {
      if (!child) return;
      const c = child;
      child = undefined;
      c.kill(signal);
      await exitOf(c);
    },
    async start() {
      if (child) return;
      child = await launch(port, dir);
    },
  };
  // A test that failed half-way must not leave its Redis behind.
  process.once("exit", () => {
    child?.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });
  return server;
}
