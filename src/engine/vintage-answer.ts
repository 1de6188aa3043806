/**
 * A series as it was known at a vintage (src/engine/ledger/vintage.ts): each day of the asked range with the
 * value this computer (or the team's gateway) knew at that instant, from the value held now and when it was
 * first seen, and from the ledger's changes. A day not known then is no value, and says why ("not known on
 * 2026-11-20: first seen 2026-11-24"): the functions treat it as they treat a conflict — never filled, never
 * rolled up into a figure, a #N/A naming it. Days the cache no longer holds but the ledger knows (a day the
 * service dropped) come back as they were.
 */
import {
  notKnownMessage,
  seenAt,
  type LedgerView,
  type SeenRuns,
  type SeriesRef,
  type Vintage,
} from "./ledger";
import type { DayPoint } from "./figures/series-ops";

interface HeldSeries {
  /** The answer's points within [start, end], per dimension, sorted by day. */
  dims: ReadonlyMap<string, readonly DayPoint[]>;
  /** When each held value was first seen, per dimension (absent: not recorded). */
  seen?: ReadonlyMap<string, SeenRuns>;
  /** When the answer was fetched: a value without its first sighting counts as first seen then. */
  fetchedAt: number;
}

interface KnownSeries {
  /** The points as known at the vintage; a day not known then is a point without value, in `notKnown`. */
  dims: Map<string, DayPoint[]>;
  /** Per dimension, the days not known at the vintage, with the #N/A text of each. */
  notKnown: Map<string, Map<number, string>>;
}

export function knownAt(
  view: LedgerView,
  series: SeriesRef,
  held: HeldSeries,
  start: number,
  end: number,
  vintage: Vintage
): KnownSeries {
  const dims = new Map<string, DayPoint[]>();
  const notKnown = new Map<string, Map<number, string>>();
  // The text of a day not known depends on its sightings alone: a series fetched once (every day first seen
  // at one instant) has one text for all its days. Made once each: a breakdown of the whole universe at a
  // vintage before its fetch spent most of its time spelling the same dates.
  const texts = new Map<string, string>();
  const textOf = (known: Parameters<typeof notKnownMessage>[1]): string => {
    const key = `${known.firstSeen}|${known.keptSince}`;
    let text = texts.get(key);
    if (text === undefined) texts.set(key, (text = notKnownMessage(vintage, known)));
    return text;
  };
  for (const [dim, points] of held.dims) {
    const runs = held.seen?.get(dim);
    const byDay = new Map<number, DayPoint>();
    for (const p of points) if (p.day >= start && p.day <= end) byDay.set(p.day, p);
    // Days only the ledger knows (no longer held): their timeline is the ledger's alone.
    const ledgerOnly = new Set<number>();
    for (const day of view.changedDays(series, dim, start, end))
      if (!byDay.has(day)) {
        byDay.set(day, { day, value: null });
        ledgerOnly.add(day);
      }
    const out: DayPoint[] = [];
    const unknown = new Map<number, string>();
    for (const day of [...byDay.keys()].sort((a, b) => a - b)) {
      const p = byDay.get(day)!;
      const first = (runs && seenAt(runs, day)) ?? held.fetchedAt;
      const cell = { series, dim, day };
      if (p.conflict) {
        // A day held in conflict: no figure then either, once seen; a value only if the ledger knew one.
        const before = view.known(cell, undefined, vintage.at);
        if (before.known) out.push({ day, value: before.value });
        else if (first <= vintage.at) out.push(p);
        else {
          out.push({ day, value: null, conflict: true });
          const firstSeen = Math.min(before.firstSeen ?? first, first);
          unknown.set(day, textOf({ ...before, firstSeen }));
        }
        continue;
      }
      const heldNow = ledgerOnly.has(day) ? undefined : { value: p.value, seenAt: first };
      const known = view.known(cell, heldNow, vintage.at);
      if (known.known) out.push({ day, value: known.value });
      else {
        out.push({ day, value: null, conflict: true });
        unknown.set(day, textOf(known));
      }
    }
    dims.set(dim, out);
    if (unknown.size > 0) notKnown.set(dim, unknown);
  }
  return { dims, notKnown };
}
