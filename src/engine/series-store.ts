/**
 * The cache of time series: per series key (project or product, metric, options), the days fetched so far and
 * their values, split by breakdown dimension ("" when there is none). Fresh until the next daily update or a
 * refresh; the previous snapshot is kept so a failed refresh can still serve what the user already had
 * (stale-if-error). Bounded by the number of points (least recently used series go first).
 *
 * Saved entries (persistence.ts) come back through restore(): fresh when saved before the next daily update and
 * after the last refresh of this session, otherwise as the fallback they would have been had the session never
 * ended. Every committed change is announced (onCommit) so the engine can save it.
 *
 * Points are held in typed arrays (DimPoints: 12 bytes a point, outside the JavaScript heap), not in a Map of
 * days and a sorted copy of {day, value} objects: those cost about 100 bytes a point, so a workbook of 10,000
 * year-long METRIC spills (3.65 million points) could not stay cached, and every recalculation asked again.
 */
import { Generations } from "./generations";
import { LruCache } from "./lru";
import { Coverage, type Interval } from "../cache/coverage";
import { nextDailyUpdate, type CachePolicy } from "../cache/policy";
import type { DayPoint } from "./figures/series-ops";
import { dayOfInstant } from "../client";
import { NO_RUNS, spliceRuns, type Change, type SeenRuns, type SeriesRef } from "./ledger";
import { answerChanges, type HeldSnapshot } from "./series-compare";

/** Why a series has no data, as the service said it (partial-success errors). */
export interface SeriesIssue {
  code:
    | "unknown-project"
    | "unknown-metric"
    | "metric-not-available"
    | "unknown-product"
    // Rows of an asked breakdown without the member saying which chain or product they are.
    | "unattributable";
  message: string;
}

/**
 * One breakdown dimension's points: days ascending, each with its value in `values`: NaN where the service
 * sent the day without a value (null to readers), CONFLICT where it sent the day twice with two different
 * values (null and `conflict` to readers), SPLIT where its rows, split by a member nobody asked for, could
 * not be told apart (a conflict too, `split` to readers). Service values are finite numbers or null, so none
 * of these is a value: a conflict costs no byte beyond the point it is.
 */
export interface DimPoints {
  readonly days: Int32Array;
  readonly values: Float64Array;
}

export interface Snapshot {
  readonly coverage: Coverage;
  readonly dims: Map<string, DimPoints>;
  /**
   * Per dimension, the days whose value the service sent but that is no number, with what it sent: CONFLICT in
   * `dims` (never a figure), `unreadable` to readers. Absent when there are none (almost always).
   */
  unreadable?: Map<string, Map<number, string>>;
  /**
   * Per dimension, when each held value was first seen (ledger/seen.ts runs): vintage= reads it. Absent when
   * the store records no restatements, or for an entry saved without it (its values count as first seen
   * when it was fetched).
   */
  seen?: Map<string, SeenRuns>;
  issue?: SeriesIssue;
  /** Partial-success notes that did not stop the series (e.g. an unknown chain id). */
  readonly warnings: Set<string>;
  /** Descriptions of the requests whose answers are in this snapshot. */
  readonly servedBy: Set<string>;
  readonly fetchedAt: number;
  /** Shortened (never lengthened) when an answer reaching today lacks today (cache-policy.ts). */
  expiresAt: number;
  readonly generation: number;
  /**
   * Set when the snapshot was read back from the saved cache (an earlier session); cleared once this session
   * writes into it.
   */
  restored?: boolean;
  points: number;
  /** Warnings and request descriptions as arrays, shared by every answer until the snapshot changes. */
  lists?: { warnings: string[]; servedBy: string[] };
  /** What answers read of the snapshot for vintage= (answerFrom), shared until the snapshot changes. */
  held?: { fetchedAt: number; seen?: ReadonlyMap<string, SeenRuns> };
}

