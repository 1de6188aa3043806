/**
 * Attacks on what the CLI keeps and shows outside its results: the key (on a command line, in npm's debug
 * log, echoed back hidden by invisible characters or in base64), the cache directory (another user's, one
 * with links planted in it) and the figures it prints when the service refuses the key or fails (stale).
 * Each was found against the add-in (a red team with a hostile proxy in front of the simulator); each row
 * says what holds now. Through the CLI in its own processes, started as `npm run cli` starts it.
 */
import { spawn } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliResult, message, value, type HostileAttack } from "./attacks";
import { repositoryRoot } from "./cli-command";
import { exposedKeyRun } from "./hidden-key";
import type { HostileLab } from "./lab";
import { clockAhead, runCliIn, type ProcessRun } from "./security-cli";
import { thisRunsProcesses } from "../../support/process-list";

const OTHER_UID = 65534;
const OTHERS_DIRECTORY =
  "another user's world-writable cache directory, usage.json linked to a victim";
const FORMULAS = ['VALUE("aave","tvl")', 'VALUE("aave","fees","2024-01-15")'];
const DAY_MS = 86_400_000;

function scratch(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `cm-hostile-${name}-`));
  chmodSync(dir, 0o755);
  return dir;
}

/** As cli-run.ts reports a CLI run, with the requests the service saw. */
function asOutcome(lab: HostileLab, run: ProcessRun, requests = lab.service.seen.length) {
  return { ...run, requests };
}

/** Every shown text of a run: where a key would leak. */
function shown(run: ProcessRun): string {
  return run.stdout + run.stderr;
}

