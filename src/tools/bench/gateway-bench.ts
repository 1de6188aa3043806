/**
 * "Team gateway" (`npm run bench -- --only gateway`): 50 analysts, 10 on each of 5 gateway processes sharing one
 * Redis, refresh the 1,000-cell model at once against a simulator enforcing 60 requests per minute (the minute
 * `scale` times faster, in the simulator, the gateways and the analysts alike; the simulator checks the same
 * window exactly). Then 50 different models (the same sheet on 50 different days); then each again with one
 * gateway process killed mid-run, and with Redis stopped mid-run.
 *
 * Each analyst is an add-in's client and engine (gateway-analysts.ts) behind a proxy that prefers its process and
 * fails over to the others (a team's reverse proxy). Every cell is compared with a direct run of its model (one
 * analyst alone, straight to the simulator, before it enforces its limit); "one analyst alone" counts the
 * requests those direct runs needed. Deadlines and attempts are far beyond any run, so a cell's outcome is its
 * data, never a time-out of the bench's making.
 */
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { Redis } from "ioredis";
import { scaledRetryPolicy } from "../../client";
import { addDays } from "../../client";
import { startSimulator, type RunningSimulator } from "../../simulator";
import { createAnalyst, differences, refreshModel, type Analyst } from "./gateway-analysts";
import {
  gatewayFiles,
  startBalancer,
  startGatewayProcess,
  startRedis,
  type Balancer,
  type GatewayFiles,
  type GatewayProcess,
  type RedisServer,
} from "./gateway-processes";
import type { CellOutcome } from "./outcomes";
import { BENCH_TODAY, MODEL_DATE, MODEL_METRICS, modelSheet, type BenchCell } from "./workloads";

export type GatewayFault = "none" | "process killed" | "Redis stopped";

export interface GatewayRow {
  title: string;
  models: "same" | "different";
  fault: GatewayFault;
  /** Cells per analyst. */
  cells: number;
  /** GET requests the service received (retries included), and how many it answered 429. */
  upstream: number;
  rateLimited: number;
  /** What the same models cost run one analyst at a time, straight to the service. */
  alone: number;
  /** Requests the analysts sent to the gateways. */
  analystRequests: number;
  /** Cells whose outcome (value, or the reason there is none) equals the direct run's. */
  equalCells: number;
  totalCells: number;
  firstDifference?: string;
  /** From the refresh's start to the last cell of the last analyst. */
  lastCellMs: number;
  /**
   * Times a gateway process logged Redis as unreachable (it then serves from its own memory): the fault's, and
   * any other (a Redis command slower than the link's time-out under load), which costs the team its sharing.
   */
  redisOutages: number;
}

export interface GatewayBenchResult {
  analysts: number;
  processes: number;
  /** The service's minute runs this many times faster. */
  scale: number;
  windowMs: number;
  latencyMs: [number, number];
  rows: GatewayRow[];
  /** Why nothing ran (no redis-server here, for one). */
  skipped?: string;
}

interface GatewayBenchOptions {
  /** The built gateway: dist/node/gateway/main.js. */
  main: string;
  scale: number;
  latencyMs: [number, number];
  analysts?: number;
  processes?: number;
  progress?: (line: string) => void;
}

/** Far beyond any run: a cell's outcome is its data (see the module comment). */
const DEADLINE_MS = 15 * 60_000;

interface Setup {
  limited: RunningSimulator;
  redis: RedisServer;
  files: GatewayFiles;
  tokens: string[];
  options: GatewayBenchOptions & { analysts: number; processes: number };
  windowMs: number;
}

function gets(sim: RunningSimulator): number {
  return sim.requestLog.filter((r) => r.method === "GET").length;
}

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The direct run of each model (one analyst alone, no rate limit) and the requests it took. */
async function directRuns(
  truth: RunningSimulator,
  serviceKey: string,
  models: readonly BenchCell[][]
): Promise<{ outcomes: CellOutcome[][]; requests: number }> {
  const outcomes: CellOutcome[][] = [];
  let requests = 0;
  for (const model of models) {
    truth.clearLog();
    const alone = createAnalyst({
      baseUrl: truth.url,
      apiKey: serviceKey,
      deadlineMs: DEADLINE_MS,
    });
    outcomes.push(await refreshModel(alone.engine, model));
    requests += gets(truth);
    alone.dispose();
  }
  return { outcomes, requests };
}

