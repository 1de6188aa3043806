/**
 * What one answer for a range changes of what the series cache held (series-ledger.ts's other half, apart so
 * that the store can use it without the series types, which name the store's own).
 */
import {
  compareRange,
  NO_RUNS,
  seenAt,
  type Change,
  type HeldFigure,
  type SeenRun,
  type SeenRuns,
  type SeriesRef,
} from "./ledger";
import type { DayPoint } from "./figures/series-ops";

/** What the cache held of a series, as one of its snapshots: the points of a range and when each was seen. */
export interface HeldSnapshot {
  /** Whether the snapshot answered for this day (its coverage). */
  covers(day: number): boolean;
  /** Its points within the answered range, per dimension, sorted by day. */
  points: ReadonlyMap<string, readonly DayPoint[]>;
  /** When each held value was first seen, per dimension (absent: not recorded, e.g. an older saved entry). */
  seen?: ReadonlyMap<string, SeenRuns>;
  /** When the snapshot was fetched: a value without its first sighting counts as first seen then. */
  fetchedAt: number;
}

interface AnswerComparison {
  series: SeriesRef;
  start: number;
  end: number;
  /** The snapshots holding the series, the one to trust first first (the fresh one, then the fallback). */
  held: readonly HeldSnapshot[];
  sent: ReadonlyMap<string, readonly DayPoint[]>;
  at: number;
  request: string;
}

export interface AnswerOutcome {
  changes: Change[];
  /** Per dimension sent or held, when each day of the range now held was first seen (seen.ts runs). */
  seen: Map<string, SeenRun[]>;
}

/** A day's point as the ledger compares it: a conflict (or an unreadable value) is no value. */
function figureOf(p: DayPoint): { value: number | null; conflict?: boolean } {
  return p.conflict ? { value: null, conflict: true } : { value: p.value };
}

/**
 * The changes an answer for [start, end] brings, per dimension: each day compared with what the first snapshot
 * answering for that day held. Days held with no point in any snapshot are new.
 */
export function answerChanges(c: AnswerComparison): AnswerOutcome {
  const dims = new Set<string>(c.sent.keys());
  for (const h of c.held) for (const dim of h.points.keys()) dims.add(dim);
  const changes: Change[] = [];
  const seen = new Map<string, SeenRun[]>();
  for (const dim of dims) {
    const held: HeldFigure[] = [];
    const claimed = new Set<number>();
    c.held.forEach((h, rank) => {
      const runs = h.seen?.get(dim) ?? NO_RUNS;
      for (const p of h.points.get(dim) ?? []) {
        if (p.day < c.start || p.day > c.end || claimed.has(p.day) || !h.covers(p.day)) continue;
        // A day a snapshot trusted earlier answers for is that snapshot's, held or not.
        if (c.held.slice(0, rank).some((earlier) => earlier.covers(p.day))) continue;
        claimed.add(p.day);
        held.push({ day: p.day, ...figureOf(p), seenAt: seenAt(runs, p.day) ?? h.fetchedAt });
      }
    });
    held.sort((a, b) => a.day - b.day);
    const sent = (c.sent.get(dim) ?? [])
      .filter((p) => p.day >= c.start && p.day <= c.end)
      .map((p) => ({ day: p.day, ...figureOf(p) }));
    const outcome = compareRange({
      series: c.series,
      dim,
      held,
      sent,
      at: c.at,
      request: c.request,
    });
    for (const change of outcome.changes) changes.push(change);
    seen.set(dim, outcome.seen);
  }
  return { changes, seen };
}
