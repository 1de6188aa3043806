/** The JSON shapes the simulator sends: envelopes, error entries, metric values and timestamps. */
import type { Readings } from "../readings";
import { dayToDate, dayToIso, daysFromCivil } from "../util/days";

/** A value on the wire; a boolean only where the service sends a day unreadable (dataset UNREADABLE_VALUES). */
export type WireValue = number | string | boolean | null;

export type ErrorEntry =
  | { code: "NOT_FOUND"; field: string; value: string }
  | { code: "METRIC_NOT_AVAILABLE"; project_id: string; metric_id: string };

export interface Envelope {
  data: unknown;
  errors?: ErrorEntry[];
}

/** `{data}`, plus `errors` only when something was invalid (the interface: absent otherwise). */
export function envelope(data: unknown, errors: readonly ErrorEntry[] = []): Envelope {
  return errors.length > 0 ? { data, errors: [...errors] } : { data };
}

export function notFoundEntry(field: string, value: string): ErrorEntry {
  return { code: "NOT_FOUND", field, value };
}

export function unavailableEntry(projectId: string, metricId: string): ErrorEntry {
  return { code: "METRIC_NOT_AVAILABLE", project_id: projectId, metric_id: metricId };
}

/**
 * A metric value as the service sends it: JSON number by default, a numeric string for the project/metric
 * pairs that the real service happens to send that way, null for no value (NaN inside the simulator).
 */
export function wireValue(value: number, asString: boolean): WireValue {
  if (Number.isNaN(value) || !Number.isFinite(value)) return null;
  return asString ? String(value) : value;
}

export function nullableNumber(value: number | null, asString = false): WireValue {
  return value === null ? null : wireValue(value, asString);
}

/**
 * A day as the timestamps reading writes it (§2.4 "date of the data point", format not shown): local
 * midnight east of UTC (the UTC instant is the day before), UTC midnight, or the date alone.
 */
export function wireDay(day: number, readings: Readings): string {
  switch (readings.timestamps) {
    case "utc":
      return dayToIso(day);
    case "date":
      return dayToDate(day);
    case "offset":
      return `${dayToDate(day)}T00:00:00+02:00`;
  }
}

/** Whether a project/metric pair's values go as numeric strings: the values reading, else the dataset's. */
export function valuesAsText(
  readings: Readings,
  dataset: { valuesAsStrings(projectId: string, metricId: string): boolean },
  projectId: string,
  metricId: string
): boolean {
  if (readings.values === "strings") return true;
  if (readings.values === "numbers") return false;
  return dataset.valuesAsStrings(projectId, metricId);
}

/** The day a row dated "after the service's latest possible day" carries (futureRows reading "far"). */
export const FAR_FUTURE_DAY = daysFromCivil(2099, 12, 31);
