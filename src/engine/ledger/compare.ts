/**
 * What an answer changes: the days of one series and breakdown member that the cache held in a range, against
 * what the service just sent for that range. A day held with one value and sent with another is a change
 * (before, after, when the value held was first seen); a day held with a value that the service no longer sends
 * in a range it answered again became null. Days new to the cache are first seen now; a day sent again with
 * the value held keeps the instant it was first seen, so "known on" a past day survives every refresh.
 *
 * A day sent twice with two different values (a conflict: its cells show #N/A) is no value, on either side:
 * going to or from one is not a restatement of a figure anyone saw.
 */
import type { SeenRun } from "./seen";
import { runsOf } from "./seen";
import { sameValue, type Change, type FigureValue, type SeriesRef } from "./types";

export interface HeldFigure {
  day: number;
  value: FigureValue;
  /** When the value held was first seen (the snapshot's fetch time when nothing finer is known). */
  seenAt: number;
  conflict?: boolean;
}

interface SentFigure {
  day: number;
  value: FigureValue;
  conflict?: boolean;
}

interface RangeComparison {
  series: SeriesRef;
  dim: string;
  /** The days held in the answered range, ascending. */
  held: readonly HeldFigure[];
  /** What the service sent for the range, ascending, one point a day. */
  sent: readonly SentFigure[];
  /** When the answer arrived. */
  at: number;
  /** The request that brought it (types.ts: a description, never a key). */
  request: string;
}

interface RangeOutcome {
  changes: Change[];
  /** When each sent day's value was first seen, as runs (seen.ts). */
  seen: SeenRun[];
}

export function compareRange(c: RangeComparison): RangeOutcome {
  const changes: Change[] = [];
  const days: number[] = [];
  const at: number[] = [];
  const change = (h: HeldFigure, after: FigureValue): void => {
    changes.push({
      series: c.series,
      dim: c.dim,
      day: h.day,
      before: h.value,
      after,
      beforeSeenAt: Math.min(h.seenAt, c.at),
      seenAt: c.at,
      request: c.request,
    });
  };
  let i = 0;
  for (const s of c.sent) {
    // Held days before this one that were not sent: dropped by the service.
    for (; i < c.held.length && c.held[i].day < s.day; i++) {
      const h = c.held[i];
      if (!h.conflict && h.value !== null) change(h, null);
    }
    const h = i < c.held.length && c.held[i].day === s.day ? c.held[i++] : undefined;
    days.push(s.day);
    if (!h || h.conflict || s.conflict) at.push(c.at);
    else if (sameValue(h.value, s.value)) at.push(Math.min(h.seenAt, c.at));
    else {
      change(h, s.value);
      at.push(c.at);
    }
  }
  for (; i < c.held.length; i++) {
    const h = c.held[i];
    if (!h.conflict && h.value !== null) change(h, null);
  }
  return { changes, seen: runsOf(days, at) };
}
