/**
 * What a broken or hostile service (and hostile data) is tried with, and the bound each must keep: the
 * attacks found against the add-in, and those it already held. Each runs through the command-line
 * evaluator in its own process (memory measured) or the shared runtime on virtual time (backoff spacing and
 * deadlines measured), and reports what it observed and every bound it broke. `npm run faults` prints them
 * as a table; the hostile-service tests assert them one by one.
 */
import { isDeepStrictEqual } from "node:util";
import { longestKeyRun } from "./echo";
import type { CliOutcome, HostileLab, RuntimeOutcome } from "./lab";
import { CONTROL_TEXTS, FORMULA_TEXTS } from "./payloads";
import { createDataset } from "../../../src/simulator";
import { LAB_START } from "../faults/lab";
import { callFormula, type Formula } from "../faults/workbook";

/** The bound the issue sets for the CLI and the runtime, whatever the service sends. */
export const MAX_RSS_BYTES = 300 * 1_048_576;
/** Far above what each CLI run takes (a few seconds), far below a hang. */
const CLI_TIME_BOUND_MS = 60_000;
/** The client's call deadline (2 min) and a margin: every cell settles by then on virtual time. */
const SETTLE_BOUND_MS = 130_000;

export interface AttackResult {
  attack: string;
  /** Where it was tried: the CLI in its own process, or the runtime on virtual time. */
  through: "CLI" | "runtime" | "functions" | "pages";
  /** One line: what the add-in did. */
  observed: string;
  requests: number;
  /** Real ms for the CLI and the functions, virtual ms for the runtime. */
  ms: number;
  peakRssBytes?: number;
  /** Longest run of the key's characters in everything visible (8 or more is a leak). */
  keyRun: number;
  /** Waits between the attempts of one request (virtual ms), where retries are the point. */
  waitsMs?: number[];
  violations: string[];
}

export interface HostileAttack {
  name: string;
  /** The bound, as the report states it. */
  bound: string;
  run(lab: HostileLab): Promise<AttackResult>;
}

function mb(bytes: number | undefined): string {
  return bytes === undefined ? "?" : `${Math.round(bytes / 1_048_576)} MB`;
}

/** The first line of the CLI's output after the formula line: the whole-result error or first row. */
function firstAnswer(run: CliOutcome): string {
  return run.stdout.split("\n")[1] ?? run.stderr.split("\n")[0] ?? "";
}

function cliChecks(
  run: CliOutcome,
  key: string,
  expect: { requests?: number; message?: RegExp; rss?: boolean }
): string[] {
  const v: string[] = [];
  if (run.killed) v.push(`the CLI was killed after ${run.ms} ms`);
  if (run.ms > CLI_TIME_BOUND_MS) v.push(`the CLI took ${run.ms} ms`);
  if (expect.rss !== false) {
    if (run.peakRssBytes === undefined) v.push("the CLI did not report its memory");
    else if (run.peakRssBytes > MAX_RSS_BYTES) v.push(`peak RSS ${mb(run.peakRssBytes)} > 300 MB`);
  }
  if (expect.requests !== undefined && run.requests !== expect.requests)
    v.push(`${run.requests} requests, expected ${expect.requests}`);
  if (expect.message && !expect.message.test(run.stdout))
    v.push(`output does not match ${String(expect.message)}: ${firstAnswer(run).slice(0, 200)}`);
  const run8 = longestKeyRun(run.stdout + run.stderr, key);
  if (run8 >= 8) v.push(`${run8} characters of the key in the output`);
  if (/Maximum call stack|internal error|MaxListenersExceeded/.test(run.stdout + run.stderr))
    v.push(`crash text in the output: ${(run.stdout + run.stderr).slice(0, 200)}`);
  return v;
}

export function cliResult(
  name: string,
  run: CliOutcome,
  key: string,
  observed: string,
  violations: string[]
): AttackResult {
  return {
    attack: name,
    through: "CLI",
    observed,
    requests: run.requests,
    ms: run.ms,
    peakRssBytes: run.peakRssBytes,
    keyRun: longestKeyRun(run.stdout + run.stderr, key),
    violations,
  };
}

/** Most request starts in any 60 s: the client's limit (60 a minute) must hold whatever the service does. */
const RATE_LIMIT_PER_MINUTE = 60;

export function busiestMinute(startsMs: readonly number[]): number {
  let most = 0;
  let from = 0;
  for (let to = 0; to < startsMs.length; to++) {
    while (startsMs[to] - startsMs[from] >= 60_000) from++;
    most = Math.max(most, to - from + 1);
  }
  return most;
}

