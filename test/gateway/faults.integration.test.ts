/**
 * Faults of a team's setup, with real processes: Redis stopped and started again, a gateway process killed in
 * the middle of requests, a process told to stop while it answers, and the team's budget kept across processes.
 */
import { startSimulator, type RunningSimulator } from "../../src/simulator";
import { createAnalyst, differences, refreshModel } from "../../src/tools/bench/gateway-analysts";
import { MODEL_METRICS, modelSheet } from "../../src/tools/bench/workloads";
import { startBalancer } from "./support/balancer";
import {
  gatewayFiles,
  startGatewayProcess,
  type GatewayFiles,
  type GatewayProcess,
} from "./support/gateway-process";
import { startRedis, type RedisServer } from "./support/redis";

jest.setTimeout(120_000);

const SERVICE_KEY = "cm_service_key_faults_e19a";
const TOKEN = "tok_faults_analyst_5c2";
const auth = { authorization: `Bearer ${TOKEN}` };

let redis: RedisServer;
let files: GatewayFiles;
const started: GatewayProcess[] = [];
const simulators: RunningSimulator[] = [];

async function simulator(
  options: Parameters<typeof startSimulator>[0] = {}
): Promise<RunningSimulator> {
  const sim = await startSimulator({
    port: 0,
    rateLimit: null,
    apiKeys: [SERVICE_KEY],
    today: "2026-11-20",
    ...options,
  });
  simulators.push(sim);
  return sim;
}

async function gateway(
  serviceUrl: string,
  extra: { args?: string[]; env?: Record<string, string> } = {}
) {
  const g = await startGatewayProcess({ serviceUrl, files, redisUrl: redis.url, ...extra });
  started.push(g);
  return g;
}

async function readiness(g: GatewayProcess): Promise<Record<string, unknown>> {
  return (await (await fetch(`${g.url}/readyz`, { headers: auth })).json()) as Record<
    string,
    unknown
  >;
}

async function until(what: string, check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  redis = await startRedis();
  files = gatewayFiles(SERVICE_KEY, { analyst: TOKEN });
}, 120_000);

afterAll(async () => {
  await Promise.all(started.map((g) => g.stop("SIGKILL")));
  await Promise.all(simulators.map((s) => s.close()));
  await redis.stop();
});

describe("Redis unreachable", () => {
  it("keeps serving from process memory at a share of the budget, says so, and rejoins when Redis is back", async () => {
    const sim = await simulator();
    // Two processes, and the team says so: each takes half the budget while it cannot use Redis.
    const args = ["--processes", "2"];
    const [a, b] = [await gateway(sim.url, { args }), await gateway(sim.url, { args })];
    const ask = (g: GatewayProcess, day: string) =>
      fetch(`${g.url}/v2/metrics/fees?project_ids=aave,uniswap&start=${day}&end=${day}`, {
        headers: auth,
      });
    expect(await readiness(a)).toMatchObject({ status: "ready", store: "redis", redis: "up" });
    await until("both processes see each other", async () => (await readiness(a)).processes === 2);

    await redis.stop("SIGKILL");
    await until(
      "the gateway says Redis is gone",
      async () => (await readiness(a)).status === "degraded"
    );
    const degraded = await readiness(a);
    expect(degraded).toMatchObject({ store: "memory (Redis unreachable)", redis: "unreachable" });
    // A share of the budget: half of 60 for the two processes the team runs.
    expect(degraded.budget).toMatchObject({ limit: 60, inForce: 30 });
    expect((await ask(a, "2026-06-01")).status).toBe(200);
    expect((await ask(b, "2026-06-02")).status).toBe(200);
    expect(a.errors()).toMatch(/Redis is unreachable: serving from this process's memory/);

    await redis.start();
    await until(
      "the gateway rejoins Redis",
      async () => (await readiness(a)).status === "ready",
      20_000
    );
    await until("the other one too", async () => (await readiness(b)).status === "ready", 20_000);
    expect(a.errors()).toMatch(/Redis is reachable/);
    // Shared again: what one process fetches, the other serves.
    sim.clearLog();
    expect((await ask(a, "2026-06-03")).status).toBe(200);
    const second = await ask(b, "2026-06-03");
    expect(second.headers.get("x-cryptometrics-gateway")).toBe("hit");
    expect(sim.requestLog.filter((r) => r.method === "GET")).toHaveLength(1);
  });
});

describe("a gateway process killed in the middle of requests", () => {
  it("lets the callers retry on another process: every cell settles, as a direct run gives it", async () => {
    const sim = await simulator({ latencyMs: [150, 300] });
    const [a, b] = [await gateway(sim.url), await gateway(sim.url)];
    const balancer = await startBalancer([a.url, b.url]);
    const model = modelSheet(12, MODEL_METRICS.slice(0, 8));
    try {
      const direct = await refreshModel(
        createAnalyst({ baseUrl: sim.url, apiKey: SERVICE_KEY }).engine,
        model
      );
      const analysts = [1, 2, 3].map(() =>
        createAnalyst({ baseUrl: balancer.url, apiKey: TOKEN, retry: { baseDelayMs: 100 } })
      );
      const runs = analysts.map((x) => refreshModel(x.engine, model));
      await new Promise((r) => setTimeout(r, 250));
      await a.stop("SIGKILL");
      const results = await Promise.all(runs);
      for (const result of results) expect(differences(result, direct)).toEqual({ count: 0 });
    } finally {
      await balancer.close();
    }
  });
});

describe("SIGTERM", () => {
  it("finishes the requests under way, then exits 0", async () => {
    const sim = await simulator({ latencyMs: 800 });
    const g = await gateway(sim.url);
    const pending = fetch(`${g.url}/v2/projects/aave`, { headers: auth });
    await new Promise((r) => setTimeout(r, 200));
    const ended = g.stop("SIGTERM");
    const answer = await pending;
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { data: { project_id: string } }).data.project_id).toBe(
      "aave"
    );
    expect(await ended).toEqual({ code: 0, signal: null });
    await expect(fetch(`${g.url}/healthz`)).rejects.toThrow();
  });
});

describe("one budget for the team", () => {
  it("keeps two processes together within the service's limit: no request answered 429", async () => {
    // The service's minute 30 times faster (60 per 2 s), and a limit of 10 per window in both.
    const sim = await simulator({ rateLimit: { limit: 10, windowMs: 2_000, retryAfter: false } });
    const env = { CRYPTOMETRICS_TIME_SCALE: "30" };
    const args = ["--rate-limit", "10"];
    const [a, b] = [await gateway(sim.url, { env, args }), await gateway(sim.url, { env, args })];
    const days = Array.from({ length: 20 }, (_, i) => `2026-03-${String(i + 1).padStart(2, "0")}`);
    sim.clearLog();
    const answers = await Promise.all(
      days.flatMap((day) =>
        [a, b].map((g, i) =>
          fetch(
            `${g.url}/v2/metrics/fees?project_ids=${i ? "curve" : "aave"}&start=${day}&end=${day}`,
            { headers: auth }
          )
        )
      )
    );
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
    const gets = sim.requestLog.filter((r) => r.method === "GET");
    expect(gets).toHaveLength(40);
    expect(gets.filter((r) => r.status === 429)).toEqual([]);
    for (const r of gets)
      expect(gets.filter((x) => x.at >= r.at && x.at < r.at + 2_000).length).toBeLessThanOrEqual(
        10
      );
  }, 120_000);
});
