/**
 * The store every process shares, the same suite on each kind it comes in: process memory, a real Redis server,
 * a real 3-primary Redis Cluster (every script names keys of one hash slot), and a real primary with its replica
 * watched by three Sentinels (the gateway reaching the primary through them). Revisions make concurrent
 * writes merge, a need takes at most FETCHES_PER_NEED locks and never one a covering fetch already holds, a
 * lock without an expiry holds nothing, release notices reach every process, and the budget's record survives
 * nothing but what it should.
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { FETCHES_PER_NEED } from "../../src/gateway/bounds";
import { budgetKeys, storeKeys } from "../../src/gateway/store/keys";
import { MemoryStore } from "../../src/gateway/store/memory-store";
import { RedisLink, type RedisTarget } from "../../src/gateway/store/redis-link";
import { RedisStartLedger } from "../../src/gateway/store/ledger";
import { RedisStore } from "../../src/gateway/store/redis-store";
import { lockValue, type Store } from "../../src/gateway/store/store";
import { realTimers } from "../../src/client";
import { startRedis, type RedisServer } from "./support/redis";
import { startRedisCluster, type RedisCluster } from "./support/redis-cluster";
import { startRedisSentinel, type RedisSentinelSet } from "./support/redis-sentinel";

jest.setTimeout(120_000);

let redis: RedisServer;
let cluster: RedisCluster;
let sentinel: RedisSentinelSet;
const links: RedisLink[] = [];
const errors: string[] = [];

beforeAll(async () => {
  [redis, cluster, sentinel] = await Promise.all([
    startRedis(),
    startRedisCluster({ masters: 3 }),
    startRedisSentinel({ sentinels: 3 }),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all(links.map((l) => l.close()));
  await Promise.all([redis?.stop(), cluster?.stop(), sentinel?.stop()]);
});

async function linkTo(target: RedisTarget): Promise<RedisLink> {
  const link = new RedisLink({ target, onReplyError: (m) => errors.push(m) });
  links.push(link);
  expect(await link.ready(10_000)).toBe(true);
  return link;
}

const kinds: Array<[string, () => Promise<{ a: Store; b: Store }>]> = [
  [
    "process memory",
    () => {
      const shared = new MemoryStore();
      return Promise.resolve({ a: shared, b: shared });
    },
  ],
  [
    "one Redis server",
    async () => {
      const hash = randomBytes(8).toString("hex");
      const target: RedisTarget = { kind: "single", url: redis.url };
      return {
        a: new RedisStore(await linkTo(target), hash),
        b: new RedisStore(await linkTo(target), hash),
      };
    },
  ],
  [
    "a 3-primary Redis Cluster",
    async () => {
      const hash = randomBytes(8).toString("hex");
      const target: RedisTarget = { kind: "cluster", urls: cluster.urls };
      return {
        a: new RedisStore(await linkTo(target), hash),
        b: new RedisStore(await linkTo(target), hash),
      };
    },
  ],
  [
    "a Sentinel-watched primary",
    async () => {
      await sentinel.flush();
      const hash = randomBytes(8).toString("hex");
      const target: RedisTarget = { kind: "sentinel", urls: sentinel.urls, name: sentinel.name };
      return {
        a: new RedisStore(await linkTo(target), hash),
        b: new RedisStore(await linkTo(target), hash),
      };
    },
  ],
];

describe.each(kinds)("the store on %s", (_name, make) => {
  let a: Store;
  let b: Store;
  beforeAll(async () => {
    ({ a, b } = await make());
  });
  afterAll(() => expect(errors).toEqual([]));

  it("writes a value only over the revision read: the second of two writers reads again", async () => {
    expect(await a.writeIf("k1", 0, "first", 60_000)).toBe(true);
    expect(await b.writeIf("k1", 0, "racing", 60_000)).toBe(false);
    const [stored] = await b.read(["k1"]);
    expect(stored).toEqual({ rev: 1, text: "first" });
    expect(await b.writeIf("k1", 1, "merged", 60_000)).toBe(true);
    expect(await a.read(["k1", "nothing"])).toEqual([{ rev: 2, text: "merged" }, undefined]);
  });

  it("lets a fetch covering the days hold a need, and fetches over other days have places of their own", async () => {
    const whole = lockValue("p1:1", -1e9, 1e9);
    expect([...(await a.lock(["n1"], whole, 6_000)).taken]).toEqual(["n1"]);
    // The same days or fewer: covered, nothing taken, the holder named.
    const again = await b.lock(["n1"], lockValue("p2:1", 100, 200), 6_000);
    expect(again.taken.size).toBe(0);
    expect(again.held.get("n1")).toEqual([{ owner: "p1:1", start: -1e9, end: 1e9 }]);
    // Another need's days not covered: places, up to FETCHES_PER_NEED, then held.
    const owners = Array.from({ length: FETCHES_PER_NEED + 1 }, (_, i) =>
      lockValue(`q${i}:1`, i * 10, i * 10 + 5)
    );
    const taken = [];
    for (const value of owners) taken.push((await a.lock(["n2"], value, 6_000)).taken.has("n2"));
    expect(taken).toEqual([...Array.from({ length: FETCHES_PER_NEED }, () => true), false]);
    expect((await b.holders(["n2"]))[0]).toHaveLength(FETCHES_PER_NEED);
    // A release frees that place only, and tells every process.
    const heard: string[] = [];
    const stop = b.onReleased((keys) => {
      for (const key of keys) heard.push(key);
    });
    await a.release(["n2"], owners[0]);
    for (let i = 0; i < 200 && heard.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    stop();
    expect(heard).toContain("n2");
    expect((await a.holders(["n2"]))[0]).toHaveLength(FETCHES_PER_NEED - 1);
  });

  it("remembers a failure for its time only", async () => {
    await a.markFailed("req", "why", 200);
    expect(await b.failure("req")).toBe("why");
    await new Promise((r) => setTimeout(r, 300));
    expect(await b.failure("req")).toBeUndefined();
  });
});

describe("Redis tampered with", () => {
  it("holds nothing with a lock written without an expiry: the need's places are taken over", async () => {
    const link = await linkTo({ kind: "single", url: redis.url });
    const hash = randomBytes(8).toString("hex");
    const store = new RedisStore(link, hash);
    const raw = new Redis(redis.url);
    try {
      for (let i = 0; i < FETCHES_PER_NEED; i++)
        await raw.set(`${storeKeys(hash).lock("n")}:${i}`, "squatter|-1000000000|1000000000");
      expect(await store.holders(["n"])).toEqual([[]]);
      expect((await store.lock(["n"], lockValue("me:1", 0, 10), 6_000)).taken.has("n")).toBe(true);
    } finally {
      raw.disconnect();
    }
  });
});

describe("the budget's record", () => {
  it("is rebuilt full, never empty, when Redis lost it: the window's starts are not started again", async () => {
    const link = await linkTo({ kind: "cluster", urls: cluster.urls });
    const hash = randomBytes(8).toString("hex");
    let t = Date.UTC(2026, 10, 20, 12);
    const ledger = new RedisStartLedger({
      link,
      budgetHash: hash,
      ttlMs: 300_000,
      now: () => t,
      timers: realTimers,
    });
    const turn = (wanted: number) =>
      ledger.claim({
        limit: 10,
        spanMs: 60_000,
        now: () => t,
        wanted,
        owner: "me",
        openMs: 120_000,
      });
    expect((await turn(4)).granted).toBe(4);
    await ledger.settle("me", 4, () => t);
    // Redis empties (a restart with nothing saved): the record and its epoch are gone.
    const keys = budgetKeys(hash);
    const primary = await cluster.primaryOf(keys.ledger);
    const raw = new Redis(primary.url);
    try {
      await raw.del(keys.ledger, keys.epoch);
    } finally {
      raw.disconnect();
    }
    t += 1_000;
    const after = await turn(10);
    expect(after.granted).toBe(0);
    expect(ledger.lostCount).toBe(1);
    // A window later, the budget is whole again.
    t += 61_000;
    expect((await turn(10)).granted).toBe(10);
    ledger.close();
  });
});

describe("a Redis Cluster under many lanes at once", () => {
  it("runs every lane's lock scripts issued in one turn of the event loop, each on its own keys' primary", async () => {
    // Lanes whose stores fall on every primary, each locking a different number of needs: ioredis groups the
    // commands of one turn into a pipeline per primary, and a script is routed by its keys, not its first
    // argument (a key count). Each lane's needs are locked, seen as held, renewed and released, all at once.
    const link = await linkTo({ kind: "cluster", urls: cluster.urls });
    const lanes = Array.from({ length: 24 }, (_, i) => ({
      store: new RedisStore(link, randomBytes(8).toString("hex")),
      needs: Array.from({ length: 1 + (i % 4) }, (_, j) => `need-${i}-${j}`),
      value: lockValue(`lane${i}:1`, 0, 10),
    }));
    const locked = await Promise.all(lanes.map((l) => l.store.lock(l.needs, l.value, 6_000)));
    expect(locked.map((l) => l.taken.size)).toEqual(lanes.map((l) => l.needs.length));
    const held = await Promise.all(lanes.map((l) => l.store.holders(l.needs)));
    expect(held.map((h) => h.map((holders) => holders.length))).toEqual(
      lanes.map((l) => l.needs.map(() => 1))
    );
    await Promise.all(lanes.map((l) => l.store.renew(l.needs, l.value, 6_000)));
    await Promise.all(lanes.map((l) => l.store.release(l.needs, l.value)));
    const after = await Promise.all(lanes.map((l) => l.store.holders(l.needs)));
    expect(after.flat().every((holders) => holders.length === 0)).toBe(true);
    await Promise.all(lanes.map((l) => l.store.close()));
  });
});
