/**
 * Putting results back together: merging the responses of a split request (data AND errors), and
 * sorting rows as the caller asked even when the server did not.
 */
import type {
  FinancialStatementRow,
  MultiProjectMetricRow,
  OrderDirection,
  PartialError,
  ProductMetricRow,
  ProjectMetricRow,
} from "./types";
import { wideRowKey } from "./distinct";
import { openText } from "./open-text";
import { compareDates, compareText } from "./values";

/** All entries of all lists, each distinct entry once (split requests repeat e.g. unknown chains). */
export function mergePartialErrors(lists: readonly (readonly PartialError[])[]): PartialError[] {
  const seen = new Set<string>();
  const out: PartialError[] = [];
  for (const entry of lists.flat()) {
    // Bounded rendering: an unrecognised entry may be nested thousands of levels deep.
    const key = openText(entry, { maxDepth: 64, maxLength: 100_000 });
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(entry);
  }
  return out;
}

/**
 * Wide rows from requests split by metric ids: rows for the same date and breakdown are one row
 * whose values are the union of the parts (each part already free of repeats: distinct.ts).
 */
export function mergeWideRows(parts: readonly (readonly ProjectMetricRow[])[]): ProjectMetricRow[] {
  if (parts.length === 1) return [...parts[0]];
  const byKey = new Map<string, ProjectMetricRow>();
  for (const row of parts.flat()) {
    const key = wideRowKey(row);
    const existing = byKey.get(key);
    byKey.set(key, existing ? { ...existing, values: { ...existing.values, ...row.values } } : row);
  }
  return [...byKey.values()];
}

/**
 * Every requested metric present in every row (null where a row lacks it), except metrics the
 * service reported as unknown: a wide table then has stable columns.
 */
export function fillRequestedMetrics(
  rows: readonly ProjectMetricRow[],
  requested: readonly string[] | undefined,
  errors: readonly PartialError[]
): ProjectMetricRow[] {
  if (!requested || requested.length === 0) return [...rows];
  const unknown = new Set(
    errors.flatMap((e) => (e.code === "NOT_FOUND" && e.field === "metric_ids" ? [e.value] : []))
  );
  const columns = requested.filter((m) => !unknown.has(m));
  return rows.map((row) => {
    if (columns.every((m) => m in row.values)) return row;
    const values = { ...row.values };
    for (const m of columns) if (!(m in values)) values[m] = null;
    return { ...row, values };
  });
}

function orderIndex(order: readonly string[] | undefined): (id: string) => number {
  const index = new Map((order ?? []).map((id, i) => [id, i]));
  return (id) => index.get(id) ?? Number.MAX_SAFE_INTEGER;
}

export function sortProjectMetricRows(
  rows: ProjectMetricRow[],
  direction: OrderDirection
): ProjectMetricRow[] {
  return rows.sort(
    (a, b) =>
      compareDates(a.date, b.date, direction) ||
      compareText(a.chain, b.chain) ||
      compareText(a.productId, b.productId) ||
      compareText(a.businessLine, b.businessLine) ||
      compareText(a.version, b.version)
  );
}

/** By date, then in the order the caller listed the projects, then by project id. */
export function sortMultiProjectRows(
  rows: MultiProjectMetricRow[],
  direction: OrderDirection,
  projectOrder: readonly string[] | undefined
): MultiProjectMetricRow[] {
  const at = orderIndex(projectOrder);
  return rows.sort(
    (a, b) =>
      compareDates(a.date, b.date, direction) ||
      at(a.projectId) - at(b.projectId) ||
      compareText(a.projectId, b.projectId)
  );
}

/** By date, then in the order the caller listed the metrics, then by chain. */
export function sortProductMetricRows(
  rows: ProductMetricRow[],
  direction: OrderDirection,
  metricOrder: readonly string[] | undefined
): ProductMetricRow[] {
  const at = orderIndex(metricOrder);
  return rows.sort(
    (a, b) =>
      compareDates(a.date, b.date, direction) ||
      at(a.metricId) - at(b.metricId) ||
      compareText(a.metricId, b.metricId) ||
      compareText(a.chainId, b.chainId)
  );
}

/**
 * Oldest period first, the service's order within a period kept (sections and metrics in statement
 * order): a statement reads left to right like a filing.
 */
export function sortStatementRows(rows: FinancialStatementRow[]): FinancialStatementRow[] {
  return rows.sort((a, b) => compareDates(a.date, b.date, "asc"));
}
