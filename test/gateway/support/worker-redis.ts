/**
 * The jest worker's redis-server, shared by the gateway test files the worker runs one after another
 * (test/support/worker-services.cjs starts it on first use; redis-host.cjs runs it): emptied (FLUSHALL) before
 * it is handed to a file, so a file sees only its own keys. For files that only use a Redis; a file that stops
 * or restarts its Redis (a fault test) starts one of its own (./redis.ts, startRedis).
 *
 *   const redis = await workerRedis(); // { url: "redis://127.0.0.1:PORT", port }
 */
import { join } from "node:path";
import { Redis } from "ioredis";
import { ensureNodeBuild } from "../../support/node-build";
import { startRedis } from "./redis";

interface WorkerRedis {
  readonly url: string;
  readonly port: number;
}

type WorkerService = (script: string, options: object) => Promise<string>;
const HOST = join(__dirname, "redis-host.cjs");

export async function workerRedis(): Promise<WorkerRedis> {
  const service = (globalThis as { __cmWorkerService?: WorkerService }).__cmWorkerService;
  if (!service) {
    // Outside the project's test environment: one for this file, stopped when the process ends.
    const own = await startRedis();
    return { url: own.url, port: own.port };
  }
  // The host runs the gateway's own helper from the build (gateway processes come from the same one).
  const processes = join(await ensureNodeBuild(), "tools", "bench", "gateway-processes.js");
  const { port } = JSON.parse(await service(HOST, { processes })) as { port: number };
  const url = `redis://127.0.0.1:${port}`;
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    await client.flushall();
  } finally {
    client.disconnect();
  }
  return { url, port };
}
