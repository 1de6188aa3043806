import fc from "fast-check";
import { RateLimiter } from "../../../src/client";
import { tick, virtualClock } from "../helpers";
import { abortReason } from "../../../src/client/http/abort";

/** Largest number of starts inside any half-open window [t, t + windowMs). */
function maxInAnyWindow(starts: number[], windowMs: number): number {
  let max = 0;
  for (let i = 0; i < starts.length; i++) {
    let n = 0;
    for (let j = i; j < starts.length && starts[j] < starts[i] + windowMs; j++) n++;
    max = Math.max(max, n);
  }
  return max;
}

describe("rate limiter", () => {
  it("never allows more than N request starts in any window, whatever the arrival pattern", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 10, max: 1000 }),
        fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 40 }),
        async (limit, windowMs, gaps) => {
          const clock = virtualClock(0);
          const limiter = new RateLimiter({ limit, windowMs, now: clock.now, sleep: clock.sleep });
          const starts: number[] = [];
          const pending: Promise<void>[] = [];
          for (const gap of gaps) {
            // Grants already made are recorded before time moves on.
            await tick();
            clock.advance(gap);
            pending.push(limiter.acquire().then(() => void starts.push(clock.now())));
          }
          await Promise.all(pending);
          expect(starts).toHaveLength(gaps.length);
          expect(maxInAnyWindow(starts, windowMs)).toBeLessThanOrEqual(limit);
        }
      ),
      { numRuns: 150 }
    );
  });

  it("spaces a burst: the (N+1)th start waits one window and the margin after the first", async () => {
    const clock = virtualClock(0);
    const limiter = new RateLimiter({
      limit: 3,
      windowMs: 1000,
      marginMs: 0,
      now: clock.now,
      sleep: clock.sleep,
    });
    const starts: number[] = [];
    await Promise.all(
      Array.from({ length: 7 }, () => limiter.acquire().then(() => void starts.push(clock.now())))
    );
    expect(starts).toEqual([0, 0, 0, 1000, 1000, 1000, 2000]);
    const margined = new RateLimiter({
      limit: 3,
      windowMs: 1000,
      now: clock.now,
      sleep: clock.sleep,
    });
    const t0 = clock.now();
    const later: number[] = [];
    await Promise.all(
      Array.from({ length: 4 }, () =>
        margined.acquire().then(() => void later.push(clock.now() - t0))
      )
    );
    expect(later).toEqual([0, 0, 0, 1020]); // default margin: 2 % of the window, at most 1 s
  });

  it("serves waiters first in, first out", async () => {
    const clock = virtualClock(0);
    const limiter = new RateLimiter({
      limit: 1,
      windowMs: 100,
      now: clock.now,
      sleep: clock.sleep,
    });
    const order: number[] = [];
    await Promise.all([1, 2, 3, 4].map((n) => limiter.acquire().then(() => void order.push(n))));
    expect(order).toEqual([1, 2, 3, 4]);
  });

  it("lets a waiter abandon its place without holding up the others", async () => {
    let wake: (() => void) | undefined;
    let t = 0;
    const limiter = new RateLimiter({
      limit: 1,
      windowMs: 100,
      now: () => t,
      sleep: (ms, signal) =>
        new Promise<void>((resolve, reject) => {
          wake = () => {
            t += ms;
            resolve();
          };
          signal?.addEventListener("abort", () => reject(abortReason(signal)));
        }),
    });
    await limiter.acquire();
    const controller = new AbortController();
    const abandoned = limiter.acquire(controller.signal);
    const next = limiter.acquire();
    expect(limiter.stats().queued).toBe(2);
    controller.abort(new Error("user cancelled"));
    await expect(abandoned).rejects.toThrow("user cancelled");
    expect(limiter.stats().queued).toBe(1);
    wake?.();
    await expect(next).resolves.toBeUndefined();
  });

  it("rejects at once for an already aborted signal", async () => {
    const limiter = new RateLimiter({ limit: 1, windowMs: 100 });
    await expect(limiter.acquire(AbortSignal.abort(new Error("gone")))).rejects.toThrow("gone");
  });

  it("reports usage of the current window for the taskpane's meter", async () => {
    const clock = virtualClock(0);
    const limiter = new RateLimiter({
      limit: 60,
      windowMs: 60_000,
      now: clock.now,
      sleep: clock.sleep,
    });
    for (let i = 0; i < 5; i++) await limiter.acquire();
    expect(limiter.stats()).toEqual({
      limit: 60,
      windowMs: 60_000,
      used: 5,
      queued: 0,
      nextSlotInMs: 0,
      pausedUntil: null,
    });
    clock.advance(60_000);
    expect(limiter.stats().used).toBe(0);
  });

  it("holds every caller during a server-requested pause", async () => {
    const clock = virtualClock(0);
    const limiter = new RateLimiter({
      limit: 100,
      windowMs: 1000,
      now: clock.now,
      sleep: clock.sleep,
    });
    limiter.pauseUntil(5000);
    expect(limiter.stats().pausedUntil).toBe(5000);
    await limiter.acquire();
    expect(clock.now()).toBe(5000);
  });

  it("defaults to the service's documented 60 requests per minute", () => {
    const stats = new RateLimiter().stats();
    expect([stats.limit, stats.windowMs]).toEqual([60, 60_000]);
  });

  it("refuses nonsensical limits", () => {
    expect(() => new RateLimiter({ limit: 0 })).toThrow(RangeError);
    expect(() => new RateLimiter({ windowMs: 0 })).toThrow(RangeError);
  });
});
