/**
 * The CLI started for the security attacks: as `npm run cli` starts it (its node flags), with the lab's
 * service and key (through the environment), a cache directory the attack chooses and keeps across runs,
 * and what the attack adds: more environment (a preload, a time scale), a shell line before it (`ulimit`),
 * a signal at the moment it picks. Peak memory as in cli-run.ts (fd 3, the kernel's high-water mark).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { cliNodeFlags, PRELOADS } from "./cli-command";
import { collectRun, type CliRun } from "./cli-run";
import type { HostileLab } from "./lab";

export type ProcessRun = CliRun;

interface StartOptions {
  cacheDir: string;
  env?: Record<string, string>;
  /** A shell line run first in the same shell (the CLI is exec'd after it): `ulimit -f 16`. */
  shell?: string;
  timeoutMs?: number;
}

function quote(word: string): string {
  return `'${word.replace(/'/g, "'\\''")}'`;
}

/**
 * The environment that runs the CLI with its clock `ms` ahead: clock-ahead.cjs (PRELOADS)
 * (the same build as the CLI), preloaded.
 */
export function clockAhead(lab: HostileLab, ms: number): Record<string, string> {
  return {
    NODE_OPTIONS: `--require ${PRELOADS.clockAhead}`,
    CLOCK_OFFSET_MS: String(ms),
  };
}

export function startCli(
  lab: HostileLab,
  args: readonly string[],
  o: StartOptions
): { child: ChildProcess; done: Promise<ProcessRun> } {
  const argv = [
    ...cliNodeFlags(),
    "--require",
    lab.paths.peakRssPath,
    lab.paths.cliPath,
    "eval",
    "--base-url",
    lab.service.url,
    "--cache-dir",
    o.cacheDir,
    ...args,
  ];
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: o.cacheDir,
    CRYPTOMETRICS_API_KEY: lab.key,
    ...o.env,
  };
  const started = Date.now();
  const child = o.shell
    ? spawn("sh", ["-c", `${o.shell}; exec ${[process.execPath, ...argv].map(quote).join(" ")}`], {
        stdio: ["ignore", "pipe", "pipe", "pipe"],
        env,
      })
    : spawn(process.execPath, argv, { stdio: ["ignore", "pipe", "pipe", "pipe"], env });
  const done = collectRun(child, o.timeoutMs ?? 180_000, started);
  return { child, done };
}

export function runCliIn(
  lab: HostileLab,
  args: readonly string[],
  o: StartOptions
): Promise<ProcessRun> {
  return startCli(lab, args, o).done;
}
