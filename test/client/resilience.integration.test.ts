/**
 * The client's resilience against the simulator over real HTTP on loopback: 429 with and without
 * Retry-After, the service's rate limit, 5xx bursts, hangs, renamed ids (308), broken responses and
 * cancellation. Waits run on a virtual clock shared with the simulator, so nothing sleeps for real.
 */
import {
  createClient,
  RateLimiter,
  type ClientConfig,
  type ClientEvent,
  type MetricsClient,
  type RetryEvent,
  type Sleep,
} from "../../src/client";
import { DEMO_API_KEY, FAULTS, startSimulator, type RunningSimulator } from "../../src/simulator";
import { fakeClock } from "../support/clock";

const clock = fakeClock(Date.UTC(2024, 5, 1, 12));
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, now: clock.now, rateLimit: null, seed: 7 });
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.setKnobs({
    fraction429: 0,
    fraction5xx: 0,
    hang: false,
    fault: null,
    renamed: {},
    rateLimit: null,
    retryAfter429: true,
  });
  sim.clearLog();
});

function make(overrides: Partial<ClientConfig> = {}) {
  const events: ClientEvent[] = [];
  const client: MetricsClient = createClient({
    baseUrl: sim.url,
    apiKey: DEMO_API_KEY,
    now: clock.now,
    sleep: clock.sleep,
    random: () => 0,
    rateLimit: { limit: 10_000, windowMs: 60_000 },
    listeners: [(e) => events.push(e)],
    ...overrides,
  });
  return {
    client,
    events,
    retries: () => events.filter((e): e is RetryEvent => e.type === "retry"),
  };
}

/** A sleep that heals the simulator after `failures` waits: a burst of exactly that many failures. */
function healAfter(failures: number, heal: () => void): Sleep {
  let waits = 0;
  return async (ms, signal) => {
    if (++waits === failures) heal();
    await clock.sleep(ms, signal);
  };
}

const statuses = () => sim.requestLog.map((e) => e.status);

describe("429", () => {
  it("honours Retry-After and succeeds once the service lets it", async () => {
    sim.setKnobs({ fraction429: 1, retryAfter429: true });
    const { client, retries } = make({
      sleep: healAfter(2, () => sim.setKnobs({ fraction429: 0 })),
    });
    await expect(client.listMetrics()).resolves.toMatchObject({ meta: { requests: 3 } });
    expect(statuses()).toEqual([429, 429, 200]);
    expect(retries().map((r) => [r.reason, r.retryAfterMs, r.delayMs])).toEqual([
      ["rate-limited", 1000, 1000],
      ["rate-limited", 1000, 1000],
    ]);
  });

  it("backs off on its own schedule when Retry-After is absent", async () => {
    sim.setKnobs({ fraction429: 1, retryAfter429: false });
    const { client, retries } = make({
      sleep: healAfter(3, () => sim.setKnobs({ fraction429: 0 })),
    });
    await client.listMetrics();
    expect(statuses()).toEqual([429, 429, 429, 200]);
    expect(retries().map((r) => [r.retryAfterMs, r.delayMs])).toEqual([
      [undefined, 2000],
      [undefined, 4000],
      [undefined, 8000],
    ]);
  });

  it("waits out the service's own rate limit as its Retry-After says", async () => {
    sim.setKnobs({ rateLimit: { limit: 3, windowMs: 60_000, retryAfter: true } });
    const { client, retries } = make();
    for (let i = 0; i < 5; i++) await client.listMetrics();
    expect(statuses().filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses().filter((s) => s === 200)).toHaveLength(5);
    expect(retries().every((r) => r.retryAfterMs !== undefined && r.retryAfterMs > 0)).toBe(true);
  });

  it("never provokes a 429 when its limiter matches the service's limit, however many cells ask", async () => {
    // Earlier tests' requests must not count against this test's window.
    clock.jump(60_000);
    sim.setKnobs({ rateLimit: { limit: 5, windowMs: 60_000, retryAfter: true } });
    // Virtual time must not jump while requests are still on their way to the simulator: the
    // limiter's waits let every request in flight arrive first.
    let inFlight = 0;
    const track = (e: ClientEvent) => {
      if (e.type === "request") inFlight++;
      if (e.type === "response") inFlight--;
    };
    const sleep: Sleep = async (ms, signal) => {
      do await new Promise((resolve) => setTimeout(resolve, 1));
      while (inFlight > 0);
      await clock.sleep(ms, signal);
    };
    const limiter = new RateLimiter({ limit: 5, windowMs: 60_000, now: clock.now, sleep });
    const a = make({ limiter, deadlineMs: 3_600_000, listeners: [track] });
    const b = make({ limiter, deadlineMs: 3_600_000, listeners: [track] });
    await Promise.all([
      ...Array.from({ length: 8 }, (_, i) => a.client.getProject(["aave", "uniswap"][i % 2])),
      ...Array.from({ length: 8 }, () => b.client.listMetrics()),
    ]);
    expect(statuses()).toHaveLength(16);
    expect(statuses().every((s) => s === 200)).toBe(true);
  });
});

