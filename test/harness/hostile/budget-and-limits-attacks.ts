/**
 * Attacks on the CLI's shared request budget (runs stopped mid-request, a clock an hour ahead, a lock left
 * by a killed run) and on its bounds (formulas nested past the stack, a full disk, a file-size limit,
 * 100,000 lines, array constants and saved entries of millions of elements), and two on the pages (bidi
 * overrides in names, the origins the page may reach). Each was found against the add-in by a red team;
 * each row says what holds now. The CLI runs in its own processes, started as `npm run cli` starts it; a
 * run that needs the minute to pass runs it twelve times faster (CRYPTOMETRICS_TIME_SCALE, a 5 s window).
 */
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDataset } from "../../../src/simulator";
import { neutraliseBidi } from "../../../src/sheet/safe-text";
import { LAB_START } from "../faults/lab";
import { DEFAULT_LIMITS } from "../../../src/client/policy";
import { cliResult, MAX_RSS_BYTES, type AttackResult, type HostileAttack } from "./attacks";
import { repositoryRoot } from "./cli-command";
import type { HostileLab } from "./lab";
import { CONTROL_TEXTS } from "./payloads";
import { clockAhead, runCliIn, startCli, type ProcessRun } from "./security-cli";

/** The service's budget (a minute, scaled here to 5 s). */
const RATE_LIMIT_PER_MINUTE = 60;

const DEMO_IDS = createDataset(new Date(LAB_START).toISOString().slice(0, 10)).projects.map(
  (p) => p.id
);
const SCALE = { CRYPTOMETRICS_TIME_SCALE: "12" };

function scratch(name: string): string {
  return mkdtempSync(join(tmpdir(), `cm-hostile-${name}-`));
}

