/**
 * A team's setup as real processes, for the gateway's bench and tests: Debian's redis-server on a free loopback
 * port (redis has no "--port 0" for TCP: a port the operating system just handed out, tried again if taken
 * meanwhile), nothing saved to disk; gateway processes (`node …/gateway/main.js FLAGS`), each ready once it prints
 * "Gateway listening on http://HOST:PORT"; the files they read (service key, tokens); and what a team puts in
 * front of several processes (a reverse proxy), reduced to a TCP proxy that spreads connections in turn or
 * prefers one process and fails over to the others.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hashToken } from "../../gateway/auth/tokens-file";

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

const cleanups = new Set<() => void>();

/** Whenever this process ends, however: what it started goes too (one listener for all of them). */
function onExit(cleanup: () => void): void {
  if (cleanups.size === 0) process.once("exit", () => cleanups.forEach((c) => c()));
  cleanups.add(cleanup);
}

// ---- Redis ----

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** Stops it (SIGTERM, or SIGKILL); resolves once it has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port (empty: nothing was saved). */
  start(): Promise<void>;
  /** Sends a signal to the running server (SIGSTOP freezes it: a hung Redis; SIGCONT wakes it). */
  signal(signal: NodeJS.Signals): void;
}

/** A redis-server on `port`, nothing saved, ready once it says so; `extra` flags too (a cluster node's). */
export function launchRedis(
  port: number,
  dir: string,
  extra: readonly string[] = []
): Promise<ChildProcess> {
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
        ...extra,
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
        child.stdout?.resume();
        done(child);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
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

/** Stops redis-server processes (SIGTERM), each once it has exited, then removes their folder. */
export async function stopRedisProcesses(
  children: readonly ChildProcess[],
  dir: string
): Promise<void> {
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((done) => {
          if (c.exitCode !== null || c.signalCode !== null) return done();
          c.once("exit", () => done());
          c.kill("SIGTERM");
        })
    )
  );
  rmSync(dir, { recursive: true, force: true });
}

export async function startRedis(): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), "cm-redis-"));
  let child: ChildProcess | undefined;
  let port = 0;
  for (let attempt = 0; !child; attempt++) {
    port = await freeLoopbackPort();
    try {
      child = await launchRedis(port, dir);
    } catch (error) {
      if (attempt >= 4 || /could not be started/.test(String(error))) throw error;
    }
  }
  const exitOf = (c: ChildProcess): Promise<void> =>
    c.exitCode !== null || c.signalCode !== null
      ? Promise.resolve()
      : new Promise((done) => c.once("exit", () => done()));
  onExit(() => {
    child?.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop(signal = "SIGTERM") {
      if (!child) return;
      const c = child;
      child = undefined;
      c.kill(signal);
      await exitOf(c);
    },
    async start() {
      if (!child) child = await launchRedis(port, dir);
    },
    signal(signal) {
      child?.kill(signal);
    },
  };
}

// ---- the gateway's files and processes ----

export interface GatewayFiles {
  dir: string;
  keyFile: string;
  tokensFile: string;
  /** Rewrites the tokens file with these tokens (name -> token). */
  setTokens(tokens: Record<string, string>): void;
}

/** A service key file (mode 600) and a tokens file in a fresh directory. */
export function gatewayFiles(serviceKey: string, tokens: Record<string, string>): GatewayFiles {
  const dir = mkdtempSync(join(tmpdir(), "cm-gateway-"));
  const keyFile = join(dir, "service.key");
  writeFileSync(keyFile, `${serviceKey}\n`);
  chmodSync(keyFile, 0o600);
  const tokensFile = join(dir, "tokens");
  const setTokens = (list: Record<string, string>): void =>
    writeFileSync(
      tokensFile,
      [
        "# name sha256-of-token",
        ...Object.entries(list).map(([n, t]) => `${n} ${hashToken(t)}`),
        "",
      ].join("\n")
    );
  setTokens(tokens);
  onExit(() => rmSync(dir, { recursive: true, force: true }));
  return { dir, keyFile, tokensFile, setTokens };
}

export interface GatewayProcess {
  readonly url: string;
  readonly pid: number;
  output(): string;
  errors(): string;
  /** Sends the signal; resolves with how the process ended. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface GatewayProcessOptions {
  /** The built gateway: …/gateway/main.js. */
  main: string;
  serviceUrl: string;
  files: GatewayFiles;
  redisUrl?: string;
  args?: readonly string[];
  env?: Record<string, string>;
}

export async function startGatewayProcess(options: GatewayProcessOptions): Promise<GatewayProcess> {
  const args = [
    options.main,
    "--port",
    "0",
    "--service-url",
    options.serviceUrl,
    "--service-key-file",
    options.files.keyFile,
    "--tokens-file",
    options.files.tokensFile,
    ...(options.redisUrl ? ["--redis", options.redisUrl] : []),
    ...(options.args ?? []),
  ];
  const child: ChildProcess = spawn(process.execPath, args, {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...options.env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (d: Buffer) => (stdout += d.toString()));
  // The log is kept (tests read it), its last megabyte at most.
  child.stderr?.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-1_048_576)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on("exit", (code, signal) => done({ code, signal }))
  );
  onExit(() => child.kill("SIGKILL"));
  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => {
      clearInterval(poll);
      child.kill("SIGKILL");
      fail(new Error(`no listening line within 30 s:\n${stdout}\n${stderr}`));
    }, 30_000);
    const poll = setInterval(() => {
      const match = /^Gateway listening on (http:\/\/\S+)$/m.exec(stdout);
      if (match) {
        clearInterval(poll);
        clearTimeout(timer);
        done(match[1]);
      } else if (child.exitCode !== null) {
        clearInterval(poll);
        clearTimeout(timer);
        fail(new Error(`the gateway exited (${child.exitCode}):\n${stdout}\n${stderr}`));
      }
    }, 50);
  });
  return {
    url,
    pid: child.pid as number,
    output: () => stdout,
    errors: () => stderr,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

// ---- in front of the processes ----

export interface Balancer {
  url: string;
  close(): Promise<void>;
}

/**
 * A TCP proxy over gateway processes. "round-robin": each connection to the next process; "failover": always
 * the first that accepts, in the order given (a sticky reverse proxy with fallbacks). Either way a process that
 * refuses connections (killed) is skipped.
 */
export async function startBalancer(
  backends: readonly string[],
  mode: "round-robin" | "failover" = "round-robin"
): Promise<Balancer> {
  const targets = backends.map((b) => new URL(b));
  let next = 0;
  const sockets = new Set<Socket>();
  const track = (s: Socket): void => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  };
  const server: Server = createServer((client) => {
    track(client);
    client.pause();
    client.on("error", () => undefined);
    const first = mode === "round-robin" ? next++ % targets.length : 0;
    const tryBackend = (attempt: number): void => {
      const target = targets[(first + attempt) % targets.length];
      const upstream = connect(Number(target.port), target.hostname);
      track(upstream);
      let connected = false;
      upstream.once("connect", () => {
        connected = true;
        upstream.on("error", () => client.destroy());
        client.on("error", () => upstream.destroy());
        client.on("close", () => upstream.destroy());
        upstream.on("close", () => client.destroy());
        client.pipe(upstream).pipe(client);
        client.resume();
      });
      upstream.once("error", () => {
        if (!connected && attempt + 1 < targets.length) tryBackend(attempt + 1);
        else client.destroy();
      });
    };
    tryBackend(0);
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((done) => {
        for (const s of sockets) s.destroy();
        server.close(() => done());
      }),
  };
}
