import { backoffDelay, DEFAULT_RETRY_POLICY, parseRetryAfter } from "../../../src/client";
import { retryDelay } from "../../../src/client/http/backoff";

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

  it("keeps every digit of a fractional Retry-After (1.25 s is 1250 ms, not 1200)", () => {
    expect(parseRetryAfter("1.25", now)).toBe(1250);
    expect(parseRetryAfter("0.125", now)).toBe(125);
    expect(parseRetryAfter("+2", now)).toBe(2000);
  });

  it("refuses numbers with trailing or leading text rather than reading them as a year", () => {
    for (const v of ["1.", ".5", "1.5s", "x1", "1 2"])
      expect(parseRetryAfter(v, now)).toBeUndefined();
  });

  it("reads an HTTP date relative to the injected clock", () => {
    expect(parseRetryAfter("Mon, 01 Jan 2024 12:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Mon, 01 Jan 2024 11:00:00 GMT", now)).toBe(0);
  });

  it("ignores absent or unreadable values so the client's own schedule applies", () => {
    for (const v of [null, undefined, "", "soon", "12abc", "-"]) {
      expect(parseRetryAfter(v, now)).toBeUndefined();
    }
  });

  it("reads negative values and past dates as 0: present, but no usable wait", () => {
    expect(parseRetryAfter("-5", now)).toBe(0);
    expect(parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", now)).toBe(0);
  });
});

describe("the wait before the next attempt", () => {
  const seeded = () => 0.5;

  it("honours a Retry-After at or above the floor", () => {
    expect(retryDelay(DEFAULT_RETRY_POLICY, 1, seeded, true, 5_000)).toEqual({
      delayMs: 5_000,
      fromServer: true,
    });
    expect(retryDelay(DEFAULT_RETRY_POLICY, 1, seeded, false, 1_000).delayMs).toBe(1_000);
  });

  it("replaces 0, past or sub-second Retry-After by the rate-limited schedule: at least 1 s, growing", () => {
    for (const [wait, rateLimited] of [
      [0, true],
      [0, false],
      [500, false],
      [999, true],
    ] as const) {
      const delays = [1, 2, 3, 4, 5].map(
        (attempt) => retryDelay(DEFAULT_RETRY_POLICY, attempt, seeded, rateLimited, wait).delayMs
      );
      expect(delays).toEqual([1500, 3000, 6000, 12000, 22500]);
      for (const d of delays)
        expect(d).toBeGreaterThanOrEqual(DEFAULT_RETRY_POLICY.minRetryAfterMs);
    }
  });

  it("keeps the ordinary schedule for a 5xx without any Retry-After", () => {
    expect(retryDelay(DEFAULT_RETRY_POLICY, 1, () => 0, false, undefined)).toEqual({
      delayMs: 500,
      fromServer: false,
    });
  });
});
