/**
 * What the gateway keeps of a time series: the rows the service sent for it, split from whatever request form
 * brought them (a metric across projects, §4.11; a project's metrics, §4.3; a product's, §4.7), so that callers
 * whose add-ins plan other request forms share them. A series is one project (or product) × one metric × one
 * set of options (chains, products, sectors, bridged assets, breakdown); its entry holds, per fetched range of
 * days, every row the service sent, as sent (its members, the timestamp text, numbers or numeric strings), and
 * the partial-success errors about it.
 *
 * What an entry can answer (`settles`): the days its coverage holds. Two cases are form-dependent:
 * - an empty answer means "no data in these days" from §4.11 (which reports METRIC_NOT_AVAILABLE itself), but
 *   "no data, or the metric is not available" from §4.3/§4.7 (where an unavailable metric is simply absent): a
 *   §4.11 need is answered from other forms only when the entry holds a value somewhere (the metric exists for
 *   the project) or §4.11 itself covered the days;
 * - errors about the series itself (NOT_FOUND of its id, METRIC_NOT_AVAILABLE) answer needs of the form that
 *   reported them; METRIC_NOT_AVAILABLE from §4.11 also answers §4.3 (where it means: absent, no error).
 * Everything else is asked again in the caller's form.
 *
 * Fresh until the service's next daily update (00:00 UTC, the engine's cache policy); the previous day's entry
 * is kept as a fallback for up to a week (stale-if-error).
 */
import { Coverage, type Interval } from "../../cache/coverage";
import { nextDailyUpdate, DEFAULT_CACHE_POLICY } from "../../cache/policy";
import type { JsonObject, JsonValue } from "../../client";
import { decodeRuns, encodeRuns, NO_RUNS, spliceRuns, type SeenRun } from "../../engine";
import type { SeriesForm } from "../operations";
import { readStored, writeStored } from "../stored-entry";

/** Day numbers standing for "left to the service": from launch, to the latest data (JSON has no Infinity). */
export const OPEN_START = -1e9;
export const OPEN_END = 1e9;

/** One row of the series: the day, the row's members but the value, and the value (absent: not sent). */
export interface SeriesRecord {
  d: number;
  row: JsonObject;
  v?: JsonValue;
}

/** An `errors` entry the service sent with the series; `own` when it is about this series itself. */
export interface SeriesIssue {
  form: SeriesForm;
  own: boolean;
  entry: JsonValue;
}

export interface SeriesSnapshot {
  fetchedAt: number;
  expiresAt: number;
  coverage: Interval[];
  /** The days fetched through §4.11 (see the module comment). */
  metricCoverage: Interval[];
  records: SeriesRecord[];
  issues: SeriesIssue[];
  /** Fetched from the simulator (it stamps its answers): the caller is told so too. */
  simulated: boolean;
  /**
   * When each value held was first seen, per breakdown member ("" none): the ledger's runs (seen.ts), as saved
   * ([from, to, at] triples). Absent (an entry of an older version): first seen at `fetchedAt`.
   */
  seen?: Array<[string, number[]]>;
}

export interface SeriesEntry {
  /** The series key, kept to refuse an entry stored under a colliding or foreign hash. */
  key: string;
  cur: SeriesSnapshot;
  prev?: SeriesSnapshot;
}

/** What a caller's answer needs of one series. */
export interface Need {
  key: string;
  form: SeriesForm;
  /** The id that varies in the caller's request: a project (metric form) or a metric. */
  member: string;
  start: number;
  end: number;
}

/** Series of projects (metric and project forms share them) and of products. */
export function seriesKey(
  family: "project" | "product",
  projectId: string,
  productId: string,
  metricId: string,
  variantKey: string
): string {
  return JSON.stringify([family, projectId, productId, metricId, variantKey]);
}

function covers(intervals: readonly Interval[], start: number, end: number): boolean {
  return intervals.some(([a, b]) => a <= start && end <= b);
}

const isOwn = (issue: SeriesIssue, form: SeriesForm): boolean => issue.own && issue.form === form;

function code(issue: SeriesIssue): unknown {
  const entry = issue.entry;
  return typeof entry === "object" && entry !== null && !Array.isArray(entry)
    ? entry.code
    : undefined;
}

function holdsAValue(s: SeriesSnapshot): boolean {
  return s.records.some((r) => r.v !== undefined && r.v !== null);
}

/** Whether a snapshot answers the need, fresh or not (see the module comment). */
export function answers(s: SeriesSnapshot, need: Need): boolean {
  if (s.issues.some((i) => isOwn(i, need.form))) return true;
  if (
    need.form === "project" &&
    s.issues.some((i) => isOwn(i, "metric") && code(i) === "METRIC_NOT_AVAILABLE")
  )
    return true;
  if (!covers(s.coverage, need.start, need.end)) return false;
  return need.form !== "metric" || holdsAValue(s) || covers(s.metricCoverage, need.start, need.end);
}

