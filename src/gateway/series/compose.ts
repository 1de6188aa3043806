/**
 * A caller's answer made from the series it asks (entry.ts), in the form it asked: §4.11's long rows, §4.3's wide
 * rows (one per day and breakdown member, every asked metric a member), §4.7's long rows per metric; sorted by
 * day as asked (newest first by default, as the service does), partial-success errors from the series, once each.
 * The rows are the service's own (members, timestamp text, value types), however they were fetched.
 */
import type { JsonObject, JsonValue } from "../../client";
import type { SeriesAsk } from "../ask";
import type { SeriesIssue, SeriesRecord, SeriesSnapshot } from "./entry";

/** Members that say which day and project a wide row is: the rest of a row (its breakdown) tells rows apart. */
const DAY_MEMBERS = new Set(["timestamp", "project_name", "project_id"]);

function canonical(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const names = Object.keys(value).sort();
    return `{${names.map((n) => `${JSON.stringify(n)}:${canonical(value[n])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function breakdownOf(row: JsonObject): string {
  const rest: JsonObject = {};
  for (const [name, value] of Object.entries(row)) if (!DAY_MEMBERS.has(name)) rest[name] = value;
  return canonical(rest);
}

function inRange(ask: SeriesAsk, records: readonly SeriesRecord[]): SeriesRecord[] {
  return records.filter((r) => r.d >= ask.start && r.d <= ask.end);
}

function sortByDay<T extends { d: number }>(rows: T[], direction: "asc" | "desc"): T[] {
  // Stable: rows of one day keep their order (members as asked, breakdown members as sent).
  return rows.sort((a, b) => (direction === "asc" ? a.d - b.d : b.d - a.d));
}

function longRows(ask: SeriesAsk, snapshots: ReadonlyMap<string, SeriesSnapshot>): JsonObject[] {
  const rows: Array<{ d: number; row: JsonObject }> = [];
  for (const member of ask.members) {
    const s = snapshots.get(member);
    if (!s) continue;
    for (const r of inRange(ask, s.records)) {
      const row: JsonObject =
        ask.form === "metric"
          ? { ...r.row, project_id: r.row.project_id ?? member, metric_id: ask.metricId }
          : { ...r.row, metric_id: member };
      if (r.v !== undefined) row.value = r.v;
      rows.push({ d: r.d, row });
    }
  }
  // §4.11 has no order parameter: newest first, as the service sends by default.
  return sortByDay(rows, ask.form === "metric" ? "desc" : ask.direction).map((r) => r.row);
}

function wideRows(ask: SeriesAsk, snapshots: ReadonlyMap<string, SeriesSnapshot>): JsonObject[] {
  const rows = new Map<string, { d: number; row: JsonObject }>();
  for (const member of ask.members) {
    const s = snapshots.get(member);
    if (!s) continue;
    // A day's row may come more than once (repeated rows): the n-th copy of each metric joins the n-th row.
    const copies = new Map<string, number>();
    for (const r of inRange(ask, s.records)) {
      const base = `${r.d}|${breakdownOf(r.row)}`;
      const n = copies.get(base) ?? 0;
      copies.set(base, n + 1);
      const key = `${base}|${n}`;
      let target = rows.get(key);
      if (!target) rows.set(key, (target = { d: r.d, row: { ...r.row } }));
      if (r.v !== undefined) target.row[member] = r.v;
    }
  }
  return sortByDay([...rows.values()], ask.direction).map((r) => r.row);
}

/** The errors entries of the answer: each series' own (in this form) and the request's notes, once each. */
function errorsOf(ask: SeriesAsk, snapshots: ReadonlyMap<string, SeriesSnapshot>): JsonValue[] {
  const seen = new Set<string>();
  const out: JsonValue[] = [];
  const keep = (issue: SeriesIssue): boolean => (issue.own ? issue.form === ask.form : true);
  for (const member of ask.members) {
    for (const issue of snapshots.get(member)?.issues ?? []) {
      if (!keep(issue)) continue;
      const text = canonical(issue.entry);
      if (seen.has(text)) continue;
      seen.add(text);
      out.push(issue.entry);
    }
  }
  return out;
}

/** `snapshots`: the snapshot answering each member's series. */
export function composeAnswer(
  ask: SeriesAsk,
  snapshots: ReadonlyMap<string, SeriesSnapshot>
): { data: JsonValue; errors?: JsonValue } {
  const data = ask.form === "project" ? wideRows(ask, snapshots) : longRows(ask, snapshots);
  const errors = errorsOf(ask, snapshots);
  return errors.length > 0 ? { data, errors } : { data };
}
