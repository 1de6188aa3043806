/**
 * The layer that lets the engine's caches outlive the session. The engine stays free of storage APIs: it talks
 * to a BlobStore, a small key → text interface with a size bound, which the hosts implement (IndexedDB on the
 * add-in's page, a cache directory for the CLI). This module adds what every host needs on top:
 *
 * - Namespaces. Every entry belongs to one service and one API key: its store key starts with the namespace
 *   the runtime computes (the service's origin and a hash of the key, never the key itself).
 * - Versioned envelopes. Each entry is JSON `{format, version, ns, section, key, savedAt, body}`. An entry of
 *   another format version, one whose namespace or key does not match the one asked for (a foreign entry),
 *   one that does not parse or whose body fails its section's check (a corrupt entry) is dropped from the
 *   store, and a note says so; the caller sees a miss and fetches afresh.
 * - Batching. Reads asked for within one turn of the event loop go to the store together (one IndexedDB
 *   transaction for a whole recalculation); writes are collected and written behind, after a short delay, in
 *   one batch. `flush()` writes what is pending now (the CLI calls it before it exits).
 * - Deadlines. A store that does not answer (a blocked IndexedDB upgrade, a hung disk) costs a read at most
 *   `readTimeoutMs`, then the engine goes on without it. No failure of the store ever reaches a cell.
 */
import type { Timers } from "../client";
import { messageOf } from "../client";

export interface BlobStoreUsage {
  /** Entries held (every namespace). */
  entries: number;
  /** Their size in bytes (UTF-8). */
  bytes: number;
  /** The bound: beyond it the least recently used entries go. */
  maxBytes: number;
  /** Where the entries live, for people ("IndexedDB database …", a directory). */
  location: string;
}

/** What a host provides: texts by key, bounded, least recently used first out. */
export interface BlobStore {
  /** The texts of the keys present; reading an entry makes it recently used. */
  getMany(keys: readonly string[]): Promise<Map<string, string>>;
  /** Writes (or replaces) entries, then evicts the least recently used ones beyond the bound. */
  setMany(entries: ReadonlyMap<string, string>): Promise<void>;
  deleteMany(keys: readonly string[]): Promise<void>;
  /** Removes every entry of every namespace. */
  clear(): Promise<void>;
  usage(): Promise<BlobStoreUsage>;
}

/** Turns a section's values into JSON and back; decode answers undefined for anything it does not trust. */
export interface Codec<T> {
  encode(value: T): unknown;
  decode(json: unknown): T | undefined;
}

/**
 * The largest entry the saved cache keeps, as JSON text: 8 MB, four times the largest real answer (a daily
 * series of ten years across twenty chains is about 1.5 MB; a catalogue of 5,000 projects about 1 MB). An
 * answer larger than this is refused before its text is built (its size is counted first, stopping at the
 * bound) and kept for the session only; a host refuses a stored entry past it before reading it. Two
 * entries of two million points each once took the CLI to 1.59 GB when saved and read back.
 */
export const MAX_SAVED_ENTRY_BYTES = 8_000_000;

/** What a producer gives (schedule's `produce`) for an answer it knows is too large to save. */
export const TOO_LARGE_TO_SAVE: unique symbol = Symbol("too large to save");

export const CACHE_FORMAT = "cryptometrics-cache";
/** Raise on any change of an envelope or a body: entries of other versions are then dropped on read. */
export const CACHE_FORMAT_VERSION = 1;

interface PersistenceOptions {
  store: BlobStore;
  /** The current service and key as a namespace; undefined (no key yet): nothing is read or written. */
  namespace: () => Promise<string | undefined>;
  timers: Timers;
  now: () => number;
  /** Things a user may want to know (entries dropped, a store that failed); never throws. */
  onNote?: (note: string) => void;
  /**
   * Write-behind delay. Half a second gathers the answers of one recalculation into one write, and is short
   * enough that a workbook closed right after its refresh has its values saved.
   */
  writeDelayMs?: number;
  /**
   * A read that takes longer is given up (the cell fetches as if nothing were saved). Five seconds: a healthy
   * IndexedDB or disk answers in milliseconds, and a cell should not wait on a stuck one for long.
   */
  readTimeoutMs?: number;
}

export interface Persisted<T> {
  value: T;
  savedAt: number;
}

interface Envelope {
  format: string;
  version: number;
  ns: string;
  section: string;
  key: string;
  savedAt: number;
  body: unknown;
}

interface PendingRead {
  section: string;
  key: string;
  codec: Codec<unknown>;
  resolvers: Array<(value: Persisted<unknown> | undefined) => void>;
}

