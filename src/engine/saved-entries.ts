/**
 * How the engine's cache entries are written to the saved cache (persistence.ts) and checked when read back.
 * Everything read back is treated as untrusted: a body that does not have exactly the expected shape is refused
 * (the entry is then dropped and fetched afresh), so a damaged file can never put a wrong number in a cell.
 */
import { TOO_LARGE_TO_SAVE, type Codec, type PersistentCache } from "./persistence";
import type { EntryData, SavedCache } from "./saved-cache";
import type { SeriesEntryData, SeriesIssue, SnapshotData } from "./series-store";
import type { Interval } from "../cache/coverage";
import { decodeRuns, encodeRuns, type SeenRuns } from "./ledger";

/** Sections of the saved cache. */
const SECTION = { series: "series", entry: "entry" } as const;

// ---- checks ----

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isInstant(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}

const ISSUE_CODES: ReadonlySet<string> = new Set<SeriesIssue["code"]>([
  "unknown-project",
  "unknown-metric",
  "metric-not-available",
  "unknown-product",
  "unattributable",
]);

// ---- series ----

/** Day bounds: ±Infinity (the service's defaults) have no JSON form, so they travel as null. */
function bound(n: number): number | null {
  return Number.isFinite(n) ? n : null;
}

function unbound(v: unknown, infinity: number): number | undefined {
  if (v === null) return infinity;
  return Number.isInteger(v) ? (v as number) : undefined;
}

function encodeSnapshot(s: SnapshotData): unknown {
  return {
    coverage: s.coverage.map(([a, b]) => [bound(a), bound(b)]),
    // Pairs, not an object: a dimension is a service-given name ("__proto__" included).
    dims: [...s.dims].map(([dim, points]) => [dim, [...points.keys()], [...points.values()]]),
    // Days sent twice with different values: kept, so a restored series still refuses to show them.
    ...(s.conflicts ? { conflicts: [...s.conflicts].map(([dim, days]) => [dim, [...days]]) } : {}),
    // Of those, the days split unasked that could not be told apart: their message says so.
    ...(s.splits ? { splits: [...s.splits].map(([dim, days]) => [dim, [...days]]) } : {}),
    // Of those, the days whose value was sent but is no number: their message names what was sent.
    ...(s.unreadable
      ? { unreadable: [...s.unreadable].map(([dim, texts]) => [dim, [...texts]]) }
      : {}),
    // When each value was first seen (vintage=): [dimension, [from, to, at, …]] pairs.
    ...(s.seen ? { seen: [...s.seen].map(([dim, runs]) => [dim, encodeRuns(runs)]) } : {}),
    ...(s.issue ? { issue: { code: s.issue.code, message: s.issue.message } } : {}),
    warnings: s.warnings,
    servedBy: s.servedBy,
    fetchedAt: s.fetchedAt,
    expiresAt: s.expiresAt,
  };
}

function decodeCoverage(json: unknown): Interval[] | undefined {
  if (!Array.isArray(json)) return undefined;
  const out: Interval[] = [];
  for (const item of json) {
    if (!Array.isArray(item) || item.length !== 2) return undefined;
    const a = unbound(item[0], -Infinity);
    const b = unbound(item[1], Infinity);
    if (a === undefined || b === undefined || b < a) return undefined;
    out.push([a, b]);
  }
  return out;
}

function decodeDims(json: unknown): Map<string, Map<number, number | null>> | undefined {
  if (!Array.isArray(json)) return undefined;
  const dims = new Map<string, Map<number, number | null>>();
  for (const item of json) {
    if (!Array.isArray(item) || item.length !== 3) return undefined;
    const [dim, days, values] = item as unknown[];
    if (typeof dim !== "string" || dims.has(dim)) return undefined;
    if (!Array.isArray(days) || !Array.isArray(values) || days.length !== values.length)
      return undefined;
    const points = new Map<number, number | null>();
    for (let i = 0; i < days.length; i++) {
      const day: unknown = days[i];
      const value: unknown = values[i];
      if (!Number.isInteger(day)) return undefined;
      if (value !== null && !(typeof value === "number" && Number.isFinite(value)))
        return undefined;
      points.set(day as number, value);
    }
    dims.set(dim, points);
  }
  return dims;
}

