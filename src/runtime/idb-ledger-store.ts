/**
 * The add-in's restatement ledger (src/engine/ledger): IndexedDB, through idb, in a database of its own beside
 * the saved cache (`cryptometrics-ledger`), so the cache's least-recently-used eviction never reaches it; Settings'
 * *Clear cache* clears both. Like the saved cache it is partitioned on the web and wiped with the Office cache.
 *
 * Three object stores: `lines` (one record per line, in insertion order, indexed by namespace and day), `days`
 * (each day's size, kept in the same transaction as its lines, so the bound reads small records only) and `state`
 * (the ledger's record of what was dropped). Every call is one transaction: an append is whole or not at all.
 */
import type { DBSchema, IDBPDatabase } from "idb";
import { IdbConnection } from "./idb-connection";
import { linesBytes, newestWithin, type LedgerSegmentInfo, type LedgerStore } from "../engine";

const DEFAULT_LEDGER_DATABASE = "cryptometrics-ledger";

interface LineRecord {
  ns: string;
  day: string;
  line: string;
}

interface DayRecord {
  ns: string;
  day: string;
  bytes: number;
}

interface LedgerSchema extends DBSchema {
  lines: { key: number; value: LineRecord; indexes: { byDay: [string, string] } };
  days: { key: [string, string]; value: DayRecord };
  state: { key: string; value: string };
}

/** Every day of a namespace, in the [namespace, day] key order (days sort as their text). */
function daysOf(ns: string): IDBKeyRange {
  return IDBKeyRange.bound([ns, ""], [ns, "\uffff"]);
}

export class IdbLedgerStore implements LedgerStore {
  readonly location: string;
  private readonly connection: IdbConnection<LedgerSchema>;

  constructor(database: string = DEFAULT_LEDGER_DATABASE) {
    this.location = `IndexedDB database "${database}" of the add-in's page`;
    this.connection = new IdbConnection<LedgerSchema>(database, (db) => {
      db.createObjectStore("lines", { autoIncrement: true }).createIndex("byDay", ["ns", "day"]);
      db.createObjectStore("days", { keyPath: ["ns", "day"] });
      db.createObjectStore("state");
    });
  }

  private open(): Promise<IDBPDatabase<LedgerSchema>> {
    return this.connection.open();
  }

  /** Closes the connection (tests, and a page upgrading the database). */
  close(): void {
    this.connection.close();
  }

  async append(ns: string, day: string, lines: readonly string[]): Promise<void> {
    if (lines.length === 0) return;
    const db = await this.open();
    const tx = db.transaction(["lines", "days"], "readwrite");
    const days = tx.objectStore("days");
    const held = await days.get([ns, day]);
    await Promise.all([
      ...lines.map((line) => tx.objectStore("lines").add({ ns, day, line })),
      days.put({ ns, day, bytes: (held?.bytes ?? 0) + linesBytes(lines) }),
      tx.done,
    ]);
  }

  async segments(ns: string): Promise<LedgerSegmentInfo[]> {
    const db = await this.open();
    return (await db.getAll("days", daysOf(ns))).map((d) => ({ id: d.day, bytes: d.bytes }));
  }

  async read(ns: string, day: string): Promise<string[] | undefined> {
    const db = await this.open();
    const tx = db.transaction(["lines", "days"], "readonly");
    if (!(await tx.objectStore("days").get([ns, day]))) return undefined;
    // One key of the index: in insertion order (the primary keys ascend).
    const records = await tx.objectStore("lines").index("byDay").getAll([ns, day]);
    await tx.done;
    return records.map((r) => r.line);
  }

  async remove(ns: string, days: readonly string[]): Promise<void> {
    const db = await this.open();
    const tx = db.transaction(["lines", "days"], "readwrite");
    for (const day of days) {
      let cursor = await tx.objectStore("lines").index("byDay").openCursor([ns, day]);
      while (cursor) {
        await cursor.delete();
        cursor = await cursor.continue();
      }
      await tx.objectStore("days").delete([ns, day]);
    }
    await tx.done;
  }

  async keepNewest(ns: string, day: string, maxBytes: number): Promise<void> {
    const db = await this.open();
    const tx = db.transaction(["lines", "days"], "readwrite");
    const index = tx.objectStore("lines").index("byDay");
    const lines = (await index.getAll([ns, day])).map((r) => r.line);
    const kept = newestWithin(lines, maxBytes);
    let drop = lines.length - kept.length;
    let cursor = await index.openCursor([ns, day]);
    while (cursor && drop > 0) {
      await cursor.delete();
      drop--;
      cursor = await cursor.continue();
    }
    await tx.objectStore("days").put({ ns, day, bytes: linesBytes(kept) });
    await tx.done;
  }

  async readMeta(ns: string): Promise<string | undefined> {
    return (await this.open()).get("state", ns);
  }

  async writeMeta(ns: string, text: string): Promise<void> {
    await (await this.open()).put("state", text, ns);
  }

  async clear(): Promise<void> {
    const db = await this.open();
    const tx = db.transaction(["lines", "days", "state"], "readwrite");
    await Promise.all([
      tx.objectStore("lines").clear(),
      tx.objectStore("days").clear(),
      tx.objectStore("state").clear(),
      tx.done,
    ]);
  }
}
