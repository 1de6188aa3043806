/**
 * The team's restatement ledger in a real Redis (redis-server on a free port): the store contract every ledger
 * store follows, two gateway processes' handles on one Redis, and a line written into Redis by anyone without
 * the gateway's secret refused with its day.
 */
import { Redis } from "ioredis";
import { hmacSeal } from "../../src/engine/ledger/codec";
import { RestatementLedger } from "../../src/engine/ledger/ledger";
import { RedisLedgerStore } from "../../src/gateway/store/restatements";
import { ledgerStoreContract } from "../engine/ledger/store-contract";
import { startRedis, type RedisServer } from "./support/redis";

let server: RedisServer;
const clients: Redis[] = [];
let places = 0;

function client(): Redis {
  const redis = new Redis(server.url, { lazyConnect: false, maxRetriesPerRequest: 1 });
  clients.push(redis);
  return redis;
}

beforeAll(async () => {
  server = await startRedis();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.quit().catch(() => undefined)));
  await server.stop();
});

// Each test its own prefix on the one server: a place of its own. Each handle its own connection, as a process.
ledgerStoreContract("the gateway's Redis ledger", async () => {
  const prefix = `cm:test:${++places}`;
  return () => new RedisLedgerStore(client(), prefix);
});

describe("the gateway's Redis ledger", () => {
  const NS = "https://api.example#team";
  const secret = new TextEncoder().encode("derived from the team's service key");

  it("gives every key of a namespace one hash tag and the ledger's lifetime", async () => {
    const redis = client();
    await new RedisLedgerStore(redis, "cm:test:tags").append(NS, "2026-11-24", ["x"]);
    const keys = (await redis.keys("cm:test:tags:*")).sort();
    expect(keys).toHaveLength(2);
    const tags = new Set(keys.map((k) => /\{[^}]+\}/.exec(k)?.[0]));
    expect(tags.size).toBe(1);
    for (const key of keys) expect(await redis.pttl(key)).toBeGreaterThan(399 * 86_400_000);
    // No part of the namespace (a service's address) in a key.
    expect(keys.join(" ")).not.toContain("api.example");
  });

  it("refuses a line written into Redis without the gateway's secret, with its whole day", async () => {
    const redis = client();
    const store = new RedisLedgerStore(redis, "cm:test:forged");
    const notes: string[] = [];
    const now = Date.UTC(2026, 10, 24, 10);
    const ledger = new RestatementLedger({
      store,
      namespace: async () => NS,
      now: () => now,
      seal: hmacSeal(secret),
      onNote: (n) => notes.push(n),
    });
    const change = {
      series: { projectId: "aave", productId: "", metricId: "revenue", filter: "" },
      dim: "",
      day: 20_500,
      before: 100,
      after: 136,
      beforeSeenAt: now - 86_400_000,
      seenAt: now,
      request: "GET /v2/metrics/revenue for 1 project, 2026-02-15 → 2026-02-15",
    };
    await ledger.record([change]);
    // Someone with access to Redis adds a figure of their own, sealed as a laptop seals (no secret).
    const forged = new RestatementLedger({ store, namespace: async () => NS, now: () => now });
    await forged.record([{ ...change, day: 20_501, after: 1e12 }]);
    const view = await new RestatementLedger({
      store: new RedisLedgerStore(client(), "cm:test:forged"),
      namespace: async () => NS,
      now: () => now,
      seal: hmacSeal(secret),
      onNote: (n) => notes.push(n),
    }).view();
    expect(view.size).toBe(0);
    expect(notes.join("\n")).toMatch(
      /Dropped 1 damaged day .*whose seal does not match: 2026-11-24/
    );
  });
});
