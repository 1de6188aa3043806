/**
 * The request budget CLI runs share (the record in <cache dir>/rate) heals, with the built CLI as users run
 * it against the simulator: a run stopped by Ctrl-C, kill or a closed terminal reports its requests under
 * way before it exits; one killed outright (SIGKILL) leaves them open under its pid, and the next run takes
 * them as answered once it sees the process is gone; a run whose clock was an hour ahead leaves starts the
 * next run drops. Checked on the record itself, not on timings.
 *
 * Real time, on purpose: each run is a CLI process of its own, stopped by a real signal while its requests are
 * under way (answers that take 4 s leave it the time to be caught there); the clock ahead is the process's
 * own (a preload), not a fake one.
 */
import { DEFAULT_LIMITS } from "../../src/client/policy";
import { spawn } from "child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "fs";
import { hostname, tmpdir } from "os";
import { join } from "path";
import { FileStartLedger } from "../../src/cli/cache/file-ledger";
import { isGone, pidExists, startedOf } from "../../src/cli/cache/process-identity";
import { namespaceSource } from "../../src/runtime/cache-namespace";
import {
  createDataset,
  DEMO_API_KEY,
  startSimulator,
  type RunningSimulator,
} from "../../src/simulator";
import type { LedgerRecord, OpenStart } from "../../src/client";
import type { ProcessIdentity } from "../../src/cli/cache/process-identity";
import { MAX_CLOCK_SKEW_MS } from "../../src/client/http/rate-limiter";
import { PRELOADS } from "../harness/hostile/cli-command";
import { builtCli } from "../support/node-build";

/** The built CLI (test/support/node-build.ts): dist/node/cli/main.js after npm test's build. */
let CLI: string;
const CLOCK_AHEAD = PRELOADS.clockAhead;

let slow: RunningSimulator;
let fast: RunningSimulator;
let projects: string[];

beforeAll(async () => {
  CLI = await builtCli();
  // Answers take 4 s: a run's requests are under way long enough to be interrupted.
  slow = await startSimulator({ port: 0, rateLimit: null, latencyMs: 4_000 });
  fast = await startSimulator({ port: 0, rateLimit: null });
  projects = createDataset(new Date().toISOString().slice(0, 10))
    .projects.slice(0, 12)
    .map((p) => p.id);
});
afterAll(async () => {
  await slow?.close();
  await fast?.close();
});

function freshDir(): string {
  return mkdtempSync(join(tmpdir(), "cm-budget-"));
}

function statements(dir: string, ids: readonly string[]): string {
  const file = join(dir, "statements.txt");
  writeFileSync(file, ids.map((id) => `STATEMENT("${id}","quarter")`).join("\n"));
  return file;
}

/** The shared record of request starts of the run's service and key, as it is on disk. */
type ProcessRecord = LedgerRecord<ProcessIdentity> & { version: number };

function ledgerRecord(cacheDir: string): ProcessRecord {
  const names = readdirSync(join(cacheDir, "rate")).filter((n) => n.endsWith(".json"));
  expect(names).toHaveLength(1);
  return JSON.parse(readFileSync(join(cacheDir, "rate", names[0]), "utf8")) as ProcessRecord;
}

interface Run {
  pid: number;
  done: Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stdout: string;
    stderr: string;
  }>;
}