function file(dir: string, lines: readonly string[]): string {
  const path = join(dir, "model.txt");
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

function fresh(lab: HostileLab, attack: HostileLab["service"]["attack"], paths = /./): void {
  lab.service.attack = attack;
  lab.service.paths = paths;
  lab.service.seen.length = 0;
}

function outcome(lab: HostileLab, run: ProcessRun) {
  return { ...run, requests: lab.service.seen.length };
}

/** The shared record of request starts in the cache directory, or undefined before one is written. */
function record(cacheDir: string): { starts: number[]; open: unknown[] } | undefined {
  try {
    const name = readdirSync(join(cacheDir, "rate")).find((n) => n.endsWith(".json"));
    return name
      ? (JSON.parse(readFileSync(join(cacheDir, "rate", name), "utf8")) as never)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The longest wait beyond a plain run's time that may go unsaid: the 2 s the limiter leaves unsaid, and 1 s. */
const UNSAID_WAIT_MS = 3_000;

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function mb(bytes: number | undefined): string {
  return bytes === undefined ? "?" : `${Math.round(bytes / 1_048_576)} MB`;
}

/** What the CLI may keep for each VALUE line of a model file (100,000 lines within 300 MB). */
const MAX_BYTES_PER_LINE = 2_048;

const STOPS = [
  ["SIGINT", 130],
  ["SIGTERM", 143],
  ["SIGHUP", 129],
  ["SIGKILL", null],
] as const;

/**
 * Slow runs sharing one cache directory, as a team's scripts do: each holds at most its client's exchanges
 * in flight (DEFAULT_LIMITS.maxInFlight), so together they hold the minute's budget open.
 */
const RUNS = Math.ceil(RATE_LIMIT_PER_MINUTE / DEFAULT_LIMITS.maxInFlight);
/** Open starts (of 60) that make the budget full: the next run would wait for them. */
const FULL = RATE_LIMIT_PER_MINUTE - 5;

const STOPPED = STOPS.map(([signal, code]): HostileAttack => ({
  name: `a run stopped by ${signal} mid-request, then one VALUE`,
  bound: "the next run waits the window (5 s, scaled), not 2 min more",
  run: async (lab) => {
    const dir = scratch(`stop-${signal}`);
    const cacheDir = join(dir, "cache");
    // The same VALUE with a cache of its own, before the attack: what starting the CLI costs on this machine
    // at this moment, so the wait measured below is the budget's and not the machine's load.
    fresh(lab, { kind: "none" });
    const control = await runCliIn(lab, ['VALUE("aave","tvl")'], {
      cacheDir: join(dir, "control"),
      env: SCALE,
      timeoutMs: 200_000,
    });
    fresh(lab, { kind: "delay", ms: 30_000 }, /financial-statement/);
    const runs = Array.from({ length: RUNS }, (_, r) => {
      const ids = DEMO_IDS.slice(r * 4, r * 4 + DEFAULT_LIMITS.maxInFlight + 2);
      const path = join(dir, `model-${r}.txt`);
      writeFileSync(path, ids.map((id) => `STATEMENT("${id}","quarter")\n`).join(""));
      return startCli(lab, ["--file", path], { cacheDir, env: SCALE });
    });
    let open = 0;
    for (let i = 0; i < 600 && open < FULL; i++) {
      await new Promise((r) => setTimeout(r, 50));
      open = record(cacheDir)?.open.length ?? 0;
    }
    for (const run of runs) run.child.kill(signal);
    const stopped = await Promise.all(runs.map((run) => run.done));
    const left = record(cacheDir)?.open.length ?? 0;
    fresh(lab, { kind: "none" });
    const next = await runCliIn(lab, ['VALUE("aave","tvl")'], {
      cacheDir,
      env: SCALE,
      timeoutMs: 200_000,
    });
    const v: string[] = [];
    if (open < FULL) v.push(`only ${open} requests were under way`);
    const codes = [...new Set(stopped.map((s) => s.code))];
    if (code !== null && (codes.length !== 1 || codes[0] !== code))
      v.push(`stopped with exit ${codes.join(", ")}, not ${code}`);
    if (next.code !== 0) v.push(`the next run: exit ${next.code} ${next.stderr.slice(0, 120)}`);
    if (next.ms > 10_000) v.push(`the next run took ${seconds(next.ms)}`);
    // A wait long enough to notice is said as a wait for the budget, never as a service unreachable. The
    // wait is the time beyond the control run's: the limiter says waits from 2 s, a second more is slack.
    const waitSaid = /waiting \d+ s for the request budget/.test(next.stderr);
    const waited = next.ms - control.ms;
    if (control.code !== 0) v.push(`the control run: exit ${control.code}`);
    if (waited > UNSAID_WAIT_MS && !waitSaid)
      v.push(`waited ${seconds(waited)} without saying so: ${next.stderr.slice(0, 160)}`);
    if (/could not be reached/.test(next.stdout + next.stderr))
      v.push("said the service could not be reached");
    rmSync(dir, { recursive: true, force: true });
    return cliResult(
      `a run stopped by ${signal} mid-request, then one VALUE`,
      outcome(lab, next),
      lab.key,
      `${RUNS} runs, ${open} requests under way; ${signal === "SIGKILL" ? "killed" : `exit ${codes.join(", ")}`}, ${left} left open; next VALUE ${seconds(next.ms)} (alone ${seconds(control.ms)})${waitSaid ? " (the wait said)" : ""}`,
      v
    );
  },
}));

/** The shared request budget: runs stopped mid-request, a clock ahead, a lock left behind. */
export const BUDGET_ATTACKS: readonly HostileAttack[] = [
  ...STOPPED,
  {
    name: "a run with its clock an hour ahead, then ten STATEMENTs",
    bound: "the future starts dropped: no wait, no #N/A; cache clear empties rate/",
    run: async (lab) => {
      const dir = scratch("clock");
      const cacheDir = join(dir, "cache");
      // The poison is one request per project card plus the catalogue: 50 starts, all inside one minute's
      // budget, so every one of them is still in the record when the run ends (a poison past the budget
      // would wait a minute, and its first starts would leave the record by themselves).
      fresh(lab, { kind: "none" });
      await runCliIn(
        lab,
        [
          "--no-cache",
          "--file",
          file(
            dir,
            DEMO_IDS.map((id) => `PROJECT("${id}","chains")`)
          ),
        ],
        { cacheDir, env: clockAhead(lab, 3_600_000) }
      );
      const poisoned = lab.service.seen.length;
      const future = (record(cacheDir)?.starts ?? []).filter((t) => t > Date.now() + 60_000).length;
      fresh(lab, { kind: "none" });
      const next = await runCliIn(
        lab,
        [
          "--file",
          file(
            dir,
            DEMO_IDS.slice(0, 10).map((id) => `STATEMENT("${id}","month")`)
          ),
        ],
        { cacheDir, timeoutMs: 200_000 }
      );
      const failed = (next.stdout.match(/#N\/A/g) ?? []).length;
      const nextRequests = lab.service.seen.length;
      const cleared = await runCliIn(lab, [], { cacheDir }).then(() =>
        execFileSync(
          process.execPath,
          [lab.paths.cliPath, "cache", "clear", "--cache-dir", cacheDir],
          {
            encoding: "utf8",
          }
        )
      );
      const left = readdirSync(join(cacheDir, "rate")).filter((n) => n.endsWith(".json")).length;
      const v: string[] = [];
      if (poisoned > RATE_LIMIT_PER_MINUTE)
        v.push(`the poison took ${poisoned} requests, more than a minute's budget`);
      if (future < poisoned) v.push(`only ${future} of ${poisoned} starts dated ahead`);
      // Held, the future starts would have left too little budget for the next run: the row tests something.
      if (future + nextRequests <= RATE_LIMIT_PER_MINUTE)
        v.push(`${future} starts ahead and ${nextRequests} next would fit one minute anyway`);
      if (next.ms > 30_000) v.push(`ten STATEMENTs took ${seconds(next.ms)}`);
      if (failed > 0) v.push(`${failed} #N/A`);
      if (left > 0 || !/shared record of request starts/.test(cleared))
        v.push(`cache clear left ${left} records`);
      rmSync(dir, { recursive: true, force: true });
      return cliResult(
        "a run with its clock an hour ahead, then ten STATEMENTs",
        outcome(lab, next),
        lab.key,
        `${future} of ${poisoned} starts dated ahead; ten STATEMENTs (${nextRequests} requests) in ${seconds(next.ms)}, ${failed} #N/A; cache clear leaves ${left} records`,
        v
      );
    },
  },
  {
    name: "a lock left by a killed run",
    bound: "taken over once stale (5 s); the shared record kept",
    run: async (lab) => {
      const dir = scratch("lock");
      const cacheDir = join(dir, "cache");
      fresh(lab, { kind: "none" });
      await runCliIn(lab, ["--no-cache", 'VALUE("aave","tvl")'], { cacheDir });
      for (const name of readdirSync(join(cacheDir, "rate")).filter((n) => n.endsWith(".json")))
        mkdirSync(join(cacheDir, "rate", `${name}.lock`));
      mkdirSync(join(cacheDir, "store.lock"));
      const next = await runCliIn(lab, ['VALUE("aave","fees","2024-02-01")'], { cacheDir });
      const v: string[] = [];
      if (next.code !== 0) v.push(`exit ${next.code}`);
      if (/shared record of request starts failed/.test(next.stderr))
        v.push("the shared record was given up");
      if (next.ms > 12_000) v.push(`took ${seconds(next.ms)}`);
      rmSync(dir, { recursive: true, force: true });
      return cliResult(
        "a lock left by a killed run",
        outcome(lab, next),
        lab.key,
        `next run ${seconds(next.ms)}; shared record ${/failed/.test(next.stderr) ? "given up" : "kept"}`,
        v
      );
    },
  },
];

/** The CLI's bounds (nesting, disk, lines, array constants, saved entries) and the pages' text and origins. */
export const LIMIT_ATTACKS: readonly HostileAttack[] = [
  {
    name: "formulas nested past the stack in a model file",
    bound: "each refused on its line; the others printed",
    run: async (lab) => {
      const dir = scratch("deep");
      fresh(lab, { kind: "none" });
      const lines = [
        'VALUE("aave","tvl")',
        `VALUE("aave","fees",${"(".repeat(2_000)}"2024-01-15"${")".repeat(2_000)})`,
        `VALUE("aave","fees","2024-01-15"${'&""'.repeat(4_000)})`,
        'VALUE("aave","fees","2024-01-15")',
      ];
      const run = await runCliIn(lab, ["--file", file(dir, lines)], {
        cacheDir: join(dir, "cache"),
      });
      const refused = (run.stdout.match(/^#USAGE .*nested too deeply/gm) ?? []).length;
      const values = (run.stdout.match(/^\d[\d.]*$/gm) ?? []).length;
      const v: string[] = [];
      if (run.code !== 2) v.push(`exit ${run.code}`);
      if (refused !== 2 || values !== 2) v.push(`${refused} refused, ${values} values`);
      rmSync(dir, { recursive: true, force: true });
      return cliResult(
        "formulas nested past the stack in a model file",
        outcome(lab, run),
        lab.key,
        `exit ${run.code}: ${refused} lines refused (nested too deeply), ${values} values printed`,
        v
      );
    },
  },
  ...(["ulimit -f 16", "a full 64 KB disk"] as const).map((limit): HostileAttack => ({
    name: `saving answers under ${limit}`,
    bound: "every result printed, exit 0, no half entry kept",
    run: async (lab) => {
      const dir = scratch("disk");
      fresh(lab, { kind: "none" });
      const formulas = [
        "--format",
        "json",
        "PROJECTS()",
        'METRIC("aave","fees","2020-01-01","2024-12-31")',
      ];
      const healthy = await runCliIn(lab, ["--no-cache", ...formulas], {
        cacheDir: join(dir, "healthy"),
      });
      const v: string[] = [];
      let cacheDir = join(dir, "cache");
      let mounted = false;
      if (limit !== "ulimit -f 16") {
        if (process.getuid?.() !== 0) v.push("needs root, to mount a small tmpfs");
        else {
          mkdirSync(join(dir, "tiny"));
          execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", join(dir, "tiny")]);
          mounted = true;
          cacheDir = join(dir, "tiny", "cache");
        }
      }
      fresh(lab, { kind: "none" });
      const run = await runCliIn(lab, formulas, {
        cacheDir,
        ...(limit === "ulimit -f 16" ? { shell: "ulimit -f 16" } : {}),
      });
      const entries = existsSync(join(cacheDir, "entries"))
        ? readdirSync(join(cacheDir, "entries"))
        : [];
      const broken = entries.filter((name) => {
        try {
          JSON.parse(readFileSync(join(cacheDir, "entries", name), "utf8"));
          return !/^[0-9a-f]{64}\.json$/.test(name);
        } catch {
          return true;
        }
      });
      if (mounted) execFileSync("umount", [join(dir, "tiny")]);
      if (run.code !== 0 || run.signal) v.push(`exit ${run.code ?? run.signal}`);
      if (run.stdout !== healthy.stdout) v.push("results differ from a healthy run");
      if (broken.length > 0) v.push(`${broken.length} broken entries kept`);
      rmSync(dir, { recursive: true, force: true });
      return cliResult(
        `saving answers under ${limit}`,
        outcome(lab, run),
        lab.key,
        `exit ${run.code ?? run.signal}; results ${run.stdout === healthy.stdout ? "all printed" : "differ"}; ${entries.length - broken.length} whole entries, ${broken.length} broken; ${(/could not be saved on this computer \((E[A-Z]+)/.exec(run.stderr) ?? [])[1] ?? "nothing"} said`,
        v
      );
    },
  })),
  {
    name: "100,000 VALUE lines",
    bound: "< 300 MB, ≤ 2 kB kept a line, every line printed",
    run: async (lab) => {
      const dir = scratch("lines");
      fresh(lab, { kind: "none" });
      const metrics = ["fees", "revenue", "tvl", "user_dau"];
      const lines = Array.from({ length: 100_000 }, (_, i) => {
        const id = DEMO_IDS[i % DEMO_IDS.length];
        const metric = metrics[Math.floor(i / DEMO_IDS.length) % metrics.length];
        const day = new Date(
          Date.UTC(2023, 0, 1) + Math.floor(i / (DEMO_IDS.length * metrics.length)) * 86_400_000
        );
        return `VALUE("${id}","${metric}","${day.toISOString().slice(0, 10)}")`;
      });
      // The first 20,000 lines alone first: what a line adds is the difference over the 80,000 more (the
      // runtime, the chunk of pending calls and the heap's slack are in both).
      const fewer = await runCliIn(
        lab,
        ["--format", "csv", "--file", file(dir, lines.slice(0, 20_000))],
        { cacheDir: join(dir, "cache-fewer"), timeoutMs: 300_000 }
      );
      fresh(lab, { kind: "none" });
      const run = await runCliIn(lab, ["--format", "csv", "--file", file(dir, lines)], {
        cacheDir: join(dir, "cache"),
        timeoutMs: 300_000,
      });
      const perLine =
        run.peakRssBytes !== undefined && fewer.peakRssBytes !== undefined
          ? (run.peakRssBytes - fewer.peakRssBytes) / 80_000
          : undefined;
      // CSV: one table per formula, a blank line between them, each labelled by a "# " line holding its
      // formula (one field, so quoted when the formula has quotes); here each a single number.
      const tables =
        run.stdout === ""
          ? []
          : run.stdout.split("\r\n\r\n").map((t) => t.replace(/^"?# [^\r\n]*\r\n/, ""));
      const printed = tables.length;
      const numbers = tables.filter((t) => /^-?\d[\d.e+-]*(\r\n)?$/.test(t)).length;
      // The rest: #N/A saying why (a metric a project does not have, a day without a value).
      const reasoned = tables.filter((t) => /^#N\/A\r\n"?# #N\/A /.test(t)).length;
      const v = runChecks(run, { rss: true });
      if (printed !== lines.length) v.push(`${printed} of ${lines.length} results printed`);
      if (numbers + reasoned !== printed)
        v.push(`${printed - numbers - reasoned} results neither a number nor #N/A saying why`);
      if (perLine === undefined) v.push("the 20,000-line run did not report its memory");
      else if (perLine > MAX_BYTES_PER_LINE)
        v.push(`${Math.round(perLine)} bytes kept a line > ${MAX_BYTES_PER_LINE}`);
      rmSync(dir, { recursive: true, force: true });
      return {
        ...cliResult(
          "100,000 VALUE lines",
          outcome(lab, run),
          lab.key,
          `${printed} printed (${numbers} numbers, ${reasoned} #N/A); peak ${mb(run.peakRssBytes)}, 20,000: ${mb(fewer.peakRssBytes)}; ${perLine === undefined ? "?" : (perLine / 1024).toFixed(2)} kB a line`,
          v
        ),
      };
    },
  },
  {
    name: "an array constant of 100,000 elements",
    bound: "refused before it is built (as 5,001); the other lines run",
    run: async (lab) => {
      const dir = scratch("array");
      fresh(lab, { kind: "none" });
      const constant = (n: number) =>
        `VALUE({${Array.from({ length: n }, (_, i) => `"${DEMO_IDS[i % DEMO_IDS.length]}"`).join(",")}},"fees","2024-01-01")`;
      // 100,000 elements are past the length limit; 5,001 short ones fit in it and are past the count.
      const run = await runCliIn(
        lab,
        ["--file", file(dir, [constant(100_000), constant(5_001), 'VALUE("aave","tvl")'])],
        { cacheDir: join(dir, "cache") }
      );
      const v = runChecks(run, { rss: true });
      const long = /^#USAGE .*characters long; at most 100,000 are read/m.test(run.stdout);
      const many = /^#USAGE .*an array constant holds at most 5,000 elements/m.test(run.stdout);
      const values = (run.stdout.match(/^\d[\d.]*$/gm) ?? []).length;
      if (!long) v.push("100,000 elements not refused as too long");
      if (!many) v.push("5,001 elements not refused as too many");
      if (values !== 1) v.push(`${values} values printed, expected the one other line's`);
      if (run.ms > 10_000) v.push(`took ${seconds(run.ms)}`);
      rmSync(dir, { recursive: true, force: true });
      return cliResult(
        "an array constant of 100,000 elements",
        outcome(lab, run),
        lab.key,
        `100,000: ${long ? "refused as too long" : "run"}; 5,001: ${many ? "refused as too many" : "run"}; other line ${values === 1 ? "printed" : "missing"}; ${seconds(run.ms)}, peak ${mb(run.peakRssBytes)}`,
        v
      );
    },
  },
  {
    name: "an array constant of 5,000 ids lifted into VALUE",
    bound: "< 300 MB",
    run: async (lab) => {
      const dir = scratch("lifted");
      fresh(lab, { kind: "none" });
      const ids = Array.from(
        { length: 5_000 },
        (_, i) => `"${DEMO_IDS[i % DEMO_IDS.length]}"`
      ).join(",");
      const run = await runCliIn(lab, ["--format", "json", `VALUE({${ids}},"fees","2024-01-01")`], {
        cacheDir: join(dir, "cache"),
      });
      const v = runChecks(run, { rss: true });
      let width = 0;
      try {
        width = (JSON.parse(run.stdout) as unknown[][][])[0][0].length;
      } catch {
        v.push(`output: ${run.stdout.slice(0, 100)}`);
      }
      if (width !== 5_000) v.push(`${width} values`);
      rmSync(dir, { recursive: true, force: true });
      return cliResult(
        "an array constant of 5,000 ids lifted into VALUE",
        outcome(lab, run),
        lab.key,
        `${width} values; peak ${mb(run.peakRssBytes)}`,
        v
      );
    },
  },
  {
    name: "two saved entries of 2,000,000 points each",
    bound: "dropped unread (over 8 MB), fetched afresh; < 300 MB",
    run: async (lab) => {
      const dir = scratch("entries");
      const cacheDir = join(dir, "cache");
      fresh(lab, { kind: "none" });
      const formulas = [
        'METRIC("aave","fees","2024-01-01","2024-01-31")',
        'METRIC("uniswap","fees","2024-01-01","2024-01-31")',
      ];
      const first = await runCliIn(lab, formulas, { cacheDir });
      const inflated = inflateSeries(join(cacheDir, "entries"), 2_000_000);
      fresh(lab, { kind: "none" });
      const run = await runCliIn(lab, formulas, { cacheDir });
      const v = runChecks(run, { rss: true });
      if (inflated < 2) v.push(`${inflated} entries inflated`);
      if (run.stdout !== first.stdout) v.push("results differ");
      rmSync(dir, { recursive: true, force: true });
      return cliResult(
        "two saved entries of 2,000,000 points each",
        outcome(lab, run),
        lab.key,
        `${inflated} entries of ~${mb(2_000_000 * 16)} on disk; results ${run.stdout === first.stdout ? "the same" : "differ"}; peak ${mb(run.peakRssBytes)}`,
        v
      );
    },
  },
  {
    name: "bidi overrides in names, shown by the pages",
    bound: "every override shown as U+FFFD, as the CLI does",
    run: () => {
      const started = performance.now();
      const names = CONTROL_TEXTS.concat([
        "Aave \u202egnp.exe\u202c",
        "\u2067isolated\u2069",
        "\u200fmark",
      ]);
      const shown = names.map(neutraliseBidi);
      const left = shown.filter((t) =>
        /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/.test(t)
      ).length;
      const result: AttackResult = {
        attack: "bidi overrides in names, shown by the pages",
        through: "pages",
        observed: `${left} of ${names.length} names keep a bidi control ("Aave \u202egnp.exe\u202c" shows as "${shown[names.length - 3]}")`,
        requests: 0,
        ms: performance.now() - started,
        keyRun: 0,
        violations: left > 0 ? [`${left} names keep a bidi control`] : [],
      };
      return Promise.resolve(result);
    },
  },
  {
    name: "the origins a deployed page may send requests to",
    bound: "its own and its service's only (connect-src)",
    run: () => {
      const started = performance.now();
      const saved = { ...process.env };
      let connect = "";
      try {
        process.env.ADDIN_ORIGIN = "https://addin.example.com";
        process.env.CRYPTOMETRICS_BASE_URL = "https://api.example.com";
        delete process.env.CRYPTOMETRICS_CONNECT_ORIGINS;
        // The build's own configuration, as webpack loads it.
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const make = require(join(repositoryRoot(), "webpack.config.js")) as (
          env: unknown,
          argv: { mode: string }
        ) => {
          plugins: Array<{
            userOptions?: { filename?: string; templateParameters?: { csp?: string } };
          }>;
        };
        const page = make({}, { mode: "production" }).plugins.find(
          (p) => p.userOptions?.filename === "taskpane.html"
        );
        connect =
          page?.userOptions?.templateParameters?.csp
            ?.split("; ")
            .find((d) => d.startsWith("connect-src")) ?? "";
      } finally {
        process.env = saved;
      }
      const v = connect === "connect-src 'self' https://api.example.com" ? [] : [`${connect}`];
      return Promise.resolve({
        attack: "the origins a deployed page may send requests to",
        through: "pages",
        observed: connect,
        requests: 0,
        ms: performance.now() - started,
        keyRun: 0,
        violations: v,
      } satisfies AttackResult);
    },
  },
];

export const BUDGET_AND_LIMIT_ATTACKS: readonly HostileAttack[] = [
  ...BUDGET_ATTACKS,
  ...LIMIT_ATTACKS,
];

/** What every CLI run must keep: not killed, no crash text, memory (when measured) under 300 MB. */
function runChecks(run: ProcessRun, o: { rss: boolean }): string[] {
  const v: string[] = [];
  if (run.killed) v.push(`killed after ${seconds(run.ms)}`);
  if (run.signal) v.push(`ended by ${run.signal}`);
  if (/Maximum call stack|internal error|heap out of memory/.test(run.stdout + run.stderr))
    v.push(`crash text: ${(run.stdout + run.stderr).slice(0, 160)}`);
  if (o.rss) {
    if (run.peakRssBytes === undefined) v.push("the CLI did not report its memory");
    else if (run.peakRssBytes > MAX_RSS_BYTES) v.push(`peak RSS ${mb(run.peakRssBytes)} > 300 MB`);
  }
  return v;
}

/**
 * Rewrites every saved series entry to hold `points` daily points (the days before its own, value 1), as a
 * cache written by an older build, or planted, would: an envelope that still opens as a series entry.
 */
function inflateSeries(entries: string, points: number): number {
  let inflated = 0;
  for (const name of readdirSync(entries)) {
    const path = join(entries, name);
    const envelope = JSON.parse(readFileSync(path, "utf8")) as {
      section?: string;
      body?: { current?: { dims?: Array<[string, number[], Array<number | null>]> } };
    };
    const dims = envelope.body?.current?.dims;
    if (envelope.section !== "series" || !dims || dims.length === 0) continue;
    const [dim, days, values] = dims[0];
    const first = days.length > 0 ? days[0] : 20_000;
    const more = Array.from(
      { length: points - days.length },
      (_, i) => first - (points - days.length) + i
    );
    dims[0] = [dim, more.concat(days), (more.map(() => 1) as Array<number | null>).concat(values)];
    writeFileSync(path, JSON.stringify(envelope));
    inflated++;
  }
  return inflated;
}
