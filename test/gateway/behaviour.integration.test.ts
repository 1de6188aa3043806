/**
 * How the gateway behaves when the service is slow, failing or busy: the previous answer when fetching afresh
 * fails (stale-if-error), "try again" rather than a caller held past its patience, and fairness between the
 * people of a team (one analyst's bulk refresh does not starve another's single cell).
 */
import { startSimulator, type RunningSimulator } from "../../src/simulator";
import { startTestGateway, type TestGateway } from "./support/in-process";

const SERVICE_KEY = "cm_service_key_behaviour_31f0";
const tokens = { alice: "tok_alice_4d1", bob: "tok_bob_77e" };
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
      retry: { maxAttempts: 1 },
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
  let simulator: RunningSimulator;
  let projects: string[];

  beforeAll(async () => {
    simulator = await startSimulator({
      port: 0,
      rateLimit: null,
      apiKeys: [SERVICE_KEY],
      latencyMs: 20,
    });
    const list = (await (
      await fetch(`${simulator.url}/v2/projects`, {
        headers: { authorization: `Bearer ${SERVICE_KEY}` },
      })
    ).json()) as { data: Array<{ project_id: string }> };
    projects = list.data.map((p) => p.project_id).slice(0, 30);
  });
  afterAll(() => simulator.close());

  it("takes a colleague's single cell between one analyst's bulk requests, not after all of them", async () => {
    const gw = await startTestGateway({
      serviceUrl: simulator.url,
      serviceKey: SERVICE_KEY,
      tokens,
      concurrency: 1,
    });
    try {
      simulator.clearLog();
      const bulk = projects.map((p) =>
        get(
          `${gw.url}/v2/projects/${p}/metrics?metric_ids=fees&start=2025-01-01&end=2025-01-31`,
          as("alice")
        )
      );
      await new Promise((r) => setTimeout(r, 60));
      const startedBefore = simulator.requestLog.length;
      const single = await get(
        `${gw.url}/v2/metrics/revenue?project_ids=aave&start=2025-01-01&end=2025-01-01`,
        as("bob")
      );
      expect(single.status).toBe(200);
      await Promise.all(bulk);
      const order = simulator.requestLog.map((r) => r.path);
      const position = order.indexOf("/v2/metrics/revenue");
      // First in line after the request under way (first in, first out would have put it 31st).
      expect(position).toBeLessThanOrEqual(startedBefore + 1);
      expect(order).toHaveLength(31);
    } finally {
      await gw.close();
    }
  });

  it("lets no one user start more than their share of the budget per window", async () => {
    const gw = await startTestGateway({
      serviceUrl: simulator.url,
      serviceKey: SERVICE_KEY,
      tokens,
      rateLimit: 60,
      userRate: 3,
      windowMs: 1_000,
    });
    try {
      simulator.clearLog();
      const bulk = projects
        .slice(0, 9)
        .map((p) =>
          get(
            `${gw.url}/v2/projects/${p}/metrics?metric_ids=revenue&start=2025-02-01&end=2025-02-28`,
            as("alice")
          )
        );
      await new Promise((r) => setTimeout(r, 100));
      await get(
        `${gw.url}/v2/metrics/tvl?project_ids=curve&start=2025-02-01&end=2025-02-01`,
        as("bob")
      );
      const answers = await Promise.all(bulk);
      expect(answers.every((a) => a.status === 200)).toBe(true);
      const alices = simulator.requestLog.filter(
        (r) => r.path.endsWith("/metrics") && r.path.startsWith("/v2/projects/")
      );
      // No window of one second (rate-limiter-flexible's fixed windows: at most two of them) holds more than 2 × 3.
      for (const r of alices) {
        const inWindow = alices.filter((x) => x.at >= r.at && x.at < r.at + 1_000).length;
        expect(inWindow).toBeLessThanOrEqual(6);
      }
      // Bob was not behind Alice's capped requests: his came before her last ones.
      const order = simulator.requestLog.map((r) => r.path);
      expect(order.indexOf("/v2/metrics/tvl")).toBeLessThan(order.length - 3);
    } finally {
      await gw.close();
    }
  });
});
