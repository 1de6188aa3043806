/**
 * The team's daily refresh, through `app.inject()` on the test's clock against a service of the test's own: the
 * requests the team used yesterday are asked again once, an hour after the daily update, so this morning's are
 * hits; the record keeps each person's share and the week; a record nobody sealed replays nothing.
 */
import { FixedTokens } from "../../src/gateway/auth/tokens-file";
import { MAX_REFRESH_REQUESTS_PER_USER, REFRESH_USED_WITHIN_MS } from "../../src/gateway/bounds";
import { createGateway, type Gateway } from "../../src/gateway/server";
import { mergeUsed, REFRESH_USER } from "../../src/gateway/team-refresh";
import { FAKE_SERVICE_URL, fakeService, seriesHandler } from "./support/fake-service";

const TEAM_KEY = "cm_team_refresh_0123456789abcdef0123";
const tokens = { alice: "tok_alice_refresh_1", bob: "tok_bob_refresh_2" };
const HOUR = 3_600_000;
const DAY1_10AM = Date.UTC(2026, 10, 19, 10);
const DAY2 = Date.UTC(2026, 10, 20);

const REVENUE = "/v2/metrics/revenue?project_ids=aave,uniswap&start=2026-10-01&end=2026-10-31";
const PROJECTS = "/v2/projects";

function setUp(dailyRefresh = true) {
  const clock = { t: DAY1_10AM };
  const service = fakeService((url) =>
    url.pathname === PROJECTS ? { body: { data: [{ project_id: "aave" }] } } : seriesHandler(url)
  );
  const made = createGateway({
    serviceUrl: FAKE_SERVICE_URL,
    serviceKey: TEAM_KEY,
    verifiers: [new FixedTokens(Object.entries(tokens).map(([name, token]) => ({ name, token })))],
    fetch: service.fetch,
    now: () => clock.t,
    logLevel: "silent",
    dailyRefresh,
  });
  return { clock, service, made };
}

const ask = (gateway: Gateway, url: string, user: keyof typeof tokens = "alice") =>
  gateway.app.inject({ url, headers: { authorization: `Bearer ${tokens[user]}` } });

describe("the team's daily refresh", () => {
  it("asks yesterday's requests again an hour after the daily update, once, and this morning's are hits", async () => {
    const { clock, service, made } = setUp();
    const gateway = await made;
    try {
      expect((await ask(gateway, REVENUE)).statusCode).toBe(200);
      expect((await ask(gateway, PROJECTS, "bob")).statusCode).toBe(200);
      expect(service.requests).toHaveLength(2);
      const refresh = gateway.app.lanes.refresh;
      if (!refresh) throw new Error("no refresh");
      // Before it is due (00:30 UTC): nothing.
      clock.t = DAY2 + HOUR / 2;
      expect(await refresh.runIfDue()).toBeUndefined();
      expect(service.requests).toHaveLength(2);
      // Due (01:05 UTC): both asked again; the series, expired at the update, fetched; the catalogue, whose
      // lifetime is longer, still fresh.
      clock.t = DAY2 + HOUR + 5 * 60_000;
      const report = await refresh.runIfDue();
      expect(report).toEqual({ day: "2026-11-20", asked: 2, fetched: 1, fresh: 1, failed: 0 });
      expect(service.requests.slice(2).map((r) => `${r.url.pathname}${r.url.search}`)).toEqual([
        REVENUE,
      ]);
      // Claimed for the day: a second look asks nothing.
      expect(await refresh.runIfDue()).toBeUndefined();
      // 09:00: the team's requests are hits.
      clock.t = DAY2 + 9 * HOUR;
      const morning = await ask(gateway, REVENUE, "bob");
      expect(morning.headers["x-cryptometrics-gateway"]).toBe("hit");
      expect((await ask(gateway, PROJECTS)).headers["x-cryptometrics-gateway"]).toBe("hit");
      expect(service.requests).toHaveLength(3);
      // The replays count as the refresh's usage, not as a person's.
      const usage = await gateway.app.usage.day("2026-11-20");
      expect(usage.get(REFRESH_USER)?.upstream).toBe(1);
      expect(usage.get("alice")?.upstream ?? 0).toBe(0);
    } finally {
      await gateway.close();
    }
  });

  it("refreshes nothing a week after its last use, and nothing when turned off", async () => {
    const { clock, service, made } = setUp();
    const gateway = await made;
    try {
      await ask(gateway, REVENUE);
      clock.t = DAY1_10AM + REFRESH_USED_WITHIN_MS + 2 * 86_400_000;
      const report = await gateway.app.lanes.refresh?.runIfDue();
      expect(report?.asked).toBe(0);
      expect(service.requests).toHaveLength(1);
    } finally {
      await gateway.close();
    }
    const off = setUp(false);
    const quiet = await off.made;
    try {
      expect(quiet.app.lanes.refresh).toBeUndefined();
    } finally {
      await quiet.close();
    }
  });
});

describe("the record of used requests", () => {
  const used = (k: string, u: string, t: number) => ({ k, op: "listProjects", p: {}, q: {}, u, t });
  const now = DAY2;

  it("keeps each request once, at its last use, with who first asked it", () => {
    const merged = mergeUsed(
      [used("a", "alice", now - 3 * HOUR)],
      [used("a", "bob", now - HOUR)],
      now
    );
    expect(merged).toEqual([used("a", "alice", now - HOUR)]);
  });

  it("keeps at most a person's share of first-asked requests, the newest, whatever they flood", () => {
    const flood = Array.from({ length: MAX_REFRESH_REQUESTS_PER_USER + 50 }, (_, i) =>
      used(`m${i}`, "mallory", now - 1_000 + i)
    );
    const merged = mergeUsed([used("a", "alice", now - 5 * HOUR)], flood, now);
    expect(merged.filter((r) => r.u === "mallory")).toHaveLength(MAX_REFRESH_REQUESTS_PER_USER);
    expect(merged.filter((r) => r.u === "mallory")[0].k).toBe(
      `m${MAX_REFRESH_REQUESTS_PER_USER + 49}`
    );
    // Alice's request stays, older than every one of the flood.
    expect(merged.map((r) => r.k)).toContain("a");
  });

  it("drops what was last used more than the window ago", () => {
    const merged = mergeUsed(
      [used("old", "alice", now - REFRESH_USED_WITHIN_MS - 1), used("new", "alice", now - 1)],
      [],
      now
    );
    expect(merged.map((r) => r.k)).toEqual(["new"]);
  });
});
