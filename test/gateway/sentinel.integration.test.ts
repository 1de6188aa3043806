/**
 * The team on a Sentinel-watched Redis: a real primary, its replica and three Sentinels from Debian's
 * redis-server (one set for the file), the gateway's Redis link and two gateway processes given the Sentinels
 * (--redis-sentinel), the simulator upstream, analysts (each an add-in's client and engine) and signed-in users
 * with keys of their own (a local OIDC issuer). The link follows a failover to the new primary at once; the team
 * shares one cache through the Sentinels' primary; a failover mid-run loses nothing (cells, keys registered before
 * it and just after it) and costs no 429, and both processes go on with Redis.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Redis } from "ioredis";
import { scaledRetryPolicy } from "../../src/client";
import { RedisLink } from "../../src/gateway/store/redis-link";
import { startSimulator, type RunningSimulator } from "../../src/simulator";
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
import { startLocalIssuer, type LocalIssuer } from "./support/oidc-issuer";
import { startRecordingProxy, type RecordingProxy } from "./support/recording-proxy";
import { startRedisSentinel, type RedisSentinelSet } from "./support/redis-sentinel";
import { runThroughFailover } from "./support/failover-run";

jest.setTimeout(240_000);

const SERVICE_KEY = "cm_service_key_sentinel_7c20e1";
const ALICE_KEY = "cm_alice_own_key_sentinel_93fd4";
const BOB_KEY = "cm_bob_own_key_sentinel_5e02b71";
const TENANT = "6f0c6a1e-1d7c-4bd2-9b53-0f4c2b8e7a11";
/** The audience the local issuer mints for. */
const AUDIENCE = "api://cm-gateway-test";
const ALICE = "11111111-1111-4111-8111-111111111111";
const BOB = "22222222-2222-4222-8222-222222222222";
const ANALYSTS = Array.from({ length: 12 }, (_, i) => `analyst-${i + 1}`);
const tokenOf = (name: string): string => `tok_${name}_se_8a1`;
/** The service's minute 20 times faster, in the simulator, the gateways and the analysts alike. */
const SCALE = 20;
const WINDOW_MS = 60_000 / SCALE;

let sentinel: RedisSentinelSet;
let simulator: RunningSimulator;
let issuer: LocalIssuer;
let files: GatewayFiles;
let gateways: GatewayProcess[] = [];
let proxies: RecordingProxy[] = [];
const links: RedisLink[] = [];
const analysts: Analyst[] = [];

beforeAll(async () => {
  [sentinel, simulator, issuer] = await Promise.all([
    startRedisSentinel({ sentinels: 3 }),
    startSimulator({
      port: 0,
      rateLimit: null,
      apiKeys: [SERVICE_KEY, ALICE_KEY, BOB_KEY],
      today: "2026-11-20",
    }),
    startLocalIssuer(),
  ]);
  files = gatewayFiles(SERVICE_KEY, Object.fromEntries(ANALYSTS.map((a) => [a, tokenOf(a)])));
  const kekFile = join(files.dir, "kek");
  writeFileSync(kekFile, `${randomBytes(32).toString("base64")}\n`);
  chmodSync(kekFile, 0o600);
  gateways = await Promise.all(
    [0, 1].map(() =>
      startGatewayProcess({
        serviceUrl: simulator.url,
        files,
        args: [
          "--redis-sentinel",
          sentinel.urls.join(","),
          "--redis-sentinel-name",
          sentinel.name,
          "--entra-tenants",
          TENANT,
          "--entra-audience",
          AUDIENCE,
          "--entra-jwks-url",
          issuer.jwksUrl,
          "--entra-issuer",
          issuer.issuerTemplate,
          "--user-key-kek-file",
          kekFile,
        ],
        env: { CRYPTOMETRICS_TIME_SCALE: String(SCALE) },
      })
    )
  );
  proxies = await Promise.all(gateways.map((g) => startRecordingProxy(g.url)));
}, 300_000);