async function runOnce(
  setup: Setup,
  title: string,
  models: readonly BenchCell[][],
  direct: { outcomes: CellOutcome[][]; requests: number },
  fault: GatewayFault
): Promise<GatewayRow> {
  const { limited, redis, files, tokens, options, windowMs } = setup;
  await redis.start();
  const flush = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await flush.connect();
  await flush.flushall();
  flush.disconnect();
  const env = { CRYPTOMETRICS_TIME_SCALE: String(options.scale), GATEWAY_LOG_LEVEL: "warn" };
  const processes: GatewayProcess[] = await Promise.all(
    Array.from({ length: options.processes }, () =>
      startGatewayProcess({
        main: options.main,
        serviceUrl: limited.url,
        files,
        redisUrl: redis.url,
        env,
      })
    )
  );
  // Each analyst's proxy prefers one process and fails over to the next ones.
  const balancers: Balancer[] = await Promise.all(
    processes.map((_, k) =>
      startBalancer(
        processes.map((_p, j) => processes[(k + j) % processes.length].url),
        "failover"
      )
    )
  );
  const analysts: Analyst[] = tokens.map((token, i) =>
    createAnalyst({
      baseUrl: balancers[i % balancers.length].url,
      apiKey: token,
      windowMs,
      // As many attempts as the deadline allows: a cell held behind the budget (503, try again) is retried until
      // its data comes, so the outcome measured is the data's, not the client's patience (6 attempts of at most
      // 30 s each: about 3 minutes, less than 50 different models need at the service's limit).
      retry: { ...scaledRetryPolicy(options.scale), maxAttempts: 1_000 },
      deadlineMs: DEADLINE_MS,
    })
  );
  try {
    // Nothing of the run before may count against this one's window at the service.
    await pause(windowMs + options.latencyMs[1] + 100);
    limited.clearLog();
    const started = performance.now();
    let last = started;
    const runs = analysts.map((a, i) =>
      refreshModel(a.engine, models[i % models.length]).then((outcomes) => {
        last = Math.max(last, performance.now());
        return outcomes;
      })
    );
    if (fault !== "none") {
      // Mid-run: once the service has seen a third of what the models need run one analyst at a time.
      const at = Math.max(3, Math.round(direct.requests / 3));
      while (gets(limited) < at) await pause(10);
      if (fault === "process killed") await processes[0].stop("SIGKILL");
      else await redis.stop("SIGKILL");
    }
    const results = await Promise.all(runs);
    const lastCellMs = last - started;
    let equalCells = 0;
    let totalCells = 0;
    let firstDifference: string | undefined;
    results.forEach((outcomes, i) => {
      const diff = differences(outcomes, direct.outcomes[i % models.length]);
      totalCells += outcomes.length;
      equalCells += outcomes.length - diff.count;
      if (diff.first) firstDifference ??= `analyst ${i + 1}, ${diff.first}`;
    });
    const log = limited.requestLog.filter((r) => r.method === "GET");
    const redisOutages = processes.reduce(
      (n, p) => n + (p.errors().match(/Redis is unreachable/g)?.length ?? 0),
      0
    );
    return {
      title,
      models: models.length === 1 ? "same" : "different",
      fault,
      cells: models[0].length,
      upstream: log.length,
      rateLimited: log.filter((r) => r.status === 429).length,
      alone: direct.requests,
      analystRequests: analysts.reduce((n, a) => n + a.requests(), 0),
      equalCells,
      totalCells,
      ...(firstDifference ? { firstDifference } : {}),
      lastCellMs,
      redisOutages,
    };
  } finally {
    for (const a of analysts) a.dispose();
    await Promise.all(balancers.map((b) => b.close()));
    await Promise.all(processes.map((p) => p.stop("SIGTERM")));
  }
}

export async function gatewayBench(options: GatewayBenchOptions): Promise<GatewayBenchResult> {
  const analysts = options.analysts ?? 50;
  const processCount = options.processes ?? 5;
  const windowMs = 60_000 / options.scale;
  const progress = options.progress ?? (() => undefined);
  const result: GatewayBenchResult = {
    analysts,
    processes: processCount,
    scale: options.scale,
    windowMs,
    latencyMs: options.latencyMs,
    rows: [],
  };
  let redis: RedisServer;
  try {
    redis = await startRedis();
  } catch (error) {
    return { ...result, skipped: error instanceof Error ? error.message : String(error) };
  }
  const serviceKey = `cm_bench_${randomBytes(12).toString("hex")}`;
  const tokens = Array.from(
    { length: analysts },
    (_, i) => `tok_analyst_${i + 1}_${randomBytes(6).toString("hex")}`
  );
  const files = gatewayFiles(
    serviceKey,
    Object.fromEntries(tokens.map((t, i) => [`analyst-${i + 1}`, t]))
  );
  // The direct runs go first, without a rate limit (they also make the simulator generate every series the
  // runs read, once); the measured runs then face the limit.
  const limited = await startSimulator({
    port: 0,
    apiKeys: [serviceKey],
    today: BENCH_TODAY,
    latencyMs: options.latencyMs,
    rateLimit: null,
  });
  const setup: Setup = {
    limited,
    redis,
    files,
    tokens,
    options: { ...options, analysts, processes: processCount },
    windowMs,
  };
  try {
    const same = [modelSheet()];
    const different = Array.from({ length: analysts }, (_, i) =>
      modelSheet(50, MODEL_METRICS, addDays(MODEL_DATE, -i))
    );
    progress("team gateway: direct runs of the models (one analyst alone each)…");
    const directSame = await directRuns(limited, serviceKey, same);
    const directDifferent = await directRuns(limited, serviceKey, different);
    // The service's documented limit, its window exactly, no Retry-After (none is documented).
    limited.setKnobs({ rateLimit: { limit: 60, windowMs, retryAfter: false } });
    const plan: Array<[string, BenchCell[][], typeof directSame, GatewayFault]> = [
      ["same model", same, directSame, "none"],
      [`${analysts} different models`, different, directDifferent, "none"],
      ["same model, a process killed", same, directSame, "process killed"],
      ["same model, Redis stopped", same, directSame, "Redis stopped"],
      [
        `${analysts} different models, a process killed`,
        different,
        directDifferent,
        "process killed",
      ],
      [`${analysts} different models, Redis stopped`, different, directDifferent, "Redis stopped"],
    ];
    for (const [title, models, direct, fault] of plan) {
      progress(`team gateway: ${title}…`);
      const row = await runOnce(setup, title, models, direct, fault);
      result.rows.push(row);
      progress(
        `team gateway: ${title}: ${row.upstream} upstream requests (one analyst alone: ${row.alone}), ` +
          `${row.rateLimited} answered 429, ${row.equalCells}/${row.totalCells} cells equal, last cell at ${Math.round(row.lastCellMs)} ms, ` +
          `Redis taken as unreachable ${row.redisOutages} times`
      );
    }
    return result;
  } finally {
    await limited.close();
    await redis.stop();
  }
}
