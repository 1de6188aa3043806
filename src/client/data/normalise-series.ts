/**
 * Time series, aggregations, statements and the open shapes → normalised rows; `errors` entries →
 * PartialError. Row order is decided in ./merge (sorting as requested); here one response at a time.
 */
import { optional } from "./normalise-catalogue";
import {
  asArray,
  describe,
  firstString,
  isObject,
  mapObjects,
  optString,
  reqString,
  ShapeError,
} from "./read";
import type {
  FinancialStatementRow,
  IsoDate,
  MetricAggregationRow,
  MetricsBreakdownRow,
  MetricValue,
  MultiProjectMetricRow,
  OpenRow,
  PartialError,
  ProductMetricRow,
  ProjectMetricAggregation,
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

function rowDate(item: JsonObject, path: string, keys = ["timestamp", "date"]): IsoDate {
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

export function normaliseProjectAggregations(
  data: JsonValue,
  projectId: string
): ProjectMetricAggregation[] {
  return mapObjects(data, "data", (item, path) => {
    const id = optString(item, "project_id") ?? projectId;
    return {
      projectId: id,
      projectName: optString(item, "project_name") ?? id,
      metricId: reqString(item, "metric_id", path),
      aggregation:
        firstString(item, ["metric_aggregation_name", "aggregation"]) ??
        reqString(item, "metric_aggregation_name", path),
      value: toMetricValue(item.value),
    };
  });
}

export function normaliseStatementRows(data: JsonValue): FinancialStatementRow[] {
  return mapObjects(data, "data", (item, path) => ({
    date: rowDate(item, path),
    heading: optString(item, "timestamp_label_heading") ?? "",
    subheading: optString(item, "timestamp_label_subheading") ?? "",
    granularity: optString(item, "timestamp_granularity") ?? "",
    projectName: optString(item, "project_name") ?? "",
    section: optString(item, "section") ?? "",
    metricId: reqString(item, "metric_id", path),
    value: toMetricValue(item.value),
    popChange: toMetricValue(item.pop_change),
    definition: optString(item, "definition") ?? "",
    ...optional("unreadable", unreadableText(item.value)),
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
 * Rows of an open shape. `data` may be an array of objects or a single object (read as one row);
 * anything else is malformed. Recognised members are lifted; `fields` keeps the row as received.
 */
export function normaliseOpenRows(data: JsonValue): OpenRow[] {
  const items = isObject(data) ? [data] : asArray(data, "data");
  return items.map((item, i) => {
    if (!isObject(item)) throw new ShapeError(`data[${i}]`, "expected an object");
    // v1 rows carry `datetime` and `project` where v2 has `timestamp` and `project_name`.
    const dateText = firstString(item, ["timestamp", "date", "datetime"]);
    const date = dateText === undefined ? undefined : toIsoDate(dateText);
    return {
      ...optional("projectId", firstString(item, ["project_id", "id"])),
      ...optional("projectName", firstString(item, ["project_name", "name", "project"])),
      ...optional("metricId", optString(item, "metric_id")),
      ...optional("date", date),
      ...(item.value === undefined ? {} : { value: toMetricValue(item.value) }),
      fields: item,
    };
  });
}

/** Names §2.6 and its variants give the aggregation's name member. */
const AGGREGATION_NAME_KEYS = ["metric_aggregation_name", "aggregation", "aggregation_name"];
/** Members of an aggregation row that name what it is about, not an aggregate. */
const AGGREGATION_ROW_KEYS = new Set([
  "project_id",
  "project_name",
  "metric_id",
  "metric_name",
  "timestamp",
  "date",
  ...AGGREGATION_NAME_KEYS,
]);

/**
 * §4.12's rows, whose shape the interface does not show, in the shapes a service may send: the rows of
 * §2.6 (one per aggregation), or wide rows (one per project and metric, one member per aggregation name),
 * each read into §2.6's form. Rows of any other shape are kept as open rows without `aggregation`: a caller
 * then knows the answer is not one it can read (isReadableAggregation) and may ask §4.4 instead.
 */
export function normaliseMetricAggregationRows(data: JsonValue): MetricAggregationRow[] {
  const out: MetricAggregationRow[] = [];
  for (const row of normaliseOpenRows(data)) {
    const name = firstString(row.fields, AGGREGATION_NAME_KEYS);
    if (name !== undefined || row.projectId === undefined || row.metricId === undefined) {
      out.push({ ...row, ...optional("aggregation", name) });
      continue;
    }
    const aggregates = Object.entries(row.fields).filter(([key]) => !AGGREGATION_ROW_KEYS.has(key));
    if (aggregates.length === 0 || row.value !== undefined) {
      out.push(row);
      continue;
    }
    for (const [aggregation, value] of aggregates) {
      out.push({
        projectId: row.projectId,
        ...optional("projectName", row.projectName),
        metricId: row.metricId,
        aggregation,
        value: toMetricValue(value),
        fields: {
          ...(row.projectName === undefined ? {} : { project_name: row.projectName }),
          project_id: row.projectId,
          metric_id: row.metricId,
          metric_aggregation_name: aggregation,
          value,
        },
      });
    }
  }
  return out;
}

/** A row of §4.12 read into §2.6's form: it says which project, metric and aggregation it holds. */
export function isReadableAggregation(row: MetricAggregationRow): boolean {
  return (
    row.projectId !== undefined &&
    row.metricId !== undefined &&
    row.aggregation !== undefined &&
    row.value !== undefined
  );
}

export function normaliseBreakdownRows(data: JsonValue): MetricsBreakdownRow[] {
  return normaliseOpenRows(data).map((row) => {
    const start = firstString(row.fields, ["start_date", "start"]);
    const end = firstString(row.fields, ["end_date", "end"]);
    return {
      ...row,
      ...(row.fields.share === undefined ? {} : { share: toMetricValue(row.fields.share) }),
      ...optional("startDate", start === undefined ? undefined : toIsoDate(start)),
      ...optional("endDate", end === undefined ? undefined : toIsoDate(end)),
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
