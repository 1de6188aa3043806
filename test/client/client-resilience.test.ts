import { CryptometricsError, RateLimiter, type RetryEvent } from "../../src/client";
import { API_KEY, hangingFetch, json, scriptedFetch, testClient, text, tick } from "./helpers";
import { DEFAULT_START, fakeClock } from "../support/clock";

const ok = () => json({ data: [] });
const status = (code: number, headers: Record<string, string> = {}) =>
  json({ message: `status ${code}` }, code, headers);
const retries = (events: { type: string }[]) =>
  events.filter((e): e is RetryEvent => e.type === "retry");

describe("retries", () => {
  it("rides out a burst of 5xx so the caller never sees it, backing off exponentially", async () => {
    const { fetch, requests } = scriptedFetch(
      status(503),
      status(500),
      status(502),
      status(504),
      ok()
    );
    const { client, clock, events } = testClient(fetch);
    await expect(client.listMetrics()).resolves.toMatchObject({ data: [], meta: { requests: 5 } });
    expect(requests).toHaveLength(5);
    expect(clock.sleeps).toEqual([500, 1000, 2000, 4000]);
    expect(retries(events).map((e) => [e.attempt, e.reason, e.status])).toEqual([
      [1, "server", 503],
      [2, "server", 500],
      [3, "server", 502],
      [4, "server", 504],
    ]);
  });

  it("retries network errors", async () => {
    const { fetch, requests } = scriptedFetch(
      new TypeError("fetch failed"),
      new TypeError("socket hang up"),
      ok()
    );
    const { client } = testClient(fetch);
    await client.listMetrics();
    expect(requests).toHaveLength(3);
  });

  describe("network failures a person can act on, said in words", () => {
    const failure = (code: string, message: string): TypeError =>
      new TypeError("fetch failed", { cause: Object.assign(new Error(message), { code }) });

    it.each([
      [
        "https to plain http",
        failure("ERR_SSL_WRONG_VERSION_NUMBER", "ssl3_get_record:wrong version number"),
        "api.example.test answers plain http, not https: use http://api.example.test as the address",
      ],
      [
        "a host that does not exist",
        failure("ENOTFOUND", "getaddrinfo ENOTFOUND api.example.test"),
        "the host api.example.test does not exist (no DNS entry): check the address",
      ],
      [
        "an untrusted certificate",
        failure("DEPTH_ZERO_SELF_SIGNED_CERT", "self-signed certificate"),
        "the certificate of api.example.test is not trusted on this computer (DEPTH_ZERO_SELF_SIGNED_CERT)",
      ],
    ])("%s: said once, never retried (it would fail the same way)", async (_, error, words) => {
      const { fetch, requests } = scriptedFetch(error);
      const { client } = testClient(fetch);
      const failed = (await client.listMetrics().catch((e: unknown) => e)) as CryptometricsError;
      expect(failed).toMatchObject({ kind: "network" });
      expect(failed.message).toContain(`listMetrics(): ${words}`);
      expect(failed.message).not.toMatch(/fetch failed|ssl3|getaddrinfo/);
      expect(requests).toHaveLength(1);
    });

    it("nothing listening: retried as a server restarting, up to maxRefusedAttempts", async () => {
      const refused = failure("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:9999");
      const many = scriptedFetch(refused, refused, ok());
      await testClient(many.fetch).client.listMetrics();
      expect(many.requests).toHaveLength(3);
      const few = scriptedFetch(refused);
      const error = (await testClient(few.fetch, { retry: { maxRefusedAttempts: 2 } })
        .client.listMetrics()
        .catch((e: unknown) => e)) as CryptometricsError;
      expect(error.message).toBe(
        "listMetrics(): nothing answers at api.example.test (connection refused): is the server running? (gave up after 2 attempts)"
      );
      expect(few.requests).toHaveLength(2);
    });
  });

  it("applies jitter from the injected random source", async () => {
    const { fetch } = scriptedFetch(status(500), status(500), ok());
    const { client, clock } = testClient(fetch, { random: () => 1 });
    await client.listMetrics();
    expect(clock.sleeps).toEqual([250, 500]);
  });

  it("gives up at the attempt cap with the last error, saying how many attempts it made", async () => {
    const { fetch, requests } = scriptedFetch(status(503));
    const { client } = testClient(fetch);
    const error = (await client.getProject("aave").catch((e: unknown) => e)) as CryptometricsError;
    expect(error).toMatchObject({ kind: "server", status: 503, attempts: 6, ids: ["aave"] });
    expect(error.message).toBe(
      "getProject(aave): service error (HTTP 503): status 503 (gave up after 6 attempts)"
    );
    expect(requests).toHaveLength(6);
  });

  it("honours a configured attempt cap", async () => {
    const { fetch, requests } = scriptedFetch(status(500));
    const { client } = testClient(fetch, { retry: { maxAttempts: 2 } });
    await expect(client.listMetrics()).rejects.toMatchObject({ kind: "server", attempts: 2 });
    expect(requests).toHaveLength(2);
  });

  it.each([
    [400, "invalid-input"],
    [401, "unauthorized"],
    [402, "subscription"],
    [403, "subscription"],
    [404, "not-found"],
    [501, "server"],
  ])("does not retry HTTP %i (%s): waiting would not change the answer", async (code, kind) => {
    const { fetch, requests } = scriptedFetch(status(code));
    const { client } = testClient(fetch);
    await expect(client.getProject("aave")).rejects.toMatchObject({ kind, status: code });
    expect(requests).toHaveLength(1);
  });
});

