/** The JSON shapes the simulator sends: envelopes, error entries and metric values. */

export type WireValue = number | string | null;

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
