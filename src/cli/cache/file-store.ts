/**
 * The CLI's saved cache: one file per entry in `<cache dir>/entries`, named by the SHA-256 of its key (so no
 * key, service or id ever becomes a file name). Files are written atomically (a temporary file written
 * whole, then renamed into place: safe-fs.ts), so a reader in another process sees the old entry or the new
 * one, never half of one; a write the disk refuses (full, or past a file-size limit) leaves nothing behind.
 * No link in the directory is ever followed, and an entry file larger than MAX_SAVED_ENTRY_BYTES is dropped
 * unread. Without fsync: a cache survives a power cut by dropping what it cannot read (see persistence.ts).
 *
 * A batch is written a few files at a time (WRITE_CONCURRENCY): one after the other, a CLI run's 200 answers
 * took 300–600 ms of the run, each atomic write being about ten file-system calls waited on in turn.
 *
 * Least recently used first out: reading an entry touches its modification time; a write that takes the
 * directory past its bound deletes the oldest files until it is back under 90 % of it (a margin, so the next
 * runs do not evict again), under a lock so two processes do not evict at once. Whether a write passes the
 * bound is told by a running total kept beside the entries (store-usage.ts), an upper bound of their size:
 * the entries are listed only when it passes the bound (or hourly), not on every write. Files that are not entries
 * (anything not named like one) are never read, counted or deleted.
 */
import { createHash, randomUUID } from "crypto";
import { promises as fs } from "fs";
import { join } from "path";
import { MAX_SAVED_ENTRY_BYTES, type BlobStore, type BlobStoreUsage } from "../../engine";
import { prepareCacheDir } from "./cache-dir";
import { checkInnerDir } from "./ownership";
import { readNoFollow, touchNoFollow, writeNoFollow } from "./safe-fs";
import { withLock } from "./lock";
import { readUsage, rebase, reserve, writeUsage } from "./store-usage";

/** 50 MB: a few years of daily history for a thousand series, and small on any disk. */
export const DEFAULT_MAX_BYTES = 50_000_000;

const ENTRY = /^[0-9a-f]{64}\.json$/;
/** Temporary files (safe-fs.ts): `<name>.json.<hex>`; one left by a crash is removed after an hour. */
const TEMPORARY = /^[0-9a-f]{64}\.json\.\S+$/;
const TEMPORARY_MAX_AGE_MS = 60 * 60_000;

/**
 * Entry files written at once. libuv's thread pool runs 4 file-system calls at a time; 8 keeps it busy while
 * each write waits between its calls. Measured on 200 entries (2 shared cores): one at a time 160–230 ms,
 * 8 at once 80–145 ms.
 */
export const WRITE_CONCURRENCY = 8;

/** Writes one file atomically, as the store calls it (writeNoFollow by default). */
export type WriteFile = (
  path: string,
  text: string,
  options: { fsync: false; mode: number }
) => Promise<void>;

interface FileStoreOptions {
  dir: string;
  maxBytes?: number;
  now?: () => number;
  /** For tests; writeNoFollow by default. */
  writeFile?: WriteFile;
  /** An entry file larger than this is dropped unread (default MAX_SAVED_ENTRY_BYTES). */
  maxEntryBytes?: number;
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === "ENOENT";
}

interface FileInfo {
  path: string;
  bytes: number;
  usedAt: number;
}

export class FileBlobStore implements BlobStore {
  readonly dir: string;
  private readonly entries: string;
  private readonly maxBytes: number;
  private readonly now: () => number;
  private readonly writeFile: WriteFile;
  private readonly maxEntryBytes: number;
  private readonly lockPath: string;
  private readonly usageFile: string;
  private prepared = false;

  constructor(options: FileStoreOptions) {
    this.dir = options.dir;
    this.entries = join(options.dir, "entries");
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.now = options.now ?? Date.now;
    this.writeFile = options.writeFile ?? ((path, text, o) => writeNoFollow(path, text, o.mode));
    this.maxEntryBytes = options.maxEntryBytes ?? MAX_SAVED_ENTRY_BYTES;
    this.lockPath = join(options.dir, "store.lock");
    this.usageFile = join(options.dir, "usage.json");
  }

  private pathOf(key: string): string {
    return join(this.entries, `${createHash("sha256").update(key).digest("hex")}.json`);
  }

  private async prepare(): Promise<void> {
    if (this.prepared) return;
    prepareCacheDir(this.dir);
    checkInnerDir(this.entries);
    this.prepared = true;
  }

  /** The entries found, in the order the keys were asked (reads run at once; their finishing order is noise). */
  async getMany(keys: readonly string[]): Promise<Map<string, string>> {
    const at = new Date(this.now());
    const unique = [...new Set(keys)];
    const texts = await Promise.all(
      unique.map(async (key): Promise<string | undefined> => {
        const path = this.pathOf(key);
        const read = await readNoFollow(path, this.maxEntryBytes);
        if (read === undefined) return undefined;
        if ("tooLarge" in read) {
          // Not read: an entry this large costs several times its size in memory once parsed.
          await unlinkQuietly(path);
          return undefined;
        }
        // Recently used; an entry evicted meanwhile by another process is simply gone.
        await touchNoFollow(path, at).catch(() => undefined);
        return read.text;
      })
    );
    const out = new Map<string, string>();
    unique.forEach((key, i) => {
      const text = texts[i];
      if (text !== undefined) out.set(key, text);
    });
    return out;
  }

