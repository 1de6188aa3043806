/**
 * The tokens file read again: a token removed stops working, a reading that fails for a moment (here: the name
 * is a directory for an instant, as EMFILE or a half-written replacement would fail it) keeps the last good list
 * in force and says so, and a file that is gone is a removed list. The periodic reading runs on the test's timers.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
      await time.advance(10_000);
      // The timer fired the reading; its file I/O completes within a few turns of the event loop.
      for (let i = 0; i < 1_000 && (await file.verify("tok_b")); i++)
        await new Promise((r) => setImmediate(r));
      expect(await file.verify("tok_b")).toBeUndefined();

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
});
