/**
 * Where the ledger lives: what each host provides (a directory for the CLI, IndexedDB in the add-in, Redis for a
 * team's gateway), kept apart from the saved answers so that their least-recently-used eviction never takes
 * part of the ledger away: the ledger has its own bound, oldest changes first (ledger.ts).
 *
 * A namespace's ledger is a set of segments, one per UTC day of recording ("2026-11-24"), each an append-only
 * list of lines (codec.ts). Appending is the only write of normal work, so processes sharing a store (CLI runs
 * at once, gateway processes on one Redis) never overwrite each other's changes; an adapter makes each call
 * whole (a lock, an atomic append, a transaction). The namespace is the one the saved cache uses (the service's
 * origin and a hash of the key, never the key): a ledger is never read under another key or service.
 */

export interface LedgerSegmentInfo {
  /** The segment's id: the UTC day its changes were recorded, "YYYY-MM-DD" (ids sort in time order). */
  id: string;
  /** Its size in bytes (UTF-8, line ends included). */
  bytes: number;
}

export interface LedgerStore {
  /** Where the ledger lives, for people ("… /ledger", "Redis …"). */
  readonly location: string;
  /** Appends lines to a segment (made when missing); whole lines, in order, or none. */
  append(ns: string, segment: string, lines: readonly string[]): Promise<void>;
  /** The namespace's segments, oldest first. */
  segments(ns: string): Promise<LedgerSegmentInfo[]>;
  /** A segment's lines (undefined when there is no such segment). */
  read(ns: string, segment: string): Promise<string[] | undefined>;
  /** Removes segments (those past the bound, or damaged ones). */
  remove(ns: string, segments: readonly string[]): Promise<void>;
  /**
   * Drops a segment's oldest lines until it holds at most `maxBytes`, in one step (lines appended meanwhile are
   * kept): when the newest segment alone passes the bound.
   */
  keepNewest(ns: string, segment: string, maxBytes: number): Promise<void>;
  /** The namespace's small record of state (what was dropped, ledger.ts), as written. */
  readMeta(ns: string): Promise<string | undefined>;
  writeMeta(ns: string, text: string): Promise<void>;
  /** Removes every namespace's ledger. */
  clear(): Promise<void>;
}

/** UTF-8 length of a text (the stores' unit of size), without encoding it. */
export function utf8Bytes(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      // A surrogate pair is one four-byte character.
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** A segment's size as the stores count it: each line and its line end. */
export function linesBytes(lines: readonly string[]): number {
  let n = 0;
  for (const line of lines) n += utf8Bytes(line) + 1;
  return n;
}

/**
 * The lines of `lines` to keep so that they hold at most `maxBytes`: the newest (last) ones. Shared by the
 * adapters' keepNewest.
 */
export function newestWithin(lines: readonly string[], maxBytes: number): string[] {
  let total = 0;
  let from = lines.length;
  while (from > 0) {
    const size = utf8Bytes(lines[from - 1]) + 1;
    if (total + size > maxBytes) break;
    total += size;
    from--;
  }
  return lines.slice(from);
}

/** A ledger store in process memory: one process's ledger (tests, a gateway without Redis). */
export class MemoryLedgerStore implements LedgerStore {
  readonly location = "process memory";
  /** Namespace → segment → lines. Open so tests can damage a line. */
  readonly data = new Map<string, Map<string, string[]>>();
  readonly meta = new Map<string, string>();

  private ns(ns: string): Map<string, string[]> {
    let segments = this.data.get(ns);
    if (!segments) this.data.set(ns, (segments = new Map<string, string[]>()));
    return segments;
  }

  async append(ns: string, segment: string, lines: readonly string[]): Promise<void> {
    const segments = this.ns(ns);
    segments.set(segment, [...(segments.get(segment) ?? []), ...lines]);
  }

  async segments(ns: string): Promise<LedgerSegmentInfo[]> {
    const segments: ReadonlyMap<string, string[]> = this.data.get(ns) ?? new Map();
    return [...segments]
      .map(([id, lines]) => ({ id, bytes: linesBytes(lines) }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async read(ns: string, segment: string): Promise<string[] | undefined> {
    const lines = this.data.get(ns)?.get(segment);
    return lines && [...lines];
  }

  async remove(ns: string, segments: readonly string[]): Promise<void> {
    for (const s of segments) this.data.get(ns)?.delete(s);
  }

  async keepNewest(ns: string, segment: string, maxBytes: number): Promise<void> {
    const lines = this.data.get(ns)?.get(segment);
    if (lines) this.ns(ns).set(segment, newestWithin(lines, maxBytes));
  }

  async readMeta(ns: string): Promise<string | undefined> {
    return this.meta.get(ns);
  }

  async writeMeta(ns: string, text: string): Promise<void> {
    this.meta.set(ns, text);
  }

  async clear(): Promise<void> {
    this.data.clear();
    this.meta.clear();
  }
}