function isFresh(s: SeriesSnapshot, now: number): boolean {
  return now < s.expiresAt;
}

/** The fresh snapshot answering the need, if any. */
export function freshFor(
  entry: SeriesEntry | undefined,
  need: Need,
  now: number
): SeriesSnapshot | undefined {
  const s = entry?.cur;
  return s && isFresh(s, now) && answers(s, need) ? s : undefined;
}

/** The newest snapshot answering the need that is not too old to show (stale-if-error). */
export function staleFor(
  entry: SeriesEntry | undefined,
  need: Need,
  now: number
): SeriesSnapshot | undefined {
  const limit = now - DEFAULT_CACHE_POLICY.maxStaleMs;
  for (const s of [entry?.cur, entry?.prev]) {
    if (s && s.fetchedAt >= limit && answers(s, need)) return s;
  }
  return undefined;
}

/** What one upstream answer brought for one series. */
export interface Fetched {
  form: SeriesForm;
  start: number;
  end: number;
  records: SeriesRecord[];
  issues: SeriesIssue[];
  simulated: boolean;
}

/**
 * The entry after an answer: the days fetched are replaced by what came (as the engine's series store does),
 * the form's errors by the new ones. A day-old snapshot is started afresh and kept as the fallback.
 */
export function merge(
  entry: SeriesEntry | undefined,
  key: string,
  got: Fetched,
  now: number,
  /** When each day of the answer was first seen, per member (team-record.ts); absent: not compared. */
  seen?: ReadonlyMap<string, readonly SeenRun[]>
): SeriesEntry {
  const old = entry && entry.key === key ? entry : undefined;
  const fresh = old && isFresh(old.cur, now) ? old.cur : undefined;
  const prev = fresh
    ? old?.prev
    : old && old.cur.records.length + old.cur.issues.length > 0
      ? old.cur
      : old?.prev;
  const base: SeriesSnapshot = fresh ?? {
    fetchedAt: now,
    expiresAt: nextDailyUpdate(now, DEFAULT_CACHE_POLICY.dailyUpdateUtcHour),
    coverage: [],
    metricCoverage: [],
    records: [],
    issues: [],
    simulated: false,
  };
  const coverage = new Coverage();
  for (const [a, b] of base.coverage) coverage.add(a, b);
  coverage.add(got.start, got.end);
  const metricCoverage = new Coverage();
  for (const [a, b] of base.metricCoverage) metricCoverage.add(a, b);
  if (got.form === "metric") metricCoverage.add(got.start, got.end);
  const kept = base.records.filter((r) => r.d < got.start || r.d > got.end);
  // A stable sort by day: rows of one day keep the service's order (breakdown dimensions).
  const records = [...kept, ...got.records].sort((a, b) => a.d - b.d);
  const issues = [...base.issues.filter((i) => i.form !== got.form), ...got.issues];
  const cur: SeriesSnapshot = {
    fetchedAt: base.fetchedAt,
    expiresAt: base.expiresAt,
    coverage: coverage.list(),
    metricCoverage: metricCoverage.list(),
    records,
    issues,
    simulated: base.simulated || got.simulated,
  };
  if (seen) {
    // The answered days' sightings replace what the base knew of them; its other days keep theirs.
    const runs = new Map<string, number[]>(base.seen ?? []);
    for (const dim of new Set([...runs.keys(), ...seen.keys()])) {
      const held = runs.has(dim) ? (decodeRuns(runs.get(dim)) ?? NO_RUNS) : NO_RUNS;
      const next = spliceRuns(held, got.start, got.end, seen.get(dim) ?? []);
      if (next.length > 0) runs.set(dim, encodeRuns(next));
      else runs.delete(dim);
    }
    cur.seen = [...runs];
  } else if (base.seen) cur.seen = base.seen;
  return { key, cur, ...(prev ? { prev } : {}) };
}

/** Reads a stored entry; anything else (damaged, foreign, another version) is no entry. */
export function readEntry(text: string | undefined, key: string): SeriesEntry | undefined {
  // Sightings that cannot be read would date values wrongly: the entry is refused (fetched again).
  return readStored(text, key, seenReadable);
}

function seenReadable(s: SeriesSnapshot): boolean {
  const seen: unknown = s.seen;
  if (seen === undefined) return true;
  return (
    Array.isArray(seen) &&
    seen.every(
      (pair: unknown) =>
        Array.isArray(pair) &&
        pair.length === 2 &&
        typeof pair[0] === "string" &&
        decodeRuns(pair[1]) !== undefined
    )
  );
}

export function writeEntry(entry: SeriesEntry): string {
  return writeStored(entry);
}
