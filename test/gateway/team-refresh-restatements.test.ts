/**
 * The night's refresh finds restatements for the team: a figure the service restates after the team first saw it
 * is fetched again by the refresh (on the test's clock, through `app.inject()`), recorded in the team's record at
 * the refresh's instant, and listed by the morning's first reader, whose own request is a hit.
 */
import { FixedTokens } from "../../src/gateway/auth/tokens-file";
import { createGateway } from "../../src/gateway/server";
import { FAKE_SERVICE_URL, fakeService } from "./support/fake-service";

const TEAM_KEY = "cm_team_restated_0123456789abcdef0123";
const tokens = { alice: "tok_alice_restated_1", bob: "tok_bob_restated_2" };
const HOUR = 3_600_000;
const DAY1_10AM = Date.UTC(2026, 10, 19, 10);
const DAY2 = Date.UTC(2026, 10, 20);
const REVENUE = "/v2/metrics/revenue?project_ids=aave&start=2026-10-14&end=2026-10-16";

it("records what the night's refresh finds restated, and the morning's reader lists it", async () => {
  const clock = { t: DAY1_10AM };
  let served = 0;
  // 2026-10-15 is restated from 100 to 125 once it has been served.
  const service = fakeService((url) => {
    if (url.pathname !== "/v2/metrics/revenue") return undefined;
    const restated = served++ > 0;
    return {
      body: {
        data: ["2026-10-16", "2026-10-15", "2026-10-14"].map((day) => ({
          timestamp: `${day}T00:00:00.000Z`,
          project_id: "aave",
          project_name: "Aave",
          metric_id: "revenue",
          value: day === "2026-10-15" && restated ? 125 : 100,
        })),
      },
    };
  });
  const gateway = await createGateway({
    serviceUrl: FAKE_SERVICE_URL,
    serviceKey: TEAM_KEY,
    verifiers: [new FixedTokens(Object.entries(tokens).map(([name, token]) => ({ name, token })))],
    fetch: service.fetch,
    now: () => clock.t,
    logLevel: "silent",
    dailyRefresh: true,
  });
  const ask = (url: string, user: keyof typeof tokens) =>
    gateway.app.inject({ url, headers: { authorization: `Bearer ${tokens[user]}` } });
  try {
    expect((await ask(REVENUE, "alice")).statusCode).toBe(200);
    const refresh = gateway.app.lanes.refresh;
    if (!refresh) throw new Error("no refresh");
    clock.t = DAY2 + HOUR + 5 * 60_000;
    expect(await refresh.runIfDue()).toMatchObject({ asked: 1, fetched: 1 });

    clock.t = DAY2 + 9 * HOUR;
    const morning = await ask(REVENUE, "bob");
    expect(morning.headers["x-cryptometrics-gateway"]).toBe("hit");
    const listed = await ask("/gateway/v1/restatements?projects=aave&metrics=revenue", "bob");
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toMatchObject({
      data: {
        changes: [
          {
            project_id: "aave",
            metric_id: "revenue",
            day: "2026-10-15",
            before: 100,
            after: 125,
            before_seen_at: new Date(DAY1_10AM).toISOString(),
            seen_at: new Date(DAY2 + HOUR + 5 * 60_000).toISOString(),
          },
        ],
      },
    });
    expect(service.requests).toHaveLength(2);
  } finally {
    await gateway.close();
  }
});
