/**
 * One fetch for everybody, through `app.inject()` against a service of the test's own whose answers the test
 * holds and lets go: a request whose series are partly being fetched over other days goes whole, as asked (the
 * race that made a team cost more than one analyst), many callers of one thing cost one request, and nothing is
 * locked while it waits for its turn.
 */
import { FixedTokens } from "../../src/gateway/auth/tokens-file";
import { createGateway, type Gateway } from "../../src/gateway/server";
import {
  FAKE_SERVICE_URL,
  fakeService,
  seriesHandler,
  type FakeService,
} from "./support/fake-service";

const TEAM_KEY = "cm_team_sharing_0123456789abcdef0123";
const tokens = {
  alice: "tok_alice_sharing_1",
  bob: "tok_bob_sharing_2",
  carol: "tok_carol_sharing_3",
};

async function gatewayOn(
  service: FakeService,
  extra: { rateLimit?: number } = {}
): Promise<Gateway> {
  return createGateway({
    serviceUrl: FAKE_SERVICE_URL,
    serviceKey: TEAM_KEY,
    verifiers: [new FixedTokens(Object.entries(tokens).map(([name, token]) => ({ name, token })))],
    fetch: service.fetch,
    logLevel: "silent",
    ...extra,
  });
}

const ask = (gateway: Gateway, url: string, user: keyof typeof tokens = "alice") =>
  gateway.app.inject({ url, headers: { authorization: `Bearer ${tokens[user]}` } });

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 2_000 && !check(); i++) await new Promise((r) => setImmediate(r));
  if (!check()) throw new Error("never happened");
}

describe("answers shared across request forms", () => {
  it("fetches a request whole when part of it is being fetched over other days: two forms, two requests, never three", async () => {
    const service = fakeService(seriesHandler);
    const gateway = await gatewayOn(service);
    try {
      service.hold(true);
      // A COMPS-like request: revenue over a fixed year, across projects (§4.11).
      const across = ask(
        gateway,
        "/v2/metrics/revenue?project_ids=aave&start=2025-10-01&end=2026-09-30"
      );
      await until(() => service.held() === 1);
      // A STATEMENT-like request of the same project, open-ended, naming revenue among others (§4.3).
      const project = ask(
        gateway,
        "/v2/projects/aave/metrics?metric_ids=fees,revenue,tvl&start=2025-10-01",
        "bob"
      );
      await until(() => service.held() === 2);
      service.hold(false);
      service.releaseAll();
      const [a, b] = await Promise.all([across, project]);
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
      expect(
        service.requests.map(
          (r) =>
            `${r.url.pathname}?${r.url.searchParams.get("metric_ids") ?? r.url.searchParams.get("project_ids")}`
        )
      ).toEqual([
        "/v2/metrics/revenue?aave",
        // revenue stays in: one request as the caller asked, not fees,tvl now and revenue after the other's answer.
        "/v2/projects/aave/metrics?fees,revenue,tvl",
      ]);
      // Both fetches were kept (merged, not one over the other): the year's revenue is a hit from either form.
      const again = await ask(
        gateway,
        "/v2/projects/aave/metrics?metric_ids=revenue&start=2025-10-01&end=2026-09-30",
        "carol"
      );
      expect(again.headers["x-cryptometrics-gateway"]).toBe("hit");
      expect(service.requests).toHaveLength(2);
    } finally {
      await gateway.close();
    }
  });

  it("costs the service one request for twelve callers asking one thing at once", async () => {
    const service = fakeService(seriesHandler);
    const gateway = await gatewayOn(service);
    try {
      service.hold(true);
      const callers = Array.from({ length: 12 }, (_, i) =>
        ask(
          gateway,
          "/v2/metrics/fees?project_ids=aave,curve&start=2026-03-01&end=2026-03-31",
          (["alice", "bob", "carol"] as const)[i % 3]
        )
      );
      await until(() => service.held() === 1);
      service.hold(false);
      service.releaseAll();
      const answers = await Promise.all(callers);
      expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
      expect(new Set(answers.map((a) => a.body)).size).toBe(1);
      expect(service.requests).toHaveLength(1);
      expect(
        answers.filter((a) => a.headers["x-cryptometrics-gateway"] === "fetched")
      ).toHaveLength(1);
    } finally {
      await gateway.close();
    }
  });
});

describe("the queue", () => {
  it("locks nothing while a demand waits for a slot of the budget or for its turn", async () => {
    const service = fakeService(seriesHandler);
    // One request per window: the second waits for the budget, the third behind it.
    const gateway = await gatewayOn(service, { rateLimit: 1 });
    try {
      const first = await ask(
        gateway,
        "/v2/metrics/fees?project_ids=aave&start=2026-01-01&end=2026-01-01"
      );
      expect(first.statusCode).toBe(200);
      const lane = gateway.app.lanes.team;
      const waiting = ask(
        gateway,
        "/v2/metrics/tvl?project_ids=aave&start=2026-01-01&end=2026-01-01",
        "bob"
      );
      const queued = ask(
        gateway,
        "/v2/metrics/earnings?project_ids=aave&start=2026-01-01&end=2026-01-01",
        "carol"
      );
      await until(() => lane.answers.pendingFetches === 2 || lane.answers.queue.queued === 1);
      // The one waiting for a slot and the one waiting for its turn: neither holds a lock.
      expect(lane.answers.locksHeld).toBe(0);
      expect(service.requests).toHaveLength(1);
      void waiting;
      void queued;
    } finally {
      await gateway.close();
    }
  });
});
