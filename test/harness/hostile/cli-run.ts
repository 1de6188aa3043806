/**
 * The command-line evaluator run as a user runs it, in its own process, against a given service: exit
 * code, output, the time it took, and its peak memory (the kernel's high-water mark, reported at exit by
 * peak-rss.ts). A process that outlives `timeoutMs` is killed and reported so.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliNodeFlags } from "./cli-command";

export interface CliRun {
  code: number | null;
  /** The signal that ended the process, if one did. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** Peak resident memory in bytes; undefined when the process was killed before it could say. */
  peakRssBytes: number | undefined;
  killed: boolean;
}

interface CliOptions {
  /** The compiled CLI (…/cli/main.js) and the compiled peak-rss.js next to it (…/tools/hostile). */
  cliPath: string;
  peakRssPath: string;
  baseUrl: string;
  apiKey: string;
  format?: "table" | "csv" | "json";
  /** More flags, before the formulas (e.g. --legacy-host). */
  flags?: readonly string[];
  timeoutMs?: number;
}

export function runCli(formulas: readonly string[], options: CliOptions): Promise<CliRun> {
  // A home of its own: whatever the CLI may keep on disk (a cache) cannot leak from one run into another.
  const home = mkdtempSync(join(tmpdir(), "cryptometrics-hostile-"));
  const started = Date.now();
  const child = spawn(
    process.execPath,
    [
      // As `npm run cli` starts it.
      ...cliNodeFlags(),
      "--require",
      options.peakRssPath,
      options.cliPath,
      "eval",
      "--base-url",
      options.baseUrl,
      "--format",
      options.format ?? "table",
      ...(options.flags ?? []),
      ...formulas,
    ],
    {
      stdio: ["ignore", "pipe", "pipe", "pipe"],
      // The key as the CLI's documentation says to pass it: never on the command line.
      env: {
        PATH: process.env.PATH ?? "",
        HOME: home,
        XDG_CACHE_HOME: home,
        CRYPTOMETRICS_API_KEY: options.apiKey,
      },
    }
  );
  return collectRun(child, options.timeoutMs ?? 120_000, started).finally(() =>
    rmSync(home, { recursive: true, force: true })
  );
}

/**
 * What a started CLI process did, once it has closed: output, exit code or signal, time since `started`, and
 * the peak memory peak-rss.cjs writes to fd 3. A process that outlives `timeoutMs` is killed (SIGKILL) and
 * reported so.
 */
export function collectRun(
  child: ChildProcess,
  timeoutMs: number,
  started = Date.now()
): Promise<CliRun> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  let peak = "";
  let killed = false;
  child.stdout?.on("data", (d: Buffer) => out.push(d));
  child.stderr?.on("data", (d: Buffer) => err.push(d));
  (child.stdio[3] as NodeJS.ReadableStream | null)?.on("data", (d: Buffer) => {
    peak += d.toString();
  });
  const timer = setTimeout(() => {
    killed = true;
    child.kill("SIGKILL");
  }, timeoutMs);
  return new Promise((resolve) =>
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const bytes = Number(peak.trim());
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
        ms: Date.now() - started,
        peakRssBytes: peak.trim() !== "" && Number.isFinite(bytes) ? bytes : undefined,
        killed,
      });
    })
  );
}