describe("5xx", () => {
  it("rides out a burst of server errors so the caller never sees it", async () => {
    sim.setKnobs({ fraction5xx: 1 });
    const { client, retries } = make({
      sleep: healAfter(4, () => sim.setKnobs({ fraction5xx: 0 })),
    });
    const { data } = await client.getProject("aave");
    expect(data.projectId).toBe("aave");
    expect(
      statuses()
        .slice(0, 4)
        .every((s) => s >= 500)
    ).toBe(true);
    expect(statuses()[4]).toBe(200);
    expect(retries().map((r) => r.delayMs)).toEqual([500, 1000, 2000, 4000]);
  });

  it("reports a lasting outage as a server error after the attempt cap", async () => {
    sim.setKnobs({ fraction5xx: 1 });
    const { client } = make();
    await expect(client.getProject("aave")).rejects.toMatchObject({ kind: "server", attempts: 6 });
    expect(sim.requestLog).toHaveLength(6);
  });

  it("settles every call of a busy refresh despite random 429s and 5xx", async () => {
    sim.setKnobs({ fraction5xx: 0.25, fraction429: 0.25 });
    const { client } = make();
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        client.getMetric("fees", { projectIds: ["aave"], start: "2024-05-01", end: "2024-05-01" })
      )
    );
    expect(results.every((r) => r.status === "fulfilled")).toBe(true);
  });
});

describe("hangs and cancellation", () => {
  it("times out a hung request and reports it once the attempts are spent", async () => {
    sim.setKnobs({ hang: true });
    const { client } = make({ timeoutMs: 150, retry: { maxAttempts: 2 } });
    const started = Date.now();
    await expect(client.listProjects()).rejects.toMatchObject({ kind: "timeout", attempts: 2 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(sim.requestLog).toHaveLength(2);
  });

  it("recovers when a hang was only momentary", async () => {
    sim.setKnobs({ hang: /\/v2\/metrics$/ });
    const { client } = make({
      timeoutMs: 150,
      sleep: healAfter(1, () => sim.setKnobs({ hang: false })),
    });
    await expect(client.listMetrics()).resolves.toMatchObject({ meta: { requests: 2 } });
  });

  it("cancels a request in flight when the caller aborts", async () => {
    sim.setKnobs({ hang: true });
    const { client, events } = make();
    const controller = new AbortController();
    const pending = client.getProject("aave", { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({
      kind: "cancelled",
      message: "getProject(aave): cancelled",
    });
    expect(events.filter((e) => e.type === "retry")).toEqual([]);
  });
});

describe("redirects", () => {
  it("follows the 308 of a renamed project to its new id, key kept on the same origin", async () => {
    sim.setKnobs({ renamed: { "aave-classic": "aave" } });
    const { client } = make();
    const result = await client.getProjectMetrics("aave-classic", {
      metricIds: ["fees"],
      start: "2024-05-01",
      end: "2024-05-01",
    });
    expect(result.data[0].projectId).toBe("aave");
    expect(result.meta.redirects).toEqual([
      expect.objectContaining({
        status: 308,
        from: expect.stringMatching(/^\/v2\/projects\/aave-classic\/metrics\?/),
        to: expect.stringMatching(/^\/v2\/projects\/aave\/metrics/),
      }),
    ]);
    expect(sim.requestLog.map((e) => [e.path, e.status, e.authorized])).toEqual([
      ["/v2/projects/aave-classic/metrics", 308, true],
      ["/v2/projects/aave/metrics", 200, true],
    ]);
  });
});

describe("broken responses", () => {
  const expected: Record<string, string> = {
    reset: "network",
    "truncated-json": "malformed-response",
    "html-200": "malformed-response",
    "wrong-content-type": "malformed-response",
    "empty-body": "malformed-response",
    "redirect-loop": "malformed-response",
    // The bytes came, undecodable: an answer that cannot be read, not a network error, not retried.
    "corrupt-gzip": "malformed-response",
  };

  it.each(FAULTS.map((f) => [f]))(
    "reports the %s fault with a clear kind and message",
    async (fault) => {
      sim.setKnobs({ fault });
      const { client } = make({ retry: { maxAttempts: 2 } });
      const error = await client.listMetrics().catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: expected[fault], operation: "listMetrics" });
      expect((error as Error).message).toMatch(/^listMetrics\(\): /);
      if (fault === "corrupt-gzip") {
        expect((error as Error).message).toMatch(/compressed body is corrupt \(Z_DATA_ERROR/);
        expect(sim.requestLog).toHaveLength(1);
      }
    }
  );
});
