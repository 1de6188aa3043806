/**
 * The team's record of restatements (src/engine/ledger), as the gateway's series cache feeds it: what one
 * upstream answer changes of what a series entry held (its current snapshot, then its previous one, newest
 * first), compared as the engine's series cache compares (engine/series-compare.ts), and when each value held
 * was first seen. entries.ts records the changes only once its compare-and-set write of the entry has won: two
 * processes refetching one series read one revision, one write wins, and the loser merges again into the entry
 * that already holds the new value, where there is nothing left to record. Each change is recorded once,
 * whatever the number of processes.
 *
 * A figure is named as the add-in names it (series-ledger.ts's filterText for the options, the breakdown
 * member as the dimension), so the team's changes and a computer's own are the same figures. Choices where the
 * issue is silent, each on the safe side (never a change the add-in would not have seen):
 * - a day whose rows cannot be read as one figure (sent twice for one member, split by a member nobody asked
 *   for, a value that is not a number) is no value: going to or from it is no restatement;
 * - an answer that brought no row, or an error about the series itself, is compared with nothing: for §4.3 an
 *   absent metric means "not available", not "every day dropped";
 * - an answer the gateway does not keep (past its user's daily allowance, or too large) is not compared: the
 *   entry it would have replaced is still there, and comparing would record the change at every refetch.
 */
import type { JsonObject, JsonValue } from "../../client";
import {
  decodeRuns,
  type SeriesRef,
  answerChanges,
  type AnswerOutcome,
  type HeldSnapshot,
  type DayPoint,
} from "../../engine";
import type { QueryValue, SeriesAsk } from "../ask";
import type { Fetched, SeriesEntry, SeriesRecord, SeriesSnapshot } from "./entry";

/** What the compare needs to know of a series besides its rows: its name in the ledger, and its request. */
export interface SeriesAbout {
  series: SeriesRef;
  /** The breakdown asked (aggregate_by), whose member is the dimension; undefined: none. */
  breakdown?: string;
  /** The request that brought the answer, described (operation, ids, days): never a key or a token. */
  request: string;
}

/** Row members that break a day down (§2.4, §2.5): a row carrying one nobody asked for is a part of a day. */
const BREAKDOWN_MEMBERS = ["chain", "chain_id", "business_line", "version", "product_id"] as const;

function listOf(value: QueryValue | undefined): string[] {
  if (value === undefined) return [];
  return typeof value === "string" ? value.split(",") : [...value];
}

/**
 * The series' options as the add-in writes them (series-ledger.ts's filterText): lists sorted, bridged only
 * when false, the breakdown by its name.
 */
export function filterOf(params: ReadonlyArray<readonly [string, QueryValue]>): {
  filter: string;
  breakdown?: string;
} {
  const p = new Map(params);
  const parts: string[] = [];
  const list = (name: string, param: string) => {
    const ids = [...new Set(listOf(p.get(param)))].sort();
    if (ids.length > 0) parts.push(`${name}=${ids.join(",")}`);
  };
  list("chains", "chain_ids");
  list("products", "product_ids");
  list("sectors", "market_sector_ids");
  const bridged = p.get("assets_bridged");
  if (typeof bridged === "string" && bridged !== "true") parts.push(`bridged=${bridged}`);
  const breakdown = p.get("aggregate_by");
  const by = typeof breakdown === "string" && breakdown !== "" ? breakdown : undefined;
  if (by) parts.push(`breakdown=${by}`);
  return { filter: parts.join("; "), ...(by ? { breakdown: by } : {}) };
}

function day(d: number): string {
  return Math.abs(d) >= 1e8 ? "" : new Date(d * 86_400_000).toISOString().slice(0, 10);
}