interface Entry {
  current: Snapshot;
  previous?: Snapshot;
}

/** A snapshot as plain data: what is saved between sessions. */
export interface SnapshotData {
  coverage: Interval[];
  dims: Map<string, Map<number, number | null>>;
  /** Days sent with two different values, per dimension (their value in `dims` is null; absent: none). */
  conflicts?: Map<string, Set<number>>;
  /** Of `conflicts`, the days whose rows were split unasked and could not be told apart (partition.ts). */
  splits?: Map<string, Set<number>>;
  /** Of `conflicts`, the days whose value was sent but is no number, with what was sent. */
  unreadable?: Map<string, Map<number, string>>;
  /** When each held value was first seen, per dimension (absent: not recorded). */
  seen?: Map<string, SeenRuns>;
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
  private readonly generations: Generations;
  private readonly entries: LruCache<string, Entry>;

  constructor(
    private readonly policy: CachePolicy,
    private readonly now: () => number,
    private readonly onCommit?: (key: string) => void,
    /**
     * Told the restatements each answer brings (src/engine/ledger): a day held with one value and sent with
     * another. Without it, nothing is compared and no first sighting is kept.
     */
    private readonly onChanges?: (changes: Change[]) => void
  ) {
    this.entries = new LruCache<string, Entry>({
      maxSize: policy.maxPoints,
      sizeOf: (e) => 1 + e.current.points + (e.previous?.points ?? 0),
    });
    this.generations = new Generations(now);
  }

  /** Everything cached becomes stale: the next reads fetch again, and keep the old values only as fallback. */
  refresh(): void {
    this.generations.refresh();
  }