export function runtimeResult(
  name: string,
  out: RuntimeOutcome,
  key: string,
  observed: string,
  violations: string[]
): AttackResult {
  const ms = out.cells.reduce((a, c) => Math.max(a, c.ms), 0);
  const keyRun = longestKeyRun(out.visible, key);
  const v = [...violations];
  if (keyRun >= 8) v.push(`${keyRun} characters of the key visible`);
  const busiest = busiestMinute(out.starts.map((s) => s.ms));
  if (busiest > RATE_LIMIT_PER_MINUTE) v.push(`${busiest} requests started within a minute`);
  for (const c of out.cells) {
    if (c.ms > SETTLE_BOUND_MS) v.push(`${c.address} took ${Math.round(c.ms / 1000)} s`);
    if (!c.ok && c.code === "#BUSY!") v.push(`${c.address} never settled`);
  }
  return {
    attack: name,
    through: "runtime",
    observed,
    requests: out.starts.length,
    ms,
    keyRun,
    violations: v,
  };
}

export function message(out: RuntimeOutcome, i = 0): string {
  const c = out.cells[i];
  return c.ok ? "a value" : `${c.code} ${c.message}`;
}

/** Gaps between consecutive request starts, in ms. */
function gaps(startsMs: readonly number[]): number[] {
  return startsMs.slice(1).map((t, i) => t - startsMs[i]);
}

export const PROJECTS_PATH = /^\/v2\/projects$/;

/** What a terminal acts on: controls but LF, C1, bidirectional formatting. */
const UNSAFE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
export const value = (address: string, ...args: unknown[]): Formula => ({
  address,
  name: "VALUE",
  args,
});