function start(
  sim: RunningSimulator,
  cacheDir: string,
  args: string[],
  env: Record<string, string> = {}
): Run {
  const child = spawn(process.execPath, [CLI, "eval", "--cache-dir", cacheDir, ...args], {
    env: {
      PATH: process.env.PATH ?? "",
      CRYPTOMETRICS_BASE_URL: sim.url,
      CRYPTOMETRICS_API_KEY: DEMO_API_KEY,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return {
    pid: child.pid as number,
    done: new Promise((done) =>
      child.on("close", (code, signal) => done({ code, signal, stdout, stderr }))
    ),
  };
}

/** Waits until the record holds at least `n` open starts (the run's requests are under way). */
async function untilOpen(cacheDir: string, n: number): Promise<ProcessRecord> {
  for (let i = 0; i < 300; i++) {
    try {
      const record = ledgerRecord(cacheDir);
      if (record.open.length >= n) return record;
    } catch {
      // Not written yet.
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the record never held ${n} open starts`);
}

/** Exchanges a client holds at once: a run of ten STATEMENTs on a slow service holds this many open. */
const IN_FLIGHT = DEFAULT_LIMITS.maxInFlight;

describe("a run stopped while its requests are under way", () => {
  it.each([
    ["SIGINT", 130, "cryptometrics: interrupted\n"],
    ["SIGTERM", 143, "cryptometrics: interrupted (SIGTERM)\n"],
    ["SIGHUP", 129, "cryptometrics: interrupted (SIGHUP)\n"],
  ] as const)(
    "%s: exits %i, its open starts reported as answered",
    async (signal, code, said) => {
      const dir = freshDir();
      const run = start(slow, join(dir, "cache"), [
        "--file",
        statements(dir, projects.slice(0, 10)),
      ]);
      const before = await untilOpen(join(dir, "cache"), IN_FLIGHT);
      expect(before.open.every((o) => o.process?.pid === run.pid)).toBe(true);
      process.kill(run.pid, signal);
      const ended = await run.done;
      expect({ code: ended.code, stderr: ended.stderr }).toEqual({ code, stderr: said });
      const after = ledgerRecord(join(dir, "cache"));
      expect(after.open).toEqual([]);
      expect(after.starts.length).toBeGreaterThanOrEqual(IN_FLIGHT);
    },
    60_000
  );

  it("SIGKILL: its open starts stay under its pid, and the next claim takes them as answered just after they were made", async () => {
    const dir = freshDir();
    const cache = join(dir, "cache");
    const run = start(slow, cache, ["--file", statements(dir, projects.slice(0, 10))]);
    const before = await untilOpen(cache, IN_FLIGHT);
    process.kill(run.pid, "SIGKILL");
    await run.done;
    const left = ledgerRecord(cache);
    expect(left.open.length).toBeGreaterThanOrEqual(IN_FLIGHT);
    expect(left.open.every((o: OpenStart<ProcessIdentity>) => isGone(o))).toBe(true);
    // The next process's claim, as its limiter makes it.
    const ledger = new FileStartLedger(cache, namespaceSource(slow.url, DEMO_API_KEY));
    const now = Date.now();
    const claimed = await ledger.claim({
      limit: 60,
      spanMs: 61_000,
      now: () => now,
      wanted: 1,
      owner: "next",
      openMs: 120_000,
    });
    expect(claimed).toEqual({ granted: 1, waitMs: 0 });
    const healed = ledgerRecord(cache);
    expect(healed.open.map((o) => o.owner)).toEqual(["next"]);
    const claimedAt = before.open.reduce((t, o) => Math.max(t, o.at), 0);
    // Each counts from its claim and the allowance, not for two minutes more.
    expect(healed.starts.reduce((a, b) => Math.max(a, b), 0)).toBeLessThanOrEqual(
      claimedAt + 2_000
    );
  }, 60_000);
});

describe("the process behind an open start", () => {
  it("is gone once it has exited, or when its pid now belongs to a process started later", async () => {
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"]);
    const pid = child.pid as number;
    const identity = { pid, host: hostname(), started: startedOf(pid) };
    expect(identity.started).toMatch(/^\d+$/);
    expect(isGone({ owner: "x", at: 0, process: identity })).toBe(false);
    expect(isGone({ owner: "x", at: 0, process: { ...identity, started: "1" } })).toBe(true);
    expect(isGone({ owner: "x", at: 0, process: { ...identity, host: "elsewhere" } })).toBe(false);
    expect(isGone({ owner: "x", at: 0 })).toBe(false);
    child.kill("SIGKILL");
    await new Promise((r) => child.on("close", r));
    expect(pidExists(pid)).toBe(false);
    expect(isGone({ owner: "x", at: 0, process: identity })).toBe(true);
  });
});

describe("a run whose clock was an hour ahead", () => {
  it("leaves 60 starts dated an hour ahead, which the next run drops: its 10 statements do not wait", async () => {
    const dir = freshDir();
    const cache = join(dir, "cache");
    const ahead = start(fast, cache, ["--no-cache", "--file", statements(dir, projects)], {
      NODE_OPTIONS: `--require ${CLOCK_AHEAD}`,
    });
    await ahead.done;
    const poisoned = ledgerRecord(cache);
    const future = (r: LedgerRecord) =>
      r.starts.filter((t) => t > Date.now() + MAX_CLOCK_SKEW_MS).length +
      r.open.filter((o) => o.at > Date.now() + MAX_CLOCK_SKEW_MS).length;
    expect(future(poisoned)).toBeGreaterThanOrEqual(12);
    // Fill the rest of the minute from the future too, as a long run would.
    const filled = {
      ...poisoned,
      starts: Array.from({ length: 60 }, (_, i) => Date.now() + 3_600_000 + i),
    };
    const name = readdirSync(join(cache, "rate")).find((n) => n.endsWith(".json")) as string;
    writeFileSync(join(cache, "rate", name), JSON.stringify(filled));
    const next = await start(fast, cache, ["--file", statements(dir, projects.slice(0, 10))]).done;
    expect(next.stderr).toBe("");
    expect(next.code).toBe(0);
    expect(next.stdout).not.toMatch(/#N\/A|#VALUE!/);
    expect(future(ledgerRecord(cache))).toBe(0);
  }, 60_000);
});
