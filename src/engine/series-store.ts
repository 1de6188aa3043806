/**
 * The cache of time series: per series key (project or product, metric, options), the days fetched so far and
 * their values, split by breakdown dimension ("" when there is none). Fresh until the next daily update or a
 * refresh; the previous snapshot is kept so a failed refresh can still serve what the user already had
 * (stale-if-error). Bounded by the number of points (least recently used series go first).
 *
 * Saved entries (persistence.ts) come back through restore(): fresh when saved before the next daily update and
 * after the last refresh of this session, otherwise as the fallback they would have been had the session never
 * ended. Every committed change is announced (onCommit) so the engine can save it.
 */
import { LruCache } from "./lru";
import { Coverage, type Interval } from "./coverage";
import { nextDailyUpdate, type CachePolicy } from "./cache-policy";
import type { DayPoint } from "./series-ops";

/** Why a series has no data, as the service said it (partial-success errors). */
export interface SeriesIssue {
  code: "unknown-project" | "unknown-metric" | "metric-not-available" | "unknown-product";
  message: string;
}

export interface Snapshot {
  readonly coverage: Coverage;
  readonly dims: Map<string, Map<number, number | null>>;
  issue?: SeriesIssue;
  /** Partial-success notes that did not stop the series (e.g. an unknown chain id). */
  readonly warnings: Set<string>;
  /** Descriptions of the requests whose answers are in this snapshot. */
  readonly servedBy: Set<string>;
  readonly fetchedAt: number;
  readonly expiresAt: number;
  readonly generation: number;
  /**
   * Set when the snapshot was read back from the saved cache (an earlier session); cleared once this session
   * writes into it.
   */
  restored?: boolean;
  points: number;
  sortedCache?: Map<string, DayPoint[]>;
  /** Warnings and request descriptions as arrays, shared by every answer until the snapshot changes. */
  lists?: { warnings: string[]; servedBy: string[] };
}

interface Entry {
  current: Snapshot;
  previous?: Snapshot;
}

/** A snapshot as plain data: what is saved between sessions. */
export interface SnapshotData {
  coverage: Interval[];
  dims: Map<string, Map<number, number | null>>;
  issue?: SeriesIssue;
  warnings: string[];
  servedBy: string[];
  fetchedAt: number;
  expiresAt: number;
}

export interface SeriesEntryData {
  current: SnapshotData;
  previous?: SnapshotData;
}

export class SeriesStore {
  private generation = 0;
  /** When this session last asked for everything afresh: restored entries saved before then are not fresh. */
  private refreshedAt = -Infinity;
  private readonly entries: LruCache<string, Entry>;

  constructor(
    private readonly policy: CachePolicy,
    private readonly now: () => number,
    private readonly onCommit?: (key: string) => void
  ) {
    this.entries = new LruCache<string, Entry>({
      maxSize: policy.maxPoints,
      sizeOf: (e) => 1 + e.current.points + (e.previous?.points ?? 0),
    });
  }

  /** Everything cached becomes stale: the next reads fetch again, and keep the old values only as fallback. */
  refresh(): void {
    this.generation++;
    this.refreshedAt = this.now();
  }

  /** Drops everything, fallbacks included. */
  clear(): void {
    this.entries.clear();
    this.generation++;
    this.refreshedAt = this.now();
  }

  /** Whether anything (fresh or not) is held for the key: if not, the saved cache may have it. */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** The entry as plain data, for saving; undefined when it is gone (evicted, cleared). */
  exportEntry(key: string): SeriesEntryData | undefined {
    const entry = this.entries.peek(key);
    if (!entry) return undefined;
    const limit = this.now() - this.policy.maxStaleMs;
    const previous =
      entry.previous && entry.previous.fetchedAt >= limit ? entry.previous : undefined;
    return { current: toData(entry.current), ...(previous ? { previous: toData(previous) } : {}) };
  }

  /**
   * Takes back an entry saved in an earlier session, unless one was fetched meanwhile. Its snapshots are fresh
   * as they would have been (same expiry), except when this session refreshed after they were fetched.
   */
  restore(key: string, data: SeriesEntryData): void {
    if (this.entries.has(key)) return;
    const current = this.fromData(data.current);
    const previous = data.previous ? this.fromData(data.previous) : undefined;
    this.entries.set(key, { current, previous });
  }

  get size(): { series: number; points: number } {
    return { series: this.entries.size, points: this.entries.calculatedSize };
  }

  isFresh(s: Snapshot): boolean {
    return s.generation === this.generation && this.now() < s.expiresAt;
  }

