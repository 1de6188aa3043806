/**
 * /readyz's budget on Redis, as a team's monitoring reads it: the requests of the last window across the
 * processes, and none once the team has been idle a window (the record a process last read ages like the
 * service's own count). The clock is the test's (jumped, never waited for); Redis is the worker's real server.
 */
import { randomBytes } from "node:crypto";
import { FixedTokens } from "../../src/gateway/auth/tokens-file";
import { createGateway, type Gateway } from "../../src/gateway/server";
import { fakeClock, MIDDAY_2026 } from "../support/clock";
import { FAKE_SERVICE_URL, fakeService, seriesHandler } from "./support/fake-service";
import { workerRedis } from "./support/worker-redis";

const TEAM_KEY = `cm_team_${randomBytes(16).toString("hex")}`;
const TOKEN = `tok_ann_${randomBytes(8).toString("hex")}`;

describe("/readyz on Redis", () => {
  it("counts the team's requests of the last window on every process, and none once it has been idle a window", async () => {
    const redis = await workerRedis();
    const time = fakeClock(MIDDAY_2026);
    const service = fakeService(seriesHandler);
    const gateways: Gateway[] = [];
    try {
      for (let i = 0; i < 2; i++)
        gateways.push(
          await createGateway({
            serviceUrl: FAKE_SERVICE_URL,
            serviceKey: TEAM_KEY,
            verifiers: [new FixedTokens([{ name: "ann", token: TOKEN }])],
            redisUrl: redis.url,
            fetch: service.fetch,
            now: time.now,
            logLevel: "silent",
          })
        );
      const ask = async (gateway: Gateway, url: string) => {
        const answer = await gateway.app.inject({
          url,
          headers: { authorization: `Bearer ${TOKEN}` },
        });
        return {
          status: answer.statusCode,
          json: JSON.parse(answer.body) as Record<string, unknown>,
        };
      };
      const days = ["2026-01-05", "2026-02-05", "2026-03-05", "2026-04-05"];
      for (const [i, day] of days.entries())
        expect(
          (await ask(gateways[i % 2], `/v2/metrics/fees?project_ids=aave&start=${day}&end=${day}`))
            .status
        ).toBe(200);
      expect(service.requests).toHaveLength(4);
      // Either process says what the team used (the shared record), not only its own two.
      await ask(gateways[0], "/v2/metrics/fees?project_ids=aave&start=2026-01-05&end=2026-01-05");
      for (const gateway of gateways)
        expect((await ask(gateway, "/readyz")).json).toMatchObject({
          status: "ready",
          store: "redis",
          budget: { limit: 60, inForce: 60, used: 4 },
        });
      time.jump(61_000);
      for (const gateway of gateways)
        expect((await ask(gateway, "/readyz")).json).toMatchObject({
          budget: { limit: 60, inForce: 60, used: 0 },
        });
    } finally {
      for (const gateway of gateways) await gateway.close();
    }
  });
});
