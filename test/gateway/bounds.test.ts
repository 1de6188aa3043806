/**
 * The gateway's bounds through `app.inject()` on the test's held clock (nothing waits for real): what /readyz says
 * of the budget while the team is idle, lanes closed when idle or replaced, an answer too large to keep, failures
 * remembered per request and per key.
 */
import { randomBytes } from "node:crypto";
import { MemoryKeyRecords, UserKeys } from "../../src/gateway/auth/user-keys";
import { FixedTokens } from "../../src/gateway/auth/tokens-file";
import { MAX_LANES, MAX_USER_CACHE_BYTES_PER_DAY } from "../../src/gateway/bounds";
import { allowanceOf } from "../../src/gateway/lanes";
import { createGateway, type Gateway } from "../../src/gateway/server";
import { fakeClock, MIDDAY_2026, type FakeClock } from "../support/clock";
import {
  FAKE_SERVICE_URL,
  fakeService,
  seriesHandler,
  type FakeService,
} from "./support/fake-service";
import { signedIn } from "./support/signed-in";

const TEAM_KEY = `cm_team_${randomBytes(16).toString("hex")}`;
const TOKEN = `tok_bob_${randomBytes(8).toString("hex")}`;

interface Lab {
  gateway: Gateway;
  service: FakeService;
  time: FakeClock;
  /** A request, its answer driven to the end on the held clock (the fetch's flush window is a timer). */
  ask: (
    url: string,
    token?: string,
    init?: { method?: string; payload?: unknown }
  ) => Promise<Answer>;
}

interface Answer {
  status: number;
  json: Record<string, unknown>;
}

async function lab(handler = seriesHandler): Promise<Lab> {
  const time = fakeClock(MIDDAY_2026, { held: true });
  const service = fakeService(handler);
  const gateway = await createGateway({
    serviceUrl: FAKE_SERVICE_URL,
    serviceKey: TEAM_KEY,
    verifiers: [new FixedTokens([{ name: "bob", token: TOKEN }]), signedIn],
    userKeys: new UserKeys(new MemoryKeyRecords(), randomBytes(32), {
      minKeyLength: TEAM_KEY.length,
    }),
    fetch: service.fetch,
    now: time.now,
    timers: time.timers,
    logLevel: "silent",
  });
  const ask: Lab["ask"] = async (url, token = TOKEN, init = {}) => {
    let done = false;
    const answer = gateway.app
      .inject({
        method: (init.method ?? "GET") as "GET",
        url,
        headers: { authorization: `Bearer ${token}` },
        ...(init.payload === undefined ? {} : { payload: init.payload as object }),
      })
      .finally(() => (done = true));
    // The held clock moves only as far as the request needs: to a timer due within 10 ms (a batch's window),
    // or, once nothing else has moved for a while, to the next timer due.
    for (let idle = 0; !done && idle < 10_000; idle++) {
      await new Promise((r) => setImmediate(r));
      const due = time.nextDue();
      if (done || due === undefined) continue;
      if (due - time.now() <= 10 || idle > 200) {
        await time.advance(due - time.now());
        idle = 0;
      }
    }
    const response = await answer;
    return {
      status: response.statusCode,
      json: JSON.parse(response.body) as Record<string, unknown>,
    };
  };
  return { gateway, service, time, ask };
}

describe("what /readyz says of the budget", () => {
  it("counts the requests of the last window, and none once the team has been idle a window", async () => {
    const { gateway, service, time, ask } = await lab();
    try {
      for (const day of ["2026-01-05", "2026-02-05", "2026-03-05"])
        expect(
          (await ask(`/v2/metrics/fees?project_ids=aave&start=${day}&end=${day}`)).status
        ).toBe(200);
      expect(service.requests).toHaveLength(3);
      const busy = (await ask("/readyz")).json.budget as Record<string, number>;
      expect(busy).toMatchObject({ limit: 60, inForce: 60, used: 3 });
      await time.advance(61_000);
      const idle = (await ask("/readyz")).json.budget as Record<string, number>;
      expect(idle).toMatchObject({ limit: 60, inForce: 60, used: 0 });
    } finally {
      await gateway.close();
    }
  });
});

