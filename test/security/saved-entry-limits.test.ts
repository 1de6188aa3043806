/**
 * Saved answers are bounded before they are built or read: an answer whose saved text would pass 8 MB, or
 * a series of more than 200,000 points, is kept for the session only (with the note Diagnostics and the
 * CLI show), its text never made; a stored entry larger than 8 MB is dropped unread. Two entries of two
 * million points each once took the CLI to 1.59 GB.
 */
import { createHash } from "crypto";
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { FileBlobStore } from "../../src/cli/cache/file-store";
import {
  jsonLargerThan,
  MAX_SAVED_ENTRY_BYTES,
  PersistentCache,
  TOO_LARGE_TO_SAVE,
} from "../../src/engine/persistence";
import { MAX_SAVED_POINTS, savedPoints } from "../../src/engine/saved-entries";
import type { SnapshotData } from "../../src/engine/series-store";
import { fakeClock, MIDDAY_2026 } from "../support/clock";
import { MemoryBlobStore } from "../support/memory-blob-store";

describe("the size of a saved answer, counted before its text is built", () => {
  it("matches JSON's length closely enough, never under it", () => {
    const samples: unknown[] = [
      { data: [{ id: "aave", value: 232787544.26598746, ok: true, none: null }] },
      ["é", "\u2028", 1e21, -0.5, [], {}],
      Array.from({ length: 1000 }, (_, i) => ({ day: 19_000 + i, v: i / 7 })),
    ];
    for (const value of samples) {
      const exact = JSON.stringify(value).length;
      expect(jsonLargerThan(value, exact - 1)).toBe(true);
      // Over-counts by at most a comma an element.
      expect(jsonLargerThan(value, exact * 2)).toBe(false);
    }
  });

  it("stops as soon as the count passes the limit, and walks values nested thousands deep", () => {
    let deep: unknown = "leaf";
    for (let i = 0; i < 50_000; i++) deep = { by: deep };
    expect(jsonLargerThan(deep, 100)).toBe(true);
    expect(jsonLargerThan(deep, 10_000_000)).toBe(false);
    let visited = 0;
    const huge = new Proxy(
      Array.from({ length: 1_000_000 }, () => "0123456789"),
      {
        get(target, prop, receiver) {
          if (typeof prop === "string" && /^\d+$/.test(prop)) visited++;
          return Reflect.get(target, prop, receiver) as unknown;
        },
      }
    );
    expect(jsonLargerThan(huge, 1_000)).toBe(true);
    // Its length alone passes the limit: not one element was looked at.
    expect(visited).toBe(0);
  });
});

describe("a saved cache given answers past the limit", () => {
  function cache() {
    const time = fakeClock(MIDDAY_2026, { held: true });
    const store = new MemoryBlobStore();
    const notes: string[] = [];
    const saved = new PersistentCache({
      store,
      namespace: async () => "https://metrics.example#abc",
      timers: time.timers,
      now: time.now,
      onNote: (n) => notes.push(n),
    });
    return { saved, store, notes };
  }

  it("keeps them for the session only, says so, and saves the rest of the batch", async () => {
    const { saved, store, notes } = cache();
    let produced = 0;
    saved.schedule("entry", "catalogue", () => {
      produced++;
      // About 10 MB as JSON.
      return { projects: Array.from({ length: 600_000 }, (_, i) => `project-${i}`) };
    });
    saved.schedule("series", "aave fees", () => TOO_LARGE_TO_SAVE);
    saved.schedule("entry", "small", () => ({ ok: true }));
    await saved.flush();
    expect(produced).toBe(1);
    expect([...store.texts.keys()].map((k) => k.split("\u001f").slice(1).join(" "))).toEqual([
      "entry small",
    ]);
    expect(notes).toEqual([
      "2 answers are nested too deeply or too large to save on this computer; kept for this session only.",
    ]);
  });

  it("counts a series' points across its snapshots and breakdown members", () => {
    const snapshot = (dims: number[]): SnapshotData => ({
      coverage: [],
      dims: new Map(
        dims.map((n, i) => [`d${i}`, new Map(Array.from({ length: n }, (_, k) => [k, k]))])
      ),
      warnings: [],
      servedBy: [],
      fetchedAt: 0,
      expiresAt: 0,
    });
    expect(savedPoints({ current: snapshot([3, 4]), previous: snapshot([5]) })).toBe(12);
    expect(MAX_SAVED_POINTS).toBe(200_000);
  });
});

describe("a stored entry past the limit", () => {
  it("is dropped unread (and deleted), the others read as before", async () => {
    // Inside this file's own temporary directory (test/support/environment.cjs).
    const dir = mkdtempSync(join(tmpdir(), "limits-"));
    const store = new FileBlobStore({ dir, maxEntryBytes: 1_000 });
    await store.setMany(
      new Map([
        ["small", "x".repeat(999)],
        ["big", "y".repeat(10)],
      ])
    );
    // The big one, rewritten by an older build or copied in, past the bound.
    const file = (key: string) =>
      join(dir, "entries", `${createHash("sha256").update(key).digest("hex")}.json`);
    writeFileSync(file("big"), "y".repeat(1_001));
    const read = await store.getMany(["small", "big"]);
    expect([...read.keys()]).toEqual(["small"]);
    expect(existsSync(file("big"))).toBe(false);
    expect(readdirSync(join(dir, "entries"))).toHaveLength(1);
    // Nor is one past the bound written.
    await store.setMany(new Map([["again", "z".repeat(1_001)]]));
    expect(readdirSync(join(dir, "entries"))).toHaveLength(1);
    expect(MAX_SAVED_ENTRY_BYTES).toBe(8_000_000);
  });
});
