/**
 * An upstream answer to a series request, split per series (see entry.ts): each row of §4.11 (long: one value
 * per row) or §4.7 (long, per metric) is one record; each wide row of §4.3 gives one record per requested metric,
 * the row's other members (timestamp, project, breakdown members whatever their names) being the record's row.
 * Rows are kept as sent; only the value is taken out. The `errors` entries go to the series they name, and
 * those about the request's options (an unknown chain id...) to every series of it.
 *
 * An answer that cannot be split (no `data` list, a row without its day or its id) is refused as a whole:
 * the caller hears that the service's answer could not be read, never a table with rows quietly missing.
 */
import { CryptometricsError, type JsonObject, type JsonValue } from "../../client";
import { isObject } from "../../client";
import { parseDay } from "../../client";
import type { SeriesForm } from "../operations";
import type { Fetched, SeriesIssue, SeriesRecord } from "./entry";

/** One series request as the gateway sends it upstream. */
export interface SeriesRequest {
  form: SeriesForm;
  projectId: string;
  productId: string;
  metricId: string;
  /** Projects (metric form) or metrics (project and product forms), sorted. */
  members: readonly string[];
  start: number;
  end: number;
}

function unreadable(what: string): CryptometricsError {
  return new CryptometricsError("malformed-response", `unusable response: ${what}`, {
    operation: "gateway",
  });
}

/** The day of a row's timestamp (its first ten characters: a date or an ISO date-time). */
function dayOf(row: JsonObject, member: string, index: number): number {
  const text = row[member];
  const day = typeof text === "string" ? parseDay(text.slice(0, 10)) : undefined;
  if (day === undefined) throw unreadable(`data[${index}].${member} is not a date`);
  return day;
}

function idOf(row: JsonObject, member: string, index: number): string {
  const id = row[member];
  if (typeof id === "string" && id !== "") return id;
  if (typeof id === "number" && Number.isFinite(id)) return String(id);
  throw unreadable(`data[${index}].${member} is missing`);
}

function without(row: JsonObject, names: ReadonlySet<string>): JsonObject {
  const out: JsonObject = {};
  for (const [name, value] of Object.entries(row)) if (!names.has(name)) out[name] = value;
  return out;
}

const VALUE_MEMBERS = new Set(["value", "metric_id"]);

/** Which member a partial-success entry is about, or undefined when it is about the request's options. */
function ownerOf(request: SeriesRequest, entry: JsonObject): string | undefined {
  const members = new Set(request.members);
  const field = entry.field;
  const value = typeof entry.value === "string" ? entry.value : undefined;
  if (entry.code === "NOT_FOUND" && value !== undefined) {
    const own = request.form === "metric" ? "project_ids" : "metric_ids";
    return field === own && members.has(value) ? value : undefined;
  }
  if (entry.code === "METRIC_NOT_AVAILABLE") {
    const project = entry.project_id;
    const metric = entry.metric_id;
    if (typeof project !== "string" || typeof metric !== "string") return undefined;
    if (request.form === "metric")
      return metric === request.metricId && members.has(project) ? project : undefined;
    return project === request.projectId && members.has(metric) ? metric : undefined;
  }
  return undefined;
}

/** The answer per member (every member gets an entry: no rows is an answer too). */
export function splitAnswer(
  request: SeriesRequest,
  envelope: { data: JsonValue; errors?: JsonValue },
  simulated: boolean
): Map<string, Fetched> {
  const out = new Map<string, Fetched>();
  for (const member of request.members) {
    out.set(member, {
      form: request.form,
      start: request.start,
      end: request.end,
      records: [],
      issues: [],
      simulated,
    });
  }
  if (!Array.isArray(envelope.data)) throw unreadable("data is not a list");
  const inRange = (d: number): boolean => d >= request.start && d <= request.end;
  const add = (member: string, record: SeriesRecord): void => {
    if (inRange(record.d)) out.get(member)?.records.push(record);
  };
  const metrics = new Set(request.members);
  envelope.data.forEach((item, i) => {
    if (!isObject(item)) throw unreadable(`data[${i}] is not an object`);
    switch (request.form) {
      case "metric": {
        const project = idOf(item, "project_id", i);
        if (!metrics.has(project)) return; // a project nobody asked (an every-project answer)
        add(project, {
          d: dayOf(item, "timestamp", i),
          row: without(item, VALUE_MEMBERS),
          ...valueOf(item, "value"),
        });
        return;
      }
      case "project": {
        const d = dayOf(item, "timestamp", i);
        const row = without(item, metrics);
        for (const metric of request.members) add(metric, { d, row, ...valueOf(item, metric) });
        return;
      }
      case "product": {
        const metric = idOf(item, "metric_id", i);
        if (!metrics.has(metric)) return;
        const member = "date" in item ? "date" : "timestamp";
        add(metric, {
          d: dayOf(item, member, i),
          row: without(item, VALUE_MEMBERS),
          ...valueOf(item, "value"),
        });
        return;
      }
    }
  });
  const errors = envelope.errors;
  if (errors !== undefined && errors !== null) {
    const entries = Array.isArray(errors) ? errors : [errors];
    for (const entry of entries) {
      const owner = isObject(entry) ? ownerOf(request, entry) : undefined;
      for (const [member, fetched] of out) {
        if (owner !== undefined && owner !== member) continue;
        const issue: SeriesIssue = { form: request.form, own: owner !== undefined, entry };
        fetched.issues.push(issue);
      }
    }
  }
  return out;
}

function valueOf(row: JsonObject, member: string): { v?: JsonValue } {
  return Object.prototype.hasOwnProperty.call(row, member) ? { v: row[member] } : {};
}
