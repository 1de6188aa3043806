/**
 * Gateway processes as a team runs them: `node dist/node/gateway/main.js FLAGS` (from a build of the current
 * sources), each a real child process, ready once it prints "Gateway listening on http://HOST:PORT".
 */
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hashToken } from "../../../src/gateway/auth/tokens-file";
import { ensureNodeBuild } from "../../support/node-build";

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
      ].join("\n") + "\n"
    );
  setTokens(tokens);
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
  serviceUrl: string;
  files: GatewayFiles;
  redisUrl?: string;
  args?: readonly string[];
  env?: Record<string, string>;
}

export async function startGatewayProcess(options: GatewayProcessOptions): Promise<GatewayProcess> {
  const build = await ensureNodeBuild();
  const args = [
    join(build, "gateway", "main.js"),
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
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on("exit", (code, signal) => done({ code, signal }))
  );
  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`no listening line within 20 s:\n${stdout}\n${stderr}`)),
      20_000
    );
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
  process.once("exit", () => child.kill("SIGKILL"));
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
