/**
 * One process, one simulator on loopback, one shared runtime (the add-in's engine and client) and one
 * naive client on the same rate limiter. `measure` runs one evaluation and reports what the simulator saw:
 * every HTTP request that reached it, retries included.
 */
import { performance } from "node:perf_hooks";
import {
  createClient,
  createSleep,
  scaledRetryPolicy,
  type MetricsClient,
  type RetryPolicy,
} from "../../client";
import { configureRuntime, type Runtime } from "../../runtime/runtime";
import { DEMO_API_KEY, startSimulator, type RunningSimulator } from "../../simulator";
import { REAL_LIMIT_PER_MINUTE, ThrottleMeter } from "./projection";

interface BenchEnvironmentOptions {
  /**
   * How much faster than the real 60 requests per minute the limit runs (100: 60 per 600 ms), in the client's
   * limiter and in the simulator alike. null: no rate limit anywhere (the tests, which count requests only).
   */
  scale: number | null;
  /** Simulator latency per request: fixed, or a uniform range. */
  latencyMs: number | [number, number];
  now: () => number;
  /** The engine's recalculation window; default the engine's own (50 ms). */
  engineWindowMs?: number;
  /** Ids per request (client chunk size); default the client's own (50). */
  maxIdsPerRequest?: number;
  /** Make the simulator check exactly the client's window (see simulatorWindow). */
  strictWindow?: boolean;
  /** The simulator's universe (its --projects); default its 46 demo projects. */
  projects?: number;
}

export interface Measurement {
  /** GET requests the simulator received, retries included. */
  requests: number;
  /** Of which catalogue lists (/v2/projects, /v2/metrics). */
  catalogueRequests: number;
  dataRequests: number;
  /** Answered 429 by the simulator. */
  rateLimited: number;
  /** Retries the clients made (429s, 5xx, time-outs). */
  retries: number;
  wallMs: number;
  /** Time during which a call waited on the limiter or a backoff (see projection.ts). */
  throttledMs: number;
  /** Request paths in arrival order (query left out). */
  paths: string[];
}

export interface BenchEnvironment {
  readonly runtime: Runtime;
  /** The bench's clock (real time from the fixed starting instant). */
  readonly now: () => number;
  /** The client's retry policy, scaled like the limiter's window. */
  readonly retry: Partial<RetryPolicy>;
  readonly naiveClient: MetricsClient;
  readonly simulator: RunningSimulator;
  readonly scale: number | null;
  /** Length of the (scaled) rate-limit window in ms; 0 without a limit. */
  readonly windowMs: number;
  measure<T>(run: () => Promise<T>): Promise<{ result: T; measurement: Measurement }>;
  /** Waits until no earlier request can count against the next run's rate-limit window. */
  quiet(): Promise<void>;
  /** Forgets every cached answer; with `catalogue`, loads the project and metric lists again (unmeasured). */
  coldEngine(options: { catalogue: boolean }): Promise<void>;
  close(): Promise<void>;
}

const CATALOGUE_PATHS = new Set(["/v2/projects", "/v2/metrics"]);

/**
 * Deadlines far beyond any run: the naive hot path queues 10,000 calls behind the limiter (100 s at the
 * default scale), and a call cut by the default 2-minute deadline would leave the comparison, not count.
 */
const CLIENT_DEADLINE_MS = 15 * 60_000;
const ENGINE_DEADLINE_MS = 16 * 60_000;

/**
 * The window the simulator checks. The client's limiter sets the pace (60 starts per window); the simulator
 * only guards it. A request reaches the simulator's check after the client's scheduling, the socket and the
 * simulator's drawn latency: delays of tens of ms, more on a loaded machine, which are a large share of a
 * 600 ms window and nothing in the real 60 s one. Two requests the client started exactly one window apart
 * can therefore be checked less than a window apart. Half the window lets a client that keeps its limit pass
 * and still catches one sending twice its limit; `strict` checks the client's own window (a strict sliding
 * log at the service, whatever the scale: see the bench's report for the 429s that gives).
 */
