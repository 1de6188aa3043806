/**
 * How the gateway behaves when the service is slow, failing or busy: the previous answer when fetching afresh
 * fails (stale-if-error), "try again" rather than a caller held past its patience, and fairness between the
 * people of a team (one analyst's bulk refresh does not starve another's single cell).
 */
import { FixedTokens } from "../../src/gateway/auth/tokens-file";
import { createGateway, type Gateway } from "../../src/gateway/server";
import { startSimulator, type RunningSimulator } from "../../src/simulator";
import { FAKE_SERVICE_URL, fakeService, seriesHandler } from "./support/fake-service";
import { startTestGateway, type TestGateway } from "./support/in-process";

const SERVICE_KEY = "cm_service_key_behaviour_31f0";
const tokens = { alice: "tok_alice_4d1", bob: "tok_bob_77e", carol: "tok_carol_a03" };
const as = (user: keyof typeof tokens) => ({ authorization: `Bearer ${tokens[user]}` });

async function get(url: string, headers: Record<string, string>) {
  const response = await fetch(url, { headers });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as unknown,
  };
}

describe("stale-if-error", () => {
  let simulator: RunningSimulator;
  let gw: TestGateway;
  let offset = 0;

  beforeAll(async () => {
    simulator = await startSimulator({
      port: 0,
      rateLimit: null,
      apiKeys: [SERVICE_KEY],
      today: "2026-11-20",
    });
    gw = await startTestGateway({
      serviceUrl: simulator.url,
      serviceKey: SERVICE_KEY,
      tokens,
      now: () => Date.now() + offset,
    });
  });
  afterAll(async () => {
    await gw.close();
    await simulator.close();
  });

  it("serves the previous answer, marked stale, when the service fails after the daily update", async () => {
    const series = `${gw.url}/v2/metrics/fees?project_ids=aave,curve&start=2026-10-01&end=2026-10-03`;
    const whole = `${gw.url}/v2/projects/aave/financial-statement`;
    const before = [await get(series, as("alice")), await get(whole, as("alice"))];
    expect(before.map((a) => a.headers.get("x-cryptometrics-gateway"))).toEqual([
      "fetched",
      "fetched",
    ]);

    offset += 25 * 3_600_000; // past the next daily update: the answers are no longer fresh
    simulator.setKnobs({ fraction5xx: 1 });
    const after = [await get(series, as("bob")), await get(whole, as("bob"))];
    for (const [i, answer] of after.entries()) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(before[i].body);
      expect(answer.headers.get("x-cryptometrics-gateway")).toBe("stale");
      expect(answer.headers.get("warning")).toMatch(/^110 - "Response is Stale"/);
    }

    // Without anything earlier to show, the failure itself: the service's 5xx as 502, never cached.
    const unseen = await get(
      `${gw.url}/v2/metrics/fees?project_ids=aave&start=2026-01-01&end=2026-01-02`,
      as("bob")
    );
    expect(unseen.status).toBe(502);
    simulator.setKnobs({ fraction5xx: 0 });
    offset += 6_000; // past the failure's few seconds
    const fresh = await get(series, as("bob"));
    expect(fresh.headers.get("x-cryptometrics-gateway")).toBe("fetched");
    expect(fresh.body).toEqual(before[0].body);
  });
});

describe("a slow service", () => {
  it("answers 503 with Retry-After instead of holding a caller past its patience, and the fetch goes on", async () => {
    const simulator = await startSimulator({
      port: 0,
      rateLimit: null,
      apiKeys: [SERVICE_KEY],
      latencyMs: 1_000,
    });
    const gw = await startTestGateway({
      serviceUrl: simulator.url,
      serviceKey: SERVICE_KEY,
      tokens,
      holdMs: 200,
    });
    try {
      const url = `${gw.url}/v2/metrics/tvl?project_ids=aave&start=2025-03-01&end=2025-03-02`;
      const first = await get(url, as("alice"));
      expect(first.status).toBe(503);
      expect(first.headers.get("retry-after")).toBe("2");
      // Real time: a separate gateway process on its own clock, asked again after the Retry-After it gave.
      await new Promise((r) => setTimeout(r, 1_500));
      const retry = await get(url, as("alice"));
      expect(retry.status).toBe(200);
      expect(retry.headers.get("x-cryptometrics-gateway")).toBe("hit");
      expect(simulator.requestLog.filter((r) => r.method === "GET")).toHaveLength(1);
    } finally {
      await gw.close();
      await simulator.close();
    }
  });
});

