/**
 * The Node-side build (what `npm run build:node` makes: the CLI, the tools) of the CURRENT sources, for
 * tests that run it in a process of its own. Built once into test-results/node-build/<hash of the inputs>
 * and reused while the inputs are unchanged; concurrent test files wait for one build (a lock directory).
 */
import { execFile } from "child_process";
import { existsSync, writeFileSync } from "fs";
import { join } from "path";
import { generateFunctionsMeta } from "../../src/tools/gen-functions-meta";
import { BUILD_INPUTS } from "../../src/tools/build-stamp";
import { cachedBuild, REPO_ROOT as ROOT } from "./build-cache";

const BUILD_TIMEOUT_MS = 300_000;

function tsc(outDir: string): Promise<void> {
  return new Promise((done, fail) =>
    execFile(
      process.execPath,
      [
        join(ROOT, "node_modules/typescript/bin/tsc"),
        "-p",
        "tsconfig.node.json",
        "--outDir",
        outDir,
      ],
      { cwd: ROOT, timeout: BUILD_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error ? fail(new Error(`tsc failed:\n${stdout}\n${stderr}`, { cause: error })) : done()
    )
  );
}

/** The directory of a Node build of the current sources (the layout of dist/node). */
export function ensureNodeBuild(): Promise<string> {
  return cachedBuild({
    kind: "node",
    name: "node-build",
    inputs: BUILD_INPUTS.node,
    timeoutMs: BUILD_TIMEOUT_MS,
    isBuilt: (dir) => existsSync(join(dir, "functions", "functions.meta.json")),
    build: async (dir) => {
      await tsc(dir);
      writeFileSync(
        join(dir, "functions", "functions.meta.json"),
        await generateFunctionsMeta(join(ROOT, "src/functions/functions.ts"))
      );
    },
  });
}

/**
 * The built command-line evaluator (cli/main.js of the Node build), as users run it after `npm run build:node`:
 * dist/node/cli/main.js when `npm test` has just built it, the same build of the current sources otherwise.
 */
export async function builtCli(): Promise<string> {
  return join(await ensureNodeBuild(), "cli", "main.js");
}
