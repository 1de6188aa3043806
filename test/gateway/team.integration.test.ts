/**
 * A team on the gateway as it runs in production: a real Redis, two gateway processes (real child processes of
 * the built gateway), a service (the simulator on loopback) and analysts, each an add-in's client and engine.
 */
import { startSimulator, type RunningSimulator } from "../../src/simulator";
import {
  createAnalyst,
  differences,
  refreshModel,
  type Analyst,
} from "../../src/tools/bench/gateway-analysts";
import { MODEL_METRICS, modelSheet } from "../../src/tools/bench/workloads";
import type { CellOutcome } from "../../src/tools/bench/outcomes";
import {
  gatewayFiles,
  startGatewayProcess,
  type GatewayFiles,
  type GatewayProcess,
} from "./support/gateway-process";
import { startRedis, type RedisServer } from "./support/redis";

const SERVICE_KEY = "cm_service_key_team_7c41d";
const ANALYSTS = Array.from({ length: 12 }, (_, i) => `analyst-${i + 1}`);
const tokenOf = (name: string): string => `tok_${name}_s3cr3t`;

let simulator: RunningSimulator;
let redis: RedisServer;
let files: GatewayFiles;
let gateways: GatewayProcess[] = [];
const analysts: Analyst[] = [];

beforeAll(async () => {
  [simulator, redis] = await Promise.all([
    startSimulator({ port: 0, rateLimit: null, apiKeys: [SERVICE_KEY], today: "2026-11-20" }),
    startRedis(),
  ]);
  files = gatewayFiles(SERVICE_KEY, Object.fromEntries(ANALYSTS.map((a) => [a, tokenOf(a)])));
  gateways = await Promise.all(
    [0, 1].map(() => startGatewayProcess({ serviceUrl: simulator.url, files, redisUrl: redis.url }))
  );
}, 300_000);

afterAll(async () => {
  for (const a of analysts) a.dispose();
  await Promise.all(gateways.map((g) => g.stop()));
  await Promise.all([simulator?.close(), redis?.stop()]);
});

const gets = (): number => simulator.requestLog.filter((r) => r.method === "GET").length;

describe("a team of analysts on two gateway processes sharing one Redis", () => {
  // A model of 20 projects × 10 metrics on one day: 200 VALUE cells.
  const model = modelSheet(20, MODEL_METRICS.slice(0, 10));
  let direct: CellOutcome[];
  let alone: number;

  it("12 analysts running one model cost the service no more requests than one analyst alone", async () => {
    const one = createAnalyst({ baseUrl: simulator.url, apiKey: SERVICE_KEY });
    analysts.push(one);
    simulator.clearLog();
    direct = await refreshModel(one.engine, model);
    alone = gets();

    expect(alone).toBeGreaterThan(2);
    expect(direct.filter((o) => o.kind === "number").length).toBeGreaterThan(100);

    simulator.clearLog();
    const team = ANALYSTS.map((name, i) =>
      createAnalyst({ baseUrl: gateways[i % 2].url, apiKey: tokenOf(name) })
    );
    for (const a of team) analysts.push(a);
    const results = await Promise.all(team.map((a) => refreshModel(a.engine, model)));
    const upstream = gets();
    process.stdout.write(
      `12 analysts through 2 gateway processes: ${upstream} upstream requests; one analyst alone: ${alone}; ` +
        `the analysts sent ${team.reduce((n, a) => n + a.requests(), 0)} requests to the gateways\n`
    );
    expect(upstream).toBeLessThanOrEqual(alone);
    for (const outcome of results) expect(differences(outcome, direct)).toEqual({ count: 0 });
    // Both processes served: the sharing crossed processes, not one process's memory.
    expect(new Set(team.map((a) => a.client.baseUrl)).size).toBe(2);
  });

  it("answers the same model again from the shared cache: no request reaches the service", async () => {
    simulator.clearLog();
    const late = createAnalyst({ baseUrl: gateways[1].url, apiKey: tokenOf("analyst-3") });
    analysts.push(late);
    expect(differences(await refreshModel(late.engine, model), direct)).toEqual({ count: 0 });
    expect(gets()).toBe(0);
  });
});
