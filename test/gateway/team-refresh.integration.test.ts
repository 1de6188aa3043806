/**
 * The team's daily refresh on a real redis-server shared by two gateway processes (in this process, on the
 * test's clock): what either served is in one record, one of them refreshes the day, and a record written into
 * Redis by anyone else (not sealed with the gateway's secret) replays nothing.
 */
import { Redis } from "ioredis";
import { FixedTokens } from "../../src/gateway/auth/tokens-file";
import { createGateway, type Gateway } from "../../src/gateway/server";
import { hashOf, storeKeys } from "../../src/gateway/store/keys";
import { FAKE_SERVICE_URL, fakeService, seriesHandler } from "./support/fake-service";
import { startRedis, type RedisServer } from "./support/redis";

jest.setTimeout(60_000);

const TEAM_KEY = "cm_team_refresh_redis_0123456789abcdef";
const tokens = { alice: "tok_alice_refresh_r1", bob: "tok_bob_refresh_r2" };
const HOUR = 3_600_000;
const DAY2 = Date.UTC(2026, 10, 20);
const A = "/v2/metrics/fees?project_ids=aave&start=2026-10-01&end=2026-10-31";
const B = "/v2/projects/gmx/metrics?metric_ids=fees,revenue&start=2026-09-01&end=2026-09-30";

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

async function team() {
  const clock = { t: Date.UTC(2026, 10, 19, 15) };
  const service = fakeService(seriesHandler);
  const raw = new Redis(redis.url);
  await raw.flushall();
  raw.disconnect();
  const gateways: Gateway[] = await Promise.all(
    [0, 1].map(() =>
      createGateway({
        serviceUrl: FAKE_SERVICE_URL,
        serviceKey: TEAM_KEY,
        verifiers: [
          new FixedTokens(Object.entries(tokens).map(([name, token]) => ({ name, token }))),
        ],
        fetch: service.fetch,
        now: () => clock.t,
        redisUrl: redis.url,
        logLevel: "silent",
      })
    )
  );
  return { clock, service, gateways };
}

const ask = (gateway: Gateway, url: string, user: keyof typeof tokens) =>
  gateway.app.inject({ url, headers: { authorization: `Bearer ${tokens[user]}` } });

describe("the team's daily refresh on Redis, two processes", () => {
  it("keeps what either process served in one record and refreshes the day once", async () => {
    const { clock, service, gateways } = await team();
    const [one, two] = gateways;
    try {
      expect((await ask(one, A, "alice")).statusCode).toBe(200);
      expect((await ask(two, B, "bob")).statusCode).toBe(200);
      expect(service.requests).toHaveLength(2);
      for (const g of gateways) await g.app.lanes.refresh?.flush();
      clock.t = DAY2 + HOUR + 60_000;
      const reports = await Promise.all(
        gateways.map((g) => g.app.lanes.refresh?.runIfDue() ?? Promise.resolve(undefined))
      );
      const ran = reports.filter((r) => r !== undefined);
      expect(ran).toHaveLength(1);
      expect(ran[0]).toMatchObject({ asked: 2, fetched: 2, failed: 0 });
      expect(service.requests).toHaveLength(4);
      // Either process serves the morning's requests from what the refresh stored.
      clock.t = DAY2 + 8 * HOUR;
      expect((await ask(two, A, "bob")).headers["x-cryptometrics-gateway"]).toBe("hit");
      expect((await ask(one, B, "alice")).headers["x-cryptometrics-gateway"]).toBe("hit");
      expect(service.requests).toHaveLength(4);
    } finally {
      await Promise.all(gateways.map((g) => g.close()));
    }
  });

  it("replays nothing from a record it did not seal", async () => {
    const { clock, service, gateways } = await team();
    try {
      // A record written straight into Redis under the gateway's key for it: the right shape, no valid seal.
      const key = storeKeys(hashOf(`${FAKE_SERVICE_URL}\n${TEAM_KEY}`, 24)).entry(
        "team-refresh\nused"
      );
      const forged = JSON.stringify({
        v: 1,
        requests: [
          { k: "x", op: "getProjectMetrics", p: { projectId: "aave" }, q: {}, u: "u", t: clock.t },
        ],
      });
      const raw = new Redis(redis.url);
      await raw.set(key, `1|${"0".repeat(64)}.${forged}`);
      raw.disconnect();
      clock.t = DAY2 + HOUR + 60_000;
      const reports = await Promise.all(
        gateways.map((g) => g.app.lanes.refresh?.runIfDue() ?? Promise.resolve(undefined))
      );
      expect(reports.filter((r) => r !== undefined)).toEqual([
        expect.objectContaining({ asked: 0 }),
      ]);
      expect(service.requests).toHaveLength(0);
    } finally {
      await Promise.all(gateways.map((g) => g.close()));
    }
  });
});
