/**
 * The restatement ledger (README.md beside this file): every change of a figure the product has seen, kept in a
 * LedgerStore, bounded by bytes with the oldest changes dropped first, sealed line by line, read back as
 * untrusted. Recording only appends; reading (vintage=, CHANGES) loads the whole ledger once into a view that
 * the changes recorded afterwards by this instance join.
 */
import { formatDay, Listeners, messageOf } from "../../client";
import { decodeLine, encodeLines, sha256Seal, type LedgerSeal, type LineFault } from "./codec";
import { linesBytes, type LedgerStore } from "./store";
import type { Change } from "./types";
import { LedgerView } from "./view";

// The view's class too, for a runtime that loads this module on demand and merges views (runtime/lazy-ledger.ts).
export { LedgerView };
// For a ledger without a store of its own (runtime/lazy-ledger.ts), made with the ledger's code.
export { MemoryLedgerStore } from "./store";

/**
 * The ledger's bound: 36 MB, at least a year of the worst a model meets. A year of daily restatements of every
 * figure of a 1,000-cell model (365,000 changes) measures 30.2 MB, 83 bytes a change (`npm run bench -- --only
 * ledger`); past the bound the oldest days go first, down to 90 % of it (32.4 MB), which still holds that year.
 * A model that restates less keeps years; a refill of days of one series costs about 57 bytes a change.
 */
export const MAX_LEDGER_BYTES = 36_000_000;

/** Enforcing the bound leaves this share of it, so the next changes do not drop again at once. */
const BOUND_TARGET = 0.9;

const META_VERSION = 1;

export interface LedgerOptions {
  store: LedgerStore;
  /** The service and key as a namespace (persistence.ts's); undefined: no key yet, nothing kept. */
  namespace: () => Promise<string | undefined>;
  now: () => number;
  /** Seals lines (codec.ts): SHA-256 by default; a gateway gives an HMAC under its secret. */
  seal?: LedgerSeal;
  maxBytes?: number;
  /** Things a user may want to know (a damaged ledger dropped, a store that failed); never throws. */
  onNote?: (note: string) => void;
}

const FAULT_WORDS: Record<LineFault, string> = {
  seal: "whose seal does not match",
  malformed: "that could not be read",
  version: "of another version",
};

export class RestatementLedger {
  private readonly seal: LedgerSeal;
  private readonly maxBytes: number;
  private views = new Map<string, Promise<LedgerView>>();
  /**
   * The views loaded so far, to which record() adds: a write never waits for a view (a view being loaded
   * waits for the writes before it, so a write waiting for it would wait for itself).
   */
  private loaded = new Map<string, LedgerView>();
  private writing: Promise<void> = Promise.resolve();
  /** Bytes this instance believes the namespace holds (undefined: not measured yet). */
  private estimated = new Map<string, number>();
  private readonly listeners = new Listeners<readonly Change[]>();

  constructor(private readonly options: LedgerOptions) {
    this.seal = options.seal ?? sha256Seal;
    this.maxBytes = options.maxBytes ?? MAX_LEDGER_BYTES;
  }

  get location(): string {
    return this.options.store.location;
  }

  /** Called with the changes this instance records (the refresh's count, the taskpane's list). */
  subscribe(listener: (changes: readonly Change[]) => void): () => void {
    return this.listeners.add(listener);
  }

  /**
   * Records changes (appended to the segment of the day each was seen), then keeps the bound. Resolves when
   * written or given up (a note says so); never rejects: a ledger that cannot be written never stops a cell.
   */
  record(changes: readonly Change[]): Promise<void> {
    if (changes.length === 0) return this.writing;
    // A listener never stops the record.
    this.listeners.tell(changes);
    this.writing = this.writing.then(() => this.write(changes));
    return this.writing;
  }

  /** Resolves once everything recorded so far is written. */
  flush(): Promise<void> {
    return this.writing;
  }

  /**
   * The ledger as this computer (or gateway) holds it; loaded once, then kept up to date by record(). It holds
   * every change recorded before the call: a vintage= read right after the refresh that found a change sees it.
   */
  async view(): Promise<LedgerView> {
    const ns = await this.namespace();
    if (ns === undefined) return new LedgerView();
    let view = this.views.get(ns);
    if (!view) {
      // Loaded in turn with the writes: after those recorded before, before those recorded after it.
      view = this.writing.then(() => this.load(ns));
      this.views.set(ns, view);
      this.writing = view.then(() => undefined);
    }
    // Changes being written join the view as they are written (write()).
    await this.writing;
    return this.views.get(ns) ?? view;
  }

  /** Forgets the loaded view: the next view() reads the store again (changes other processes recorded). */
  reload(): void {
    this.views = new Map();
    this.loaded = new Map();
  }

  /** Removes every namespace's ledger. */
  async clear(): Promise<void> {
    await this.writing;
    this.views = new Map();
    this.loaded = new Map();
    this.estimated = new Map();
    await this.options.store.clear();
  }

  private note(text: string): void {
    try {
      this.options.onNote?.(text);
    } catch {
      // A note never breaks a calculation.
    }
  }

  private async namespace(): Promise<string | undefined> {
    try {
      return await this.options.namespace();
    } catch {
      return undefined;
    }
  }