describe("lanes", () => {
  it("keeps one lane per person whatever they register, and closes one that is replaced, removed or idle", async () => {
    const { gateway, service, time, ask } = await lab();
    const lanes = async () => (await ask("/readyz")).json.lanes;
    const keyOf = () => `cm_own_${randomBytes(20).toString("hex")}`;
    const register = (key: string) =>
      ask("/gateway/v1/me/key", "signed-in:alice", { method: "PUT", payload: { key } });
    const cell = (day: string) =>
      ask(`/v2/metrics/fees?project_ids=aave&start=${day}&end=${day}`, "signed-in:alice");
    try {
      expect(await lanes()).toBe(1);
      const keys = [keyOf(), keyOf(), keyOf()];
      for (const [i, key] of keys.entries()) {
        expect((await register(key)).status).toBe(200);
        expect((await cell(`2026-01-0${i + 1}`)).status).toBe(200);
        // The team's lane and Alice's newest: a replaced key's lane is gone.
        expect(await lanes()).toBe(2);
      }
      expect(service.requests.map((r) => r.key)).toEqual(keys);
      expect(
        (await ask("/gateway/v1/me/key", "signed-in:alice", { method: "DELETE" })).status
      ).toBe(200);
      expect(await lanes()).toBe(1);
      expect((await register(keyOf())).status).toBe(200);
      expect((await cell("2026-01-09")).status).toBe(200);
      expect(await lanes()).toBe(2);
      // Fifteen minutes without a request (and the sweep's minute): the lane is closed, opened again when used.
      await time.advance(15 * 60_000 + 60_000);
      expect(await lanes()).toBe(1);
      expect((await cell("2026-01-09")).status).toBe(200);
      expect(await lanes()).toBe(2);
    } finally {
      await gateway.close();
    }
  });
});

describe("lanes in all", () => {
  it("serves MAX_LANES keys at once: the least recently used idle one gives way, none while all are busy", async () => {
    const { gateway, service, ask } = await lab();
    const lanes = async () => (await ask("/readyz")).json.lanes;
    const cell = (user: string, day = "2026-01-05") =>
      ask(`/v2/metrics/fees?project_ids=aave&start=${day}&end=${day}`, `signed-in:${user}`);
    const users = Array.from({ length: MAX_LANES }, (_, i) => `user${i}`);
    try {
      // The team's lane and 63 people's own keys: as many as it serves at once.
      for (const user of users.slice(0, MAX_LANES - 1)) {
        const key = `cm_own_${randomBytes(20).toString("hex")}`;
        await ask("/gateway/v1/me/key", `signed-in:${user}`, { method: "PUT", payload: { key } });
        expect((await cell(user)).status).toBe(200);
      }
      expect(await lanes()).toBe(MAX_LANES);
      // One more: the lane used longest ago (user0's) is closed for it; user0 is served again when back.
      const last = users[MAX_LANES - 1];
      await ask("/gateway/v1/me/key", `signed-in:${last}`, {
        method: "PUT",
        payload: { key: `cm_own_${randomBytes(20).toString("hex")}` },
      });
      expect((await cell(last)).status).toBe(200);
      expect(await lanes()).toBe(MAX_LANES);
      expect((await cell("user0", "2026-01-06")).status).toBe(200);
      expect(await lanes()).toBe(MAX_LANES);
      // Every lane busy (the service holds every answer): a new key waits its turn, told so (503), nothing closed.
      service.hold(true);
      const pending = users.slice(1).map((user) =>
        gateway.app.inject({
          url: "/v2/metrics/fees?project_ids=aave&start=2026-02-01&end=2026-02-01",
          headers: { authorization: `Bearer signed-in:${user}` },
        })
      );
      for (let i = 0; i < 5_000 && service.held() < MAX_LANES - 1; i++)
        await new Promise((r) => setImmediate(r));
      expect(service.held()).toBe(MAX_LANES - 1);
      await ask("/gateway/v1/me/key", "signed-in:newcomer", {
        method: "PUT",
        payload: { key: `cm_own_${randomBytes(20).toString("hex")}` },
      });
      const refused = await cell("newcomer");
      expect(refused.status).toBe(503);
      expect(await lanes()).toBe(MAX_LANES);
      service.hold(false);
      service.releaseAll();
      // The held ones were served when the service answered, on lanes nobody closed under them.
      expect((await Promise.all(pending)).map((r) => r.statusCode)).toEqual(
        Array(MAX_LANES - 1).fill(200)
      );
      expect(await lanes()).toBe(MAX_LANES);
    } finally {
      await gateway.close();
    }
  });
});

