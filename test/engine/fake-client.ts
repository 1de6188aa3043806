/**
 * A stand-in for the service client in engine unit tests: answers series operations from a tiny formula
 * dataset, records every call, and can be told to fail or hang. (Integration tests use the real client
 * against the simulator over HTTP.)
 */
import type {
  ClientResult,
  MetricParams,
  MultiProjectMetricRow,
  PartialError,
  ProductMetricRow,
  ProductMetricsParams,
  ProjectMetricRow,
  ProjectMetricsParams,
  CallOptions,
} from "../../src/client";
import { dayNumber, formatDay } from "../../src/client/data/days";
import type { SeriesClient } from "../../src/engine/series-fetch";
import { abortReason } from "../../src/client/http/abort";

interface FakeCall {
  op: "getMetric" | "getProjectMetrics" | "getProductMetrics";
  id: string;
  members: readonly string[];
  start?: string;
  end?: string;
}

const FIRST_DAY = dayNumber("2024-01-01");
const LAST_DAY = dayNumber("2026-11-20");

export function fakeValue(projectId: string, metricId: string, day: number): number {
  let h = 0;
  for (const c of `${projectId}/${metricId}`) h = (h * 31 + c.charCodeAt(0)) % 1000;
  return h * 1000 + (day - FIRST_DAY);
}

export class FakeClient implements SeriesClient {
  readonly calls: FakeCall[] = [];
  projects = new Set(["aave", "uniswap", "lido-finance", "gmx", "curve"]);
  metrics = new Set(["fees", "revenue", "tvl", "user_dau"]);
  notAvailable = new Set(["gmx/tvl"]);
  /** Set to make every call reject with it. */
  failure: Error | undefined;
  /** Set to make every call hang until aborted. */
  hang = false;

  private days(start?: string, end?: string): number[] {
    const a = Math.max(FIRST_DAY, start ? dayNumber(start) : FIRST_DAY);
    const b = Math.min(LAST_DAY, end ? dayNumber(end) : LAST_DAY);
    const out: number[] = [];
    for (let d = a; d <= b; d++) out.push(d);
    return out;
  }

  private async answer<T>(
    call: FakeCall,
    signal: AbortSignal | undefined,
    make: () => ClientResult<T>
  ): Promise<ClientResult<T>> {
    this.calls.push(call);
    await Promise.resolve();
    if (this.hang) {
      return new Promise((_r, reject) =>
        signal?.addEventListener("abort", () => reject(abortReason(signal)))
      );
    }
    if (this.failure) throw this.failure;
    return make();
  }

  getMetric(
    metricId: string,
    params: MetricParams = {},
    options: CallOptions = {}
  ): Promise<ClientResult<MultiProjectMetricRow[]>> {
    const projectIds =
      params.projectIds === "all" || !params.projectIds ? [...this.projects] : params.projectIds;
    return this.answer(
      { op: "getMetric", id: metricId, members: projectIds, start: params.start, end: params.end },
      options.signal,
      () => {
        const errors: PartialError[] = [];
        const data: MultiProjectMetricRow[] = [];
        if (!this.metrics.has(metricId))
          errors.push({ code: "NOT_FOUND", field: "metric_ids", value: metricId });
        for (const p of projectIds) {
          if (!this.projects.has(p))
            errors.push({ code: "NOT_FOUND", field: "project_ids", value: p });
          else if (this.notAvailable.has(`${p}/${metricId}`))
            errors.push({ code: "METRIC_NOT_AVAILABLE", projectId: p, metricId });
          else if (this.metrics.has(metricId))
            for (const d of this.days(params.start, params.end))
              data.push({
                date: formatDay(d),
                projectId: p,
                projectName: p,
                metricId,
                value: fakeValue(p, metricId, d),
              });
        }
        return { data, errors, meta: { requests: 1, simulated: true, redirects: [] } };
      }
    );
  }

  getProjectMetrics(
    projectId: string,
    params: ProjectMetricsParams = {},
    options: CallOptions = {}
  ): Promise<ClientResult<ProjectMetricRow[]>> {
    const metricIds = params.metricIds ?? [...this.metrics];
    return this.answer(
      {
        op: "getProjectMetrics",
        id: projectId,
        members: metricIds,
        start: params.start,
        end: params.end,
      },
      options.signal,
      () => {
        const errors: PartialError[] = metricIds
          .filter((m) => !this.metrics.has(m))
          .map((m) => ({ code: "NOT_FOUND", field: "metric_ids", value: m }) as const);
        const known = metricIds.filter(
          (m) => this.metrics.has(m) && !this.notAvailable.has(`${projectId}/${m}`)
        );
        const chains = params.aggregateBy === "chain" ? ["ethereum", "arbitrum"] : [undefined];
        const data: ProjectMetricRow[] = [];
        for (const d of this.days(params.start, params.end))
          for (const chain of chains)
            data.push({
              date: formatDay(d),
              projectId,
              projectName: projectId,
              ...(chain ? { chain } : {}),
              values: Object.fromEntries(
                known.map((m) => [m, fakeValue(projectId, m, d) + (chain === "arbitrum" ? 1 : 0)])
              ),
            });
        return { data, errors, meta: { requests: 1, simulated: true, redirects: [] } };
      }
    );
  }

  getProductMetrics(
    projectId: string,
    productId: string,
    params: ProductMetricsParams = {},
    options: CallOptions = {}
  ): Promise<ClientResult<ProductMetricRow[]>> {
    const metricIds = params.metricIds ?? [...this.metrics];
    return this.answer(
      {
        op: "getProductMetrics",
        id: `${projectId}/${productId}`,
        members: metricIds,
        start: params.start,
        end: params.end,
      },
      options.signal,
      () => {
        const data: ProductMetricRow[] = [];
        for (const m of metricIds)
          for (const d of this.days(params.start, params.end))
            data.push({
              date: formatDay(d),
              metricId: m,
              value: fakeValue(`${projectId}/${productId}`, m, d),
            });
        return { data, errors: [], meta: { requests: 1, simulated: true, redirects: [] } };
      }
    );
  }
}