  private async write(changes: readonly Change[]): Promise<void> {
    try {
      const ns = await this.namespace();
      if (ns === undefined) return;
      const byDay = new Map<number, Change[]>();
      for (const c of changes) {
        const day = Math.floor(c.seenAt / 86_400_000);
        const list = byDay.get(day);
        if (list) list.push(c);
        else byDay.set(day, [c]);
      }
      let skipped = 0;
      let bytes = 0;
      for (const [day, list] of byDay) {
        const segment = formatDay(day);
        const encoded = await encodeLines(list, this.seal);
        skipped += encoded.skipped;
        if (encoded.lines.length === 0) continue;
        await this.options.store.append(ns, segment, encoded.lines);
        bytes += linesBytes(encoded.lines);
      }
      if (skipped > 0)
        this.note(
          `${skipped} ${skipped === 1 ? "restatement was" : "restatements were"} not recorded: an id or a day outside what the record keeps.`
        );
      this.loaded.get(ns)?.add(changes);
      const estimate = this.estimated.get(ns);
      if (estimate === undefined || estimate + bytes > this.maxBytes) await this.bound(ns);
      else this.estimated.set(ns, estimate + bytes);
    } catch (error) {
      this.note(`Restatements could not be recorded (${messageOf(error)}).`);
    }
  }

  /** Drops the oldest segments (then the oldest lines of the last one) until the ledger is within its bound. */
  private async bound(ns: string): Promise<void> {
    const store = this.options.store;
    const segments = await store.segments(ns);
    let total = segments.reduce((n, s) => n + s.bytes, 0);
    if (total <= this.maxBytes) {
      this.estimated.set(ns, total);
      return;
    }
    const target = this.maxBytes * BOUND_TARGET;
    const dropped: string[] = [];
    while (segments.length > 1 && total > target) {
      const oldest = segments.shift()!;
      dropped.push(oldest.id);
      total -= oldest.bytes;
    }
    if (dropped.length > 0) await store.remove(ns, dropped);
    let keptSince = segments.length > 0 ? dayStart(segments[0].id) : this.options.now();
    if (total > target && segments.length === 1) {
      await store.keepNewest(ns, segments[0].id, Math.floor(target));
      const lines = (await store.read(ns, segments[0].id)) ?? [];
      const first =
        lines.length > 0 ? await decodeLine(lines[0], this.seal, this.options.now()) : undefined;
      keptSince = first && "changes" in first ? first.changes[0].seenAt : this.options.now();
      total = linesBytes(lines);
    }
    await this.writeKeptSince(ns, keptSince);
    this.estimated.set(ns, total);
    // What was dropped is no longer known: the view is read again when next asked.
    this.views.delete(ns);
    this.loaded.delete(ns);
    this.note(
      `The record of restatements reached its bound (${sizeText(this.maxBytes)}): changes seen before ${new Date(keptSince).toISOString().slice(0, 10)} were dropped.`
    );
  }

  private async writeKeptSince(ns: string, keptSince: number): Promise<void> {
    const text = JSON.stringify({ v: META_VERSION, keptSince });
    await this.options.store.writeMeta(ns, `${await this.seal(text)} ${text}`);
  }

  private async readKeptSince(ns: string, oldestSegment: string | undefined): Promise<number> {
    const raw = await this.options.store.readMeta(ns);
    if (raw === undefined) return -Infinity;
    const space = raw.indexOf(" ");
    const text = space > 0 ? raw.slice(space + 1) : "";
    try {
      if (space > 0 && raw.slice(0, space) === (await this.seal(text))) {
        const json = JSON.parse(text) as { v?: unknown; keptSince?: unknown };
        if (json.v === META_VERSION && Number.isSafeInteger(json.keptSince))
          return json.keptSince as number;
      }
    } catch {
      // Refused below.
    }
    // Something was dropped once, but when is unreadable: from the oldest day kept, conservatively.
    return oldestSegment === undefined ? this.options.now() : dayStart(oldestSegment);
  }

  private async load(ns: string): Promise<LedgerView> {
    const store = this.options.store;
    try {
      const segments = await store.segments(ns);
      const view = new LedgerView(await this.readKeptSince(ns, segments[0]?.id));
      const damaged: string[] = [];
      const faults = new Map<LineFault, number>();
      const now = this.options.now();
      let bytes = 0;
      for (const s of segments) {
        bytes += s.bytes;
        const lines = (await store.read(ns, s.id)) ?? [];
        // Checked together: each seal is asynchronous (Web Crypto), one after another they wait in turn.
        const decoded = await Promise.all(
          lines.filter((line) => line !== "").map((line) => decodeLine(line, this.seal, now))
        );
        const fault = decoded.find((d) => "fault" in d);
        if (fault && "fault" in fault) {
          // A damaged segment is not trusted in part: none of its changes is taken.
          damaged.push(s.id);
          faults.set(fault.fault, (faults.get(fault.fault) ?? 0) + 1);
        } else for (const d of decoded) if ("changes" in d) view.add(d.changes);
      }
      if (damaged.length > 0) {
        await store.remove(ns, damaged).catch(() => undefined);
        const reasons = [...faults]
          .map(([f, n]) => `${n} with a line ${FAULT_WORDS[f]}`)
          .join(", ");
        this.note(
          `Dropped ${damaged.length} damaged ${damaged.length === 1 ? "day" : "days"} of the record of restatements (${reasons}: ${damaged.join(", ")}); the changes seen then are no longer known.`
        );
        // Those days' changes are gone: a vintage before their end is no longer fully known.
        const lastDamaged = damaged[damaged.length - 1];
        view.keptSince = Math.max(view.keptSince, dayStart(lastDamaged) + 86_400_000);
      }
      this.estimated.set(ns, bytes);
      this.loaded.set(ns, view);
      return view;
    } catch (error) {
      this.note(`The record of restatements could not be read (${messageOf(error)}).`);
      // Not kept: the next look tries the store again.
      this.views.delete(ns);
      return new LedgerView(this.options.now());
    }
  }
}

function sizeText(bytes: number): string {
  return bytes >= 1e6 ? `${Math.round(bytes / 1e6)} MB` : `${Math.round(bytes / 1e3)} kB`;
}

function dayStart(id: string): number {
  return Date.parse(`${id}T00:00:00Z`);
}
