/**
 * When each held value of a series was first seen: runs of days (inclusive, ascending, disjoint) with one
 * instant each, packed three numbers a run in a Float64Array (24 bytes a run: a year of daily refreshes of a
 * series is 365 runs, 9 kB). A day inside a run that has no point simply has no value to date.
 *
 * Bounded: past MAX_SEEN_RUNS runs the two neighbours seen closest in time become one, dated by the later
 * instant. That only ever claims a value was known later than it was (vintage= then says "not known" a little
 * longer), never earlier: coarsening cannot make a figure look known on a day it was not.
 */

export type SeenRuns = Float64Array;

/** A run: days [from, to], first seen at `at` (ms since epoch). */
export interface SeenRun {
  from: number;
  to: number;
  at: number;
}

/**
 * Runs kept per series and breakdown member: 1,024, about three years of daily refreshes each bringing a new
 * day (9 kB of memory per series at most, in the saved cache about 20 kB as text) before any two are merged.
 */
const MAX_SEEN_RUNS = 1_024;

export const NO_RUNS: SeenRuns = new Float64Array(0);

function runCount(runs: SeenRuns): number {
  return runs.length / 3;
}

function runAt(runs: SeenRuns, i: number): SeenRun {
  return { from: runs[3 * i], to: runs[3 * i + 1], at: runs[3 * i + 2] };
}

export function listRuns(runs: SeenRuns): SeenRun[] {
  const out: SeenRun[] = [];
  for (let i = 0; i < runCount(runs); i++) out.push(runAt(runs, i));
  return out;
}

/** Index of the first run ending at or after `day`. */
function firstEndingAtOrAfter(runs: SeenRuns, day: number): number {
  let lo = 0;
  let hi = runCount(runs);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (runs[3 * mid + 1] < day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** When the day's value was first seen; undefined when no run holds the day. */
export function seenAt(runs: SeenRuns, day: number): number | undefined {
  const i = firstEndingAtOrAfter(runs, day);
  return i < runCount(runs) && runs[3 * i] <= day ? runs[3 * i + 2] : undefined;
}

/**
 * Runs from days ascending and the instant each was first seen: consecutive days (in the list, whatever the
 * gaps between them) seen at the same instant share a run.
 */
export function runsOf(days: ArrayLike<number>, at: ArrayLike<number>): SeenRun[] {
  const out: SeenRun[] = [];
  for (let i = 0; i < days.length; i++) {
    const last = out[out.length - 1];
    if (last && last.at === at[i] && days[i] > last.to) last.to = days[i];
    else out.push({ from: days[i], to: days[i], at: at[i] });
  }
  return out;
}

function pack(list: readonly SeenRun[]): SeenRuns {
  const out = new Float64Array(list.length * 3);
  list.forEach((r, i) => {
    out[3 * i] = r.from;
    out[3 * i + 1] = r.to;
    out[3 * i + 2] = r.at;
  });
  return out;
}

/**
 * `runs` with the days [start, end] replaced by `fresh` (runs inside [start, end], ascending): what was known
 * of the days before and after stays; neighbours seen at the same instant join. Then bounded (MAX_SEEN_RUNS).
 */
export function spliceRuns(
  runs: SeenRuns,
  start: number,
  end: number,
  fresh: readonly SeenRun[],
  max: number = MAX_SEEN_RUNS
): SeenRuns {
  const out: SeenRun[] = [];
  const push = (r: SeenRun): void => {
    if (r.to < r.from) return;
    const last = out[out.length - 1];
    if (last && last.at === r.at && last.to < r.from) last.to = r.to;
    else out.push({ ...r });
  };
  const n = runCount(runs);
  // Runs starting before the range keep their days before it; one reaching past the range keeps those after
  // it too (the last loop finds it again).
  for (let i = 0; i < n && runs[3 * i] < start; i++) {
    const r = runAt(runs, i);
    push({ ...r, to: Math.min(r.to, start - 1) });
  }
  for (const r of fresh) push({ from: Math.max(r.from, start), to: Math.min(r.to, end), at: r.at });
  for (let i = firstEndingAtOrAfter(runs, end + 1); i < n; i++) {
    const r = runAt(runs, i);
    push({ ...r, from: Math.max(r.from, end + 1) });
  }
  return pack(coarsened(out, max));
}

/**
 * At most `max` runs: while over, the adjacent pair seen closest in time is merged into one run dated by the
 * later of the two (the conservative side: known from then on).
 */
function coarsened(list: SeenRun[], max: number): SeenRun[] {
  if (list.length <= max) return list;
  const out = list.slice();
  while (out.length > max) {
    let best = 0;
    let gap = Infinity;
    for (let i = 0; i + 1 < out.length; i++) {
      const g = Math.abs(out[i + 1].at - out[i].at);
      if (g < gap) {
        gap = g;
        best = i;
      }
    }
    const a = out[best];
    const b = out[best + 1];
    out.splice(best, 2, { from: a.from, to: b.to, at: Math.max(a.at, b.at) });
  }
  return out;
}

/** Runs as saved: [from, to, at] triples, days and instants as integers. */
export function encodeRuns(runs: SeenRuns): number[] {
  return Array.from(runs);
}

/** Saved runs back, or undefined for anything but ascending, disjoint runs of whole days and instants. */
export function decodeRuns(json: unknown, max: number = MAX_SEEN_RUNS): SeenRuns | undefined {
  if (!Array.isArray(json) || json.length % 3 !== 0 || json.length / 3 > max) return undefined;
  let lastTo = -Infinity;
  for (let i = 0; i < json.length; i += 3) {
    const [from, to, at] = [json[i], json[i + 1], json[i + 2]] as unknown[];
    if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to) || !Number.isSafeInteger(at))
      return undefined;
    if ((to as number) < (from as number) || (from as number) <= lastTo || (at as number) < 0)
      return undefined;
    lastTo = to as number;
  }
  return Float64Array.from(json as number[]);
}
