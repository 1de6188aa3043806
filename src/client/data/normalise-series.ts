/**
 * Daily series (§4.3, §4.7, §4.11) → normalised rows; `errors` entries → PartialError (the summaries and
 * the open shapes are normalise-summaries.ts's). Row order is decided in ./merge (sorting as requested);
 * here one response at a time.
 */
import { optional } from "./normalise-catalogue";
import {
  describe,
  firstString,
  isObject,
  mapObjects,
  optString,
  reqString,
  ShapeError,
} from "./read";
import type {
  IsoDate,
  MetricValue,
  MultiProjectMetricRow,
  PartialError,
  ProductMetricRow,
  ProjectMetricRow,
} from "./types";
import { toIsoDate, toMetricValue, unreadableText } from "./values";
import type { JsonObject, JsonValue } from "./wire";

/** Members of a wide project metric row that are not metric values. */
const ROW_KEYS = new Set([
  "timestamp",
  "date",
  "project_name",
  "project_id",
  "chain",
  "chain_id",
  "business_line",
  "version",
  "product_id",
  "product_name",
]);

export function rowDate(item: JsonObject, path: string, keys = ["timestamp", "date"]): IsoDate {
  for (const key of keys) {
    if (item[key] === undefined) continue;
    const date = toIsoDate(item[key]);
    if (date) return date;
    // Safe to cut: the body was redacted on arrival (http/response.ts).
    throw new ShapeError(`${path}.${key}`, `not a date: ${describe(item[key])}`);
  }
  throw new ShapeError(path, `no ${keys.join(" or ")} member`);
}

export function normaliseProjectMetricRows(data: JsonValue, projectId: string): ProjectMetricRow[] {
  return mapObjects(data, "data", (item, path) => {
    const id = optString(item, "project_id") ?? projectId;
    const values: Record<string, MetricValue> = {};
    let unreadable: Record<string, string> | undefined;
    for (const [key, value] of Object.entries(item)) {
      if (ROW_KEYS.has(key)) continue;
      values[key] = toMetricValue(value);
      const sent = unreadableText(value);
      if (sent !== undefined) (unreadable ??= {})[key] = sent;
    }
    return {
      ...(unreadable ? { unreadable } : {}),
      date: rowDate(item, path),
      projectId: id,
      projectName: optString(item, "project_name") ?? id,
      ...optional("chain", firstString(item, ["chain", "chain_id"])),
      ...optional("productId", optString(item, "product_id")),
      ...optional("businessLine", optString(item, "business_line")),
      ...optional("version", optString(item, "version")),
      values,
    };
  });
}

export function normaliseProductMetricRows(data: JsonValue): ProductMetricRow[] {
  return mapObjects(data, "data", (item, path) => ({
    date: rowDate(item, path, ["date", "timestamp"]),
    metricId: reqString(item, "metric_id", path),
    value: toMetricValue(item.value),
    ...optional("unreadable", unreadableText(item.value)),
    ...optional("chainId", firstString(item, ["chain_id", "chain"])),
  }));
}

export function normaliseMultiProjectRows(
  data: JsonValue,
  metricId: string
): MultiProjectMetricRow[] {
  return mapObjects(data, "data", (item, path) => {
    const projectId = reqString(item, "project_id", path);
    return {
      date: rowDate(item, path),
      projectId,
      projectName: optString(item, "project_name") ?? projectId,
      metricId: optString(item, "metric_id") ?? metricId,
      value: toMetricValue(item.value),
      ...optional("unreadable", unreadableText(item.value)),
      // §2.10 names no breakdown member; an odd service may split a project's day anyway: kept, so the
      // parts are told apart (not taken for repeats) and added up by whoever reads them.
      ...optional("chain", firstString(item, ["chain", "chain_id"])),
      ...optional("productId", optString(item, "product_id")),
      ...optional("businessLine", optString(item, "business_line")),
      ...optional("version", optString(item, "version")),
    };
  });
}

/**
 * The `errors` member → PartialError[]. Absent or null → none. Entries of an unknown shape are kept
 * as UNRECOGNISED: partial failures are never dropped silently.
 */
export function normalisePartialErrors(errors: JsonValue | undefined): PartialError[] {
  if (errors === undefined || errors === null) return [];
  const entries = Array.isArray(errors) ? errors : [errors];
  return entries.map((entry): PartialError => {
    if (isObject(entry)) {
      const code = optString(entry, "code");
      const field = optString(entry, "field");
      const value = optString(entry, "value");
      if (code === "NOT_FOUND" && field !== undefined && value !== undefined) {
        return { code, field, value };
      }
      const projectId = optString(entry, "project_id");
      const metricId = optString(entry, "metric_id");
      if (code === "METRIC_NOT_AVAILABLE" && projectId !== undefined && metricId !== undefined) {
        return { code, projectId, metricId };
      }
    }
    return { code: "UNRECOGNISED", entry };
  });
}