  /** Drops everything, fallbacks included. */
  clear(): void {
    this.entries.clear();
    this.generations.refresh();
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
    return this.generations.isFresh(s);
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

  /**
   * Records a fetched range: the days in it are replaced by what the service returned. Given the series as
   * the ledger names it (and a listener), what the answer changes of what was held is told to onChanges, and
   * when each value now held was first seen is kept.
   */
  write(
    key: string,
    start: number,
    end: number,
    data: ReadonlyMap<string, readonly DayPoint[]>,
    servedBy: string,
    warnings: readonly string[] = [],
    series?: SeriesRef
  ): void {
    const outcome =
      series && this.onChanges && this.compare(key, series, start, end, data, servedBy);
    const s = this.writable(key);
    if (outcome) {
      s.seen ??= new Map();
      for (const [dim, runs] of outcome.seen)
        s.seen.set(dim, spliceRuns(s.seen.get(dim) ?? NO_RUNS, start, end, runs));
    }
    // The days in [start, end] are replaced, in every dimension held or sent.
    for (const [dim, held] of s.dims) s.dims.set(dim, spliced(held, start, end, data.get(dim)));
    for (const [dim, points] of data)
      if (!s.dims.has(dim)) s.dims.set(dim, spliced(EMPTY_DIM, start, end, points));
    // What was sent unreadable in [start, end] is replaced too.
    for (const texts of s.unreadable?.values() ?? [])
      for (const day of texts.keys()) if (day >= start && day <= end) texts.delete(day);
    for (const [dim, points] of data)
      for (const p of points)
        if (p.unreadable !== undefined && p.day >= start && p.day <= end)
          unreadableOf(s, dim).set(p.day, p.unreadable);
    s.coverage.add(start, end);
    s.servedBy.add(servedBy);
    warnings.forEach((w) => s.warnings.add(w));
    this.revalidateUnpublished(s);
    this.commit(key, s);
    if (outcome && outcome.changes.length > 0) this.onChanges(outcome.changes);
  }

  /** What an answer for [start, end] changes of the snapshots held (the newest first), before it is written. */
  private compare(
    key: string,
    series: SeriesRef,
    start: number,
    end: number,
    sent: ReadonlyMap<string, readonly DayPoint[]>,
    request: string
  ): ReturnType<typeof answerChanges> {
    const entry = this.entries.peek(key);
    const held: HeldSnapshot[] = [];
    for (const snap of [entry?.current, entry?.previous]) {
      if (!snap || snap.issue) continue;
      held.push({
        covers: (day) => snap.coverage.covers(day, day),
        points: this.read(snap, start, end),
        ...(snap.seen ? { seen: snap.seen } : {}),
        fetchedAt: snap.fetchedAt,
      });
    }
    return answerChanges({ series, start, end, held, sent, at: this.now(), request });
  }

  /**
   * An answer covering today whose newest day is older than today may predate the service's publication of
   * the day: fresh for a short while only, so "latest" does not stay yesterday's until the daily update.
   */
  private revalidateUnpublished(s: Snapshot): void {
    const now = this.now();
    const today = dayOfInstant(now);
    if (!s.coverage.covers(today, today)) return;
    let newest = -Infinity;
    for (const { days, values } of s.dims.values()) {
      for (let i = days.length - 1; i >= 0 && days[i] > newest; i--) {
        if (!Number.isNaN(values[i])) {
          newest = days[i];
          break;
        }
      }
    }
    if (newest < today) s.expiresAt = Math.min(s.expiresAt, now + this.policy.unpublishedTtlMs);
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
    const out = new Map<string, DayPoint[]>();
    for (const [dim, { days, values }] of s.dims) {
      // Binary search: a warm workbook reads thousands of one-day slices of multi-year series.
      const to = firstAtOrAfter(days, end + 1);
      const points: DayPoint[] = [];
      const texts = s.unreadable?.get(dim);
      for (let i = firstAtOrAfter(days, start); i < to; i++) {
        const value = values[i];
        const text = value === CONFLICT ? texts?.get(days[i]) : undefined;
        points.push(
          text !== undefined
            ? { day: days[i], value: null, conflict: true, unreadable: text }
            : value === CONFLICT
              ? { day: days[i], value: null, conflict: true }
              : value === SPLIT
                ? { day: days[i], value: null, conflict: true, split: true }
                : { day: days[i], value: Number.isNaN(value) ? null : value }
        );
      }
      out.set(dim, points);
    }
    return out;
  }

  private fromData(d: SnapshotData): Snapshot {
    const coverage = new Coverage();
    for (const [a, b] of d.coverage) coverage.add(a, b);
    const dims = new Map<string, DimPoints>();
    let points = 0;
    for (const [dim, days] of d.dims) {
      const conflicts = d.conflicts?.get(dim);
      const splits = d.splits?.get(dim);
      const packed = packedDays(
        conflicts
          ? new Map(
              [...days].map(([day, v]) => [
                day,
                conflicts.has(day) ? (splits?.has(day) ? SPLIT : CONFLICT) : v,
              ])
            )
          : days
      );
      dims.set(dim, packed);
      points += packed.days.length;
    }
    return {
      coverage,
      dims,
      ...(d.unreadable
        ? { unreadable: new Map([...d.unreadable].map(([dim, t]) => [dim, new Map(t)])) }
        : {}),
      ...(d.seen ? { seen: new Map(d.seen) } : {}),
      issue: d.issue,
      warnings: new Set(d.warnings),
      servedBy: new Set(d.servedBy),
      fetchedAt: d.fetchedAt,
      expiresAt: d.expiresAt,
      generation: this.generations.ofRestored(d.fetchedAt),
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
      generation: this.generations.current,
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
    s.lists = undefined;
    s.held = undefined;
    let points = 0;
    for (const dim of s.dims.values()) points += dim.days.length;
    s.points = points;
    const entry = this.entries.get(key);
    // Set again so the cache re-measures the entry (its points changed) and makes it the most recent.
    if (entry) this.entries.set(key, { ...entry });
    this.onCommit?.(key);
  }
}

function toData(s: Snapshot): SnapshotData {
  const dims = new Map<string, Map<number, number | null>>();
  const conflicts = new Map<string, Set<number>>();
  const splits = new Map<string, Set<number>>();
  const hold = (sets: Map<string, Set<number>>, dim: string, day: number): void => {
    let held = sets.get(dim);
    if (!held) sets.set(dim, (held = new Set<number>()));
    held.add(day);
  };
  for (const [dim, { days, values }] of s.dims) {
    const points = new Map<number, number | null>();
    for (let i = 0; i < days.length; i++) {
      if (values[i] === CONFLICT || values[i] === SPLIT) {
        points.set(days[i], null);
        hold(conflicts, dim, days[i]);
        if (values[i] === SPLIT) hold(splits, dim, days[i]);
      } else points.set(days[i], Number.isNaN(values[i]) ? null : values[i]);
    }
    dims.set(dim, points);
  }
  const unreadable = new Map(
    [...(s.unreadable ?? [])].filter(([, t]) => t.size > 0).map(([dim, t]) => [dim, new Map(t)])
  );
  return {
    coverage: s.coverage.list(),
    dims,
    ...(conflicts.size > 0 ? { conflicts } : {}),
    ...(splits.size > 0 ? { splits } : {}),
    ...(unreadable.size > 0 ? { unreadable } : {}),
    ...(s.seen && s.seen.size > 0 ? { seen: new Map(s.seen) } : {}),
    issue: s.issue,
    warnings: [...s.warnings],
    servedBy: [...s.servedBy],
    fetchedAt: s.fetchedAt,
    expiresAt: s.expiresAt,
  };
}

const EMPTY_DIM: DimPoints = { days: new Int32Array(0), values: new Float64Array(0) };

/** The unreadable texts of a snapshot's dimension, made on first use. */
function unreadableOf(s: Snapshot, dim: string): Map<number, string> {
  s.unreadable ??= new Map();
  let texts = s.unreadable.get(dim);
  if (!texts) s.unreadable.set(dim, (texts = new Map<number, string>()));
  return texts;
}

/** A day sent twice with two different values, in `values`: no service value is infinite. */
const CONFLICT = Infinity;
/** A conflict of rows split unasked that could not be told apart (partition.ts). */
const SPLIT = -Infinity;

/** Index of the first day >= day (days ascending). */
function firstAtOrAfter(days: Int32Array, day: number): number {
  let lo = 0;
  let hi = days.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (days[mid] < day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Days and values packed, ascending by day (a day given twice keeps its last value, as a Map would). */
function packedDays(byDay: ReadonlyMap<number, number | null>): DimPoints {
  const order = [...byDay.keys()].sort((a, b) => a - b);
  const days = Int32Array.from(order);
  const values = Float64Array.from(order, (day) => byDay.get(day) ?? NaN);
  return { days, values };
}

/**
 * `held` with its days in [start, end] replaced by `sent`'s days in that range: the days before and after
 * stay in place (they sort before and after every replacement), so only the sent points are sorted.
 */
function spliced(
  held: DimPoints,
  start: number,
  end: number,
  sent: readonly DayPoint[] = []
): DimPoints {
  const from = firstAtOrAfter(held.days, start);
  const to = firstAtOrAfter(held.days, end + 1);
  const inRange = new Map<number, number | null>();
  for (const p of sent)
    if (p.day >= start && p.day <= end)
      inRange.set(p.day, p.conflict ? (p.split ? SPLIT : CONFLICT) : p.value);
  const middle = packedDays(inRange);
  const length = from + middle.days.length + (held.days.length - to);
  const days = new Int32Array(length);
  const values = new Float64Array(length);
  days.set(held.days.subarray(0, from));
  values.set(held.values.subarray(0, from));
  days.set(middle.days, from);
  values.set(middle.values, from);
  days.set(held.days.subarray(to), from + middle.days.length);
  values.set(held.values.subarray(to), from + middle.days.length);
  return { days, values };
}
