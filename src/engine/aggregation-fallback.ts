/**
 * When the answer of §4.12 (aggregations across projects) is not in a shape the client reads: the interface
 * does not show that shape, while §4.4 (one project's aggregations) has a documented one (§2.6). So the same
 * figures are asked of §4.4, one request per project, and served in §2.6's form. The answer is then the same
 * whichever shape §4.12 takes; only the number of requests differs.
 */
import {
  CryptometricsError,
  isCryptometricsError,
  isReadableAggregation,
  type MetricAggregationRow,
  type MetricsClient,
} from "../client";

type ProjectAggregationsClient = Pick<MetricsClient, "getProjectMetricAggregations">;

/**
 * Most projects asked of §4.4 one by one in place of one §4.12 answer. 100 requests is most of two minutes
 * of the service's 60 a minute: beyond it, the cell asks for fewer projects rather than take the budget.
 */
const MAX_FALLBACK_PROJECTS = 100;

/** Whether §4.12's rows can be read: every one says its project, metric and aggregation. */
export function readable(rows: readonly MetricAggregationRow[]): boolean {
  return rows.every(isReadableAggregation);
}

interface FallbackAnswer {
  rows: MetricAggregationRow[];
  /** Projects the service does not know (§4.4 answered 404). */
  unknown: Set<string>;
}

/** §4.4 for each project, its rows kept for `metricIds` ("all": every metric), in §2.6's form. */
export async function perProjectAggregations(
  client: ProjectAggregationsClient,
  projectIds: readonly string[],
  metricIds: readonly string[] | "all",
  signal?: AbortSignal
): Promise<FallbackAnswer> {
  if (projectIds.length > MAX_FALLBACK_PROJECTS)
    throw new CryptometricsError(
      "invalid-input",
      `the service's aggregations across projects could not be read, and asking each of ${projectIds.length} projects on its own would take more than ${MAX_FALLBACK_PROJECTS} requests; ask for at most ${MAX_FALLBACK_PROJECTS} projects`,
      { operation: "getProjectMetricAggregations" }
    );
  const unknown = new Set<string>();
  const wanted = metricIds === "all" ? undefined : new Set(metricIds);
  const answers = await Promise.all(
    projectIds.map(async (projectId) => {
      try {
        return (await client.getProjectMetricAggregations(projectId, { signal })).data;
      } catch (error) {
        if (isCryptometricsError(error) && error.kind === "not-found") {
          unknown.add(projectId);
          return [];
        }
        throw error;
      }
    })
  );
  const rows: MetricAggregationRow[] = [];
  for (const list of answers)
    for (const r of list) {
      if (wanted && !wanted.has(r.metricId)) continue;
      rows.push({
        projectId: r.projectId,
        projectName: r.projectName,
        metricId: r.metricId,
        aggregation: r.aggregation,
        value: r.value,
        fields: {
          project_name: r.projectName,
          project_id: r.projectId,
          metric_id: r.metricId,
          metric_aggregation_name: r.aggregation,
          value: r.value,
        },
      });
    }
  return { rows, unknown };
}