/** `npm run --silent cli -- eval …` in a home of its own; the process list sampled while it runs. */
function npmRun(
  lab: HostileLab,
  args: readonly string[],
  env: Record<string, string> = {}
): Promise<ProcessRun & { processList: string; npmLogs: string }> {
  const home = scratch("npm-home");
  const started = Date.now();
  const child = spawn(
    "npm",
    ["run", "--silent", "cli", "--", "eval", "--base-url", lab.service.url, ...args],
    {
      cwd: repositoryRoot(),
      env: {
        PATH: process.env.PATH ?? "",
        HOME: home,
        npm_config_cache: join(home, ".npm"),
        CRYPTOMETRICS_CACHE_DIR: join(home, "cache"),
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    }
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  let processList = "";
  const sampler = setInterval(() => {
    processList += thisRunsProcesses(child.pid, lab.service.url);
  }, 150);
  return new Promise((resolve) =>
    child.on("close", (code, signal) => {
      clearInterval(sampler);
      const logs = join(home, ".npm", "_logs");
      const npmLogs = existsSync(logs)
        ? readdirSync(logs)
            .map((f) => readFileSync(join(logs, f), "utf8"))
            .join("\n")
        : "";
      rmSync(home, { recursive: true, force: true });
      resolve({
        code,
        signal,
        stdout,
        stderr,
        ms: Date.now() - started,
        peakRssBytes: undefined,
        killed: false,
        processList,
        npmLogs,
      });
    })
  );
}

export const KEY_AND_CACHE_ATTACKS: readonly HostileAttack[] = [
  {
    name: "the key on a command line: ps and npm's debug log",
    bound: "--api-key-file: the key in neither; --api-key: warned",
    run: async (lab) => {
      lab.service.attack = { kind: "delay", ms: 1_500 };
      lab.service.paths = /./;
      lab.service.seen.length = 0;
      const dir = scratch("key");
      const file = join(dir, "key");
      writeFileSync(file, `${lab.key}\n`, { mode: 0o600 });
      const safe = await npmRun(lab, ["--api-key-file", file, FORMULAS[0]]);
      const flagged = await npmRun(lab, ["--api-key", lab.key, FORMULAS[0]]);
      rmSync(dir, { recursive: true, force: true });
      const count = (text: string) => text.split(lab.key).length - 1;
      const v: string[] = [];
      if (safe.code !== 0 || !/^=CRYPTO\.VALUE/.test(safe.stdout))
        v.push(`--api-key-file run: exit ${safe.code} ${safe.stderr.slice(0, 120)}`);
      if (!safe.processList.includes("cli/main.js eval")) v.push("the run was not seen running");
      if (count(safe.processList) > 0) v.push(`the key in ps ${count(safe.processList)} times`);
      if (count(safe.npmLogs) > 0) v.push(`the key in npm's log ${count(safe.npmLogs)} times`);
      if (!/warning: --api-key puts the key on the command line/.test(flagged.stderr))
        v.push(`--api-key without a warning: ${flagged.stderr.slice(0, 120)}`);
      const r = cliResult(
        "the key on a command line: ps and npm's debug log",
        asOutcome(lab, safe),
        lab.key,
        `--api-key-file: in ps ${count(safe.processList)}×, npm's log ${count(safe.npmLogs)}×; --api-key: warned, in ps ${count(flagged.processList) > 0 ? "yes" : "no"}, npm's log ${count(flagged.npmLogs)}×`,
        v
      );
      return { ...r, peakRssBytes: undefined };
    },
  },
  {
    name: OTHERS_DIRECTORY,
    bound: "not used, said so; the victim untouched",
    run: async (lab) => {
      lab.service.attack = { kind: "none" };
      lab.service.seen.length = 0;
      const base = scratch("owner");
      const dir = join(base, "theirs");
      mkdirSync(dir);
      const victim = join(base, "bashrc");
      writeFileSync(victim, "export PS1='victim'\n");
      symlinkSync(victim, join(dir, "usage.json"));
      const v: string[] = [];
      let run: ProcessRun | undefined;
      if (process.getuid?.() !== 0) {
        v.push("needs root, to give the directory to another user (uid 65534)");
      } else {
        chmodSync(dir, 0o777);
        chownSync(dir, OTHER_UID, OTHER_UID);
        run = await runCliIn(lab, FORMULAS, { cacheDir: dir });
        if (run.code !== 0) v.push(`exit ${run.code}`);
        if (
          !/not using the cache directory .*: it belongs to another user \(uid 65534\)/.test(
            run.stderr
          )
        )
          v.push(`stderr: ${run.stderr.slice(0, 160)}`);
        if (readFileSync(victim, "utf8") !== "export PS1='victim'\n")
          v.push("the victim was written");
        if (readdirSync(dir).length !== 1) v.push(`created there: ${readdirSync(dir).join(", ")}`);
      }
      rmSync(base, { recursive: true, force: true });
      const observed = run
        ? `exit ${run.code}; ${/not using the cache directory/.test(run.stderr) ? "not used, said on stderr" : "used"}; victim ${v.some((x) => /victim/.test(x)) ? "written" : "untouched"}`
        : "not run (needs root)";
      return run
        ? cliResult(OTHERS_DIRECTORY, asOutcome(lab, run), lab.key, observed, v)
        : {
            attack: OTHERS_DIRECTORY,
            through: "CLI",
            observed,
            requests: 0,
            ms: 0,
            keyRun: 0,
            violations: v,
          };
    },
  },
  {
    name: "every file of the user's own cache directory replaced by a link to a victim",
    bound: "no victim read or written; same results",
    run: async (lab) => {
      lab.service.attack = { kind: "none" };
      lab.service.seen.length = 0;
      const base = scratch("links");
      const dir = join(base, "cache");
      const first = await runCliIn(lab, FORMULAS, { cacheDir: dir });
      const files = ["usage.json"]
        .concat(readdirSync(join(dir, "entries")).map((f) => join("entries", f)))
        .concat(
          readdirSync(join(dir, "rate"))
            .filter((f) => f.endsWith(".json"))
            .map((f) => join("rate", f))
        );
      const victims = files.map((file, i) => {
        const victim = join(base, `victim-${i}`);
        writeFileSync(victim, `victim ${i}\n`);
        rmSync(join(dir, file));
        symlinkSync(victim, join(dir, file));
        return victim;
      });
      const run = await runCliIn(lab, FORMULAS, {
        cacheDir: dir,
        env: clockAhead(lab, DAY_MS),
      });
      const touched = victims.filter((p, i) => readFileSync(p, "utf8") !== `victim ${i}\n`);
      const v: string[] = [];
      if (run.code !== 0 || run.stdout !== first.stdout)
        v.push(`results: ${run.stdout.slice(0, 120)}`);
      if (touched.length > 0) v.push(`${touched.length} victims written`);
      rmSync(base, { recursive: true, force: true });
      return cliResult(
        "every file of the user's own cache directory replaced by a link to a victim",
        asOutcome(lab, run),
        lab.key,
        `${files.length} links planted; ${touched.length} victims written; results ${run.stdout === first.stdout ? "the same" : "differ"}`,
        v
      );
    },
  },
  ...([401, 402, 403] as const).map((status): HostileAttack => ({
    name: `the key or plan refused (${status}) the day after a filled cache`,
    bound: "every result an error saying so; no figure, nothing stale",
    run: async (lab) => {
      const dir = join(scratch(`refused-${status}`), "cache");
      lab.service.attack = { kind: "none" };
      await runCliIn(lab, FORMULAS, { cacheDir: dir });
      lab.service.attack = { kind: "key-echo", status };
      lab.service.paths = /./;
      lab.service.seen.length = 0;
      const run = await runCliIn(lab, ["--format", "json", ...FORMULAS], {
        cacheDir: dir,
        env: clockAhead(lab, DAY_MS),
      });
      const v: string[] = [];
      let errors = 0;
      try {
        const results = JSON.parse(run.stdout) as Array<
          Array<Array<{ error?: string; message?: string }>>
        >;
        errors = results.filter(
          ([[cell]]) =>
            cell.error === "#VALUE!" &&
            /not authorised|not covered by the subscription/.test(cell.message ?? "")
        ).length;
      } catch {
        v.push(`output: ${run.stdout.slice(0, 120)}`);
      }
      if (errors !== FORMULAS.length)
        v.push(`${errors} of ${FORMULAS.length} results say the key or plan was refused`);
      if (run.code !== 1) v.push(`exit ${run.code}`);
      if (/stale/.test(run.stderr)) v.push("a stale figure was printed");
      rmSync(join(dir, ".."), { recursive: true, force: true });
      return cliResult(
        `the key or plan refused (${status}) the day after a filled cache`,
        asOutcome(lab, run),
        lab.key,
        `exit ${run.code}; ${errors}/${FORMULAS.length} results #VALUE! saying so; ${/stale/.test(run.stderr) ? "stale figures" : "no stale figure"}`,
        v
      );
    },
  })),
  {
    name: "the service down (503) the day after a filled cache",
    bound: "the earlier figures, each named stale on stderr",
    run: async (lab) => {
      const dir = join(scratch("down"), "cache");
      lab.service.attack = { kind: "none" };
      const first = await runCliIn(lab, ["--format", "json", ...FORMULAS], { cacheDir: dir });
      lab.service.attack = { kind: "retry-after", value: "1", status: 503 };
      lab.service.paths = /./;
      lab.service.seen.length = 0;
      const run = await runCliIn(lab, ["--format", "json", ...FORMULAS], {
        cacheDir: dir,
        env: clockAhead(lab, DAY_MS),
      });
      const marked = (run.stderr.match(/^cryptometrics: stale: formula \d+: fetched /gm) ?? [])
        .length;
      const v: string[] = [];
      if (run.stdout !== first.stdout) v.push("not the earlier figures");
      if (marked !== FORMULAS.length) v.push(`${marked} of ${FORMULAS.length} named stale`);
      rmSync(join(dir, ".."), { recursive: true, force: true });
      return cliResult(
        "the service down (503) the day after a filled cache",
        asOutcome(lab, run),
        lab.key,
        `exit ${run.code}; the earlier figures; ${marked}/${FORMULAS.length} named stale on stderr`,
        v
      );
    },
  },
  {
    name: "the key echoed split by invisible characters, full-width or in base64",
    bound: "no run of 8 key characters, however decoded",
    run: async (lab) => {
      const dir = join(scratch("hidden"), "cache");
      lab.service.attack = { kind: "key-echo", status: 401, hidden: true };
      lab.service.paths = /./;
      lab.service.seen.length = 0;
      const run = await runCliIn(lab, ["PROJECTS()"], { cacheDir: dir });
      const requests = lab.service.seen.length;
      const out = await lab.runtime(
        [value("Z!A1", "aave", "fees"), { address: "Z!A2", name: "PROJECTS", args: [] }],
        { kind: "key-echo", status: 400, hidden: true }
      );
      const inCli = exposedKeyRun(shown(run), lab.key);
      const inRuntime = exposedKeyRun(out.visible, lab.key);
      const v: string[] = [];
      if (inCli >= 8) v.push(`${inCli} key characters in the CLI's output`);
      if (inRuntime >= 8) v.push(`${inRuntime} key characters in cells, logs or diagnostics`);
      if (!/REDACTED/.test(run.stdout)) v.push(`no redaction shown: ${run.stdout.slice(0, 120)}`);
      rmSync(join(dir, ".."), { recursive: true, force: true });
      const r = cliResult(
        "the key echoed split by invisible characters, full-width or in base64",
        asOutcome(lab, run, requests),
        lab.key,
        `longest run of the key, decoded: CLI ${inCli}, runtime ${inRuntime}; ${message(out).slice(0, 40)}`,
        v
      );
      return { ...r, keyRun: Math.max(inCli, inRuntime, r.keyRun) };
    },
  },
];
