/**
 * The team on a Redis Cluster: a real cluster of 3 primaries (each with a replica) from Debian's redis-server,
 * two gateway processes given its nodes (--redis-cluster), the simulator upstream, analysts (each an add-in's
 * client and engine). Every script the gateway runs names keys of one hash slot, so it runs here as on one
 * server; and a primary failing over mid-run loses nothing and costs no 429.
 */
import { startSimulator, type RunningSimulator } from "../../src/simulator";
import { hashOf, budgetKeys, storeKeys } from "../../src/gateway/store/keys";
import { scaledRetryPolicy } from "../../src/client";
import {
  createAnalyst,
  differences,
  refreshModel,
  type Analyst,
} from "../../src/tools/bench/gateway-analysts";
import { MODEL_METRICS, modelSheet } from "../../src/tools/bench/workloads";
import {
  gatewayFiles,
  startGatewayProcess,
  type GatewayFiles,
  type GatewayProcess,
} from "./support/gateway-process";
import { runThroughFailover } from "./support/failover-run";
import { startRedisCluster, type RedisCluster } from "./support/redis-cluster";

jest.setTimeout(240_000);

const SERVICE_KEY = "cm_service_key_cluster_4e81a0";
const ANALYSTS = Array.from({ length: 12 }, (_, i) => `analyst-${i + 1}`);
const tokenOf = (name: string): string => `tok_${name}_cl_5d2`;
/** The service's minute 20 times faster, in the simulator, the gateways and the analysts alike. */
const SCALE = 20;
const WINDOW_MS = 60_000 / SCALE;

let cluster: RedisCluster;
let simulator: RunningSimulator;
let files: GatewayFiles;
let gateways: GatewayProcess[] = [];
const analysts: Analyst[] = [];

beforeAll(async () => {
  [cluster, simulator] = await Promise.all([
    startRedisCluster({ masters: 3, replicas: 1 }),
    startSimulator({ port: 0, rateLimit: null, apiKeys: [SERVICE_KEY], today: "2026-11-20" }),
  ]);
  files = gatewayFiles(SERVICE_KEY, Object.fromEntries(ANALYSTS.map((a) => [a, tokenOf(a)])));
  gateways = await Promise.all(
    [0, 1].map(() =>
      startGatewayProcess({
        serviceUrl: simulator.url,
        files,
        args: ["--redis-cluster", cluster.urls.join(",")],
        env: { CRYPTOMETRICS_TIME_SCALE: String(SCALE) },
      })
    )
  );
}, 300_000);

afterAll(async () => {
  for (const a of analysts) a.dispose();
  await Promise.all(gateways.map((g) => g.stop()));
  await Promise.all([simulator?.close(), cluster?.stop()]);
});

const gets = (): number => simulator.requestLog.filter((r) => r.method === "GET").length;

function analyst(baseUrl: string, apiKey: string): Analyst {
  const a = createAnalyst({
    baseUrl,
    apiKey,
    windowMs: WINDOW_MS,
    retry: { ...scaledRetryPolicy(SCALE), maxAttempts: 100 },
  });
  analysts.push(a);
  return a;
}

describe("a team on two gateway processes sharing a 3-primary Redis Cluster", () => {
  it("costs the service no more for 12 analysts running one model than for one analyst alone", async () => {
    const model = modelSheet(20, MODEL_METRICS.slice(0, 10));
    simulator.clearLog();
    const direct = await refreshModel(analyst(simulator.url, SERVICE_KEY).engine, model);
    const alone = gets();
    simulator.clearLog();
    const team = ANALYSTS.map((name, i) => analyst(gateways[i % 2].url, tokenOf(name)));
    const results = await Promise.all(team.map((a) => refreshModel(a.engine, model)));
    const upstream = gets();
    process.stdout.write(
      `12 analysts through 2 gateway processes on a 3-primary cluster: ${upstream} upstream requests; one analyst alone: ${alone}\n`
    );
    expect(upstream).toBeLessThanOrEqual(alone);
    for (const outcome of results) expect(differences(outcome, direct)).toEqual({ count: 0 });
    // Shared across processes, through the cluster: both report it in use.
    // Each process counts the others at its heartbeat (every 2 s): a model done sooner than that after the
    // second process started can find the first still counting itself alone, so the count is awaited.
    for (const g of gateways) {
      const readyz = async (): Promise<Record<string, unknown>> =>
        (await (
          await fetch(`${g.url}/readyz`, {
            headers: { authorization: `Bearer ${tokenOf("analyst-1")}` },
          })
        ).json()) as Record<string, unknown>;
      let ready = await readyz();
      for (let i = 0; i < 40 && ready.processes !== 2; i++) {
        await new Promise((r) => setTimeout(r, 250));
        ready = await readyz();
      }
      expect(ready).toMatchObject({ status: "ready", store: "redis", redis: "up", processes: 2 });
    }
  });

  it("loses nothing and draws no 429 when a primary fails over mid-run", async () => {
    const moved: Array<{ from: { port: number }; to: { port: number } }> = [];
    const run = await runThroughFailover({
      simulator,
      serviceKey: SERVICE_KEY,
      gateways: gateways.map((g) => g.url),
      tokens: ANALYSTS.slice(0, 6).map(tokenOf),
      windowMs: WINDOW_MS,
      analyst,
      // The primary holding the team's budget, then the one holding its cache (if another), hand over to
      // their replicas.
      failover: async () => {
        const budgetKey = budgetKeys(hashOf(`budget\n${SERVICE_KEY}`, 24)).ledger;
        const storeKey = `${storeKeys(hashOf(`${simulator.url}\n${SERVICE_KEY}`, 24)).tag}:probe`;
        moved.push(await cluster.failover(budgetKey));
        const storePrimary = await cluster.primaryOf(storeKey);
        if (storePrimary.port !== moved[0].to.port) moved.push(await cluster.failover(storeKey));
      },
    });
    process.stdout.write(
      `failover of ${moved.map((m) => `${m.from.port} → ${m.to.port}`).join(", ")} mid-run: ${run.upstream} upstream requests, ${run.tooMany} answered 429\n`
    );
    expect(run.differing).toEqual(run.differing.map(() => ({ count: 0 })));
    expect(run.tooMany).toBe(0);
    // It was mid-run: the team went on asking after the new primaries took over.
    expect(run.upstream).toBeGreaterThan(run.atFailover);
  });
});
