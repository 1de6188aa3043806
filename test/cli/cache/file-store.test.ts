/** The CLI's saved cache: real files in a temporary directory. */
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "fs";
import { tmpdir } from "os";
import { join } from "path";
import { writeNoFollow } from "../../../src/cli/cache/safe-fs";
import {
  FileBlobStore,
  WRITE_CONCURRENCY,
  type WriteFile,
} from "../../../src/cli/cache/file-store";
import { defaultCacheDir } from "../../../src/cli/cache/cache-dir";

/** Inside this file's own temporary directory (test/support/environment.cjs), removed when the file ends. */
function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "store-"));
}

describe("file store", () => {
  it("gives back what an earlier process wrote, one file per entry named by a hash", async () => {
    const dir = tempDir();
    await new FileBlobStore({ dir }).setMany(
      new Map([
        ["https://metrics.example#abc\u001fentry\u001fprojects", "alpha"],
        ["b", "beta"],
      ])
    );
    const names = readdirSync(join(dir, "entries"));
    expect(names).toHaveLength(2);
    expect(names.every((n) => /^[0-9a-f]{64}\.json$/.test(n))).toBe(true);
    expect(readFileSync(join(dir, "CACHEDIR.TAG"), "utf8")).toMatch(
      /^Signature: 8a477f597d28d172789f06886806bc55/
    );

    const again = new FileBlobStore({ dir });
    const read = await again.getMany([
      "https://metrics.example#abc\u001fentry\u001fprojects",
      "b",
      "c",
    ]);
    expect([...read.values()]).toEqual(["alpha", "beta"]);
    expect(await again.usage()).toMatchObject({ entries: 2, bytes: 9, maxBytes: 50_000_000 });
    await again.deleteMany(["b"]);
    expect((await again.usage()).entries).toBe(1);
  });

  it("stays within its bound, removing the least recently used files first", async () => {
    let now = Date.UTC(2026, 10, 20, 12);
    const store = new FileBlobStore({ dir: tempDir(), maxBytes: 10_000, now: () => now });
    for (const key of ["k1", "k2", "k3"]) {
      await store.setMany(new Map([[key, "x".repeat(3_000)]]));
      now += 1_000;
    }
    await store.getMany(["k1"]); // k1 is now the most recently used
    now += 1_000;
    await store.setMany(new Map([["k4", "x".repeat(3_000)]]));
    expect((await store.usage()).bytes).toBeLessThanOrEqual(10_000);
    expect([...(await store.getMany(["k1", "k2", "k3", "k4"])).keys()]).toEqual(["k1", "k3", "k4"]);
  });

  it("writes a batch several files at a time, never more than its bound at once", async () => {
    const dir = tempDir();
    let writing = 0;
    let most = 0;
    const held: Array<() => void> = [];
    // Each write waits until the test lets it finish: what is in flight at once is what the store started.
    const writeFile: WriteFile = async (path, text, options) => {
      writing++;
      most = Math.max(most, writing);
      await new Promise<void>((resolve) => held.push(resolve));
      await writeNoFollow(path, text, options.mode);
      writing--;
    };
    const store = new FileBlobStore({ dir, writeFile, now: () => Date.UTC(2026, 10, 20, 12) });
    const batch = new Map(
      Array.from({ length: 50 }, (_, i): [string, string] => [`k${i}`, `v${i}`])
    );
    const saving = store.setMany(batch);
    let released = 0;
    while (released < batch.size) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      for (const release of held.splice(0)) {
        release();
        released++;
      }
    }
    await saving;
    expect(most).toBe(WRITE_CONCURRENCY);
    expect(WRITE_CONCURRENCY).toBeGreaterThan(1);
    const read = await store.getMany([...batch.keys()]);
    expect(read).toEqual(batch);
    // Atomic writes leave no temporary file behind, and every entry carries the store's clock as its last use.
    const names = readdirSync(join(dir, "entries"));
    expect(names).toHaveLength(50);
    expect(names.every((n) => /^[0-9a-f]{64}\.json$/.test(n))).toBe(true);
    expect(
      names.every((n) => statSync(join(dir, "entries", n)).mtimeMs === Date.UTC(2026, 10, 20, 12))
    ).toBe(true);
  });

  it("reports a write that failed once the writes under way have ended, and evicts nothing", async () => {
    const dir = tempDir();
    let started = 0;
    const writeFile: WriteFile = async (path, text, options) => {
      started++;
      if (started === 3) throw new Error("disk full");
      await writeNoFollow(path, text, options.mode);
    };
    // 1 byte each: the 7 written pass the 5-byte bound, which an eviction would have restored.
    const store = new FileBlobStore({ dir, writeFile, maxBytes: 5 });
    const batch = new Map(Array.from({ length: 40 }, (_, i): [string, string] => [`k${i}`, "v"]));
    await expect(store.setMany(batch)).rejects.toThrow("disk full");
    // The failure stops new writes; those under way finish (whole files, no temporaries).
    const names = readdirSync(join(dir, "entries"));
    expect(names).toHaveLength(WRITE_CONCURRENCY - 1);
    expect(names.every((n) => /^[0-9a-f]{64}\.json$/.test(n))).toBe(true);
  });

  it("lists its entries when the running total passes the bound or after an hour, not on every write", async () => {
    const dir = tempDir();
    const start = Date.UTC(2026, 10, 20, 12);
    let now = start;
    const store = new FileBlobStore({ dir, maxBytes: 10_000, now: () => now });
    await store.setMany(new Map([["a", "x".repeat(1_000)]]));
    // A temporary file a crashed write left two hours ago: only a listing of the entries removes it.
    const leftover = join(dir, "entries", `${"0".repeat(64)}.json.1234`);
    writeFileSync(leftover, "half");
    const twoHoursAgo = new Date(start - 2 * 3_600_000);
    utimesSync(leftover, twoHoursAgo, twoHoursAgo);

    now = start + 60_000;
    await store.setMany(new Map([["b", "x".repeat(1_000)]]));
    expect(existsSync(leftover)).toBe(true); // 2,000 bytes of 10,000: no listing

    now = start + 61 * 60_000;
    await store.setMany(new Map([["c", "x".repeat(1_000)]]));
    expect(existsSync(leftover)).toBe(false); // an hour since the last listing
    expect([...(await store.getMany(["a", "b", "c"])).keys()]).toEqual(["a", "b", "c"]);
  });

  it("keeps its bound when several processes write to one directory, oldest entries going first", async () => {
    const dir = tempDir();
    let now = Date.UTC(2026, 10, 20, 12);
    const clock = () => now;
    // Two stores on one directory are two CLI processes: each adds to the one running total.
    const stores = [0, 1].map(() => new FileBlobStore({ dir, maxBytes: 10_000, now: clock }));
    for (let i = 1; i <= 8; i++) {
      await stores[i % 2].setMany(new Map([[`k${i}`, "x".repeat(3_000)]]));
      now += 1_000;
      expect((await stores[0].usage()).bytes).toBeLessThanOrEqual(10_000);
    }
    const kept = [
      ...(await stores[1].getMany(["k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8"])).keys(),
    ];
    // 3 × 3,000 bytes fit under 10,000: each write past them evicts the oldest.
    expect(kept).toEqual(["k6", "k7", "k8"]);
  });

  it("evicts by what the entries hold, not by the running total, which replaced entries only raise", async () => {
    let now = Date.UTC(2026, 10, 20, 12);
    const store = new FileBlobStore({ dir: tempDir(), maxBytes: 10_000, now: () => now });
    await store.setMany(new Map([["a", "x".repeat(3_000)]]));
    // The same answer saved again and again (a file refreshed daily): 3,000 bytes on disk, not 18,000.
    for (let i = 0; i < 6; i++) {
      now += 1_000;
      await store.setMany(new Map([["b", "y".repeat(3_000)]]));
    }
    expect([...(await store.getMany(["a", "b"])).keys()]).toEqual(["a", "b"]);
    expect((await store.usage()).bytes).toBe(6_000);
  });

  it.each([
    ["missing", undefined],
    ["damaged", "{not json"],
    ["of another version", JSON.stringify({ version: 99, bytes: 0, scannedAt: 0, recent: [] })],
    ["claiming an empty directory", undefined],
  ])(
    "counts the entries afresh on the next write when the running total is %s",
    async (what, text) => {
      const dir = tempDir();
      let now = Date.UTC(2026, 10, 20, 12);
      const store = new FileBlobStore({ dir, maxBytes: 10_000, now: () => now });
      for (let i = 0; i < 3; i++) {
        await store.setMany(new Map([[`old${i}`, "x".repeat(3_000)]]));
        now += 1_000;
      }
      const usageFile = join(dir, "usage.json");
      if (what === "claiming an empty directory") {
        // Entries written behind its back (a copied cache), with a fresh listing recorded: it is trusted for
        // an hour, then the next write lists them.
        writeFileSync(
          usageFile,
          JSON.stringify({ version: 1, bytes: 0, scannedAt: now, recent: [] })
        );
        await store.setMany(new Map([["new0", "x".repeat(3_000)]]));
        now += 60 * 60_000;
      } else if (text === undefined) unlinkSync(usageFile);
      else writeFileSync(usageFile, text);
      await store.setMany(new Map([["new", "x".repeat(3_000)]]));
      expect((await store.usage()).bytes).toBeLessThanOrEqual(10_000);
      expect((await store.getMany(["old0"])).size).toBe(0);
      expect((await store.getMany(["new"])).size).toBe(1);
    }
  );

  it("keeps no entry bigger than the whole bound", async () => {
    const store = new FileBlobStore({ dir: tempDir(), maxBytes: 1_000 });
    await store.setMany(
      new Map([
        ["small", "s"],
        ["huge", "h".repeat(2_000)],
      ])
    );
    expect([...(await store.getMany(["small", "huge"])).keys()]).toEqual(["small"]);
  });

  it("never reads, counts or deletes files that are not its entries", async () => {
    const dir = tempDir();
    const store = new FileBlobStore({ dir });
    await store.setMany(new Map([["k", "v"]]));
    writeFileSync(join(dir, "entries", "notes.txt"), "mine");
    writeFileSync(join(dir, "README"), "mine too");
    expect((await store.usage()).entries).toBe(1);
    await store.clear();
    expect((await store.usage()).entries).toBe(0);
    expect(readdirSync(join(dir, "entries"))).toEqual(["notes.txt"]);
    expect(readFileSync(join(dir, "README"), "utf8")).toBe("mine too");
  });
});

describe("where the cache directory is", () => {
  const home = () => "/home/ana";
  it("follows --cache-dir's environment twin, then XDG, then ~/.cache", () => {
    expect(defaultCacheDir({ CRYPTOMETRICS_CACHE_DIR: "/tmp/c" }, "linux", home)).toBe("/tmp/c");
    expect(defaultCacheDir({ XDG_CACHE_HOME: "/var/cache/ana" }, "linux", home)).toBe(
      "/var/cache/ana/cryptometrics"
    );
    // A relative XDG_CACHE_HOME is invalid by the specification and ignored.
    expect(defaultCacheDir({ XDG_CACHE_HOME: "cache" }, "linux", home)).toBe(
      "/home/ana/.cache/cryptometrics"
    );
    expect(defaultCacheDir({}, "darwin", home)).toBe("/home/ana/.cache/cryptometrics");
    expect(
      defaultCacheDir({ LOCALAPPDATA: "C:\\Users\\ana\\AppData\\Local" }, "win32", home)
    ).toMatch(/AppData.Local.cryptometrics$/);
  });
});