/** Absent: no conflicts; anything but pairs of a dimension and whole day numbers is refused. */
function decodeConflicts(json: unknown): Map<string, Set<number>> | undefined | false {
  if (json === undefined) return undefined;
  if (!Array.isArray(json)) return false;
  const out = new Map<string, Set<number>>();
  for (const item of json) {
    if (!Array.isArray(item) || item.length !== 2) return false;
    const [dim, days] = item as unknown[];
    if (typeof dim !== "string" || out.has(dim) || !Array.isArray(days)) return false;
    if (!days.every((d) => Number.isInteger(d))) return false;
    out.set(dim, new Set(days as number[]));
  }
  return out;
}

/** Absent: none; anything but pairs of a dimension and [day, short text] pairs is refused. */
function decodeUnreadable(json: unknown): Map<string, Map<number, string>> | undefined | false {
  if (json === undefined) return undefined;
  if (!Array.isArray(json)) return false;
  const out = new Map<string, Map<number, string>>();
  for (const item of json) {
    if (!Array.isArray(item) || item.length !== 2) return false;
    const [dim, pairs] = item as unknown[];
    if (typeof dim !== "string" || out.has(dim) || !Array.isArray(pairs)) return false;
    const texts = new Map<number, string>();
    for (const pair of pairs) {
      if (!Array.isArray(pair) || pair.length !== 2) return false;
      const [day, text] = pair as unknown[];
      if (!Number.isInteger(day) || typeof text !== "string" || text.length > MAX_UNREADABLE_CHARS)
        return false;
      texts.set(day as number, text);
    }
    out.set(dim, texts);
  }
  return out;
}

/** Absent: not recorded; anything but pairs of a dimension and well-formed runs (seen.ts) is refused. */
function decodeSeen(json: unknown): Map<string, SeenRuns> | undefined | false {
  if (json === undefined) return undefined;
  if (!Array.isArray(json)) return false;
  const out = new Map<string, SeenRuns>();
  for (const item of json) {
    if (!Array.isArray(item) || item.length !== 2) return false;
    const [dim, list] = item as unknown[];
    if (typeof dim !== "string" || out.has(dim)) return false;
    const runs = decodeRuns(list);
    if (!runs) return false;
    out.set(dim, runs);
  }
  return out;
}

/** The client keeps 40 characters of an unreadable value: a saved text longer than this is damage. */
const MAX_UNREADABLE_CHARS = 64;

function decodeIssue(json: unknown): SeriesIssue | undefined | false {
  if (json === undefined) return undefined;
  if (!isRecord(json) || typeof json.code !== "string" || !ISSUE_CODES.has(json.code)) return false;
  if (typeof json.message !== "string") return false;
  return { code: json.code as SeriesIssue["code"], message: json.message };
}

function decodeSnapshot(json: unknown): SnapshotData | undefined {
  if (!isRecord(json)) return undefined;
  const coverage = decodeCoverage(json.coverage);
  const dims = decodeDims(json.dims);
  const issue = decodeIssue(json.issue);
  const conflicts = decodeConflicts(json.conflicts);
  const splits = decodeConflicts(json.splits);
  const unreadable = decodeUnreadable(json.unreadable);
  const seen = decodeSeen(json.seen);
  if (
    !coverage ||
    !dims ||
    issue === false ||
    conflicts === false ||
    splits === false ||
    unreadable === false ||
    seen === false
  )
    return undefined;
  if (!isStrings(json.warnings) || !isStrings(json.servedBy)) return undefined;
  if (!isInstant(json.fetchedAt) || !isInstant(json.expiresAt)) return undefined;
  return {
    coverage,
    dims,
    ...(conflicts ? { conflicts } : {}),
    ...(splits ? { splits } : {}),
    ...(unreadable ? { unreadable } : {}),
    ...(seen ? { seen } : {}),
    ...(issue ? { issue } : {}),
    warnings: json.warnings,
    servedBy: json.servedBy,
    fetchedAt: json.fetchedAt,
    expiresAt: json.expiresAt,
  };
}

/**
 * The most data points one saved series entry holds (its current and previous snapshots, every breakdown
 * member): 200,000, about 4 MB of text, fifty years of daily values for each of ten chains. A series with
 * more is kept for the session only, refused before its saved form is built (persistence.ts).
 */
export const MAX_SAVED_POINTS = 200_000;

/** The data points of an entry as it would be saved. */
export function savedPoints(entry: SeriesEntryData): number {
  let n = 0;
  for (const s of [entry.current, entry.previous]) {
    if (s) for (const points of s.dims.values()) n += points.size;
  }
  return n;
}

