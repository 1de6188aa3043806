import { backoffDelay, DEFAULT_RETRY_POLICY, parseRetryAfter } from "../../../src/client";

describe("backoff schedule", () => {
  const noJitter = { ...DEFAULT_RETRY_POLICY, jitter: 0 };

  it("doubles from the base delay and stops at the cap", () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8].map((a) => backoffDelay(noJitter, a, () => 0));
    expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });

  it("starts from the longer rate-limit base for a 429 without Retry-After", () => {
    const delays = [1, 2, 3, 4, 5].map((a) => backoffDelay(noJitter, a, () => 0, true));
    expect(delays).toEqual([2000, 4000, 8000, 16000, 30000]);
  });

  it("jitters downwards within the configured share and never to zero", () => {
    const policy = { ...DEFAULT_RETRY_POLICY, jitter: 0.5 };
    expect(backoffDelay(policy, 3, () => 0)).toBe(2000);
    expect(backoffDelay(policy, 3, () => 0.999999)).toBe(1000);
    expect(backoffDelay(policy, 3, () => 0.5)).toBe(1500);
  });

  it("gives the default policy at least five attempts", () => {
    expect(DEFAULT_RETRY_POLICY.maxAttempts).toBeGreaterThanOrEqual(5);
  });
});

describe("Retry-After", () => {
  const now = Date.UTC(2024, 0, 1, 12, 0, 0);

  it("reads delta-seconds", () => {
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("1.5", now)).toBe(1500);
  });

  it("reads an HTTP date relative to the injected clock", () => {
    expect(parseRetryAfter("Mon, 01 Jan 2024 12:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Mon, 01 Jan 2024 11:00:00 GMT", now)).toBe(0);
  });

  it("ignores absent or unreadable values so the client's own schedule applies", () => {
    for (const v of [null, undefined, "", "soon", "-5", "12abc"]) {
      expect(parseRetryAfter(v, now)).toBeUndefined();
    }
  });
});
