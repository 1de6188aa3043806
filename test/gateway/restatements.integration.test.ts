/**
 * The team's record of restatements through two gateway processes on one real redis-server, with the built CLI
 * in processes of its own: a service that restates aave's fees of 2024-02-15 after first serving them (the
 * simulator's `served` mode). Analyst 1 gets the first figure through process A; the next day (the gateways
 * started again with their clock a day ahead, past the service's daily update, and the CLI's too: a preload)
 * a refresh through A gets the restated figure, and the change is recorded once in Redis; analyst 2, with a
 * cache of their own, asks through process B: CHANGES lists the day with before and after, and
 * vintage=<first day> gives the figure as the team's gateway knew it then. The simulator's clock is not moved.
 */
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Redis from "ioredis";
import { createDataset, startSimulator, type RunningSimulator } from "../../src/simulator";
import { freeLoopbackPort } from "../../src/tools/bench/gateway-processes";
import { PRELOADS } from "../harness/hostile/cli-command";
import { builtCli } from "../support/node-build";
import {
  gatewayFiles,
  startGatewayProcess,
  type GatewayFiles,
  type GatewayProcess,
} from "./support/gateway-process";
import { startRedis, type RedisServer } from "./support/redis";

const SERVICE_KEY = "cm_service_key_restating_51e0a";
const tokens = { analyst1: "tok_analyst1_r3st4t3d", analyst2: "tok_analyst2_r3st4t3d" };
const DAY = "2024-02-15";
const FACTOR = 1.25;
const VALUE = `VALUE("aave","fees","${DAY}")`;
const NEXT_DAY = { NODE_OPTIONS: `--require ${PRELOADS.clockAhead}`, CLOCK_OFFSET_MS: "86400000" };

let CLI: string;
let simulator: RunningSimulator;
let redis: RedisServer;
let files: GatewayFiles;
const running: GatewayProcess[] = [];

beforeAll(async () => {
  [CLI, simulator, redis] = await Promise.all([
    builtCli(),
    startSimulator({
      port: 0,
      rateLimit: null,
      apiKeys: [SERVICE_KEY],
      restatements: {
        mode: "served",
        days: [{ projectId: "aave", metricId: "fees", day: DAY, factor: FACTOR }],
      },
    }),
    startRedis(),
  ]);
  files = gatewayFiles(SERVICE_KEY, tokens);
}, 300_000);

afterAll(async () => {
  await Promise.all(running.map((g) => g.stop()));
  await simulator?.close();
  await redis?.stop();
});

/** A gateway process; `port` to start one again where it was (the analysts' address of the gateway). */
async function gateway(nextDay: boolean, port?: number): Promise<GatewayProcess> {
  const g = await startGatewayProcess({
    serviceUrl: simulator.url,
    files,
    redisUrl: redis.url,
    ...(port ? { args: ["--port", String(port)] } : {}),
    ...(nextDay ? { env: NEXT_DAY } : {}),
  });
  running.push(g);
  return g;
}

function cli(
  gatewayUrl: string,
  token: string,
  dir: string,
  nextDay: boolean,
  args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) =>
    execFile(
      process.execPath,
      [CLI, "eval", "--cache-dir", dir, "--format", "json", ...args],
      {
        timeout: 120_000,
        env: {
          PATH: process.env.PATH ?? "",
          CRYPTOMETRICS_BASE_URL: gatewayUrl,
          CRYPTOMETRICS_API_KEY: token,
          ...(nextDay ? NEXT_DAY : {}),
        },
      },
      (error, stdout, stderr) =>
        done({ code: error ? ((error as { code?: number }).code ?? -1) : 0, stdout, stderr })
    )
  );
}

const cells = (stdout: string) => JSON.parse(stdout) as unknown[][][];
const cacheDir = (who: string) => join(mkdtempSync(join(tmpdir(), `cm-${who}-`)), "cache");

/** The record's lines in Redis, over every list of the ledger (one per day of recording). */
async function ledgerLines(): Promise<string[]> {
  const client = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  try {
    const lists = await client.keys("cm:gw:2:{r*}:d:*");
    const lines: string[] = [];
    for (const key of lists) for (const line of await client.lrange(key, 0, -1)) lines.push(line);
    return lines;
  } finally {
    client.disconnect();
  }
}