describe("what is kept", () => {
  it("serves an answer larger than an entry may be and does not keep it; a smaller one is kept", async () => {
    // A metric of every project (the service's "all"), over 8 MB as the gateway counts (two bytes a character),
    // of names never seen before.
    const rows = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        timestamp: "2026-01-05T00:00:00.000Z",
        project_id: `p-${randomBytes(6).toString("hex")}-${i}`,
        project_name: randomBytes(550).toString("hex"),
        metric_id: "fees",
        value: Math.random() * 1e9,
      }));
    const big = { data: rows(4_000) };
    const small = { data: rows(100) };
    const { gateway, service, ask } = await lab((url) =>
      url.pathname === "/v2/metrics/fees" && url.searchParams.get("project_ids") === "all"
        ? { body: url.searchParams.get("start") === "2026-01-05" ? big : small }
        : seriesHandler(url)
    );
    expect(2 * JSON.stringify(big).length).toBeGreaterThan(8 * 1_048_576);
    try {
      for (const start of ["2026-01-05", "2026-01-05", "2026-01-06", "2026-01-06"]) {
        const answer = await ask(`/v2/metrics/fees?project_ids=all&start=${start}&end=${start}`);
        expect(answer.status).toBe(200);
        expect((answer.json.data as unknown[]).length).toBe(start === "2026-01-05" ? 4_000 : 100);
      }
      // The large answer asked twice went twice; the small one was kept (one request).
      expect(service.requests.map((r) => r.url.searchParams.get("start"))).toEqual([
        "2026-01-05",
        "2026-01-05",
        "2026-01-06",
      ]);
    } finally {
      await gateway.close();
    }
  });

  it("keeps the in-process store within its bytes: the least recently used answers go first", async () => {
    const { MemoryStore } = await import("../../src/gateway/store/memory-store");
    const store = new MemoryStore({ maxBytes: 100_000 });
    const text = () => randomBytes(2_000).toString("hex"); // 4,000 characters: 8,000 bytes and more
    for (let i = 0; i < 50; i++) expect(await store.writeIf(`k${i}`, 0, text(), 60_000)).toBe(true);
    const kept = (await store.read(Array.from({ length: 50 }, (_, i) => `k${i}`))).map(
      (s) => s !== undefined
    );
    const count = kept.filter(Boolean).length;
    expect(count).toBeGreaterThan(5);
    expect(count).toBeLessThanOrEqual(100_000 / 8_000);
    // The newest are the ones kept.
    expect(kept.slice(50 - count)).toEqual(Array(count).fill(true));
  });
});

describe("each user's bytes a day", () => {
  it("keep a user's answers up to MAX_USER_CACHE_BYTES_PER_DAY, others' and the next day's apart", async () => {
    const time = fakeClock(MIDDAY_2026);
    const allowance = allowanceOf(undefined, "test-store", time.now);
    const most = MAX_USER_CACHE_BYTES_PER_DAY;
    expect(await allowance.charge("ann", most - 1_000)).toBe(true);
    expect(await allowance.charge("ann", 1_000)).toBe(true);
    // Past it: served, not kept (the fetcher's answer), whatever the size.
    expect(await allowance.charge("ann", 1)).toBe(false);
    expect(await allowance.charge("bob", most)).toBe(true);
    time.jump(12 * 3_600_000);
    expect(await allowance.charge("ann", most)).toBe(true);
  });
});

describe("failures remembered", () => {
  it("for that request and that key only: another user's request of the same series is asked", async () => {
    // The service refuses any request for 2026-01-05 (it could be anything the caller chose: a day, an id).
    const { gateway, service, time, ask } = await lab((url) =>
      url.searchParams.get("start") === "2026-01-05"
        ? { status: 400, body: { message: `bad start ${url.searchParams.get("start")}` } }
        : seriesHandler(url)
    );
    const refused = "/v2/metrics/fees?project_ids=aave&start=2026-01-05&end=2026-01-06";
    try {
      const first = await ask(refused);
      expect(first.status).toBe(400);
      expect(JSON.stringify(first.json)).not.toContain("bad start");
      // Another user, the same series and key, other days: asked, answered.
      const other = await ask(
        "/v2/metrics/fees?project_ids=aave&start=2026-01-06&end=2026-01-06",
        "signed-in:carol"
      );
      expect(other.status).toBe(200);
      expect(service.requests).toHaveLength(2);
      // The same request of the same key within FAILURE_TTL_MS: the same answer, the service not asked again.
      expect((await ask(refused, "signed-in:carol")).status).toBe(400);
      expect(service.requests).toHaveLength(2);
      // A user with a key of their own: their request is theirs, asked with their key.
      const own = `cm_own_${randomBytes(20).toString("hex")}`;
      await ask("/gateway/v1/me/key", "signed-in:dan", { method: "PUT", payload: { key: own } });
      expect((await ask(refused, "signed-in:dan")).status).toBe(400);
      expect(service.requests.map((r) => r.key)).toEqual([TEAM_KEY, TEAM_KEY, own]);
      // Past FAILURE_TTL_MS the service is asked again.
      await time.advance(5_001);
      expect((await ask(refused)).status).toBe(400);
      expect(service.requests).toHaveLength(4);
    } finally {
      await gateway.close();
    }
  });
});
