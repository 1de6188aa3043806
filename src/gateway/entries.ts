/**
 * What a lane keeps of answers, as the serving and the fetching see it: entries read from this process's copy
 * (parsed, bounded by bytes) and the shared store, each checked against its HMAC (integrity.ts: an entry edited
 * in Redis is no entry), and answers merged into the store by compare-and-set on each entry's revision, so that
 * two fetches of one series over different days both stay. An entry larger than MAX_ENTRY_BYTES, or one its
 * user's daily allowance does not cover, is served and not kept.
 *
 * Series answers are compared with the entry they replace (series/team-record.ts): the changes go to the team's
 * record of restatements once this process's compare-and-set write has won, so that each is recorded once
 * whatever the number of processes (the write that lost merges again into the entry holding the new values).
 */
import { LRUCache } from "lru-cache";
import { DEFAULT_CACHE_POLICY } from "../cache/policy";
import { LOCAL_CACHE_BYTES, MAX_ENTRY_BYTES } from "./bounds";
import type { Change } from "../engine";
import type { Integrity } from "./integrity";
import {
  freshFor,
  merge,
  readEntry,
  writeEntry,
  type Fetched,
  type Need,
  type SeriesEntry,
} from "./series/entry";
import { compareAnswer, type SeriesAbout } from "./series/team-record";
import type { Store, Stored } from "./store/store";
import {
  freshWhole,
  nextWhole,
  readWhole,
  writeWhole,
  type WholeEntry,
  type WholeSnapshot,
} from "./whole";

/** How many times a write lost to another process's is read again and merged before it gives up. */
const MERGE_ATTEMPTS = 5;

/** Extends the lifetime of a store entry: fresh until its expiry, then a week's fallback. */
function storeTtl(expiresAt: number, now: number): number {
  return Math.max(1_000, expiresAt - now) + DEFAULT_CACHE_POLICY.maxStaleMs;
}

export interface EntriesOptions {
  store: Store;
  integrity: Integrity;
  now: () => number;
  maxEntryBytes?: number;
  log?: (level: "info" | "warn", fields: Record<string, unknown>, message: string) => void;
  /** The lane's record of restatements (lanes.ts); record() never rejects. Without it, nothing is compared. */
  restatements?: { record(changes: readonly Change[]): Promise<void> };
}

export class Entries {
  private readonly local: LRUCache<string, { entry: SeriesEntry | WholeEntry; bytes: number }>;
  private readonly maxEntryBytes: number;

  constructor(private readonly options: EntriesOptions) {
    this.maxEntryBytes = options.maxEntryBytes ?? MAX_ENTRY_BYTES;
    this.local = new LRUCache({
      maxSize: LOCAL_CACHE_BYTES,
      maxEntrySize: this.maxEntryBytes * 2,
      sizeCalculation: (v) => v.bytes,
    });
  }

  private openSeries(key: string, stored: Stored | undefined): SeriesEntry | undefined {
    return readEntry(this.options.integrity.open(key, stored?.text), key);
  }

  private openWhole(key: string, stored: Stored | undefined): WholeEntry | undefined {
    return readWhole(this.options.integrity.open(key, stored?.text), key);
  }

  private remember(key: string, entry: SeriesEntry | WholeEntry, bytes: number): void {
    this.local.set(key, { entry, bytes });
  }

  /** Each need's entry: `given` (what a fetch handed over), this process's copy, else the store's. */
  async readSeries(
    needs: readonly Need[],
    given?: ReadonlyMap<string, SeriesEntry>
  ): Promise<Array<SeriesEntry | undefined>> {
    const now = this.options.now();
    const entries = needs.map(
      (n) => given?.get(n.key) ?? (this.local.get(n.key)?.entry as SeriesEntry | undefined)
    );
    const missing = needs
      .map((n, i) => (freshFor(entries[i], n, now) ? -1 : i))
      .filter((i) => i >= 0);
    if (missing.length === 0) return entries;
    const stored = await this.options.store.read(missing.map((i) => needs[i].key));
    missing.forEach((i, j) => {
      const entry = this.openSeries(needs[i].key, stored[j]);
      if (
        entry &&
        (!entries[i] || freshFor(entry, needs[i], now) || !freshFor(entries[i], needs[i], now))
      ) {
        entries[i] = entry;
        this.remember(needs[i].key, entry, 2 * (stored[j]?.text.length ?? 0));
      }
    });
    return entries;
  }