async function record(g: GatewayProcess, token: string) {
  const response = await fetch(`${g.url}/gateway/v1/restatements?projects=aave&metrics=fees`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { changes: Array<Record<string, unknown>> } }).data
    .changes;
}

it("records the restatement once for the team, and a teammate sees it through the other process", async () => {
  const today = new Date().toISOString().slice(0, 10);
  const generated = createDataset(today).daily("aave", "fees", { start: DAY, end: DAY })[0].value!;

  // Day one: analyst 1 through process A.
  const portA = await freeLoopbackPort();
  const a1 = await gateway(false, portA);
  const analyst1 = cacheDir("analyst1");
  const first = await cli(a1.url, tokens.analyst1, analyst1, false, [VALUE]);
  expect(first).toMatchObject({ code: 0, stderr: "" });
  expect(cells(first.stdout)[0][0][0]).toBeCloseTo(generated, 6);
  expect(await ledgerLines()).toEqual([]);
  await a1.stop();

  // The next day: both processes (clocks a day ahead), a refresh through A.
  const [a, b] = [await gateway(true, portA), await gateway(true)];
  expect(a.url).toBe(a1.url);
  const refreshed = await cli(a.url, tokens.analyst1, analyst1, true, ["--refresh", VALUE]);
  expect(refreshed.code).toBe(0);
  expect(cells(refreshed.stdout)[0][0][0]).toBeCloseTo(generated * FACTOR, 6);
  expect(refreshed.stderr.split("\n")[0]).toBe(
    "cryptometrics: refresh: 1 figure changed since it was last fetched"
  );
  // Recorded as the answer goes out: its line lands in Redis within moments.
  let lines = await ledgerLines();
  for (const until = Date.now() + 10_000; lines.length === 0 && Date.now() < until;)
    lines = await new Promise<string[]>((done) => setTimeout(() => done(ledgerLines()), 50));
  expect(lines).toHaveLength(1);
  // Sealed, and nothing secret in it.
  expect(lines[0]).toMatch(/^[0-9a-f]{32} \{/);
  expect(lines[0]).not.toContain(SERVICE_KEY);
  expect(lines[0]).not.toContain("tok_");

  // Both processes list it, once.
  for (const g of [a, b]) {
    const changes = await record(g, tokens.analyst2);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ project_id: "aave", metric_id: "fees", day: DAY });
    expect(changes[0].before).toBeCloseTo(generated, 6);
    expect(changes[0].after).toBeCloseTo(generated * FACTOR, 6);
  }

  // Analyst 2, a cache of their own, through process B: the team's record.
  const later = await cli(b.url, tokens.analyst2, cacheDir("analyst2"), true, [
    `VALUE("aave","fees","${DAY}","vintage=${today}")`,
    VALUE,
    `CHANGES("aave","fees")`,
  ]);
  expect(later.stderr).toBe("");
  const [asKnown, now, changes] = cells(later.stdout);
  expect(asKnown[0][0]).toBeCloseTo(generated, 6);
  expect(now[0][0]).toBeCloseTo(generated * FACTOR, 6);
  expect(changes[0]).toEqual(["Project", "Metric", "Day", "Before", "After", "Seen"]);
  expect(changes).toHaveLength(2);
  expect(changes[1].slice(0, 3)).toEqual(["aave", "fees", DAY]);
  expect(changes[1][3]).toBeCloseTo(generated, 6);
  expect(changes[1][4]).toBeCloseTo(generated * FACTOR, 6);

  // Analyst 2 asking again through A, and analyst 1 refreshing through B, add nothing to the record (both
  // processes stopped first: a process writes what it recorded before it exits).
  await cli(a.url, tokens.analyst2, cacheDir("analyst2b"), true, [VALUE]);
  await cli(b.url, tokens.analyst1, analyst1, true, ["--refresh", VALUE]);
  await Promise.all([a.stop(), b.stop()]);
  expect(await ledgerLines()).toHaveLength(1);
}, 300_000);
