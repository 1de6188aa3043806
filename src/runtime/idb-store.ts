/**
 * The saved cache of the add-in's page: IndexedDB, through idb (a small, well-kept wrapper), because the
 * shared runtime is a browser runtime and OfficeRuntime.storage holds only 10 MB of strings. IndexedDB is
 * partitioned on the web and wiped when the Office cache is cleared: it is a cache, never the only copy.
 *
 * Two object stores: `entries` (key → text) and `usage` (key → bytes and last use, indexed by last use), so
 * that keeping the bound reads the small usage records only. Reads mark entries used; a write past the bound
 * removes the least recently used entries until the store is back under 90 % of it (a margin, so that each
 * following write does not evict again).
 */
import type { DBSchema, IDBPDatabase } from "idb";
import { IdbConnection } from "./idb-connection";
import type { BlobStore, BlobStoreUsage } from "../engine";

/** 50 MB: a few years of daily history for a thousand series, small beside what browsers grant a site. */
const DEFAULT_MAX_BYTES = 50_000_000;
const DEFAULT_DATABASE = "cryptometrics-cache";

interface UsageRecord {
  key: string;
  bytes: number;
  usedAt: number;
}

interface CacheSchema extends DBSchema {
  entries: { key: string; value: string };
  usage: { key: string; value: UsageRecord; indexes: { byUse: number } };
}

interface IdbStoreOptions {
  database?: string;
  maxBytes?: number;
  now?: () => number;
}

let encoder: TextEncoder | undefined;

/** UTF-8 bytes of an entry, key included. */
function sizeOf(key: string, text: string): number {
  encoder ??= new TextEncoder();
  return encoder.encode(key).length + encoder.encode(text).length;
}

export class IdbBlobStore implements BlobStore {
  private readonly database: string;
  private readonly maxBytes: number;
  private readonly now: () => number;
  private readonly connection: IdbConnection<CacheSchema>;

  constructor(options: IdbStoreOptions = {}) {
    this.database = options.database ?? DEFAULT_DATABASE;
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.now = options.now ?? Date.now;
    this.connection = new IdbConnection<CacheSchema>(this.database, (db) => {
      db.createObjectStore("entries");
      db.createObjectStore("usage", { keyPath: "key" }).createIndex("byUse", "usedAt");
    });
  }

  private open(): Promise<IDBPDatabase<CacheSchema>> {
    return this.connection.open();
  }

  /** Closes the connection (tests, and a page upgrading the database). */
  close(): void {
    this.connection.close();
  }

  async getMany(keys: readonly string[]): Promise<Map<string, string>> {
    const db = await this.open();
    const tx = db.transaction(["entries", "usage"], "readwrite");
    const entries = tx.objectStore("entries");
    const usage = tx.objectStore("usage");
    const now = this.now();
    const out = new Map<string, string>();
    await Promise.all(
      [...new Set(keys)].map(async (key) => {
        const text = await entries.get(key);
        if (text === undefined) return;
        out.set(key, text);
        await usage.put({ key, bytes: sizeOf(key, text), usedAt: now });
      })
    );
    await tx.done;
    return out;
  }

  async setMany(batch: ReadonlyMap<string, string>): Promise<void> {
    const db = await this.open();
    const tx = db.transaction(["entries", "usage"], "readwrite");
    const entries = tx.objectStore("entries");
    const usage = tx.objectStore("usage");
    const now = this.now();
    const writes: Promise<unknown>[] = [];
    for (const [key, text] of batch) {
      const bytes = sizeOf(key, text);
      // One answer bigger than the whole bound would only empty the store.
      if (bytes > this.maxBytes) continue;
      writes.push(entries.put(text, key), usage.put({ key, bytes, usedAt: now }));
    }
    await Promise.all([...writes, tx.done]);
    await this.evict(db);
  }

  private async evict(db: IDBPDatabase<CacheSchema>): Promise<void> {
    const tx = db.transaction(["entries", "usage"], "readwrite");
    const usage = tx.objectStore("usage");
    let total = 0;
    for (const record of await usage.getAll()) total += record.bytes;
    if (total > this.maxBytes) {
      const target = this.maxBytes * 0.9;
      const entries = tx.objectStore("entries");
      let cursor = await usage.index("byUse").openCursor();
      while (cursor && total > target) {
        total -= cursor.value.bytes;
        await entries.delete(cursor.value.key);
        await cursor.delete();
        cursor = await cursor.continue();
      }
    }
    await tx.done;
  }

  async deleteMany(keys: readonly string[]): Promise<void> {
    const db = await this.open();
    const tx = db.transaction(["entries", "usage"], "readwrite");
    await Promise.all([
      ...keys.flatMap((key) => [
        tx.objectStore("entries").delete(key),
        tx.objectStore("usage").delete(key),
      ]),
      tx.done,
    ]);
  }

  async clear(): Promise<void> {
    const db = await this.open();
    const tx = db.transaction(["entries", "usage"], "readwrite");
    await Promise.all([
      tx.objectStore("entries").clear(),
      tx.objectStore("usage").clear(),
      tx.done,
    ]);
  }

  async usage(): Promise<BlobStoreUsage> {
    const db = await this.open();
    const records = await db.getAll("usage");
    return {
      entries: records.length,
      bytes: records.reduce((n, r) => n + r.bytes, 0),
      maxBytes: this.maxBytes,
      location: `IndexedDB database "${this.database}" of the add-in's page`,
    };
  }
}