describe("429", () => {
  it("waits as long as Retry-After says, in seconds", async () => {
    const { fetch } = scriptedFetch(status(429, { "retry-after": "7" }), ok());
    const { client, clock, events } = testClient(fetch);
    await client.listMetrics();
    expect(clock.sleeps).toEqual([7000]);
    expect(retries(events)[0]).toMatchObject({
      reason: "rate-limited",
      retryAfterMs: 7000,
      delayMs: 7000,
    });
  });

  it("waits until a Retry-After HTTP date", async () => {
    const clock = fakeClock();
    const date = new Date(clock.now() + 12_000).toUTCString();
    const { fetch } = scriptedFetch(status(429, { "retry-after": date }), ok());
    const { client } = testClient(fetch, { now: clock.now, sleep: clock.sleep });
    await client.listMetrics();
    expect(clock.sleeps).toEqual([12_000]);
  });

  it("backs off on its own schedule, starting from the rate-limit base, when Retry-After is absent", async () => {
    const { fetch } = scriptedFetch(status(429), status(429), status(429), ok());
    const { client, clock } = testClient(fetch);
    await client.listMetrics();
    expect(clock.sleeps).toEqual([2000, 4000, 8000]);
  });

  it.each([
    ["0", 429],
    ["-1", 429],
    ["Wed, 21 Oct 2015 07:28:00 GMT", 503],
    ["0.2", 503],
  ])(
    "spaces attempts by its own rate-limited schedule when Retry-After is %s (on %i): at least 1 s, growing",
    async (retryAfter, code) => {
      const clock = fakeClock();
      const startedAt: number[] = [];
      const { fetch } = scriptedFetch(async () => {
        startedAt.push(clock.now());
        return status(code, { "retry-after": retryAfter });
      });
      const spacing = async (jitter: number): Promise<number[]> => {
        startedAt.length = 0;
        const { client } = testClient(fetch, {
          now: clock.now,
          sleep: clock.sleep,
          random: () => jitter,
        });
        await client.listMetrics().catch(() => undefined);
        return startedAt.slice(1).map((t, i) => t - startedAt[i]);
      };
      // No jitter, and the most jitter the policy allows (half of each wait): never under a second.
      expect(await spacing(0)).toEqual([2_000, 4_000, 8_000, 16_000, 30_000]);
      expect(await spacing(1)).toEqual([1_000, 2_000, 4_000, 8_000, 15_000]);
    }
  );

  it("fails at once, telling when to come back, when Retry-After exceeds the cap", async () => {
    const { fetch, requests } = scriptedFetch(status(429, { "retry-after": "3600" }));
    const { client } = testClient(fetch);
    const error = (await client.listMetrics().catch((e: unknown) => e)) as CryptometricsError;
    expect(error).toMatchObject({ kind: "rate-limited", retryAfterMs: 3_600_000 });
    expect(error.message).toMatch(/the service asks to wait 3600 s/);
    expect(requests).toHaveLength(1);
  });

  it("tells the caller when to come back after a 429 burst outlasts the attempt cap", async () => {
    const { fetch, requests } = scriptedFetch(status(429));
    const { client } = testClient(fetch, { retry: { maxAttempts: 3 } });
    const error = (await client.listMetrics().catch((e: unknown) => e)) as CryptometricsError;
    expect(error).toMatchObject({
      kind: "rate-limited",
      status: 429,
      attempts: 3,
      retryAfterMs: 8000,
    });
    expect(requests).toHaveLength(3);
  });

  it("pauses every caller sharing the limiter while the server asks to wait", async () => {
    const clock = fakeClock(DEFAULT_START, { held: true });
    const limiter = new RateLimiter({
      limit: 100,
      windowMs: 60_000,
      now: clock.now,
      sleep: clock.sleep,
    });
    const { fetch } = scriptedFetch(status(429, { "retry-after": "5" }), ok());
    const { client } = testClient(fetch, { limiter, now: clock.now, sleep: clock.sleep });
    const start = clock.now();
    const call = client.listMetrics();
    // While the client waits out the Retry-After, the limiter holds every other caller too.
    const backoff = await clock.whenHeld();
    expect([backoff.ms, limiter.stats().pausedUntil]).toEqual([5000, start + 5000]);
    await clock.drive(call);
    expect(clock.sleeps).toEqual([5000]);
  });
});

