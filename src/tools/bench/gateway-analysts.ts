/**
 * Analysts for the team-gateway runs: each one an add-in's client and engine (its own cache, batching window,
 * planner and 60-per-minute limiter, as in one Excel instance), pointed at a gateway with a team token or at the
 * service directly. A model's VALUE cells are evaluated through the engine as the custom function asks them (the
 * catalogue to resolve names, then one day of one series per cell, all cells of a recalculation at once), so
 * many analysts can run side by side in one process; each cell's outcome is its value, or the reason it has none.
 */
import {
  RateLimiter,
  createClient,
  isCryptometricsError,
  type FetchLike,
  type MetricsClient,
  type RetryPolicy,
} from "../../client";
import { dayNumber } from "../../client";
import { messageOf } from "../../client";
import { Engine, DEFAULT_VARIANT } from "../../engine";
import type { CellOutcome } from "./outcomes";
import type { BenchCell } from "./workloads";

interface AnalystOptions {
  baseUrl: string;
  /** A team token (through a gateway) or the service key (direct). */
  apiKey: string;
  /** The rate limit's window (the service's minute, shorter against a faster simulator). */
  windowMs?: number;
  retry?: Partial<RetryPolicy>;
  /** The client's call deadline (default 2 minutes, the add-in's). */
  deadlineMs?: number;
  fetch?: FetchLike;
}

export interface Analyst {
  readonly client: MetricsClient;
  readonly engine: Engine;
  /** Requests this analyst's client sent (retries included). */
  requests(): number;
  dispose(): void;
}

export function createAnalyst(options: AnalystOptions): Analyst {
  let sent = 0;
  const client = createClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    limiter: new RateLimiter({ limit: 60, windowMs: options.windowMs ?? 60_000 }),
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.deadlineMs ? { deadlineMs: options.deadlineMs } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    listeners: [(event) => void (event.type === "request" && sent++)],
  });
  const engine = new Engine({
    client,
    timers: {
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
    },
    ...(options.deadlineMs ? { options: { deadlineMs: options.deadlineMs + 10_000 } } : {}),
  });
  return {
    client,
    engine,
    requests: () => sent,
    dispose: () => engine.clear(),
  };
}

type ValueCell = Extract<BenchCell, { fn: "VALUE" }>;

async function valueOf(engine: Engine, cell: ValueCell): Promise<CellOutcome> {
  try {
    const [project, metric] = await Promise.all([
      engine.resolveProject(cell.project),
      engine.resolveMetric(cell.metric),
    ]);
    const day = dayNumber(cell.date);
    const answer = await engine.series({
      projectId: project.projectId,
      metricId: metric.metricId,
      start: day,
      end: day,
      variant: DEFAULT_VARIANT,
    });
    if (answer.issue)
      return { kind: "error", code: answer.issue.code, message: answer.issue.message };
    const value = answer.dims.get("")?.find((p) => p.day === day)?.value;
    return typeof value === "number"
      ? { kind: "number", value }
      : {
          kind: "error",
          code: "no-value",
          message: `no ${cell.metric} of ${cell.project} on ${cell.date}`,
        };
  } catch (error) {
    return {
      kind: "error",
      code: isCryptometricsError(error) ? error.kind : "thrown",
      message: messageOf(error),
    };
  }
}

/** One recalculation of a model's VALUE cells: every cell at once, over when the last one settles. */
export function refreshModel(engine: Engine, cells: readonly BenchCell[]): Promise<CellOutcome[]> {
  return Promise.all(
    cells.map((cell) =>
      cell.fn === "VALUE"
        ? valueOf(engine, cell)
        : Promise.resolve<CellOutcome>({ kind: "error", code: "unsupported", message: cell.fn })
    )
  );
}

/** Cells whose outcomes differ (a value, or the reason there is none), with the first difference. */
export function differences(
  a: readonly CellOutcome[],
  b: readonly CellOutcome[]
): { count: number; first?: string } {
  if (a.length !== b.length)
    return { count: Math.max(a.length, b.length), first: "not the same model" };
  let count = 0;
  let first: string | undefined;
  a.forEach((x, i) => {
    const y = b[i];
    const same =
      x.kind === "number" && y.kind === "number"
        ? x.value === y.value
        : x.kind === "error" && y.kind === "error"
          ? x.code === y.code
          : false;
    if (same) return;
    count++;
    first ??= `cell ${i}: ${JSON.stringify(x)} against ${JSON.stringify(y)}`;
  });
  return first === undefined ? { count } : { count, first };
}
