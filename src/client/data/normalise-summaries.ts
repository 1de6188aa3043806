/**
 * The summaries (§1 rule 4: a project's aggregations, the statement, aggregations across projects, the
 * breakdown) and the open shapes (v1) → normalised rows. Apart from the daily series (normalise-series.ts):
 * the client loads these with the first such request (operations.ts), and most sessions make none.
 */
import { optional } from "./normalise-catalogue";
import { rowDate } from "./normalise-series";
import {
  asArray,
  firstString,
  isObject,
  mapObjects,
  optString,
  reqString,
  ShapeError,
} from "./read";
import type {
  FinancialStatementRow,
  MetricAggregationRow,
  MetricsBreakdownRow,
  OpenRow,
  ProjectMetricAggregation,
} from "./types";
import { toIsoDate, toMetricValue, unreadableText } from "./values";
import type { JsonValue } from "./wire";

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