export const seriesCodec: Codec<SeriesEntryData> = {
  encode: (entry) => ({
    current: encodeSnapshot(entry.current),
    ...(entry.previous ? { previous: encodeSnapshot(entry.previous) } : {}),
  }),
  decode: (json) => {
    if (!isRecord(json)) return undefined;
    const current = decodeSnapshot(json.current);
    if (!current) return undefined;
    if (json.previous === undefined) return { current };
    const previous = decodeSnapshot(json.previous);
    return previous ? { current, previous } : undefined;
  },
};

// ---- whole answers (catalogues, details, statements, aggregations) ----

type Check = (value: unknown) => boolean;

/** A list of records, each with the given string members (the ids the functions read first). */
const listOf =
  (...members: string[]): Check =>
  (value) =>
    Array.isArray(value) &&
    value.every((item) => isRecord(item) && members.every((m) => typeof item[m] === "string"));

const recordWith =
  (...members: string[]): Check =>
  (value) =>
    isRecord(value) && members.every((m) => typeof value[m] === "string");

/** Rows and the partial-success errors that came with them (aggregations, the breakdown). */
const aggregationRows: Check = (value) =>
  isRecord(value) && listOf()(value.rows) && isStrings(value.errors);

/** One pair's aggregations (engine/aggregation-batcher.ts): its rows, and why there are none. */
const pairAggregations: Check = (value) =>
  isRecord(value) &&
  listOf()(value.rows) &&
  (value.issue === undefined || typeof value.issue === "string");

/**
 * The shape of each kind of answer, by the engine's cache key (engine.ts names them). An answer the functions
 * read is checked on its identifying members; the rest of it was normalised by the client before it was saved.
 */
const SHAPES: ReadonlyArray<[RegExp, Check]> = [
  [/^projects$/, listOf("projectId", "name")],
  [/^metrics$/, listOf("metricId")],
  [/^sectors$/, listOf("id", "name")],
  [/^sector:/, recordWith("marketSectorId", "name")],
  [/^project:/, recordWith("projectId", "name")],
  [/^product:/, recordWith("productId", "projectId")],
  [/^statement:/, listOf("metricId", "section")],
  [/^metric-aggregations:/, aggregationRows],
  [/^aggregation:/, pairAggregations],
  [/^breakdown:/, aggregationRows],
  // A first day with data (engine/history-start.ts): a day number, or null for "no data".
  [/^history-start:/, (value) => value === null || Number.isInteger(value)],
];

function checkFor(key: string): Check {
  // An answer of a kind this version does not know cannot be trusted to be what its key says.
  return SHAPES.find(([pattern]) => pattern.test(key))?.[1] ?? (() => false);
}

/** The codec of one keyed-cache entry: its envelope, and its value checked by the kind its key names. */
function entryCodec(key: string): Codec<EntryData> {
  const check = checkFor(key);
  return {
    encode: (entry) => entry,
    decode: (json) => {
      if (!isRecord(json) || !isInstant(json.fetchedAt) || !isInstant(json.expiresAt))
        return undefined;
      if (!check(json.value)) return undefined;
      return { value: json.value, fetchedAt: json.fetchedAt, expiresAt: json.expiresAt };
    },
  };
}

/**
 * The saved cache as the engine uses it (saved-cache.ts): series and keyed-cache entries under their engine
 * key, each checked by its codec when read back. Derived values (cards) are not saved: they are rebuilt from
 * the saved answers they came from, at no request.
 */
export function savedEngineCache(saved: PersistentCache): SavedCache {
  return {
    readSeries: (key) =>
      saved.read(SECTION.series, key, seriesCodec).then((persisted) => persisted?.value),
    saveSeries: (key, entry) =>
      saved.schedule(SECTION.series, key, () => {
        const e = entry();
        // Counted before the encoded arrays are built (persistence.ts, MAX_SAVED_POINTS).
        if (e && savedPoints(e) > MAX_SAVED_POINTS) return TOO_LARGE_TO_SAVE;
        return e && seriesCodec.encode(e);
      }),
    readEntry: (key) => saved.read(SECTION.entry, key, entryCodec(key)),
    saveEntry: (key, entry) => {
      if (key.startsWith("derived:")) return;
      saved.schedule(SECTION.entry, key, () => {
        const e = entry();
        return e && entryCodec(key).encode(e);
      });
    },
    flush: () => saved.flush(),
    clear: () => saved.clear(),
    usage: () => saved.usage(),
  };
}