export function simulatorWindow(windowMs: number, strict = false): number {
  return strict ? windowMs : windowMs / 2;
}

export async function startBenchEnvironment(
  options: BenchEnvironmentOptions
): Promise<BenchEnvironment> {
  const { scale } = options;
  const windowMs = scale === null ? 0 : 60_000 / scale;
  const simulator = await startSimulator({
    port: 0,
    now: options.now,
    latencyMs: options.latencyMs,
    projects: options.projects,
    // The real service documents no Retry-After; its absence makes the client back off on its own.
    rateLimit:
      scale === null
        ? null
        : {
            limit: REAL_LIMIT_PER_MINUTE,
            windowMs: simulatorWindow(windowMs, options.strictWindow),
            retryAfter: false,
          },
  });
  const meter = new ThrottleMeter(createSleep(), () => performance.now());
  const retry = scaledRetryPolicy(scale ?? 1_000);
  const runtime = configureRuntime({
    baseUrl: simulator.url,
    apiKey: DEMO_API_KEY,
    now: options.now,
    sleep: meter.sleep,
    client: {
      retry,
      deadlineMs: CLIENT_DEADLINE_MS,
      ...(options.maxIdsPerRequest ? { maxIdsPerRequest: options.maxIdsPerRequest } : {}),
    },
    engine: {
      deadlineMs: ENGINE_DEADLINE_MS,
      ...(options.engineWindowMs !== undefined ? { windowMs: options.engineWindowMs } : {}),
    },
  });
  // The runtime builds its limiter for a one-minute window; the bench runs that window `scale` times faster.
  // Without a limit (tests, fixed clock), a limit no sheet reaches.
  runtime.client.limiter.configure(
    scale === null ? { limit: 1_000_000, windowMs: 60_000 } : { limit: 60, windowMs }
  );
  const naiveClient = createClient({
    baseUrl: simulator.url,
    apiKey: DEMO_API_KEY,
    now: options.now,
    sleep: meter.sleep,
    limiter: runtime.client.limiter,
    retry,
    deadlineMs: CLIENT_DEADLINE_MS,
    ...(options.maxIdsPerRequest ? { maxIdsPerRequest: options.maxIdsPerRequest } : {}),
  });
  let retries = 0;
  const countRetry = (): void => {
    retries++;
  };
  const unsubscribe = [runtime.client.on("retry", countRetry), naiveClient.on("retry", countRetry)];

  const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

  return {
    runtime,
    now: options.now,
    retry,
    naiveClient,
    simulator,
    scale,
    windowMs,
    async measure<T>(run: () => Promise<T>) {
      simulator.clearLog();
      meter.reset();
      retries = 0;
      const started = performance.now();
      const result = await run();
      const wallMs = performance.now() - started;
      const gets = simulator.requestLog.filter((r) => r.method === "GET");
      const paths = gets.map((r) => r.path);
      const catalogueRequests = paths.filter((p) => CATALOGUE_PATHS.has(p)).length;
      return {
        result,
        measurement: {
          requests: gets.length,
          catalogueRequests,
          dataRequests: gets.length - catalogueRequests,
          rateLimited: gets.filter((r) => r.status === 429).length,
          retries,
          wallMs,
          throttledMs: meter.throttledMs(),
          paths,
        },
      };
    },
    async quiet() {
      // One window plus the simulator's longest latency: every earlier start has left both windows.
      const latency = Array.isArray(options.latencyMs) ? options.latencyMs[1] : options.latencyMs;
      if (windowMs > 0) await pause(windowMs + latency + 50);
    },
    async coldEngine({ catalogue }) {
      runtime.engine.clear();
      if (catalogue) await Promise.all([runtime.engine.projects(), runtime.engine.metrics()]);
    },
    async close() {
      for (const stop of unsubscribe) stop();
      runtime.dispose();
      await simulator.close();
    },
  };
}
