/**
 * Builds of the current sources that tests run, kept under test-results/<name>/<hash of the inputs> and reused
 * while the inputs are unchanged. One build at a time: jest runs test files in parallel, and two builds on a
 * small machine take twice as long as one. The lock is a directory (mkdir is atomic); one older than the build
 * timeout is taken to be left over from a killed run. A build is made in a scratch directory and renamed into
 * place, so a half-made one is never served; builds older than an hour are pruned (a recent one may still be
 * served to a test file running in parallel).
 *
 * First of all, a build `npm run build` made of the current inputs (its stamp in dist/ says so) is taken as it
 * is: `npm test` builds once and every test reuses that build.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from "fs";
import { join } from "path";
import { currentBuild, inputHash, REPO_ROOT, type BuildKind } from "../../src/tools/build-stamp";

export { REPO_ROOT };
const KEEP_MS = 60 * 60_000;

interface BuildCache {
  /** The folder under test-results/. */
  name: string;
  /** Which of `npm run build`'s outputs this is, taken when it is of the current inputs (none: not one). */
  kind?: BuildKind;
  /** Files and folders, from the repository root, whose content decides the build. */
  inputs: readonly string[];
  timeoutMs: number;
  /** Whether a directory holds a finished build. */
  isBuilt(dir: string): boolean;
  /** Builds into a new directory. */
  build(dir: string): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

async function withLock<T>(out: string, staleMs: number, work: () => Promise<T>): Promise<T> {
  const lock = join(out, ".lock");
  mkdirSync(out, { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const age = Date.now() - (existsSync(lock) ? statSync(lock).mtimeMs : Date.now());
      if (age > staleMs) rmSync(lock, { recursive: true, force: true });
      else await sleep(500);
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** The directory of a finished build of the current inputs, made if there is none yet. */
export async function cachedBuild(cache: BuildCache): Promise<string> {
  const built = cache.kind && currentBuild(cache.kind);
  if (built && cache.isBuilt(built)) return built;
  const out = join(REPO_ROOT, "test-results", cache.name);
  const target = join(out, inputHash(cache.inputs));
  if (cache.isBuilt(target)) return target;
  return withLock(out, cache.timeoutMs, async () => {
    // Built by the test file that held the lock before us.
    if (cache.isBuilt(target)) return target;
    const scratch = `${target}.tmp-${process.pid}-${Date.now()}`;
    await cache.build(scratch);
    try {
      renameSync(scratch, target);
    } catch {
      // Another process finished the same build first.
      rmSync(scratch, { recursive: true, force: true });
    }
    for (const name of readdirSync(out)) {
      const path = join(out, name);
      if (path !== target && !name.startsWith(".") && Date.now() - statSync(path).mtimeMs > KEEP_MS)
        rmSync(path, { recursive: true, force: true });
    }
    return target;
  });
}
