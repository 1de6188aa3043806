/**
 * "Not available" versus "no data in this range", whichever operation served a series.
 *
 * The metric-by-id operation (§4.11) reports a metric a project lacks as METRIC_NOT_AVAILABLE; project and
 * product metrics (§4.3, §4.7) report only NOT_FOUND: there, an unavailable metric simply has no values. So a
 * series those two serve with no value at all is checked against the availability the service publishes in
 * the project or product detail (§4.2, §4.6 `metric_availability`): unavailable there, it gets the same issue,
 * with the same message, as §4.11 would have given, and the cell does not depend on the batching plan.
 * A detail that does not list the metric says nothing: the series is then "no data", as the service sent it.
 */
import type { SeriesIssue } from "./series-store";
import type { DayPoint } from "./figures/series-ops";

/** The published availability of a metric: true, false, or undefined when the detail does not say. */
export type AvailabilityLookup = (
  projectId: string,
  productId: string | undefined,
  metricId: string
) => Promise<boolean | undefined>;

/** The issue of a metric a project (or product) lacks; the same text whichever operation told. */
export function notAvailableIssue(
  projectId: string,
  metricId: string,
  productId?: string
): SeriesIssue {
  return {
    code: "metric-not-available",
    message: productId
      ? `metric "${metricId}" is not available for product "${productId}" of project "${projectId}"`
      : `metric "${metricId}" is not available for project "${projectId}"`,
  };
}

/** True when some point of some dimension has a value. */
export function hasAnyValue(dims: ReadonlyMap<string, readonly DayPoint[]>): boolean {
  for (const points of dims.values()) for (const p of points) if (p.value !== null) return true;
  return false;
}