describe("deadline and time-outs", () => {
  it("stops retrying when the next wait would pass the call's deadline", async () => {
    const { fetch, requests } = scriptedFetch(status(503));
    const { client } = testClient(fetch, { deadlineMs: 3000 });
    const error = (await client.listMetrics().catch((e: unknown) => e)) as CryptometricsError;
    expect(error.kind).toBe("server");
    expect(error.message).toMatch(
      /gave up after 3 attempts; no time left to retry before the call's deadline/
    );
    expect(requests).toHaveLength(3);
  });

  it("times out a hung attempt and retries it", async () => {
    const hung = hangingFetch();
    let calls = 0;
    const { client, timers, events } = testClient(
      async (url, init) => (++calls === 1 ? hung.fetch(url, init) : ok()),
      { timeoutMs: 1000 }
    );
    const pending = client.listMetrics();
    await tick();
    expect(timers.fire(1000)).toBe(1);
    await expect(pending).resolves.toMatchObject({ meta: { requests: 2 } });
    expect(retries(events)[0]).toMatchObject({ reason: "timeout", attempt: 1 });
  });

  it("reports a timeout when every attempt hangs", async () => {
    const { fetch } = hangingFetch();
    const { client, timers } = testClient(fetch, { timeoutMs: 1000, retry: { maxAttempts: 2 } });
    const pending = client.getProject("aave").catch((e: unknown) => e);
    await timers.fireWhenSet(1000);
    await timers.fireWhenSet(1000);
    const error = (await pending) as CryptometricsError;
    expect(error).toMatchObject({ kind: "timeout", attempts: 2 });
    expect(error.message).toBe(
      "getProject(aave): no answer within 1000 ms (attempt 2) (gave up after 2 attempts)"
    );
  });

  it("settles even when fetch ignores its abort signal", async () => {
    const { client, timers } = testClient(() => new Promise(() => undefined), {
      timeoutMs: 1000,
      retry: { maxAttempts: 1 },
    });
    const pending = client.listMetrics().catch((e: unknown) => e);
    await tick();
    timers.fire(1000);
    await expect(pending).resolves.toMatchObject({ kind: "timeout" });
  });

  it("ends the whole call at its deadline, limiter waits and all", async () => {
    const { fetch } = hangingFetch();
    const { client, timers } = testClient(fetch, { timeoutMs: 60_000, deadlineMs: 5000 });
    const pending = client.listMetrics().catch((e: unknown) => e);
    await tick();
    // The deadline timer was set first; the attempt's own budget is the same 5000 ms.
    expect(timers.pending()).toEqual([5000, 5000]);
    timers.fire(5000);
    const error = (await pending) as CryptometricsError;
    expect(error.kind).toBe("timeout");
    expect(timers.pending()).toEqual([]);
  });

  it("clears its timers when a call completes", async () => {
    const { client, timers } = testClient(scriptedFetch(ok()).fetch);
    await client.listMetrics();
    expect(timers.pending()).toEqual([]);
  });
});