  async setMany(batch: ReadonlyMap<string, string>): Promise<void> {
    await this.prepare();
    const at = new Date(this.now());
    // One answer bigger than the whole bound would only empty the store; one past the entry limit would not
    // be read back.
    const writes = [...batch].filter(([, text]) => {
      const bytes = Buffer.byteLength(text);
      return bytes <= this.maxBytes && bytes <= this.maxEntryBytes;
    });
    if (writes.length === 0) return;
    // Counted before it is written: the running total never falls below what is on disk (store-usage.ts).
    const reservation = {
      id: randomUUID(),
      at: this.now(),
      bytes: writes.reduce((n, [, text]) => n + Buffer.byteLength(text), 0),
    };
    const { scan } = await withLock(this.lockPath, async () => {
      const reserved = reserve(await readUsage(this.usageFile), reservation, this.maxBytes);
      await writeUsage(this.usageFile, reserved.record);
      return reserved;
    });
    await eachLimited(writes, WRITE_CONCURRENCY, async ([key, text]) => {
      const path = this.pathOf(key);
      await this.writeFile(path, text, { fsync: false, mode: 0o600 });
      // Last use by the store's clock (the same one reads use), not the file system's.
      await touchNoFollow(path, at).catch(() => undefined);
    });
    if (scan) await withLock(this.lockPath, () => this.evict(new Set([reservation.id])));
  }

  private async scan(): Promise<{ files: FileInfo[]; temporary: FileInfo[] }> {
    let names: string[];
    try {
      names = await fs.readdir(this.entries);
    } catch (error) {
      if (isMissing(error)) return { files: [], temporary: [] };
      throw error;
    }
    const files: FileInfo[] = [];
    const temporary: FileInfo[] = [];
    await Promise.all(
      names.map(async (name) => {
        const isEntry = ENTRY.test(name);
        if (!isEntry && !TEMPORARY.test(name)) return;
        const path = join(this.entries, name);
        try {
          // lstat: a link is not an entry (never followed, never counted; removed with the rest on clear).
          const stat = await fs.lstat(path);
          if (!stat.isFile()) return;
          (isEntry ? files : temporary).push({
            path,
            bytes: stat.size,
            usedAt: stat.mtimeMs,
          });
        } catch (error) {
          if (!isMissing(error)) throw error;
        }
      })
    );
    return { files, temporary };
  }

  /** Lists the entries, removes what the bound and the temporaries' age say, and sets the running total. */
  private async evict(written: ReadonlySet<string>): Promise<void> {
    const { files, temporary } = await this.scan();
    const stale = this.now() - TEMPORARY_MAX_AGE_MS;
    for (const t of temporary) if (t.usedAt < stale) await unlinkQuietly(t.path);
    let total = files.reduce((n, f) => n + f.bytes, 0);
    if (total > this.maxBytes) {
      const target = this.maxBytes * 0.9;
      files.sort((a, b) => a.usedAt - b.usedAt);
      for (const f of files) {
        if (total <= target) break;
        await unlinkQuietly(f.path);
        total -= f.bytes;
      }
    }
    const record = await readUsage(this.usageFile);
    await writeUsage(this.usageFile, rebase(record, total, this.now(), written));
  }

  async deleteMany(keys: readonly string[]): Promise<void> {
    for (const key of keys) await unlinkQuietly(this.pathOf(key));
  }

  async clear(): Promise<void> {
    await this.prepare();
    await withLock(this.lockPath, async () => {
      const { files, temporary } = await this.scan();
      for (const f of [...files, ...temporary]) await unlinkQuietly(f.path);
      // Batches other processes are writing right now still count.
      await writeUsage(this.usageFile, rebase(await readUsage(this.usageFile), 0, this.now()));
    });
  }

  async usage(): Promise<BlobStoreUsage> {
    const { files } = await this.scan();
    return {
      entries: files.length,
      bytes: files.reduce((n, f) => n + f.bytes, 0),
      maxBytes: this.maxBytes,
      location: this.entries,
    };
  }

  /** The oldest and newest use of an entry, for `cache info`; undefined when empty. */
  async span(): Promise<{ oldest: number; newest: number } | undefined> {
    const { files } = await this.scan();
    if (files.length === 0) return undefined;
    let oldest = Infinity;
    let newest = -Infinity;
    for (const f of files) {
      oldest = Math.min(oldest, f.usedAt);
      newest = Math.max(newest, f.usedAt);
    }
    return { oldest, newest };
  }
}

/**
 * Runs `work` on every item, at most `limit` at a time; rejects with the first failure once the works under
 * way have ended (none is left running behind the caller's back).
 */
async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const item = items[next++];
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
}

async function unlinkQuietly(path: string): Promise<void> {
  try {
    await fs.unlink(path);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
}
