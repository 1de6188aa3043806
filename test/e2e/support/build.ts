/**
 * The pages the browser tests load: a PRODUCTION build (what ships: minified bundles, the CSP that names
 * Microsoft's office.js CDN, no default service URL or key, so the tests set them as a user would). It is
 * built once into test-results/e2e-build/<hash of the inputs> and reused while the inputs are unchanged;
 * concurrent test files race harmlessly (the first complete build to be renamed into place wins).
 */
import { execFile } from "child_process";
import { createHash } from "crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "fs";
import { join, resolve } from "path";

export const ROOT = resolve(__dirname, "../../..");
const OUT = join(ROOT, "test-results", "e2e-build");
const INPUTS = [
  "src",
  "assets",
  "webpack.config.js",
  "manifest.xml",
  "package-lock.json",
  "tsconfig.json",
];
const BUILD_TIMEOUT_MS = 240_000;
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

function webpack(outputPath: string): Promise<void> {
  const env = { ...process.env };
  // A production build for these tests: no service URL baked in, add-in origin left at localhost.
  delete env.CRYPTOMETRICS_BASE_URL;
  delete env.ADDIN_ORIGIN;
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      [
        join(ROOT, "node_modules/webpack-cli/bin/cli.js"),
        "--mode",
        "production",
        "--output-path",
        outputPath,
        "--no-stats",
      ],
      { cwd: ROOT, env, timeout: BUILD_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error
          ? fail(
              new Error(`webpack failed for the browser tests:\n${stdout}\n${stderr}`, {
                cause: error,
              })
            )
          : done()
    );
  });
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/**
 * One build at a time: jest runs the browser test files in parallel, and two webpack runs on a small
 * machine take twice as long as one. The lock is a directory (mkdir is atomic); one older than the build
 * timeout is taken to be left over from a killed run.
 */
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

/** The directory of a production build of the current sources. */
export async function ensureBuild(): Promise<string> {
  const target = join(OUT, inputHash());
  if (existsSync(join(target, "preview.html"))) return target;
  return withLock(async () => {
    // Built by the test file that held the lock before us.
    if (existsSync(join(target, "preview.html"))) return target;
    return build(target);
  });
}

async function build(target: string): Promise<string> {
  const scratch = `${target}.tmp-${process.pid}-${Date.now()}`;
  await webpack(scratch);
  try {
    renameSync(scratch, target);
  } catch {
    // Another test file finished the same build first.
    rmSync(scratch, { recursive: true, force: true });
  }
  // Old builds are dead weight; recent ones may still be served by a test file running in parallel.
  for (const name of readdirSync(OUT)) {
    const path = join(OUT, name);
    if (path !== target && !name.startsWith(".") && Date.now() - statSync(path).mtimeMs > KEEP_MS)
      rmSync(path, { recursive: true, force: true });
  }
  return target;
}
