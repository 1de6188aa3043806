/**
 * One lazily opened IndexedDB connection, shared by the add-in's stores (the saved cache, the restatement
 * ledger): opened on first use, dropped when another page wants a newer version or the browser terminates it,
 * and opened again by the next call.
 */
import { openDB, type DBSchema, type IDBPDatabase, type OpenDBCallbacks } from "idb";

export class IdbConnection<S extends DBSchema> {
  private db: Promise<IDBPDatabase<S>> | undefined;

  constructor(
    private readonly database: string,
    private readonly upgrade: NonNullable<OpenDBCallbacks<S>["upgrade"]>
  ) {}

  open(): Promise<IDBPDatabase<S>> {
    this.db ??= openDB<S>(this.database, 1, {
      upgrade: this.upgrade,
      // Another page wants a newer version: step aside, the next call opens again.
      blocking: () => this.close(),
      terminated: () => {
        this.db = undefined;
      },
    }).catch((error: unknown) => {
      this.db = undefined;
      throw error;
    });
    return this.db;
  }

  /** Closes the connection (tests, and a page upgrading the database). */
  close(): void {
    const db = this.db;
    this.db = undefined;
    void db?.then((d) => d.close()).catch(() => undefined);
  }
}
