/**
 * The cache directory's lock against a lock a dead process left: proper-lockfile judges staleness by the lock
 * directory's time on disk, so these run on the real clock (about 8 s), beside the unit tests in lock.test.ts.
 */
import { existsSync, mkdirSync, mkdtempSync, statSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { leastRetryMs, STALE_MS, withLock } from "../../../src/cli/cache/lock";

/** Inside this file's own temporary directory (test/support/environment.cjs), removed when the file ends. */
function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "lock-"));
}

describe("a lock left by a process that died holding it", () => {
  it("is taken over once stale, always before the caller gives up (the retries outlast the stale time)", async () => {
    expect(leastRetryMs()).toBeGreaterThan(STALE_MS + 2_000);
    const lockPath = join(tempDir(), "record.json.lock");
    // What a killed process leaves: the lock directory, just refreshed.
    mkdirSync(lockPath);
    const started = Date.now();
    await expect(withLock(lockPath, () => Promise.resolve("taken over"))).resolves.toBe(
      "taken over"
    );
    // Not before it was stale (its holder might have been alive).
    expect(Date.now() - started).toBeGreaterThanOrEqual(STALE_MS - 50);
    expect(existsSync(lockPath)).toBe(false);
  }, 20_000);

  it("refreshes a lock it holds, so a long turn of a living process is never taken for a dead one's", async () => {
    const lockPath = join(tempDir(), "record.json.lock");
    const mtimes: number[] = [];
    await withLock(lockPath, async () => {
      for (let i = 0; i < 3; i++) {
        // Real time: what is tested is the lock file's mtime on disk, which only real seconds move.
        await new Promise((r) => setTimeout(r, 1_100));
        mtimes.push(statSync(lockPath).mtimeMs);
      }
    });
    expect(new Set(mtimes).size).toBeGreaterThan(1);
  }, 20_000);
});