describe("cancellation", () => {
  it("sends nothing for an already aborted signal", async () => {
    const { fetch, requests } = scriptedFetch(ok());
    const { client } = testClient(fetch);
    await expect(client.listMetrics({ signal: AbortSignal.abort() })).rejects.toMatchObject({
      kind: "cancelled",
    });
    expect(requests).toHaveLength(0);
  });

  it("cancels a request in flight", async () => {
    const { fetch, requests } = hangingFetch();
    const { client } = testClient(fetch);
    const controller = new AbortController();
    const pending = client.getProject("aave", { signal: controller.signal });
    await tick();
    controller.abort();
    await expect(pending).rejects.toMatchObject({
      kind: "cancelled",
      message: "getProject(aave): cancelled",
    });
    expect(requests[0].init.signal.aborted).toBe(true);
  });

  it("cancels during a backoff wait without another attempt", async () => {
    const { fetch, requests } = scriptedFetch(status(503));
    const controller = new AbortController();
    const clock = fakeClock(DEFAULT_START, { held: true });
    const { client } = testClient(fetch, { now: clock.now, sleep: clock.sleep });
    const call = client.listMetrics({ signal: controller.signal });
    await clock.whenHeld();
    controller.abort();
    await expect(call).rejects.toMatchObject({ kind: "cancelled" });
    expect(requests).toHaveLength(1);
  });

  it("cancels while waiting for a rate-limiter slot and gives the slot back", async () => {
    const clock = fakeClock(DEFAULT_START, { held: true });
    const limiter = new RateLimiter({
      limit: 1,
      windowMs: 60_000,
      now: clock.now,
      sleep: clock.sleep,
    });
    const { fetch, requests } = scriptedFetch(ok());
    const { client } = testClient(fetch, { limiter });
    await client.listMetrics();
    const controller = new AbortController();
    const waiting = client.listMetrics({ signal: controller.signal });
    await tick();
    expect(limiter.stats().queued).toBe(1);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ kind: "cancelled" });
    expect(limiter.stats().queued).toBe(0);
    expect(requests).toHaveLength(1);
  });
});

describe("shared rate limiter", () => {
  it("spaces the requests of several clients so none exceeds the limit in any window", async () => {
    const clock = fakeClock(0);
    const limiter = new RateLimiter({
      limit: 3,
      windowMs: 60_000,
      now: clock.now,
      sleep: clock.sleep,
    });
    const starts: number[] = [];
    const fetch = async () => {
      starts.push(clock.now());
      return ok();
    };
    const a = testClient(fetch, {
      limiter,
      now: clock.now,
      sleep: clock.sleep,
      deadlineMs: 600_000,
    });
    const b = testClient(fetch, {
      limiter,
      now: clock.now,
      sleep: clock.sleep,
      deadlineMs: 600_000,
    });
    await Promise.all([
      ...Array.from({ length: 5 }, () => a.client.listMetrics()),
      ...Array.from({ length: 5 }, () => b.client.listProjects()),
    ]);
    // One window plus the limiter's margin (1 s for a one-minute window) between bursts.
    expect(starts).toEqual([0, 0, 0, 61_000, 61_000, 61_000, 122_000, 122_000, 122_000, 183_000]);
  });
});

describe("events", () => {
  it("reports each request, response, retry and the final error, with no key anywhere", async () => {
    const { fetch } = scriptedFetch(text(`echo Bearer ${API_KEY}`, 500), status(404));
    const { client, events } = testClient(fetch);
    await expect(client.getProject("aave")).rejects.toMatchObject({ kind: "not-found" });
    expect(events.map((e) => e.type)).toEqual([
      "request",
      "response",
      "retry",
      "request",
      "response",
      "error",
    ]);
    expect(events[0]).toMatchObject({
      operation: "getProject",
      url: "https://api.example.test/v2/projects/aave",
      attempt: 1,
    });
    expect(events[4]).toMatchObject({ status: 404, attempt: 2 });
    expect(events[5]).toMatchObject({ kind: "not-found", status: 404 });
    expect(JSON.stringify(events)).not.toContain(API_KEY);
  });

  it("keeps going when a listener throws", async () => {
    const { client } = testClient(scriptedFetch(ok()).fetch);
    client.subscribe(() => {
      throw new Error("broken diagnostics panel");
    });
    const off = client.on("request", () => undefined);
    await expect(client.listMetrics()).resolves.toMatchObject({ data: [] });
    off();
  });

  it("delivers only the asked type to on() and stops after unsubscribing", async () => {
    const { client } = testClient(scriptedFetch(ok()).fetch);
    const seen: string[] = [];
    const off = client.on("response", (e) => seen.push(`${e.status}`));
    await client.listMetrics();
    off();
    await client.listMetrics();
    expect(seen).toEqual(["200"]);
  });
});