  /** A fresh snapshot covering [start, end], if any. */
  fresh(key: string, start: number, end: number): Snapshot | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const s = entry.current;
    return this.isFresh(s) && (s.issue || s.coverage.covers(start, end)) ? s : undefined;
  }

  /**
   * The newest non-fresh snapshot covering [start, end] that is not too old to show. A snapshot holding the
   * service's "no such series" answer covers every range, as in fresh(): it is what the user had, and a
   * table whose other columns are kept must not lose them because this column cannot be asked again.
   */
  stale(key: string, start: number, end: number): Snapshot | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const limit = this.now() - this.policy.maxStaleMs;
    for (const s of [entry.current, entry.previous]) {
      if (s && s.fetchedAt >= limit && (s.issue || s.coverage.covers(start, end))) return s;
    }
    return undefined;
  }

  /** Records a fetched range: the days in it are replaced by what the service returned. */
  write(
    key: string,
    start: number,
    end: number,
    data: ReadonlyMap<string, readonly DayPoint[]>,
    servedBy: string,
    warnings: readonly string[] = []
  ): void {
    const s = this.writable(key);
    for (const points of s.dims.values()) {
      for (const day of [...points.keys()]) if (day >= start && day <= end) points.delete(day);
    }
    for (const [dim, points] of data) {
      let target = s.dims.get(dim);
      if (!target) {
        target = new Map();
        s.dims.set(dim, target);
      }
      for (const p of points) if (p.day >= start && p.day <= end) target.set(p.day, p.value);
    }
    s.coverage.add(start, end);
    s.servedBy.add(servedBy);
    warnings.forEach((w) => s.warnings.add(w));
    this.commit(key, s);
  }

  /** Records that the service said the series does not exist (for the whole timeline). */
  writeIssue(key: string, issue: SeriesIssue, servedBy: string): void {
    const s = this.writable(key);
    s.issue = issue;
    s.servedBy.add(servedBy);
    this.commit(key, s);
  }

  /** The points of a snapshot within [start, end], per dimension, sorted by day. */
  read(s: Snapshot, start: number, end: number): Map<string, DayPoint[]> {
    if (!s.sortedCache) {
      s.sortedCache = new Map();
      for (const [dim, points] of s.dims) {
        const sorted = [...points].map(([day, value]) => ({ day, value }));
        sorted.sort((a, b) => a.day - b.day);
        s.sortedCache.set(dim, sorted);
      }
    }
    const out = new Map<string, DayPoint[]>();
    for (const [dim, points] of s.sortedCache) {
      // Binary search: a warm workbook reads thousands of one-day slices of multi-year series.
      out.set(dim, points.slice(firstAtOrAfter(points, start), firstAtOrAfter(points, end + 1)));
    }
    return out;
  }

  private fromData(d: SnapshotData): Snapshot {
    const coverage = new Coverage();
    for (const [a, b] of d.coverage) coverage.add(a, b);
    let points = 0;
    for (const m of d.dims.values()) points += m.size;
    return {
      coverage,
      dims: d.dims,
      issue: d.issue,
      warnings: new Set(d.warnings),
      servedBy: new Set(d.servedBy),
      fetchedAt: d.fetchedAt,
      expiresAt: d.expiresAt,
      generation: d.fetchedAt >= this.refreshedAt ? this.generation : this.generation - 1,
      points,
      restored: true,
    };
  }

  private writable(key: string): Snapshot {
    const entry = this.entries.get(key);
    if (entry && this.isFresh(entry.current)) return entry.current;
    const now = this.now();
    const snapshot: Snapshot = {
      coverage: new Coverage(),
      dims: new Map(),
      warnings: new Set(),
      servedBy: new Set(),
      fetchedAt: now,
      expiresAt: nextDailyUpdate(now, this.policy.dailyUpdateUtcHour),
      generation: this.generation,
      points: 0,
    };
    const keep =
      entry && !entry.current.issue && !entry.current.coverage.isEmpty
        ? entry.current
        : entry?.previous;
    this.entries.set(key, { current: snapshot, previous: keep }, { size: 1 + (keep?.points ?? 0) });
    return snapshot;
  }

  private commit(key: string, s: Snapshot): void {
    s.restored = undefined;
    s.sortedCache = undefined;
    s.lists = undefined;
    s.points = [...s.dims.values()].reduce((n, m) => n + m.size, 0);
    const entry = this.entries.get(key);
    // Set again so the cache re-measures the entry (its points changed) and makes it the most recent.
    if (entry) this.entries.set(key, { ...entry });
    this.onCommit?.(key);
  }
}

function toData(s: Snapshot): SnapshotData {
  return {
    coverage: s.coverage.list(),
    dims: s.dims,
    issue: s.issue,
    warnings: [...s.warnings],
    servedBy: [...s.servedBy],
    fetchedAt: s.fetchedAt,
    expiresAt: s.expiresAt,
  };
}

/** Index of the first point whose day is >= day (points sorted by day). */
function firstAtOrAfter(points: readonly DayPoint[], day: number): number {
  let lo = 0;
  let hi = points.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (points[mid].day < day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
