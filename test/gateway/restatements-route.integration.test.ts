/**
 * The team's record of restatements through a gateway in this process (memory, no Redis): a restating simulator
 * behind it, a figure fetched, the next day's fetch bringing the restated one, and the route listing the change
 * once, to callers of the lane that recorded it; refusals in fixed words.
 */
import { FixedTokens } from "../../src/gateway/auth/tokens-file";
import type { Verifier } from "../../src/gateway/auth/verifier";
import { startSimulator, type RunningSimulator } from "../../src/simulator";
import { startTestGateway, type TestGateway } from "./support/in-process";

const SERVICE_KEY = "team-service-key";
/** Carol is served with a key of her own (a verifier names it): her lane, her lane's record. */
const CAROL_KEY = "carol-own-service-key";
const tokens = {
  alice: "tok-alice-0123456789",
  bob: "tok-bob-0123456789",
  carol: "tok-carol-0123456789",
};
const carolVerifier: Verifier = {
  name: "carol's key",
  async verify(credential) {
    return credential === tokens.carol
      ? { user: "carol", via: "token", serviceKeyId: "carol" }
      : undefined;
  },
  describe: () => ({}),
  close: () => undefined,
};
const DAY = "2024-02-15";
const FACTOR = 1.25;

const as = (name: keyof typeof tokens) => ({ authorization: `Bearer ${tokens[name]}` });

async function get(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("the team's record of restatements, through one gateway without Redis", () => {
  let simulator: RunningSimulator;
  let gw: TestGateway;
  let offset = 0;

  beforeAll(async () => {
    simulator = await startSimulator({
      port: 0,
      rateLimit: null,
      apiKeys: [SERVICE_KEY, CAROL_KEY],
      restatements: {
        mode: "served",
        days: [
          { projectId: "aave", metricId: "fees", day: DAY, factor: FACTOR },
          { projectId: "aave", metricId: "revenue", day: DAY, factor: FACTOR },
        ],
      },
    });
    gw = await startTestGateway({
      serviceUrl: simulator.url,
      serviceKey: SERVICE_KEY,
      verifiers: [
        new FixedTokens([
          { name: "alice", token: tokens.alice },
          { name: "bob", token: tokens.bob },
        ]),
        carolVerifier,
      ],
      serviceKeys: async (id) => (id === "carol" ? CAROL_KEY : undefined),
      now: () => Date.now() + offset,
    });
  });
  afterAll(async () => {
    await gw.close();
    await simulator.close();
  });

  it("lists the change the next day's fetch found, once, with before and after", async () => {
    const series = `${gw.url}/v2/metrics/fees?project_ids=aave,curve&start=2024-02-14&end=2024-02-16`;
    const firstAt = Date.now();
    const first = await get(series, as("alice"));
    expect(first.status).toBe(200);
    const valueOf = (body: Record<string, unknown>) =>
      (body.data as Array<{ project_id: string; timestamp: string; value: number }>).find(
        (r) => r.project_id === "aave" && r.timestamp.startsWith(DAY)
      )!.value;
    const before = Number(valueOf(first.body));
    // Carol, on her own key, asks for revenue: her lane alone holds it.
    const revenue = `${gw.url}/v2/metrics/revenue?project_ids=aave&start=2024-02-14&end=2024-02-16`;
    expect((await get(revenue, as("carol"))).status).toBe(200);
    const record = `${gw.url}/gateway/v1/restatements?projects=aave,curve&metrics=fees`;
    expect((await get(record, as("bob"))).body).toEqual({
      data: { changes: [], truncated: false, kept_since: null },
    });

    offset += 25 * 3_600_000; // past the service's daily update: the entry is fetched again
    const refetchAt = Date.now() + offset;
    const second = await get(series, as("bob"));
    const after = Number(valueOf(second.body));
    expect(after).toBeCloseTo(before * FACTOR, 6);
    // Asked again the same day: served from the entry, nothing new recorded.
    await get(series, as("alice"));
    expect((await get(revenue, as("carol"))).status).toBe(200);

    const listed = await get(record, as("alice"));
    expect(listed.status).toBe(200);
    const data = listed.body.data as { changes: Array<Record<string, unknown>> };
    expect(data.changes).toHaveLength(1);
    const change = data.changes[0];
    expect(change).toMatchObject({
      project_id: "aave",
      product_id: "",
      metric_id: "fees",
      filter: "",
      member: "",
      day: DAY,
      before,
      after,
      request: expect.stringMatching(
        /^GET \/v2\/metrics\/fees for 2 projects, 2024-02-14 → 2024-02-16/
      ),
    });
    // Before: first seen by the first fetch (the gateway's clock then); after: by the refetch.
    expect(Date.parse(change.before_seen_at as string)).toBeGreaterThanOrEqual(firstAt);
    expect(Date.parse(change.before_seen_at as string)).toBeLessThan(refetchAt - 3_600_000);
    expect(Date.parse(change.seen_at as string)).toBeGreaterThanOrEqual(refetchAt);
    // Nothing secret in it: neither the service key nor a token.
    expect(JSON.stringify(listed.body)).not.toMatch(/team-service-key|tok-/);

    // Each lane's record is its own: the team's lists no revenue, carol's no fees.
    const both = `${gw.url}/gateway/v1/restatements?projects=aave&metrics=fees,revenue`;
    const team = (await get(both, as("alice"))).body.data as {
      changes: Array<{ metric_id: string }>;
    };
    expect(team.changes.map((c) => c.metric_id)).toEqual(["fees"]);
    const own = (await get(both, as("carol"))).body.data as {
      changes: Array<{ metric_id: string }>;
    };
    expect(own.changes.map((c) => c.metric_id)).toEqual(["revenue"]);

    // Filtered: another metric, or a day after the change, lists nothing.
    const other = await get(
      `${gw.url}/gateway/v1/restatements?projects=aave&metrics=revenue`,
      as("alice")
    );
    expect((other.body.data as { changes: unknown[] }).changes).toEqual([]);
    const tomorrow = new Date(Date.now() + offset + 86_400_000).toISOString().slice(0, 10);
    const later = await get(`${record}&since=${tomorrow}`, as("alice"));
    expect((later.body.data as { changes: unknown[] }).changes).toEqual([]);
  });

  it("needs a caller and a well-formed question", async () => {
    const base = `${gw.url}/gateway/v1/restatements`;
    expect((await get(`${base}?projects=aave&metrics=fees`)).status).toBe(401);
    expect((await get(`${base}?metrics=fees`, as("alice"))).status).toBe(400);
    expect(
      (await get(`${base}?projects=aave&metrics=fees&since=yesterday`, as("alice"))).status
    ).toBe(400);
    expect((await get(`${base}?projects=a/b&metrics=fees`, as("alice"))).status).toBe(400);
    expect((await get(`${base}?projects=aave&metrics=fees&extra=1`, as("alice"))).status).toBe(400);
  });
});