describe("fairness", () => {
  /**
   * The order upstream requests were sent in, one under way at a time and each let go by the test: `first` is
   * asked, then `then` once the first request is under way and `then`'s user is queued.
   */
  async function order(
    first: (gateway: Gateway) => Array<Promise<unknown>>,
    then: (gateway: Gateway) => Promise<unknown>,
    waiting: keyof typeof tokens
  ): Promise<string[]> {
    const service = fakeService(seriesHandler);
    const gateway = await createGateway({
      serviceUrl: FAKE_SERVICE_URL,
      serviceKey: SERVICE_KEY,
      verifiers: [
        new FixedTokens(Object.entries(tokens).map(([name, token]) => ({ name, token }))),
      ],
      fetch: service.fetch,
      concurrency: 1,
      logLevel: "silent",
    });
    const settle = async (check: () => boolean): Promise<void> => {
      for (let i = 0; i < 5_000 && !check(); i++) await new Promise((r) => setImmediate(r));
    };
    try {
      service.hold(true);
      const asked = first(gateway);
      await settle(() => service.held() === 1);
      const late = then(gateway);
      await settle(() => gateway.app.lanes.team.answers.queue.needsOf(waiting) === 1);
      while (service.requests.length < asked.length + 1) {
        await settle(() => service.held() > 0);
        service.releaseAll();
      }
      service.hold(false);
      service.releaseAll();
      await Promise.all([...asked, late]);
      return service.requests.map((r) => r.url.pathname.split("/")[3] ?? r.url.pathname);
    } finally {
      await gateway.close();
    }
  }
  const inject = (gateway: Gateway, user: keyof typeof tokens, url: string) =>
    gateway.app.inject({ url, headers: { authorization: `Bearer ${tokens[user]}` } });
  const day = "start=2026-01-01&end=2026-01-01";

  it("takes a colleague's single cell right after the request under way, not after an analyst's bulk", async () => {
    const sent = await order(
      (gateway) =>
        Array.from({ length: 30 }, (_, i) =>
          inject(gateway, "alice", `/v2/metrics/m${i}?project_ids=aave&${day}`)
        ),
      (gateway) => inject(gateway, "bob", `/v2/metrics/single?project_ids=aave&${day}`),
      "bob"
    );
    expect(sent).toHaveLength(31);
    // First in, first out would have put it 31st.
    expect(sent.indexOf("single")).toBe(1);
  });

  it("gives a newcomer the next turn whatever two greedy users have queued: the shares add up to the budget, no more", async () => {
    const sent = await order(
      (gateway) =>
        Array.from({ length: 20 }, (_, i) => [
          inject(gateway, "alice", `/v2/metrics/a${i}?project_ids=aave&${day}`),
          inject(gateway, "bob", `/v2/metrics/b${i}?project_ids=aave&${day}`),
        ]).flat(),
      (gateway) => inject(gateway, "carol", `/v2/metrics/third?project_ids=aave&${day}`),
      "carol"
    );
    // Before anyone's second turn (Bob's first may come first: he was waiting for it too).
    const third = sent.indexOf("third");
    expect(third).toBeGreaterThan(0);
    expect(third).toBeLessThan(sent.indexOf("a1"));
    expect(third).toBeLessThan(sent.indexOf("b1"));
    // Alice and Bob took turns meanwhile: neither got more than one request ahead of the other.
    const firstTen = sent.slice(2, 12);
    const a = firstTen.filter((m) => m.startsWith("a")).length;
    expect(Math.abs(a - (firstTen.length - a))).toBeLessThanOrEqual(1);
  });
});
