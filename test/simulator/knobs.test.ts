import {
  DEMO_API_KEY,
  SIMULATED_HEADER,
  startSimulator,
  type RunningSimulator,
} from "../../src/simulator";
import { FIXED_NOW, get, start } from "./helpers";

const running: RunningSimulator[] = [];
async function sim(options: Parameters<typeof start>[0] = {}): Promise<RunningSimulator> {
  const s = await start(options);
  running.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function statuses(
  s: RunningSimulator,
  count: number,
  path = "/v2/metrics"
): Promise<number[]> {
  const result: number[] = [];
  for (let i = 0; i < count; i++) result.push((await get(s, path)).status);
  return result;
}

describe("rate limit", () => {
  it("allows 60 requests per minute per key by default, then answers 429 with no Retry-After and no body", async () => {
    const s = await startSimulator({ port: 0, now: () => FIXED_NOW });
    running.push(s);
    const result = await statuses(s, 61);
    expect(result.slice(0, 60).every((status) => status === 200)).toBe(true);
    const last = await get(s, "/v2/metrics");
    expect(last.status).toBe(429);
    // The interface documents no Retry-After and shows no 429 body: the default readings send neither.
    expect(last.headers.get("retry-after")).toBeNull();
    expect(last.text).toBe("");
    expect(last.headers.get(SIMULATED_HEADER)).toBe("true");
  });

  it("says when a slot frees in Retry-After and its message under the readings that send them", async () => {
    const s = await sim({
      rateLimit: { limit: 60, windowMs: 60_000 },
      readings: { retryAfter: "seconds", errorBodies: "json" },
    });
    await statuses(s, 60);
    const last = await get(s, "/v2/metrics");
    expect(last.status).toBe(429);
    expect(last.headers.get("retry-after")).toBe("60");
    expect(last.body).toEqual({ message: expect.stringContaining("60 requests per 60 seconds") });
  });

  it("frees a slot when the oldest request leaves the window, and says when in Retry-After", async () => {
    let now = FIXED_NOW;
    const s = await sim({
      now: () => now,
      rateLimit: { limit: 3, windowMs: 60_000, retryAfter: true },
    });
    for (const offset of [0, 10_000, 20_000]) {
      now = FIXED_NOW + offset;
      expect((await get(s, "/v2/metrics")).status).toBe(200);
    }
    now = FIXED_NOW + 30_000;
    const limited = await get(s, "/v2/metrics");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("30");
    now = FIXED_NOW + 60_001;
    expect((await get(s, "/v2/metrics")).status).toBe(200);
    expect((await get(s, "/v2/metrics")).status).toBe(429);
  });

  it("can answer 429 without Retry-After, as the real service documents none", async () => {
    const s = await sim({ rateLimit: { limit: 1, windowMs: 60_000, retryAfter: false } });
    expect((await statuses(s, 2))[1]).toBe(429);
    const limited = await get(s, "/v2/metrics");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBeNull();
  });

  it("counts per key and ignores unauthorised requests", async () => {
    const s = await sim({
      apiKeys: [DEMO_API_KEY, "cm_other"],
      rateLimit: { limit: 2, windowMs: 60_000, retryAfter: true },
    });
    for (let i = 0; i < 5; i++) await fetch(`${s.url}/v2/metrics`);
    expect(await statuses(s, 3)).toEqual([200, 200, 429]);
    const other = await get(s, "/v2/metrics", { headers: { Authorization: "Bearer cm_other" } });
    expect(other.status).toBe(200);
  });

  it("can be switched off and on at runtime", async () => {
    const s = await sim({ rateLimit: { limit: 1, windowMs: 60_000, retryAfter: true } });
    expect(await statuses(s, 2)).toEqual([200, 429]);
    s.setKnobs({ rateLimit: null });
    expect(await statuses(s, 3)).toEqual([200, 200, 200]);
  });
});

describe("latency", () => {
  it("delays answers by a fixed time", async () => {
    const s = await sim({ latencyMs: 120 });
    const started = performance.now();
    expect((await get(s, "/v2/metrics")).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
  });

  it("delays answers by a time drawn from a range", async () => {
    const s = await sim({ latencyMs: [40, 80] });
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      await get(s, "/v2/metrics");
      const elapsed = performance.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(35);
    }
  });
});

describe("injected failures", () => {
  it("answers a share of requests 429, the same ones for the same seed", async () => {
    const a = await sim({ fraction429: 0.4, seed: 7 });
    const b = await sim({ fraction429: 0.4, seed: 7 });
    const first = await statuses(a, 30);
    expect(await statuses(b, 30)).toEqual(first);
    const limited = first.filter((status) => status === 429).length;
    expect(limited).toBeGreaterThan(3);
    expect(limited).toBeLessThan(27);
    expect(first.filter((status) => status !== 429).every((status) => status === 200)).toBe(true);
  });

  it("sends Retry-After on injected 429s only under the reading that sends it, or when asked", async () => {
    const s = await sim({ fraction429: 1 });
    expect((await get(s, "/v2/metrics")).headers.get("retry-after")).toBeNull();
    s.setKnobs({ readings: { retryAfter: "seconds" } });
    expect((await get(s, "/v2/metrics")).headers.get("retry-after")).toBe("1");
    s.setKnobs({ retryAfter429: false });
    const answer = await get(s, "/v2/metrics");
    expect(answer.status).toBe(429);
    expect(answer.headers.get("retry-after")).toBeNull();
    s.setKnobs({ readings: { retryAfter: undefined }, retryAfter429: true });
    expect((await get(s, "/v2/metrics")).headers.get("retry-after")).toBe("1");
  });

  it("answers a share of requests 500, 502 or 503 with a JSON message under errorBodies=json", async () => {
    const s = await sim({ fraction5xx: 1, readings: { errorBodies: "json" } });
    const failed = await statuses(s, 20);
    expect(new Set(failed)).toEqual(new Set([500, 502, 503]));
    const answer = await get(s, "/v2/metrics");
    expect(answer.body).toEqual({ message: expect.stringContaining("(simulated)") });
    s.setKnobs({ fraction5xx: 0.25 });
    const mixed = await statuses(s, 40);
    expect(mixed).toContain(200);
    expect(mixed.some((status) => status >= 500)).toBe(true);
    s.setKnobs({ fraction5xx: undefined });
    expect(await statuses(s, 5)).toEqual([200, 200, 200, 200, 200]);
  });

  it("leaves unauthorised requests to auth (401, not an injected failure)", async () => {
    const s = await sim({ fraction5xx: 1, fraction429: 1 });
    expect((await fetch(`${s.url}/v2/metrics`)).status).toBe(401);
  });

  it("refuses fractions outside 0..1", async () => {
    await expect(start({ fraction429: 1.5 })).rejects.toThrow(RangeError);
    const s = await sim();
    expect(() => s.setKnobs({ fraction5xx: -0.1 })).toThrow(/between 0 and 1/);
  });
});

describe("hang", () => {
  it("never answers: the client gives up on its own, and the request is logged unanswered", async () => {
    const s = await sim({ hang: true });
    await expect(get(s, "/v2/metrics", { signal: AbortSignal.timeout(150) })).rejects.toThrow();
    expect(s.requestLog).toEqual([expect.objectContaining({ path: "/v2/metrics", status: 0 })]);
  });

  it("hangs only the paths that match a pattern", async () => {
    const s = await sim({ hang: /financial-statement$/ });
    expect((await get(s, "/v2/projects/aave")).status).toBe(200);
    await expect(
      get(s, "/v2/projects/aave/financial-statement", { signal: AbortSignal.timeout(150) })
    ).rejects.toThrow();
  });

  it("closes promptly with requests still hanging", async () => {
    const s = await start({ hang: true, latencyMs: 0 });
    const pending = get(s, "/v2/metrics").catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    await s.close();
    // Far below the 60 s it would take to wait the request out; loose enough for a loaded CI machine.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(await pending).toMatchObject({ name: "TypeError", message: "fetch failed" });
  });

  it("closes promptly while a long latency is pending", async () => {
    const s = await start({ latencyMs: 60_000 });
    const pending = get(s, "/v2/metrics").catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    await s.close();
    // Far below the 60 s it would take to wait the request out; loose enough for a loaded CI machine.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(await pending).toMatchObject({ name: "TypeError", message: "fetch failed" });
  });
});

describe("renamed projects", () => {
  it("answers 308 with a relative Location to the new id, keeping the rest of the path and query", async () => {
    const s = await sim({ renamed: { "matic-network": "polygon" } });
    const answer = await get(
      s,
      "/v2/projects/matic-network/metrics?metric_ids=fees&start=2025-06-15"
    );
    expect(answer.status).toBe(308);
    expect(answer.headers.get("location")).toBe(
      "/v2/projects/polygon/metrics?metric_ids=fees&start=2025-06-15"
    );
    expect(answer.body).toEqual({ message: expect.stringContaining("renamed to polygon") });
  });

  it("is followed by fetch to the new project's data", async () => {
    const s = await sim({ renamed: { "matic-network": "polygon" } });
    const answer = await get(s, "/v2/projects/matic-network", { redirect: "follow" });
    expect(answer.status).toBe(200);
    expect((answer.body as { data: { project_id: string } }).data.project_id).toBe("polygon");
    expect(s.requestLog.map((e) => [e.path, e.status])).toEqual([
      ["/v2/projects/matic-network", 308],
      ["/v2/projects/polygon", 200],
    ]);
  });
});

describe("today", () => {
  it("fixes the dataset's day while the clock goes on, so the rate limit's window still slides", async () => {
    let now = Date.UTC(2030, 0, 1, 12);
    const s = await sim({
      now: () => now,
      today: "2025-06-15",
      rateLimit: { limit: 2, windowMs: 60_000, retryAfter: true },
    });
    const path = "/v2/projects/aave/metrics?metric_ids=tvl&order_direction=desc";
    const first = await get(s, path);
    expect((first.body as { data: Array<{ timestamp: string }> }).data[0].timestamp).toBe(
      "2025-06-15T00:00:00+02:00"
    );
    expect((await get(s, path)).status).toBe(200);
    expect((await get(s, path)).status).toBe(429);
    now += 60_001;
    const later = await get(s, path);
    expect(later.status).toBe(200);
    expect((later.body as { data: Array<{ timestamp: string }> }).data[0].timestamp).toBe(
      "2025-06-15T00:00:00+02:00"
    );
  });

  it("refuses a today that is not a calendar day", async () => {
    await expect(start({ today: "2025-02-30" })).rejects.toThrow(/today/);
  });
});
