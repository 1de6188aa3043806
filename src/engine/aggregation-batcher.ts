/**
 * AGGREGATION cells of one recalculation in as few requests as AGGREGATIONS would use: the (project, metric)
 * pairs asked within one window go out as one metric-aggregations request (§4.12) for their projects and
 * metrics (the client splits a long project list), instead of one project-aggregations request (§4.4) per
 * project. Each pair gets its own rows back; the engine caches them per pair. §4.12's row shape is not shown
 * by the interface: an answer that cannot be read is asked of §4.4 per project (aggregation-fallback.ts).
 *
 * Every call settles: the request's failure rejects every caller, and a pair the answer leaves out resolves
 * with no rows (the cell says there are none). The engine's deadline bounds each call.
 */
import type { MetricAggregationRow, MetricsClient, PartialError, Timers } from "../client";
import { perProjectAggregations, readable } from "./aggregation-fallback";

/** What a pair's cell reads: the service's rows for it, or why there are none. */
export interface PairAggregations {
  rows: MetricAggregationRow[];
  /** The service said the project or metric is unknown, or the metric is not available for the project. */
  issue?: string;
}

type AggregationClient = Pick<
  MetricsClient,
  "getMetricAggregations" | "getProjectMetricAggregations"
>;

interface Waiting {
  projectId: string;
  metricId: string;
  resolve(value: PairAggregations): void;
  reject(error: unknown): void;
}

const pairKey = (projectId: string, metricId: string): string =>
  `${projectId.length}:${projectId}${metricId}`;

function issueOf(errors: readonly PartialError[], projectId: string, metricId: string) {
  for (const e of errors) {
    if (e.code === "NOT_FOUND" && e.field === "project_ids" && e.value === projectId)
      return `the service does not know project "${projectId}"`;
    if (e.code === "NOT_FOUND" && e.field === "metric_ids" && e.value === metricId)
      return `the service does not know metric "${metricId}"`;
    if (e.code === "METRIC_NOT_AVAILABLE" && e.projectId === projectId && e.metricId === metricId)
      return `metric "${metricId}" is not available for project "${projectId}"`;
  }
  return undefined;
}

/**
 * The batch's rows: §4.12's answer when it can be read, else §4.4 per project (aggregation-fallback.ts), the
 * shape of §4.12 being one the interface does not show.
 */
async function readAggregations(
  client: AggregationClient,
  projectIds: string[],
  metricIds: string[]
): Promise<{
  rows: MetricAggregationRow[];
  errors: readonly PartialError[];
  unknown: Set<string>;
}> {
  const res = await client.getMetricAggregations({ projectIds, metricIds });
  if (readable(res.data)) return { rows: res.data, errors: res.errors, unknown: new Set() };
  const fallback = await perProjectAggregations(client, projectIds, metricIds);
  return { rows: fallback.rows, errors: res.errors, unknown: fallback.unknown };
}

export class AggregationBatcher {
  private pending: Waiting[] = [];
  private timer: unknown = undefined;

  constructor(
    private readonly client: AggregationClient,
    private readonly timers: Timers,
    private readonly windowMs: number
  ) {}

  /** Calls queued for the next request (zero once the workbook has settled). */
  get waiting(): number {
    return this.pending.length;
  }

  get(projectId: string, metricId: string): Promise<PairAggregations> {
    return new Promise<PairAggregations>((resolve, reject) => {
      this.pending.push({ projectId, metricId, resolve, reject });
      this.timer ??= this.timers.setTimeout(() => this.flush(), this.windowMs);
    });
  }

  /** Sends what the window holds now (the timer calls this). */
  flush(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    const projectIds = [...new Set(batch.map((w) => w.projectId))];
    const metricIds = [...new Set(batch.map((w) => w.metricId))];
    readAggregations(this.client, projectIds, metricIds).then(
      ({ rows, errors, unknown }) => {
        const byPair = new Map<string, MetricAggregationRow[]>();
        for (const row of rows) {
          if (row.projectId === undefined || row.metricId === undefined) continue;
          const key = pairKey(row.projectId, row.metricId);
          const list = byPair.get(key);
          if (list) list.push(row);
          else byPair.set(key, [row]);
        }
        for (const w of batch) {
          const issue = unknown.has(w.projectId)
            ? `the service does not know project "${w.projectId}"`
            : issueOf(errors, w.projectId, w.metricId);
          w.resolve({
            rows: byPair.get(pairKey(w.projectId, w.metricId)) ?? [],
            ...(issue ? { issue } : {}),
          });
        }
      },
      (error: unknown) => {
        for (const w of batch) w.reject(error);
      }
    );
  }
}