afterAll(async () => {
  for (const a of analysts) a.dispose();
  await Promise.all(links.map((l) => l.close()));
  await Promise.all(proxies.map((p) => p.close()));
  await Promise.all(gateways.map((g) => g.stop()));
  await Promise.all([simulator?.close(), issuer?.close()]);
  await sentinel?.stop();
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

async function call(
  url: string,
  token: string,
  init: { method?: string; body?: unknown } = {}
): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: init.method ?? "GET",
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.body !== undefined ? { "content-type": "application/json" } : {}),
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** How many connections are subscribed on each Sentinel. */
async function sentinelSubscribers(): Promise<number[]> {
  return Promise.all(
    sentinel.urls.map(async (url) => {
      const client = new Redis(url);
      try {
        const list = (await client.call("CLIENT", "LIST")) as string;
        return list.split("\n").filter((line) => /\bsub=[1-9]/.test(line)).length;
      } finally {
        client.disconnect();
      }
    })
  );
}

/**
 * Each process's /readyz, until it says Redis and both processes (each counts the others at its heartbeat,
 * every 2 s; after a failover, once its link is back on the new primary), or 10 s.
 */
async function readyz(): Promise<Array<Record<string, unknown>>> {
  return Promise.all(
    gateways.map(async (g) => {
      let ready: Record<string, unknown> = {};
      for (let i = 0; i < 40; i++) {
        ready = (await call(`${g.url}/readyz`, tokenOf("analyst-1"))).json;
        if (ready.store === "redis" && ready.redis === "up" && ready.processes === 2) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      return ready;
    })
  );
}

describe("the Redis link through the Sentinels", () => {
  it("writes to the new primary as soon as the Sentinels name it: nothing written after a failover is lost", async () => {
    // Subscriptions on the Sentinels before the link: the two gateway processes' (their failover detectors').
    const others = await sentinelSubscribers();
    const changes: string[] = [];
    const link = new RedisLink({
      target: { kind: "sentinel", urls: sentinel.urls, name: sentinel.name },
      onChange: (up, why) => changes.push(`${up ? "up" : "down"}: ${why}`),
    });
    links.push(link);
    expect(await link.ready(10_000)).toBe(true);
    const main = link.main as Redis;
    await main.set("before", "1");
    const { from, to } = await sentinel.failover();
    // A write once the Sentinels name the new primary, tried until the link takes it.
    let acknowledged = false;
    for (let i = 0; i < 100 && !acknowledged; i++) {
      try {
        await main.set("after", "2");
        acknowledged = true;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    expect(acknowledged).toBe(true);
    // The old primary rejoins as the new one's replica (its own copy dropped for the new primary's).
    await sentinel.settled();
    const direct = new Redis(to.url);
    try {
      process.stdout.write(`failover ${from.port} → ${to.port}; the link: ${changes.join(", ")}\n`);
      expect(await direct.mget("before", "after")).toEqual(["1", "2"]);
    } finally {
      direct.disconnect();
    }
    // Closed, it leaves nothing behind: no more subscriptions on the Sentinels than before it (the gateway
    // processes' detectors subscribe again after the failover, so the count is awaited).
    await link.close();
    let left = await sentinelSubscribers();
    for (let i = 0; i < 100 && left.some((n, j) => n !== others[j]); i++) {
      await new Promise((r) => setTimeout(r, 100));
      left = await sentinelSubscribers();
    }
    expect(left).toEqual(others);
  });
});

describe("a team on two gateway processes through three Sentinels", () => {
  it("shares one cache: the service is asked at most once per distinct request the team asked", async () => {
    const model = modelSheet(20, MODEL_METRICS.slice(0, 10));
    simulator.clearLog();
    const direct = await refreshModel(analyst(simulator.url, SERVICE_KEY).engine, model);
    const alone = gets();
    simulator.clearLog();
    for (const p of proxies) p.shapes.length = 0;
    const team = ANALYSTS.map((name, i) => analyst(proxies[i % 2].url, tokenOf(name)));
    const results = await Promise.all(team.map((a) => refreshModel(a.engine, model)));
    const upstream = gets();
    const asked = new Set(proxies.flatMap((p) => p.shapes).filter((s) => /^\/v[12]\//.test(s)));
    process.stdout.write(
      `12 analysts through 2 gateway processes on a Sentinel-watched primary: ${upstream} upstream requests for ${asked.size} distinct requests asked; one analyst alone: ${alone}\n`
    );
    expect(upstream).toBeLessThanOrEqual(asked.size);
    for (const outcome of results) expect(differences(outcome, direct)).toEqual({ count: 0 });
    for (const ready of await readyz())
      expect(ready).toMatchObject({ status: "ready", store: "redis", redis: "up", processes: 2 });
  });

  it("loses nothing and draws no 429 when the primary fails over mid-run, and both processes follow it", async () => {
    // A signed-in user registers a key of her own on one process, before the failover; another does on the
    // other process just after it.
    const alice = await issuer.mint({ tenant: TENANT, oid: ALICE, name: "Alice Analyst" });
    const bob = await issuer.mint({ tenant: TENANT, oid: BOB, name: "Bob Budget" });
    const put = await call(`${gateways[0].url}/gateway/v1/me/key`, alice, {
      method: "PUT",
      body: { key: ALICE_KEY },
    });
    expect(put.status).toBe(200);
    let moved = "";
    const statuses: number[] = [];
    const run = await runThroughFailover({
      simulator,
      serviceKey: SERVICE_KEY,
      gateways: gateways.map((g) => g.url),
      tokens: ANALYSTS.slice(0, 6).map(tokenOf),
      windowMs: WINDOW_MS,
      analyst,
      failover: async () => {
        const { from, to } = await sentinel.failover();
        moved = `${from.port} → ${to.port}`;
        // While its link moves to the new primary, a process refuses to register (503: try again), never
        // keeps a key in its own memory only.
        while (statuses.length < 100 && statuses.at(-1) !== 200) {
          if (statuses.length > 0) await new Promise((r) => setTimeout(r, 100));
          const put = await call(`${gateways[1].url}/gateway/v1/me/key`, bob, {
            method: "PUT",
            body: { key: BOB_KEY },
          });
          statuses.push(put.status);
        }
      },
    });
    process.stdout.write(
      `failover ${moved} mid-run: ${run.upstream} upstream requests (${run.atFailover} before it and the next registration), ${run.tooMany} answered 429; a key registered just after it: ${statuses.join(", ")}\n`
    );
    expect(statuses.at(-1)).toBe(200);
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    expect(run.differing).toEqual(run.differing.map(() => ({ count: 0 })));
    expect(run.tooMany).toBe(0);
    // It was mid-run: the team went on asking after the new primary took over.
    expect(run.upstream).toBeGreaterThan(run.atFailover);
    // Both processes are on the new primary, with Redis (not process memory).
    for (const ready of await readyz())
      expect(ready).toMatchObject({ status: "ready", store: "redis", redis: "up", processes: 2 });
    // The old primary rejoins as a replica, its copy dropped for the new primary's: both keys are still there,
    // on either process, and serve their owners.
    await sentinel.settled();
    await new Promise((r) => setTimeout(r, 1_100)); // what a process read of a user stays a second at most
    for (const g of gateways)
      for (const [token, key] of [
        [alice, ALICE_KEY],
        [bob, BOB_KEY],
      ]) {
        const me = await call(`${g.url}/gateway/v1/me`, token);
        expect(me.json).toMatchObject({
          ownKey: { registered: true, last4: key.slice(-4) },
          budget: { key: "own" },
        });
      }
    const ask = "/v2/projects/aave/metrics?metric_ids=revenue&start=2024-01-01&end=2024-01-31";
    expect((await call(`${gateways[1].url}${ask}`, alice)).status).toBe(200);
  });
});