/** The request as the ledger keeps it: the form's path, how many ids, the days ("launch", "latest" when open). */
export function describeRequest(
  ask: SeriesAsk,
  members: number,
  start: number,
  end: number
): string {
  const path =
    ask.form === "metric"
      ? `/v2/metrics/${ask.metricId}`
      : ask.form === "product"
        ? `/v2/projects/${ask.projectId}/products/${ask.productId}/metrics`
        : `/v2/projects/${ask.projectId}/metrics`;
  const what = ask.form === "metric" ? "project" : "metric";
  return `GET ${path} for ${members} ${what}${members === 1 ? "" : "s"}, ${day(start) || "launch"} → ${day(end) || "latest"}, through the team gateway`;
}

/** The ledger's name of each series of an ask, by member. */
export function aboutOf(ask: SeriesAsk, member: string, request: string): SeriesAbout {
  const { filter, breakdown } = filterOf(ask.variant.params);
  return {
    series: {
      projectId: ask.form === "metric" ? member : ask.projectId,
      productId: ask.productId,
      metricId: ask.form === "metric" ? ask.metricId : member,
      filter,
    },
    ...(breakdown ? { breakdown } : {}),
    request,
  };
}

function numberOf(v: JsonValue | undefined): number | null | undefined {
  if (v === undefined || v === null) return null;
  if (typeof v === "number") return Number.isFinite(v) ? v : undefined;
  if (typeof v === "string" && v.trim() !== "") {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

function memberOf(row: JsonObject, breakdown: string): string | undefined {
  const names = breakdown === "chain" ? ["chain", "chain_id"] : [breakdown];
  for (const name of names) {
    const v = row[name];
    if (typeof v === "string") return v;
  }
  return undefined;
}

/** The rows of a snapshot (or an answer) as the add-in reads figures: per member, one point a day. */
function pointsOf(
  records: readonly SeriesRecord[],
  breakdown: string | undefined
): Map<string, DayPoint[]> {
  const byDim = new Map<string, Map<number, DayPoint>>();
  for (const r of records) {
    let dim = "";
    let readable = true;
    if (breakdown) {
      const m = memberOf(r.row, breakdown);
      if (m === undefined) readable = false;
      else dim = m;
    } else if (BREAKDOWN_MEMBERS.some((name) => r.row[name] !== undefined)) readable = false;
    const value = numberOf(r.v);
    let days = byDim.get(dim);
    if (!days) byDim.set(dim, (days = new Map<number, DayPoint>()));
    const seen = days.get(r.d);
    // A day sent twice, in parts, or unreadable: no figure (a conflict, as the add-in shows it).
    days.set(
      r.d,
      seen || !readable || value === undefined
        ? { day: r.d, value: null, conflict: true }
        : { day: r.d, value }
    );
  }
  const out = new Map<string, DayPoint[]>();
  for (const [dim, days] of byDim)
    out.set(
      dim,
      [...days.values()].sort((a, b) => a.day - b.day)
    );
  return out;
}

function heldOf(s: SeriesSnapshot, breakdown: string | undefined): HeldSnapshot {
  const seen = new Map<string, Float64Array>();
  for (const [dim, runs] of s.seen ?? []) {
    const decoded = decodeRuns(runs);
    if (decoded) seen.set(dim, decoded);
  }
  return {
    covers: (d) => s.coverage.some(([a, b]) => a <= d && d <= b),
    points: pointsOf(s.records, breakdown),
    seen,
    fetchedAt: s.fetchedAt,
  };
}

/**
 * What an answer changes of the entry held before it (undefined: nothing to compare, see the module comment),
 * and when each day it brought was first seen.
 */
export function compareAnswer(
  held: SeriesEntry | undefined,
  got: Fetched,
  now: number,
  about: SeriesAbout
): AnswerOutcome | undefined {
  if (got.records.length === 0 || got.issues.some((i) => i.own)) return undefined;
  const snapshots = [held?.cur, held?.prev].filter((s): s is SeriesSnapshot => s !== undefined);
  return answerChanges({
    series: about.series,
    start: got.start,
    end: got.end,
    held: snapshots.map((s) => heldOf(s, about.breakdown)),
    sent: pointsOf(got.records, about.breakdown),
    at: now,
    request: about.request,
  });
}
