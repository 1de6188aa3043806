/**
 * The tokens file read again: a token removed stops working, a reading that fails for a moment (here: the name
 * is a directory for an instant, as EMFILE or a half-written replacement would fail it) keeps the last good list
 * in force and says so, and a file that is gone is a removed list. The periodic reading runs on the test's timers.
 */
import { mkdirSync, mkdtempSync, promises as fsPromises, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hashToken, TokensFile } from "../../src/gateway/auth/tokens-file";
import { fakeClock, MIDDAY_2026 } from "../support/clock";

describe("the tokens file, read again", () => {
  it("keeps the last good list when a reading fails, and lets nobody in once the file is gone", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cm-tokens-"));
    const path = join(dir, "tokens");
    writeFileSync(path, `alice ${hashToken("tok_a")}\nbob ${hashToken("tok_b")}\n`);
    const time = fakeClock(MIDDAY_2026, { held: true });
    const notes: string[] = [];
    const file = await TokensFile.open({
      path,
      now: time.now,
      timers: time.timers,
      reloadMs: 10_000,
      log: (level, message) => notes.push(`${level}: ${message}`),
    });
    try {
      expect(await file.verify("tok_b")).toMatchObject({ user: "bob", via: "token" });
      writeFileSync(path, `alice ${hashToken("tok_a")}\n`);
      const reload = jest.spyOn(file, "reload");
      const readingsAskedFor = () =>
        Promise.all(reload.mock.results.map((r) => r.value as Promise<void>));
      await time.advance(10_000);
      // The timer started a reading (the directory's watcher may ask for one too). Its file I/O is the thread
      // pool's, as slow as the machine is busy: the test waits for the reading, not for turns of the loop.
      expect(reload).toHaveBeenCalled();
      await readingsAskedFor();
      expect(await file.verify("tok_b")).toBeUndefined();

      // From here the test asks for each reading itself: the timer and the watcher are stopped (an event of
      // the watcher's, delivered whenever it comes, could read the name between the two steps below), and
      // the readings they started are over.
      file.close();
      await readingsAskedFor();
      rmSync(path);
      mkdirSync(path);
      await file.reload();
      // The reading failed: the list read last is still in force, and the log says so.
      expect(await file.verify("tok_a")).toMatchObject({ user: "alice" });
      expect(notes.join("\n")).toMatch(
        /cannot be read .*: the 1 token\(s\) read last stay in force/
      );
      expect(file.describe()).toMatchObject({ tokens: 1, lastReloadFailed: expect.any(String) });

      rmSync(path, { recursive: true });
      await file.reload();
      expect(await file.verify("tok_a")).toBeUndefined();
      expect(notes.join("\n")).toMatch(/is gone: no token is accepted/);
    } finally {
      file.close();
    }
  });

  it("reads the file once more when it changes while a reading is under way", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cm-tokens-"));
    const path = join(dir, "tokens");
    writeFileSync(path, `alice ${hashToken("tok_a")}\nbob ${hashToken("tok_b")}\n`);
    const time = fakeClock(MIDDAY_2026, { held: true });
    const file = await TokensFile.open({
      path,
      now: time.now,
      timers: time.timers,
      reloadMs: 10_000,
    });
    // The next reading is held once it has read the file, before it takes what it read.
    const realOpen = fsPromises.open.bind(fsPromises);
    let hasRead!: () => void;
    const read = new Promise<void>((done) => (hasRead = done));
    let release!: () => void;
    const held = new Promise<void>((done) => (release = done));
    const open = jest.spyOn(fsPromises, "open").mockImplementationOnce(async (...args) => {
      const handle = await realOpen(...args);
      const close = handle.close.bind(handle);
      handle.close = async () => {
        hasRead();
        await held;
        return close();
      };
      return handle;
    });
    try {
      const first = file.reload();
      await read;
      // An editor saves the file without bob while that reading is under way, and the watcher asks again.
      writeFileSync(path, `alice ${hashToken("tok_a")}\n`);
      const again = file.reload();
      expect(file.reload()).toBe(again);
      release();
      await Promise.all([first, again]);
      expect(await file.verify("tok_b")).toBeUndefined();
      expect(await file.verify("tok_a")).toMatchObject({ user: "alice" });
    } finally {
      open.mockRestore();
      file.close();
    }
  });
});
