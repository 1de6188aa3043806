/** The cache directory's lock: real lock directories in a temporary directory. */
import { existsSync, mkdtempSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { QUEUE_WAIT_MS, withLock } from "../../../src/cli/cache/lock";
import type { Timers } from "../../../src/client";

/** Inside this file's own temporary directory (test/support/environment.cjs), removed when the file ends. */
function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "lock-"));
}

const turnOfTheLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("the cache directory's lock", () => {
  it("gives one process's turns the lock one at a time, in the order they were asked", async () => {
    const lockPath = join(tempDir(), "record.json.lock");
    const events: string[] = [];
    const turns = Array.from({ length: 10 }, (_, i) =>
      withLock(lockPath, async () => {
        events.push(`in ${i}`);
        // Held across turns of the event loop, as a read and a write of the record are.
        expect(existsSync(lockPath)).toBe(true);
        await turnOfTheLoop();
        await turnOfTheLoop();
        events.push(`out ${i}`);
        return i;
      })
    );
    expect(await Promise.all(turns)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(events).toEqual(Array.from({ length: 10 }, (_, i) => [`in ${i}`, `out ${i}`]).flat());
    // Released at the end: another process can take it.
    expect(existsSync(lockPath)).toBe(false);
  });

  it("passes the lock on after a turn that failed, and reports that turn's error to its caller", async () => {
    const lockPath = join(tempDir(), "record.json.lock");
    const failed = withLock(lockPath, () => Promise.reject(new Error("record unreadable")));
    const next = withLock(lockPath, () => Promise.resolve("next ran"));
    await expect(failed).rejects.toThrow("record unreadable");
    await expect(next).resolves.toBe("next ran");
    expect(existsSync(lockPath)).toBe(false);
  });

  it("gives up on a turn stuck behind one that does not end, as it would on another process's lock", async () => {
    const lockPath = join(tempDir(), "record.json.lock");
    const timers: Array<{ fn: () => void; ms: number; cleared: boolean }> = [];
    const clock: Timers = {
      setTimeout: (fn, ms) => {
        const timer = { fn, ms, cleared: false };
        timers.push(timer);
        return timer;
      },
      clearTimeout: (timer) => void ((timer as { cleared: boolean }).cleared = true),
    };
    let unstick: () => void = () => undefined;
    let holding: () => void = () => undefined;
    const held = new Promise<void>((r) => (holding = r));
    // A read or write of the record that hangs (a stuck disk).
    const stuck = withLock(lockPath, () => {
      holding();
      return new Promise<string>((r) => (unstick = () => r("done")));
    });
    const waiting = withLock(lockPath, () => Promise.resolve("never ran"), { timers: clock });
    expect(timers.map((t) => t.ms)).toEqual([QUEUE_WAIT_MS]);
    timers[0].fn();
    await expect(waiting).rejects.toMatchObject({
      code: "ELOCKED",
      message: expect.stringMatching(/record\.json\.lock is held by a turn of this process/),
    });
    await held;
    unstick();
    await expect(stuck).resolves.toBe("done");
    // Once it ended, the lock is there to take again, and a turn that did not wait long leaves no timer.
    const after = withLock(lockPath, () => Promise.resolve("next"));
    const quick = withLock(lockPath, () => Promise.resolve("quick"), { timers: clock });
    await expect(Promise.all([after, quick])).resolves.toEqual(["next", "quick"]);
    expect(timers).toHaveLength(2);
    expect(timers[1].cleared).toBe(true);
  });

  it("keeps the turns on different locks apart", async () => {
    const dir = tempDir();
    let release: () => void = () => undefined;
    const held = withLock(join(dir, "a.lock"), () => new Promise<void>((r) => (release = r)));
    await expect(withLock(join(dir, "b.lock"), () => Promise.resolve("b"))).resolves.toBe("b");
    release();
    await held;
  });
});