interface PendingWrite {
  section: string;
  key: string;
  ns: Promise<string | undefined>;
  /** Called at write time: the latest value, or undefined when there is nothing to save any more. */
  produce: () => unknown;
}

/** Separates namespace, section and key in store keys; it appears in none of them. */
const SEP = "\u001f";

function storeKey(ns: string, section: string, key: string): string {
  return `${ns}${SEP}${section}${SEP}${key}`;
}

type DropReason = "corrupt" | "foreign" | "old format";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export class PersistentCache {
  private readonly store: BlobStore;
  private readonly writeDelayMs: number;
  private readonly readTimeoutMs: number;
  private reads = new Map<string, PendingRead>();
  private readTimer: unknown = undefined;
  private writes = new Map<string, PendingWrite>();
  private writeTimer: unknown = undefined;
  private writing: Promise<void> = Promise.resolve();
  private epoch = 0;

  constructor(private readonly options: PersistenceOptions) {
    this.store = options.store;
    this.writeDelayMs = options.writeDelayMs ?? 500;
    this.readTimeoutMs = options.readTimeoutMs ?? 5_000;
  }

  /** The saved value of (section, key), or undefined; never rejects. */
  read<T>(section: string, key: string, codec: Codec<T>): Promise<Persisted<T> | undefined> {
    return new Promise((resolve) => {
      const id = `${section}${SEP}${key}`;
      let pending = this.reads.get(id);
      if (!pending) {
        pending = { section, key, codec: codec, resolvers: [] };
        this.reads.set(id, pending);
      }
      pending.resolvers.push(resolve as (value: Persisted<unknown> | undefined) => void);
      // A timer, not a microtask: the cells of one recalculation reach here over several turns.
      this.readTimer ??= this.options.timers.setTimeout(() => void this.drainReads(), 0);
    });
  }

  /** Saves (section, key) soon: `produce` gives the value to save when the write happens. */
  schedule(section: string, key: string, produce: () => unknown): void {
    this.writes.set(`${section}${SEP}${key}`, {
      section,
      key,
      // The namespace of now: a key changed before the write must not receive this answer.
      ns: this.options.namespace().catch(() => undefined),
      produce,
    });
    this.writeTimer ??= this.options.timers.setTimeout(() => void this.flush(), this.writeDelayMs);
  }

  /** Writes everything pending now; resolves when written (or given up, with a note). */
  flush(): Promise<void> {
    if (this.writeTimer !== undefined) this.options.timers.clearTimeout(this.writeTimer);
    this.writeTimer = undefined;
    const batch = [...this.writes.values()];
    this.writes = new Map();
    const epoch = this.epoch;
    this.writing = this.writing.then(() => this.write(batch, epoch));
    return this.writing;
  }

  /** Forgets every saved entry (all services and keys) and anything not yet written. */
  async clear(): Promise<void> {
    this.epoch++;
    if (this.writeTimer !== undefined) this.options.timers.clearTimeout(this.writeTimer);
    this.writeTimer = undefined;
    this.writes = new Map();
    await this.writing;
    await this.store.clear();
  }

  usage(): Promise<BlobStoreUsage> {
    return this.store.usage();
  }

  private note(text: string): void {
    try {
      this.options.onNote?.(text);
    } catch {
      // A note never breaks a calculation.
    }
  }

  private async drainReads(): Promise<void> {
    this.readTimer = undefined;
    const batch = [...this.reads.values()];
    this.reads = new Map();
    const answers = new Map<PendingRead, Persisted<unknown> | undefined>();
    try {
      const ns = await this.options.namespace();
      if (ns !== undefined) {
        const keys = batch.map((r) => storeKey(ns, r.section, r.key));
        const texts = await this.withTimeout(this.store.getMany(keys));
        const dropped: string[] = [];
        const reasons = new Map<DropReason, number>();
        batch.forEach((r, i) => {
          const text = texts.get(keys[i]);
          if (text === undefined) return;
          const opened = this.open(text, ns, r);
          if (typeof opened === "string") {
            dropped.push(keys[i]);
            reasons.set(opened, (reasons.get(opened) ?? 0) + 1);
          } else answers.set(r, opened);
        });
        if (dropped.length > 0) {
          this.note(
            `Dropped ${[...reasons].map(([why, n]) => `${n} ${why} ${n === 1 ? "entry" : "entries"}`).join(", ")} ` +
              `from the saved cache; ${dropped.length === 1 ? "it is" : "they are"} fetched afresh.`
          );
          await this.store.deleteMany(dropped).catch(() => undefined);
        }
      }
    } catch (error) {
      this.note(
        `The saved cache could not be read (${messageOf(error)}); fetching from the service.`
      );
    }
    for (const r of batch) {
      const answer = answers.get(r);
      for (const resolve of r.resolvers) resolve(answer);
    }
  }

  /** The entry's value, or why it was refused. */
  private open(text: string, ns: string, r: PendingRead): Persisted<unknown> | DropReason {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return "corrupt";
    }
    if (!isRecord(parsed) || parsed.format !== CACHE_FORMAT) return "foreign";
    if (parsed.version !== CACHE_FORMAT_VERSION) return "old format";
    const e = parsed as Partial<Envelope>;
    if (e.ns !== ns || e.section !== r.section || e.key !== r.key) return "foreign";
    if (typeof e.savedAt !== "number" || !Number.isFinite(e.savedAt)) return "corrupt";
    let value: unknown;
    try {
      value = r.codec.decode(e.body);
    } catch {
      value = undefined;
    }
    return value === undefined ? "corrupt" : { value, savedAt: e.savedAt };
  }

  private async write(batch: readonly PendingWrite[], epoch: number): Promise<void> {
    if (batch.length === 0) return;
    try {
      const entries = new Map<string, string>();
      let unwritable = 0;
      for (const w of batch) {
        const ns = await w.ns;
        const text = ns === undefined ? undefined : this.envelopeText(ns, w);
        if (text === null) unwritable++;
        else if (ns !== undefined && text !== undefined)
          entries.set(storeKey(ns, w.section, w.key), text);
      }
      if (unwritable > 0) {
        this.note(
          `${unwritable} ${unwritable === 1 ? "answer is" : "answers are"} nested too deeply or too large to save on this computer; ` +
            `kept for this session only.`
        );
      }
      // Cleared while the namespaces were being worked out: these answers belong to the cleared cache.
      if (entries.size > 0 && epoch === this.epoch) await this.store.setMany(entries);
    } catch (error) {
      this.note(`Answers could not be saved on this computer (${messageOf(error)}).`);
    }
  }

  /**
   * The entry as stored text; undefined when there is nothing to save, null when it cannot be written as
   * text (JSON.stringify recurses: a value from the service nested thousands deep overflows the stack, a
   * huge one passes the longest string) or is larger than MAX_SAVED_ENTRY_BYTES (counted before the text is
   * built). Such an answer is skipped alone: the rest of the batch is saved.
   */
  private envelopeText(ns: string, w: PendingWrite): string | undefined | null {
    const body = w.produce();
    if (body === undefined) return undefined;
    if (body === TOO_LARGE_TO_SAVE || jsonLargerThan(body, MAX_SAVED_ENTRY_BYTES)) return null;
    const envelope: Envelope = {
      format: CACHE_FORMAT,
      version: CACHE_FORMAT_VERSION,
      ns,
      section: w.section,
      key: w.key,
      savedAt: this.options.now(),
      body,
    };
    try {
      return JSON.stringify(envelope);
    } catch (error) {
      if (error instanceof RangeError) return null;
      throw error;
    }
  }

  private withTimeout<T>(work: Promise<T>): Promise<T> {
    const { timers } = this.options;
    return new Promise<T>((resolve, reject) => {
      const timer = timers.setTimeout(
        () => reject(new Error(`no answer within ${Math.round(this.readTimeoutMs / 1000)} s`)),
        this.readTimeoutMs
      );
      work.then(
        (value) => {
          timers.clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          timers.clearTimeout(timer);
          reject(error);
        }
      );
    });
  }
}

/**
 * Whether `value` written as JSON would take more than `limit` characters: its parts counted without
 * building the text (an explicit stack, so a value nested thousands deep is no problem), stopping as soon as
 * the count passes the limit. Slightly over-counts (a comma per element), never under.
 */
export function jsonLargerThan(value: unknown, limit: number): boolean {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === "string") total += v.length + 2;
    else if (typeof v === "number") total += String(v).length + 1;
    else if (Array.isArray(v)) {
      // Each element is at least a character and a comma: a long array is over before it is walked.
      total += 2 + v.length;
      if (total > limit) return true;
      for (const item of v as unknown[]) stack.push(item);
    } else if (typeof v === "object" && v !== null) {
      total += 2;
      for (const [key, item] of Object.entries(v)) {
        total += key.length + 4;
        stack.push(item);
      }
    } else total += 5; // true, false, null
    if (total > limit) return true;
  }
  return false;
}
