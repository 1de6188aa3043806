/**
 * The CLI's restatement ledger (src/engine/ledger): `<cache dir>/restatements/<hash of the namespace>/`, one
 * file per day of recording (`2026-11-24.jsonl`, a line per answer) and `state.json` (what was dropped). Kept
 * beside the saved answers, not among them, so that their least-recently-used eviction never takes part of it.
 *
 * Every change of a file is made under the namespace's lock (lock.ts): CLI runs at once append in turn and
 * never overwrite each other. An append is one write of whole lines to a file opened O_APPEND; one the disk
 * cuts short (full, or past a size limit) is truncated back to where it began, so no half line is ever left to
 * make the day's file read as damaged. Trimming rewrites a file atomically (safe-fs.ts). No link is ever
 * followed, files are 0600, and a day's file past MAX_SEGMENT_BYTES is not read: it reads as damaged and is
 * dropped, as one that fails its seals would be.
 */
import { createHash } from "crypto";
import { constants, promises as fs } from "fs";
import { join } from "path";
import {
  newestWithin,
  type LedgerSegmentInfo,
  type LedgerStore,
  MAX_LEDGER_BYTES,
} from "../../engine";
import { prepareCacheDir } from "./cache-dir";
import { withLock } from "./lock";
import { checkInnerDir } from "./ownership";
import { readNoFollow, writeNoFollow } from "./safe-fs";

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const SEGMENT = /^(\d{4}-\d{2}-\d{2})\.jsonl$/;
const STATE = "state.json";
/** A namespace's directory: a hash of the service and key's namespace (itself holding no key). */
const NAMESPACE = /^[0-9a-f]{32}$/;

/** A day's file the ledger never writes (the whole bound in one day, and then some): not read. */
export const MAX_SEGMENT_BYTES = MAX_LEDGER_BYTES + 1_000_000;
/** The state record is a line of a hundred bytes. */
const MAX_STATE_BYTES = 4_096;
/** What a day's file too large to read reads as: a line no seal matches. */
const UNREADABLE = "\u0000";

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === "ENOENT";
}

export class FileLedgerStore implements LedgerStore {
  readonly location: string;

  constructor(private readonly dir: string) {
    this.location = join(dir, "restatements");
  }

  private place(ns: string): { dir: string; lock: string } {
    const name = createHash("sha256").update(ns).digest("hex").slice(0, 32);
    const dir = join(this.location, name);
    return { dir, lock: `${dir}.lock` };
  }

  /** The namespace's directory, checked (a real directory of this user, written by no one else). */
  private prepared(ns: string): { dir: string; lock: string } {
    const place = this.place(ns);
    prepareCacheDir(this.dir);
    checkInnerDir(this.location);
    checkInnerDir(place.dir);
    return place;
  }

  private file(dir: string, segment: string): string {
    if (!SEGMENT.test(`${segment}.jsonl`)) throw new RangeError(`not a day: "${segment}"`);
    return join(dir, `${segment}.jsonl`);
  }

  async append(ns: string, segment: string, lines: readonly string[]): Promise<void> {
    if (lines.length === 0) return;
    const place = this.prepared(ns);
    const path = this.file(place.dir, segment);
    const data = Buffer.from(lines.map((l) => `${l}\n`).join(""), "utf8");
    await withLock(place.lock, async () => {
      const handle = await fs.open(
        path,
        constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | NOFOLLOW,
        0o600
      );
      const start = (await handle.stat()).size;
      try {
        const { bytesWritten } = await handle.write(data, 0, data.length, null);
        if (bytesWritten !== data.length)
          throw new Error(`wrote ${bytesWritten} of ${data.length} bytes to ${path}`);
      } catch (error) {
        // No half line left behind: the day's file stays what it was.
        await handle.truncate(start).catch(() => undefined);
        throw error;
      } finally {
        await handle.close();
      }
    });
  }

  async segments(ns: string): Promise<LedgerSegmentInfo[]> {
    const { dir } = this.place(ns);
    let names: string[];
    try {
      names = await fs.readdir(dir);
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    const out: LedgerSegmentInfo[] = [];
    for (const name of names) {
      const m = SEGMENT.exec(name);
      if (!m) continue;
      try {
        // lstat: a link is no day of the ledger (never followed, never counted).
        const stat = await fs.lstat(join(dir, name));
        if (stat.isFile()) out.push({ id: m[1], bytes: stat.size });
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    }
    return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async read(ns: string, segment: string): Promise<string[] | undefined> {
    const read = await readNoFollow(this.file(this.place(ns).dir, segment), MAX_SEGMENT_BYTES);
    if (read === undefined) return undefined;
    if ("tooLarge" in read) return [UNREADABLE];
    return read.text.split("\n").filter((line) => line !== "");
  }

  async remove(ns: string, segments: readonly string[]): Promise<void> {
    if (segments.length === 0) return;
    const place = this.prepared(ns);
    await withLock(place.lock, async () => {
      for (const s of segments) await unlinkQuietly(this.file(place.dir, s));
    });
  }

  async keepNewest(ns: string, segment: string, maxBytes: number): Promise<void> {
    const place = this.prepared(ns);
    const path = this.file(place.dir, segment);
    await withLock(place.lock, async () => {
      const read = await readNoFollow(path, MAX_SEGMENT_BYTES);
      if (read === undefined) return;
      const lines = "tooLarge" in read ? [] : read.text.split("\n").filter((l) => l !== "");
      const kept = newestWithin(lines, maxBytes);
      await writeNoFollow(path, kept.map((l) => `${l}\n`).join(""));
    });
  }

  async readMeta(ns: string): Promise<string | undefined> {
    const read = await readNoFollow(join(this.place(ns).dir, STATE), MAX_STATE_BYTES);
    if (read === undefined) return undefined;
    // Too large to be ours: unreadable, which the ledger takes as "dropped from the oldest day kept".
    return "tooLarge" in read ? UNREADABLE : read.text;
  }

  async writeMeta(ns: string, text: string): Promise<void> {
    const place = this.prepared(ns);
    await withLock(place.lock, () => writeNoFollow(join(place.dir, STATE), text));
  }

  /** Removes every namespace's ledger (`cache clear`); files that are not the ledger's are left alone. */
  async clear(): Promise<void> {
    let names: string[];
    try {
      names = await fs.readdir(this.location);
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for (const name of names) {
      if (!NAMESPACE.test(name)) continue;
      const dir = join(this.location, name);
      const stat = await fs.lstat(dir).catch(() => undefined);
      if (!stat?.isDirectory()) continue;
      await withLock(`${dir}.lock`, async () => {
        for (const file of await fs.readdir(dir)) {
          if (SEGMENT.test(file) || file === STATE) await unlinkQuietly(join(dir, file));
        }
      });
      await fs.rmdir(dir).catch(() => undefined);
    }
  }

  /** How many days of changes and bytes the namespace's ledger holds (`cache info`). */
  async usage(ns: string): Promise<{ days: number; bytes: number }> {
    const segments = await this.segments(ns);
    return { days: segments.length, bytes: segments.reduce((n, s) => n + s.bytes, 0) };
  }
}

async function unlinkQuietly(path: string): Promise<void> {
  try {
    await fs.unlink(path);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
}
