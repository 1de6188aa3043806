// `npm test`: everything, on both cores. First what the suite needs (prerequisites.mjs); then the one build of the
// run (`npm run build`: dist/node and dist/web, stamped, which every test takes) beside the static checks
// (typecheck, dependency rules, dead code, lint: nothing waits on them); jest starts as soon as the build is done,
// on two workers, while the checks finish. The checks' output is printed once jest is done, then a summary of every
// step and the ten slowest test files. Exits 1 when any step fails; a failed build leaves jest unrun.
//
//   npm test                      # all of it
//   npm test -- test/cli          # the same steps, jest over the files matching test/cli
import { spawn } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..");
const require = createRequire(import.meta.url);
const { TIMES_FILE, slowestTable } = require("../support/slowest-files.cjs");
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

/** One step: a command, its output kept (or passed through), its time and outcome. */
function run(name, command, args, { live = false, env = {} } = {}) {
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: live ? "inherit" : ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout?.on("data", (d) => (output += d));
    child.stderr?.on("data", (d) => (output += d));
    const finish = (code) => done({ name, code, output, seconds: (Date.now() - started) / 1000 });
    child.on("error", (error) => finish(`${error.message}`));
    child.on("close", (code, signal) => finish(code ?? signal));
  });
}

const npmRun = (script, options) => run(script, NPM, ["run", "--silent", script], options);

function line(step, note = "") {
  const outcome =
    step.code === 0 ? "ok" : step.code === undefined ? "not run" : `FAILED (${step.code})`;
  const seconds = step.seconds === undefined ? "" : `${step.seconds.toFixed(1)} s`;
  return `  ${step.name.padEnd(14)} ${seconds.padStart(8)}  ${outcome}${note}`;
}

async function main() {
  const started = Date.now();
  const prerequisites = await run(
    "prerequisites",
    process.execPath,
    [join(ROOT, "test/harness/prerequisites.mjs")],
    { live: true }
  );
  if (prerequisites.code !== 0) return 1;

  // The static checks in one lane, one after another (each is single-threaded); the build and then jest in the other.
  const checks = (async () => {
    const results = [];
    for (const script of ["typecheck", "deps", "deadcode", "lint"])
      results.push(await npmRun(script));
    return results;
  })();
  // The pages' bundles are only transpiled: the typecheck lane checks those files (webpack.config.js).
  const build = await npmRun("build", { env: { CM_BUILD_TRANSPILE_ONLY: "1" } });
  let jest = { name: "jest", code: undefined };
  const jestStarted = Date.now();
  if (build.code === 0) {
    jest = await run(
      "jest",
      process.execPath,
      // jest's workers take this process's V8 flags. A young generation of 32 MB (Node's default is 16) spares
      // the scavenges of the files that read whole answers in process: the readings matrix, paired 3 against
      // 3 with and without it, took 3.8 % less CPU (40.9 s against 42.0 s). The processes tests start (the
      // CLI, gateways, simulators) keep their own flags.
      ["--max-semi-space-size=32", require.resolve("jest/bin/jest"), ...process.argv.slice(2)],
      {
        live: true,
        // This script prints the slowest files itself, last.
        env: { CM_SLOWEST_FILES: "quiet" },
      }
    );
  }
  const done = await checks;

  for (const step of [build, ...done])
    if (step.output.trim() !== "" || step.code !== 0)
      process.stdout.write(
        `\n> npm run ${step.name} (${step.seconds.toFixed(1)} s)\n${step.output.trimEnd()}\n`
      );
  if (build.code !== 0) process.stdout.write("\njest was not run: the build failed.\n");

  const steps = [prerequisites, build, ...done, jest];
  process.stdout.write(`\nnpm test, ${((Date.now() - started) / 1000).toFixed(0)} s:\n`);
  for (const step of steps) process.stdout.write(`${line(step)}\n`);
  if (jest.code !== undefined) {
    try {
      if (statSync(join(ROOT, TIMES_FILE)).mtimeMs < jestStarted)
        throw new Error("left from an earlier run");
      const { lastRun, files } = JSON.parse(readFileSync(join(ROOT, TIMES_FILE), "utf8"));
      process.stdout.write(`\n${slowestTable(files.filter((f) => f.at === lastRun))}\n`);
    } catch {
      process.stdout.write(`\n(no test times: ${TIMES_FILE} was not written)\n`);
    }
  }
  return steps.every((s) => s.code === 0) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`npm test: ${error.stack ?? error}\n`);
    process.exit(1);
  }
);