  /** A whole answer's entry: `given`, this process's copy while fresh, else the store's when newer. */
  async readWhole(key: string, given?: WholeEntry): Promise<WholeEntry | undefined> {
    const cached = given ?? (this.local.get(key)?.entry as WholeEntry | undefined);
    if (freshWhole(cached, this.options.now())) return cached;
    const [stored] = await this.options.store.read([key]);
    const entry = this.openWhole(key, stored);
    if (entry && (!cached || entry.cur.fetchedAt >= cached.cur.fetchedAt)) {
      this.remember(key, entry, 2 * (stored?.text.length ?? 0));
      return entry;
    }
    return cached;
  }

  /**
   * What one answer brought for its series, merged into their entries in the store (kept only if `keep`): one
   * read of them all, their writes at once, and only the writes another process won read again; the entries.
   */
  async mergeSeries(
    items: ReadonlyArray<{ key: string; got: Fetched; about?: SeriesAbout }>,
    keep: boolean
  ): Promise<Map<string, SeriesEntry>> {
    const out = new Map<string, SeriesEntry>();
    const changes: Change[] = [];
    let pending = [...items];
    for (let attempt = 0; attempt < MERGE_ATTEMPTS && pending.length > 0; attempt++) {
      const stored = await this.options.store.read(pending.map((i) => i.key));
      const now = this.options.now();
      const lost = await Promise.all(
        pending.map(async ({ key, got, about }, i) => {
          const held = this.openSeries(key, stored[i]);
          const outcome =
            about && this.options.restatements && keep
              ? compareAnswer(held, got, now, about)
              : undefined;
          const entry = merge(held, key, got, now, outcome?.seen);
          out.set(key, entry);
          const text = writeEntry(entry);
          if (!this.keeps(keep, text)) return false;
          const sealed = this.options.integrity.seal(key, text);
          const rev = stored[i]?.rev ?? 0;
          if (
            !(await this.options.store.writeIf(
              key,
              rev,
              sealed,
              storeTtl(entry.cur.expiresAt, now)
            ))
          )
            return true;
          this.remember(key, entry, 2 * sealed.length);
          // This write won: what it replaced is what this answer changed (recorded by no other process).
          if (outcome) for (const c of outcome.changes) changes.push(c);
          return false;
        })
      );
      pending = pending.filter((_, i) => lost[i]);
    }
    // Not waited for: the callers are answered now; record() never rejects, a lane's close waits for it, and a
    // read of the record waits for what was recorded before it.
    if (changes.length > 0) void this.options.restatements?.record(changes);
    return out;
  }

  /** Whether an entry's text is kept: its user's allowance covers it, and it is not too large (said then). */
  private keeps(keep: boolean, text: string): boolean {
    if (!keep) return false;
    if (2 * text.length <= this.maxEntryBytes) return true;
    this.options.log?.(
      "warn",
      { bytes: 2 * text.length },
      "an answer too large to keep was served, not kept"
    );
    return false;
  }

  /** A whole answer fetched afresh, the previous one kept as its fallback; the entry. */
  mergeWhole(key: string, snapshot: WholeSnapshot, keep: boolean): Promise<WholeEntry | undefined> {
    return this.mergeInto(
      key,
      keep,
      (stored, now) => nextWhole(this.openWhole(key, stored), key, snapshot, now),
      writeWhole,
      (entry) => entry.cur.expiresAt
    );
  }

  private async mergeInto<E extends SeriesEntry | WholeEntry>(
    key: string,
    keep: boolean,
    next: (stored: Stored | undefined, now: number) => E,
    write: (entry: E) => string,
    expiry: (entry: E) => number
  ): Promise<E | undefined> {
    let entry: E | undefined;
    for (let attempt = 0; attempt < MERGE_ATTEMPTS; attempt++) {
      const now = this.options.now();
      const [stored] = await this.options.store.read([key]);
      entry = next(stored, now);
      const text = write(entry);
      if (!keep || 2 * text.length > this.maxEntryBytes) {
        if (keep)
          this.options.log?.(
            "warn",
            { bytes: 2 * text.length },
            "an answer too large to keep was served, not kept"
          );
        return entry;
      }
      const sealed = this.options.integrity.seal(key, text);
      if (
        await this.options.store.writeIf(
          key,
          stored?.rev ?? 0,
          sealed,
          storeTtl(expiry(entry), now)
        )
      ) {
        this.remember(key, entry, 2 * sealed.length);
        return entry;
      }
    }
    return entry;
  }
}