export const HOSTILE_ATTACKS: readonly HostileAttack[] = [
  {
    name: "100 MB body, Content-Length announced",
    bound: "too-large before reading, 1 request, < 300 MB",
    run: async (lab) => {
      const run = await lab.cli(["PROJECTS()"], {
        kind: "huge",
        bytes: 100_000_000,
        declared: true,
      });
      return cliResult(
        "100 MB body, Content-Length announced",
        run,
        lab.key,
        firstAnswer(run),
        cliChecks(run, lab.key, {
          requests: 1,
          message: /announced an answer of 95 MB.*limit of 64 MB/,
        })
      );
    },
  },
  {
    name: "600 MB body, chunked",
    bound: "too-large at 64 MB, 1 request, < 300 MB",
    run: async (lab) => {
      const run = await lab.cli(["PROJECTS()"], {
        kind: "huge",
        bytes: 600_000_000,
        declared: false,
      });
      return cliResult(
        "600 MB body, chunked",
        run,
        lab.key,
        firstAnswer(run),
        cliChecks(run, lab.key, { requests: 1, message: /larger than 64 MB/ })
      );
    },
  },
  {
    name: "endless chunked body",
    bound: "too-large at 64 MB, 1 request, < 300 MB",
    run: async (lab) => {
      const run = await lab.cli(["PROJECTS()"], { kind: "endless" });
      return cliResult(
        "endless chunked body",
        run,
        lab.key,
        firstAnswer(run),
        cliChecks(run, lab.key, { requests: 1, message: /larger than 64 MB.*not read/ })
      );
    },
  },
  ...(
    [
      ["Retry-After: 0 on 429", { kind: "retry-after", value: "0", status: 429 }],
      [
        "Retry-After: a past date on 503",
        { kind: "retry-after", value: "Wed, 21 Oct 2015 07:28:00 GMT", status: 503 },
      ],
      ["Retry-After: -1 on 429", { kind: "retry-after", value: "-1", status: 429 }],
    ] as const
  ).map(([name, attack]): HostileAttack => ({
    name,
    bound: "6 attempts, each wait >= 1 s and growing",
    run: async (lab) => {
      const out = await lab.runtime([value("R!A1", "aave", "fees")], attack, PROJECTS_PATH);
      const attempts = out.starts.filter((s) => PROJECTS_PATH.test(s.path)).map((s) => s.ms);
      const spacing = gaps(attempts);
      const v: string[] = [];
      if (attempts.length !== 6) v.push(`${attempts.length} attempts, expected 6`);
      if (spacing.some((g) => g < 1_000)) v.push(`waits of ${spacing.join(", ")} ms: under 1 s`);
      if (spacing.length > 1 && spacing[spacing.length - 1] <= spacing[0])
        v.push(`waits of ${spacing.join(", ")} ms do not grow`);
      if (out.cells[0].ok || !/Refresh/.test(out.cells[0].message)) v.push(`cell: ${message(out)}`);
      const result = runtimeResult(
        name,
        out,
        lab.key,
        `waits ${spacing.map((g) => `${(g / 1000).toFixed(1)}`).join(", ")} s, then ${message(out).slice(0, 60)}`,
        v
      );
      // The attempts of the refused request (the metric list beside it is answered at once).
      return { ...result, requests: attempts.length, waitsMs: spacing };
    },
  })),
  {
    name: "key echoed in an error body (every cut, case, wrapping)",
    bound: "no run of 8 key characters anywhere",
    run: async (lab) => {
      const run = await lab.cli(["PROJECTS()"], { kind: "key-echo", status: 401 });
      const out = await lab.runtime(
        [value("K!A1", "aave", "fees"), { address: "K!A2", name: "PROJECTS", args: [] }],
        { kind: "key-echo", status: 400 }
      );
      const r = cliResult(
        "key echoed in an error body (every cut, case, wrapping)",
        run,
        lab.key,
        `CLI: longest run ${longestKeyRun(run.stdout + run.stderr, lab.key)}; runtime: longest run ${longestKeyRun(out.visible, lab.key)}`,
        cliChecks(run, lab.key, { requests: 1, message: /REDACTED/ })
      );
      const inRuntime = longestKeyRun(out.visible, lab.key);
      if (inRuntime >= 8)
        r.violations.push(`${inRuntime} key characters in cells, logs or diagnostics`);
      r.keyRun = Math.max(r.keyRun, inRuntime);
      return r;
    },
  },
  {
    name: "formulas in names, --format csv",
    bound: "no CSV field starts with = + - @ TAB CR",
    run: async (lab) => {
      const run = await lab.cli(
        ["PROJECTS()"],
        { kind: "names", texts: FORMULA_TEXTS },
        {
          paths: PROJECTS_PATH,
          format: "csv",
        }
      );
      const dangerous = csvFields(run.stdout).filter((f) => /^[=+\-@\t\r]/.test(f));
      const v = cliChecks(run, lab.key, { requests: 1 });
      if (dangerous.length > 0)
        v.push(`${dangerous.length} fields start a formula: ${dangerous[0]}`);
      if (!run.stdout.includes(`'${FORMULA_TEXTS[0]}`.replace(/"/g, '""')))
        v.push("the planted formula is not in the output as inert text");
      return cliResult(
        "formulas in names, --format csv",
        run,
        lab.key,
        `${dangerous.length} formula fields`,
        v
      );
    },
  },
  {
    name: "ESC, BEL, NUL, C1, RLO in names, table output",
    bound: "no control or bidi character printed",
    run: async (lab) => {
      const run = await lab.cli(
        ["PROJECTS()"],
        { kind: "names", texts: CONTROL_TEXTS },
        {
          paths: PROJECTS_PATH,
        }
      );
      const unsafe = (run.stdout + run.stderr).match(UNSAFE) ?? [];
      const v = cliChecks(run, lab.key, { requests: 1 });
      if (unsafe.length > 0) v.push(`${unsafe.length} unsafe characters printed`);
      if (!run.stdout.includes("\ufffd]0;pwned\ufffdAave")) v.push("the placeholder is not shown");
      return cliResult(
        "ESC, BEL, NUL, C1, RLO in names, table output",
        run,
        lab.key,
        `${unsafe.length} unsafe characters`,
        v
      );
    },
  },
  {
    name: "aggregate_by_options nested 6,000 deep",
    bound: "every other field intact; this one bounded text",
    run: async (lab) => {
      const deep = { kind: "deep", depth: 6_000 } as const;
      const paths = /^\/v2\/projects\/aave$/;
      // A current Excel: the fields one by one, and the card (which has no use for the open member).
      const run = await lab.cli(
        ['PROJECT("aave","chains")', 'PROJECT("aave","aggregate_by_options")', 'PROJECT("aave")'],
        deep,
        { paths, format: "json" }
      );
      // An Excel without data types: the whole detail as a table, the deep member one row of it.
      const legacy = await lab.cli(['PROJECT("aave")'], deep, {
        paths,
        format: "json",
        flags: ["--legacy-host"],
      });
      const v = cliChecks(run, lab.key, {}).concat(cliChecks(legacy, lab.key, {}));
      let observed = "unreadable output";
      try {
        const [chains, options, card] = JSON.parse(run.stdout) as unknown[][][];
        if (typeof chains[0][0] !== "string" || !chains[0][0].includes("ethereum"))
          v.push(`chains: ${JSON.stringify(chains)}`);
        const text = String(options[0][0]);
        if (!text.startsWith('{"by":{"by":') || text.length > 4_000)
          v.push(`options: ${text.slice(0, 80)}`);
        const entity = card[0][0] as { type?: unknown; properties?: Record<string, unknown> };
        const properties = Object.keys(entity.properties ?? {}).length;
        if (entity.type !== "Entity" || properties < 10)
          v.push(`card: ${JSON.stringify(entity).slice(0, 120)}`);
        const [table] = JSON.parse(legacy.stdout) as unknown[][][];
        const row = table.find((r) => r[0] === "aggregate_by_options");
        const errors = table.filter((r) => typeof r[1] === "object" && r[1] !== null);
        if (table.length < 10) v.push(`whole detail: ${table.length} rows`);
        if (!row || String(row[1]).length > 4_000) v.push(`detail row: ${String(row?.[1])}`);
        if (errors.length > 0) v.push(`detail rows in error: ${JSON.stringify(errors)}`);
        observed = `chains ok; options ${text.length} characters; card of ${properties} properties; table of ${table.length - 1} fields`;
      } catch {
        v.push(`output: ${run.stdout.slice(0, 200)} / ${legacy.stdout.slice(0, 200)}`);
      }
      return cliResult("aggregate_by_options nested 6,000 deep", run, lab.key, observed, v);
    },
  },
  {
    name: "catalogue of 125,000 projects",
    bound: "PROJECTS lists them all or refuses past Excel's 5 MB; VALUE < 300 MB",
    run: async (lab) => {
      const list = await lab.cli(
        ["PROJECTS()"],
        { kind: "wide", projects: 125_000 },
        {
          paths: PROJECTS_PATH,
          format: "json",
        }
      );
      const one = await lab.cli(
        ['VALUE("aave","fees")'],
        { kind: "wide", projects: 125_000 },
        {
          paths: PROJECTS_PATH,
        }
      );
      const v = cliChecks(list, lab.key, { requests: 1, rss: false }).concat(
        cliChecks(one, lab.key, {})
      );
      let rows = 0;
      try {
        rows = (JSON.parse(list.stdout) as unknown[][][])[0].length;
      } catch {
        v.push(`PROJECTS output: ${list.stdout.slice(0, 200)}`);
      }
      // 125,000 rows of the catalogue are more than Excel takes from one function (5 MB): the CLI, as Excel
      // would, refuses the spill in words rather than print what a workbook could never show.
      const refused = rows === 1 && /over Excel's 5 MB limit/.test(list.stdout);
      if (rows !== 125_001 && !refused) v.push(`PROJECTS gave ${rows} rows`);
      const r = cliResult(
        "catalogue of 125,000 projects",
        one,
        lab.key,
        `PROJECTS ${rows} rows (peak ${mb(list.peakRssBytes)}); VALUE ${firstAnswer(one).slice(0, 30)}`,
        v
      );
      return r;
    },
  },
  {
    name: "every time-series row sent twice",
    bound: "the same figures as a healthy service",
    run: async (lab) => {
      const formulas = [value("D!A1", "aave", "fees", "2025-03-31", "period=quarter")];
      const healthy = await lab.runtime(formulas, { kind: "none" });
      const doubled = await lab.runtime(formulas, { kind: "duplicated-rows" }, /metric/);
      const v: string[] = [];
      const [a, b] = [healthy.cells[0], doubled.cells[0]];
      const same = a.ok && b.ok && isDeepStrictEqual(a.value, b.value);
      if (!same)
        v.push(
          `healthy ${JSON.stringify(healthy.cells[0])}, doubled rows ${JSON.stringify(doubled.cells[0])}`
        );
      return runtimeResult(
        "every time-series row sent twice",
        doubled,
        lab.key,
        same ? "quarter total unchanged" : "quarter total differs",
        v
      );
    },
  },
  {
    name: "a body that trickles (1 byte a second)",
    bound: "settles at the deadline as a timeout",
    run: async (lab) => {
      const out = await lab.runtime(
        [value("S!A1", "aave", "fees")],
        { kind: "slow-body", everyMs: 1_000 },
        PROJECTS_PATH
      );
      const v: string[] = [];
      if (out.cells[0].ok || !/no answer within|deadline/.test(out.cells[0].message))
        v.push(`cell: ${message(out)}`);
      return runtimeResult(
        "a body that trickles (1 byte a second)",
        out,
        lab.key,
        message(out).slice(0, 90),
        v
      );
    },
  },
  {
    name: "connection reset in the middle of the body",
    bound: "network error after the retries",
    run: async (lab) => {
      const out = await lab.runtime(
        [value("C!A1", "aave", "fees")],
        { kind: "reset-mid-body" },
        PROJECTS_PATH
      );
      const v: string[] = [];
      if (out.cells[0].ok || !/network error|unusable/.test(out.cells[0].message))
        v.push(`cell: ${message(out)}`);
      return runtimeResult(
        "connection reset in the middle of the body",
        out,
        lab.key,
        message(out).slice(0, 90),
        v
      );
    },
  },
  {
    name: "redirect to another origin",
    bound: "the key never reaches the other origin",
    run: async (lab) => {
      const out = await lab.runtime(
        [value("X!A1", "aave", "fees")],
        { kind: "redirect", to: lab.elsewhere.url },
        PROJECTS_PATH
      );
      const carried = lab.elsewhere.seen.filter((s) => s.authorization !== undefined).length;
      const v: string[] = [];
      if (lab.elsewhere.seen.length === 0) v.push("the redirect was not followed");
      if (carried > 0) v.push(`${carried} requests to the other origin carried Authorization`);
      return runtimeResult(
        "redirect to another origin",
        out,
        lab.key,
        `${lab.elsewhere.seen.length} requests there, ${carried} with the key; ${message(out).slice(0, 50)}`,
        v
      );
    },
  },
  {
    name: "a range of 1,000,000 project ids",
    bound: "refused in < 100 ms of CPU, before any request",
    run: async (lab) => {
      const column = Array.from({ length: 1_000_000 }, (_, i) => [`project-${i}`]);
      const formula: Formula = { address: "I!A1", name: "METRIC", args: [column, "fees"] };
      // Through the shared runtime: what the cell shows, and that nothing was asked of the service.
      const out = await lab.runtime([formula], { kind: "none" });
      // Then the same call again on that runtime, timed from the call to its answer (the refusal needs no
      // timer, so nothing waits on virtual time): on the real clock, and in CPU time, which is what the
      // call costs whatever else the machine is running.
      const started = performance.now();
      const cpu = process.cpuUsage();
      const refusal = await callFormula(formula, { address: "I!A1", functionName: "METRIC" }).then(
        () => "a value",
        (error: unknown) => (error instanceof Error ? error.message : String(error))
      );
      const used = process.cpuUsage(cpu);
      const wallMs = performance.now() - started;
      const ms = (used.user + used.system) / 1000;
      const v: string[] = [];
      if (ms >= 100) v.push(`refused in ${ms.toFixed(1)} ms of CPU (${wallMs.toFixed(1)} ms)`);
      if (!/at most 500/.test(refusal)) v.push(`refusal: ${refusal}`);
      if (out.starts.length > 0) v.push(`${out.starts.length} requests`);
      if (out.cells[0].ok || out.cells[0].code !== "#VALUE!") v.push(`cell: ${message(out)}`);
      return {
        attack: "a range of 1,000,000 project ids",
        through: "functions",
        observed: `METRIC refused in ${ms.toFixed(1)} ms of CPU (${wallMs.toFixed(1)} ms): ${message(out)}`,
        requests: out.starts.length,
        ms,
        keyRun: 0,
        violations: v,
      };
    },
  },
  {
    name: "METRIC over 50 projects",
    bound: "no MaxListenersExceededWarning",
    run: async (lab) => {
      const projects = createDataset(new Date(LAB_START).toISOString().slice(0, 10))
        .projects.slice(0, 50)
        .map((p) => p.id);
      const run = await lab.cli(
        [`METRIC({${projects.map((p) => `"${p}"`).join(",")}},"fees","2025-01-01","2025-01-03")`],
        { kind: "none" },
        { format: "json" }
      );
      const v = cliChecks(run, lab.key, {});
      return cliResult(
        "METRIC over 50 projects",
        run,
        lab.key,
        run.stderr.includes("MaxListeners") ? "listener warning" : "no warning",
        v
      );
    },
  },
];

/** Fields of an RFC 4180 text (quoted fields unquoted): what a spreadsheet would put in cells. */
function csvFields(text: string): string[] {
  const fields: string[] = [];
  let i = 0;
  while (i < text.length) {
    let field = "";
    if (text[i] === '"') {
      i++;
      for (; i < text.length; i++) {
        if (text[i] === '"' && text[i + 1] === '"') {
          field += '"';
          i++;
        } else if (text[i] === '"') {
          i++;
          break;
        } else field += text[i];
      }
    } else {
      while (i < text.length && text[i] !== "," && text[i] !== "\r" && text[i] !== "\n")
        field += text[i++];
    }
    fields.push(field);
    if (text[i] === ",") i++;
    else if (text[i] === "\r" && text[i + 1] === "\n") i += 2;
    else if (text[i] === "\n") i++;
  }
  return fields;
}
