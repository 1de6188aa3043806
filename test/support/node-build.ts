/**
 * The Node-side build (what `npm run build:node` makes: the CLI, the tools) of the CURRENT sources, for
 * tests that run it in a process of its own. Built once into test-results/node-build/<hash of the inputs>
 * and reused while the inputs are unchanged; concurrent test files wait for one build (a lock directory).
 */
import { execFile } from "child_process";
import { createHash } from "crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "fs";
import { join, resolve } from "path";
import { generateFunctionsMeta } from "../../src/tools/gen-functions-meta";

const ROOT = resolve(__dirname, "../..");
const OUT = join(ROOT, "test-results", "node-build");
const INPUTS = ["src", "tsconfig.json", "tsconfig.node.json", "package-lock.json"];
const BUILD_TIMEOUT_MS = 300_000;
const KEEP_MS = 60 * 60_000;

function files(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => files(join(path, name)));
}

function inputHash(): string {
  const hash = createHash("sha256");
  for (const file of INPUTS.flatMap((p) => files(join(ROOT, p)))) {
    hash.update(file.slice(ROOT.length));
    hash.update(readFileSync(file));
  }
  return hash.digest("hex").slice(0, 16);
}

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

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

async function withLock<T>(work: () => Promise<T>): Promise<T> {
  const lock = join(OUT, ".lock");
  mkdirSync(OUT, { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const age = Date.now() - (existsSync(lock) ? statSync(lock).mtimeMs : Date.now());
      if (age > BUILD_TIMEOUT_MS) rmSync(lock, { recursive: true, force: true });
      else await sleep(500);
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The directory of a Node build of the current sources (the layout of dist/node). */
export async function ensureNodeBuild(): Promise<string> {
  const target = join(OUT, inputHash());
  const done = join(target, "functions", "functions.meta.json");
  if (existsSync(done)) return target;
  return withLock(async () => {
    if (existsSync(done)) return target;
    const scratch = `${target}.tmp-${process.pid}-${Date.now()}`;
    await tsc(scratch);
    writeFileSync(
      join(scratch, "functions", "functions.meta.json"),
      await generateFunctionsMeta(join(ROOT, "src/functions/functions.ts"))
    );
    renameSync(scratch, target);
    for (const name of readdirSync(OUT)) {
      const path = join(OUT, name);
      if (path !== target && !name.startsWith(".") && Date.now() - statSync(path).mtimeMs > KEEP_MS)
        rmSync(path, { recursive: true, force: true });
    }
    return target;
  });
}
