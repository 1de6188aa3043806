// `npm run mutation [-- <file>…] [--concurrency N] [--force] [--ignore-static]`: StrykerJS over the core files of
// stryker.config.mjs, one file at a time with its own tests (so a file's score is its tests' doing), each with
// its own incremental record and report under reports/mutation/ (git-ignored). Prints a score per file and exits
// 1 when one is below the threshold. Not part of `npm test`: minutes per file on a 2-core machine.
// `npm run mutation -- --smoke`: the smoke run CI makes (SMOKE in stryker.config.mjs: a few mutants, all tested
// afresh), which also fails when no mutant was tested at all.
import { Stryker } from "@stryker-mutator/core";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { JEST_CONFIG_FILE, SMOKE, TARGETS, THRESHOLD, jestFor } from "../../stryker.config.mjs";

const SELF = fileURLToPath(import.meta.url);

const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const [, value] = args.splice(i, 2);
  return value;
};
const single = flag("--single-to");
const force = args.includes("--force");
// Static mutants (constants evaluated once at load, e.g. option tables) rerun every test: --ignore-static
// leaves them out of the run and the score, for a quick look.
const ignoreStatic = args.includes("--ignore-static");
const smoke = args.includes("--smoke");
const concurrency = Number(flag("--concurrency") ?? 1);
const files = smoke ? [SMOKE.file] : args.filter((a) => !a.startsWith("--"));
for (const file of files) {
  if (!(file in TARGETS)) {
    process.stderr.write(
      `${file} is not a mutation target; targets: ${Object.keys(TARGETS).join(", ")}\n`
    );
    process.exit(2);
  }
}
if (!(Number.isInteger(concurrency) && concurrency >= 1 && concurrency <= 2)) {
  process.stderr.write("--concurrency takes 1 or 2 (the machine is shared)\n");
  process.exit(2);
}

const DETECTED = new Set(["Killed", "Timeout"]);
const UNDETECTED = new Set(["Survived", "NoCoverage"]);

/** One file's run, in this process (Stryker keeps state between runs: each file gets its own process). */
async function mutateOne(file) {
  const slug = smoke ? "smoke" : file.replace(/^src\//, "").replace(/[/.]/g, "-");
  const started = Date.now();
  const target = TARGETS[file];
  const stryker = new Stryker({
    ...target.options,
    mutate: [smoke ? `${file}:${SMOKE.lines}` : file],
    // The smoke run tests every mutant afresh: a record would let it pass without testing any.
    incremental: !smoke,
    jest: {
      projectType: "custom",
      configFile: JEST_CONFIG_FILE,
      config: jestFor(target.tests, target.jest),
      enableFindRelatedTests: false,
    },
    incrementalFile: `reports/mutation/${slug}/incremental.json`,
    htmlReporter: { fileName: `reports/mutation/${slug}/index.html` },
    jsonReporter: { fileName: `reports/mutation/${slug}/report.json` },
    concurrency,
    force,
    ignoreStatic,
    // Judged by the parent, per file, once every file has run.
    thresholds: { high: THRESHOLD, low: 80, break: 0 },
  });
  const results = await stryker.runMutationTest();
  const count = (set) => results.filter((r) => set.has(r.status)).length;
  const detected = count(DETECTED);
  const valid = detected + count(UNDETECTED);
  return {
    file,
    mutants: valid,
    killed: detected,
    score: valid === 0 ? 100 : (100 * detected) / valid,
    seconds: Math.round((Date.now() - started) / 1000),
  };
}

if (single !== undefined) {
  writeFileSync(single, JSON.stringify(await mutateOne(files[0])));
  process.exit(0);
}

const rows = [];
const out = join(mkdtempSync(join(tmpdir(), "mutation-")), "result.json");
for (const file of files.length > 0 ? files : Object.keys(TARGETS)) {
  const extra = [
    ...(smoke ? ["--smoke"] : []),
    ...(force ? ["--force"] : []),
    ...(ignoreStatic ? ["--ignore-static"] : []),
    "--concurrency",
    String(concurrency),
  ];
  const child = spawnSync(
    process.execPath,
    [SELF, ...(smoke ? [] : [file]), ...extra, "--single-to", out],
    {
      stdio: "inherit",
      // Stryker's test processes inherit it (see the target's note in stryker.config.mjs).
      env: { ...process.env, ...TARGETS[file].env },
    }
  );
  if (child.status !== 0) {
    process.stderr.write(`the mutation run of ${file} failed (exit ${child.status})\n`);
    process.exit(1);
  }
  rows.push(JSON.parse(readFileSync(out, "utf8")));
}

process.stdout.write(
  smoke
    ? `\nMutation smoke run, ${SMOKE.file} lines ${SMOKE.lines} (threshold ${THRESHOLD} %):\n`
    : `\nMutation score per file (threshold ${THRESHOLD} %):\n`
);
for (const r of rows) {
  const mark = r.score >= THRESHOLD ? "ok  " : "LOW ";
  process.stdout.write(
    `${mark} ${r.score.toFixed(1).padStart(5)} %  ${String(r.killed).padStart(4)}/${String(r.mutants).padEnd(4)} killed  ${String(r.seconds).padStart(5)} s  ${r.file}\n`
  );
}
if (smoke && rows[0].mutants === 0) {
  process.stderr.write(`the smoke run tested no mutant of ${SMOKE.file}:${SMOKE.lines}\n`);
  process.exit(1);
}
process.exit(rows.every((r) => r.score >= THRESHOLD) ? 0 : 1);
