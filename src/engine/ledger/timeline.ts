/**
 * A figure as it was known at an instant. Its timeline is made of what the ledger recorded (each change: the
 * value before, from when it was first seen, and the value after, from when the change was seen) and of the
 * value held now, from when it was first seen. The figure known at `at` is the last of those seen at or
 * before `at`; with none, it was not known then, and the earliest instant it was seen says since when.
 */
import type { Change, FigureValue } from "./types";

export type Known =
  | { known: true; value: FigureValue; seenAt: number }
  | {
      known: false;
      /** The first instant a value of the figure was seen (undefined: never seen). */
      firstSeen?: number;
      /**
       * Set when `at` lies before the oldest change still kept (older ones were dropped to bound the ledger):
       * a value may have been known then, and is no longer.
       */
      keptSince?: number;
    };

export interface HeldNow {
  value: FigureValue;
  seenAt: number;
}

/**
 * The figure known at `at`, from its recorded changes (any order) and the value held now (undefined when
 * the cache holds none). `keptSince`: the instant before which changes were dropped (-Infinity: none was).
 */
export function knownAt(
  changes: readonly Change[],
  held: HeldNow | undefined,
  at: number,
  keptSince = -Infinity
): Known {
  let best: { value: FigureValue; seenAt: number; rank: number } | undefined;
  let first = Infinity;
  // Later events win; at one instant a change's `after` wins over its `before`, the value held over both.
  const consider = (value: FigureValue, seenAt: number, rank: number): void => {
    first = Math.min(first, seenAt);
    if (seenAt > at) return;
    if (!best || seenAt > best.seenAt || (seenAt === best.seenAt && rank >= best.rank))
      best = { value, seenAt, rank };
  };
  for (const c of changes) {
    consider(c.before, c.beforeSeenAt, 0);
    consider(c.after, c.seenAt, 1);
  }
  if (held) consider(held.value, held.seenAt, 2);
  if (best) return { known: true, value: best.value, seenAt: best.seenAt };
  return {
    known: false,
    ...(Number.isFinite(first) ? { firstSeen: first } : {}),
    ...(at < keptSince ? { keptSince } : {}),
  };
}
