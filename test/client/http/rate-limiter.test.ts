import fc from "fast-check";
import {
  RateLimiter,
  claimSlots,
  settleSlots,
  type Claimed,
  type ClaimTurn,
  type LedgerRecord,
  type StartLedger,
} from "../../../src/client";
import { tick } from "../helpers";
import { fakeClock } from "../../support/clock";
import { createRateLimiter } from "../../../src/client/http/rate-limiter";
import { setLogSink, type LogRecord } from "../../../src/client/log";

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
          const clock = fakeClock(0);
          const limiter = new RateLimiter({ limit, windowMs, now: clock.now, sleep: clock.sleep });
          const starts: number[] = [];
          const pending: Promise<void>[] = [];
          for (const gap of gaps) {
            // Grants already made are recorded before time moves on.
            await tick();
            clock.jump(gap);
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
    const clock = fakeClock(0);
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
    const clock = fakeClock(0);
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
    const clock = fakeClock(0, { held: true });
    const limiter = new RateLimiter({
      limit: 1,
      windowMs: 100,
      now: clock.now,
      sleep: clock.sleep,
    });
    await limiter.acquire();
    const controller = new AbortController();
    const abandoned = limiter.acquire(controller.signal);
    const next = limiter.acquire();
    expect(limiter.stats().queued).toBe(2);
    controller.abort(new Error("user cancelled"));
    await expect(abandoned).rejects.toThrow("user cancelled");
    expect(limiter.stats().queued).toBe(1);
    clock.lastHeld().wake();
    await expect(next).resolves.toBeInstanceOf(Function);
  });

  it("rejects at once for an already aborted signal", async () => {
    const limiter = new RateLimiter({ limit: 1, windowMs: 100 });
    await expect(limiter.acquire(AbortSignal.abort(new Error("gone")))).rejects.toThrow("gone");
  });

  it("reports usage of the current window for the taskpane's meter", async () => {
    const clock = fakeClock(0);
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
      remembered: 5,
    });
    clock.jump(60_000);
    expect(limiter.stats().used).toBe(0);
  });

  it("holds every caller during a server-requested pause", async () => {
    const clock = fakeClock(0);
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

  it("refuses nonsensical limits, saying which setting and what it got", () => {
    expect(() => new RateLimiter({ limit: 0 })).toThrow(
      new RangeError("rate limit must be a positive integer, got 0")
    );
    expect(() => new RateLimiter({ windowMs: 0 })).toThrow(
      new RangeError("rate limit window must be > 0 ms, got 0")
    );
  });

  it("paces by the wall clock when no clock is given", async () => {
    const limiter = createRateLimiter({ limit: 2, windowMs: 60_000 });
    expect(limiter).toBeInstanceOf(RateLimiter);
    await limiter.acquire();
    await limiter.acquire();
    // Two starts just now: the window is full for about a minute (the window and its 1 s margin).
    const stats = limiter.stats();
    expect(stats).toMatchObject({ limit: 2, used: 2, remembered: 2 });
    expect(stats.nextSlotInMs).toBeGreaterThan(59_000);
    expect(stats.nextSlotInMs).toBeLessThanOrEqual(61_000);
  });
});

/** A ledger in memory, as the CLI's file ledger behaves (one record, one decision at a time). */
class MemoryLedger implements StartLedger {
  readonly record: LedgerRecord = { starts: [], open: [], pausedUntil: 0 };
  failure: Error | undefined;
  /** Turns taken on the record (each one a lock, a read and a write in the file ledger). */
  claims = 0;
  async claim(turn: ClaimTurn): Promise<Claimed> {
    await Promise.resolve();
    if (this.failure) throw this.failure;
    this.claims++;
    return claimSlots(this.record, turn, turn.now());
  }
  async settle(owner: string, count: number, now: () => number): Promise<void> {
    await Promise.resolve();
    settleSlots(this.record, owner, count, now());
  }
  async pauseUntil(atMs: number): Promise<void> {
    this.record.pausedUntil = Math.max(this.record.pausedUntil, atMs);
  }
}

describe("rate limiter with a shared ledger (several processes, one key)", () => {
  /** Two limiters on one clock; every request is answered `answerMs` after its start. */
  async function twoProcesses(ledger: StartLedger | undefined, perProcess: number, answerMs = 0) {
    const clock = fakeClock(0, { held: true });
    const make = () =>
      new RateLimiter({
        limit: 5,
        windowMs: 1000,
        marginMs: 0,
        now: clock.now,
        sleep: clock.sleep,
        ledger,
      });
    const starts: number[] = [];
    const answers: number[] = [];
    const run = (limiter: RateLimiter) =>
      Array.from({ length: perProcess }, async () => {
        const finished = await limiter.acquire();
        starts.push(clock.now());
        await clock.sleep(answerMs);
        answers.push(clock.now());
        finished();
      });
    await clock.drive(Promise.all([...run(make()), ...run(make())]));
    return { starts: starts.sort((a, b) => a - b), answers: answers.sort((a, b) => a - b) };
  }

  it("keeps the limit across processes together, not each on its own", async () => {
    const alone = (await twoProcesses(undefined, 8)).starts;
    expect(maxInAnyWindow(alone, 1000)).toBe(10); // what two separate limiters send: twice the limit

    const shared = (await twoProcesses(new MemoryLedger(), 8)).starts;
    expect(shared).toHaveLength(16);
    expect(maxInAnyWindow(shared, 1000)).toBeLessThanOrEqual(5);
    expect(shared.slice(-1)[0]).toBe(3000); // 16 starts at 5 per second: the last in the fourth second
  });

  it("counts a start until its answer came: a service that counts on arrival, however late, sees the limit", async () => {
    // Requests reach the service at some time between their start and their answer (400 ms later here: a busy
    // process, a slow network). Counted from their starts, the next window's first requests may reach the
    // service within a window of the previous window's last ones; counted from their answers, never.
    const { starts, answers } = await twoProcesses(new MemoryLedger(), 8, 400);
    expect(maxInAnyWindow(answers, 1000)).toBeLessThanOrEqual(5);
    // Whatever moment of [start, answer] the service counts a request at, the next window's starts come
    // a window after the answers before them.
    for (let i = 5; i < starts.length; i++)
      expect(starts[i]).toBeGreaterThanOrEqual(answers[i - 5] + 1000);
    expect(starts.slice(-1)[0]).toBe(4200); // 1400 ms per 5 (a window and the answer's time), the 16th at 4200
  });

  it("shares a server-requested pause with every process", async () => {
    const clock = fakeClock(0, { held: true });
    const ledger = new MemoryLedger();
    const options = { limit: 100, windowMs: 1000, now: clock.now, sleep: clock.sleep, ledger };
    const first = new RateLimiter(options);
    const second = new RateLimiter(options);
    first.pauseUntil(4_000);
    await clock.drive(second.acquire());
    expect(clock.now()).toBe(4_000);
  });

  it("paces this process alone when the ledger fails", async () => {
    const clock = fakeClock(0, { held: true });
    const ledger = new MemoryLedger();
    ledger.failure = new Error("EACCES: permission denied");
    const limiter = new RateLimiter({
      limit: 2,
      windowMs: 1000,
      marginMs: 0,
      now: clock.now,
      sleep: clock.sleep,
      ledger,
    });
    const starts: number[] = [];
    await clock.drive(
      Promise.all([1, 2, 3].map(() => limiter.acquire().then(() => void starts.push(clock.now()))))
    );
    expect(starts).toEqual([0, 0, 1000]);
  });

  it("takes a burst's starts in one turn of the shared record, not one per request", async () => {
    const clock = fakeClock(0, { held: true });
    const ledger = new MemoryLedger();
    const limiter = new RateLimiter({
      limit: 5,
      windowMs: 1000,
      marginMs: 0,
      now: clock.now,
      sleep: clock.sleep,
      ledger,
    });
    const starts: number[] = [];
    await clock.drive(
      Promise.all(
        Array.from({ length: 12 }, () =>
          limiter.acquire().then((finished) => {
            starts.push(clock.now());
            finished();
          })
        )
      )
    );
    expect(starts).toEqual([0, 0, 0, 0, 0, 1000, 1000, 1000, 1000, 1000, 2000, 2000]);
    // The first caller claims alone (the others queue while it holds the record); then one turn per window
    // for everyone queued, and none while the local log already says wait.
    expect(ledger.claims).toBe(4);
    await limiter.settled();
    expect(ledger.record.open).toEqual([]);
  });

  const turn = (limit: number, wanted: number, owner = "a") => ({
    limit,
    spanMs: 1000,
    wanted,
    owner,
    openMs: 10_000,
  });

  it("decides on a shared record as the sliding log does, dropping starts that no longer count", () => {
    const record: LedgerRecord = { starts: [100, 0, 500], open: [], pausedUntil: 0 };
    // The oldest of the last 3 (0) frees at 1000.
    expect(claimSlots(record, turn(3, 1), 900)).toEqual({ granted: 0, waitMs: 100 });
    expect(claimSlots(record, turn(3, 1), 1000)).toEqual({ granted: 1, waitMs: 0 });
    expect(record).toMatchObject({ starts: [100, 500], open: [{ owner: "a", at: 1000 }] });
    settleSlots(record, "a", 1, 1000);
    // Of 5 wanted, as many as the window has room for: 100 and 500 no longer count at 1600, so 2.
    expect(claimSlots(record, turn(3, 5), 1600)).toEqual({ granted: 2, waitMs: 0 });
    expect(record.starts).toEqual([1000]);
    settleSlots(record, "a", 2, 1600);
    expect(record.starts).toEqual([1000, 1600, 1600]);
    record.pausedUntil = 5000;
    expect(claimSlots(record, turn(10, 3), 1700)).toEqual({ granted: 0, waitMs: 3300 });
    expect(record.starts).toEqual([1000, 1600, 1600]);
  });

  it("counts an open start until it is settled, then a span from its answer", () => {
    const record: LedgerRecord = { starts: [], open: [], pausedUntil: 0 };
    expect(claimSlots(record, turn(2, 2, "a"), 0)).toEqual({ granted: 2, waitMs: 0 });
    // Long past a span from the claim, the unanswered starts still count; at least a span is left to wait.
    expect(claimSlots(record, turn(2, 1, "b"), 5000)).toEqual({ granted: 0, waitMs: 1000 });
    // Another owner's answer settles none of a's starts.
    settleSlots(record, "b", 2, 5000);
    expect(record.open).toHaveLength(2);
    settleSlots(record, "a", 1, 5200);
    expect(claimSlots(record, turn(2, 1, "b"), 6000)).toEqual({ granted: 0, waitMs: 200 });
    expect(claimSlots(record, turn(2, 1, "b"), 6200)).toEqual({ granted: 1, waitMs: 0 });
  });

  it("takes a start left open past openMs (its process died) as answered then", () => {
    const record: LedgerRecord = { starts: [], open: [{ owner: "dead", at: 0 }], pausedUntil: 0 };
    expect(claimSlots(record, turn(1, 1), 10_500)).toEqual({ granted: 0, waitMs: 500 });
    expect(claimSlots(record, turn(1, 1), 11_000)).toEqual({ granted: 1, waitMs: 0 });
  });
});

describe("rate limiter bounds and settings", () => {
  it("never lets a shorter Retry-After shorten a pause already in force", () => {
    const clock = fakeClock(0);
    const limiter = new RateLimiter({
      limit: 10,
      windowMs: 1000,
      now: clock.now,
      sleep: clock.sleep,
    });
    limiter.pauseUntil(5_000);
    limiter.pauseUntil(3_000);
    expect(limiter.stats().pausedUntil).toBe(5_000);
    expect(limiter.stats().nextSlotInMs).toBe(5_000);
    limiter.pauseUntil(5_000);
    expect(limiter.stats().pausedUntil).toBe(5_000);
    limiter.pauseUntil(8_000);
    expect(limiter.stats().pausedUntil).toBe(8_000);
  });

  it("forgets request starts older than its window, so a long session holds at most `limit` of them", async () => {
    const clock = fakeClock(0);
    const limiter = new RateLimiter({
      limit: 3,
      windowMs: 1000,
      marginMs: 0,
      now: clock.now,
      sleep: clock.sleep,
    });
    for (let i = 0; i < 50; i++) {
      await limiter.acquire();
      clock.jump(400);
    }
    expect(limiter.stats().remembered).toBeLessThanOrEqual(3);
    // A start exactly one window (plus margin) old no longer counts: it is forgotten at that instant.
    const fresh = new RateLimiter({
      limit: 3,
      windowMs: 1000,
      marginMs: 0,
      now: clock.now,
      sleep: clock.sleep,
    });
    await fresh.acquire();
    clock.jump(999);
    expect(fresh.stats().remembered).toBe(1);
    clock.jump(1);
    expect(fresh.stats()).toMatchObject({ remembered: 0, used: 0, nextSlotInMs: 0 });
  });

  it("keeps only the last `limit` starts once configure() lowers the limit, and paces by them", async () => {
    const clock = fakeClock(0);
    const limiter = new RateLimiter({
      limit: 5,
      windowMs: 1000,
      marginMs: 0,
      now: clock.now,
      sleep: clock.sleep,
    });
    for (const at of [0, 100, 200, 300, 400]) {
      clock.jump(at - clock.now());
      await limiter.acquire();
    }
    limiter.configure({ limit: 2, marginMs: 0 });
    const stats = limiter.stats();
    expect(stats.remembered).toBe(2);
    // The 2nd most recent start (300) frees a slot at 1300.
    expect(stats.nextSlotInMs).toBe(1300 - 400);
  });

  it("refuses a negative, NaN or infinite margin, at construction and in configure()", () => {
    for (const marginMs of [-1, Number.NaN, Infinity]) {
      expect(() => new RateLimiter({ marginMs })).toThrow(RangeError);
      const limiter = new RateLimiter({ limit: 4, windowMs: 1000, marginMs: 10 });
      expect(() => limiter.configure({ limit: 9, marginMs })).toThrow(/margin/);
      // Nothing changed: a refused setting leaves the limiter as it was.
      expect(limiter.stats()).toMatchObject({ limit: 4, windowMs: 1000 });
    }
    expect(() => new RateLimiter({ marginMs: 0 })).not.toThrow();
  });

  it("refuses a fractional or zero limit and a non-positive window in configure()", () => {
    const limiter = new RateLimiter({ limit: 4, windowMs: 1000 });
    expect(() => limiter.configure({ limit: 1.5 })).toThrow(RangeError);
    expect(() => limiter.configure({ limit: 0 })).toThrow(RangeError);
    expect(() => limiter.configure({ windowMs: -5 })).toThrow(RangeError);
    expect(() => limiter.configure({ windowMs: Number.NaN })).toThrow(RangeError);
    expect(limiter.stats()).toMatchObject({ limit: 4, windowMs: 1000 });
  });

  it("configure() with a higher quota lets a waiting caller start at once", async () => {
    const clock = fakeClock(0, { held: true });
    const limiter = new RateLimiter({
      limit: 1,
      windowMs: 60_000,
      now: clock.now,
      sleep: clock.sleep,
    });
    await limiter.acquire();
    let started = false;
    const waiting = limiter.acquire().then(() => (started = true));
    await tick();
    expect(clock.lastHeld().ms).toBe(61_000); // the window and the default margin (2 %, at most 1 s)
    limiter.configure({ limit: 2 });
    await waiting;
    expect(started).toBe(true);
    expect(clock.now()).toBe(0); // no time passed: the sleep was cut short
    expect(limiter.stats()).toMatchObject({ limit: 2, used: 2, queued: 0 });
  });

  it("configure() takes the new window and its default margin, or the margin given", async () => {
    const clock = fakeClock(0);
    const limiter = new RateLimiter({
      limit: 1,
      windowMs: 1000,
      marginMs: 0,
      now: clock.now,
      sleep: clock.sleep,
    });
    limiter.configure({ windowMs: 10_000 });
    await limiter.acquire();
    expect(limiter.stats()).toMatchObject({ windowMs: 10_000, nextSlotInMs: 10_200 });
    limiter.configure({ marginMs: 5 });
    expect(limiter.stats().nextSlotInMs).toBe(10_005);
    limiter.configure({});
    expect(limiter.stats()).toMatchObject({ limit: 1, windowMs: 10_000, nextSlotInMs: 10_200 });
  });

  it("caps the default margin at one second for long windows", async () => {
    const clock = fakeClock(0);
    const limiter = new RateLimiter({
      limit: 1,
      windowMs: 3_600_000,
      now: clock.now,
      sleep: clock.sleep,
    });
    await limiter.acquire();
    expect(limiter.stats().nextSlotInMs).toBe(3_601_000);
  });

  it("releases the pending timer when the last waiter gives up, and only then", async () => {
    const clock = fakeClock(0, { held: true });
    const limiter = new RateLimiter({
      limit: 1,
      windowMs: 1000,
      now: clock.now,
      sleep: clock.sleep,
    });
    await limiter.acquire();
    const first = new AbortController();
    const second = new AbortController();
    const a = limiter.acquire(first.signal);
    const b = limiter.acquire(second.signal);
    await tick();
    const timer = clock.lastHeld();
    expect(timer.signal?.aborted).toBe(false);
    first.abort(new Error("first gave up"));
    await expect(a).rejects.toThrow("first gave up");
    // Someone still waits: the timer stays.
    expect(timer.signal?.aborted).toBe(false);
    second.abort(new Error("second gave up"));
    await expect(b).rejects.toThrow("second gave up");
    expect(timer.signal?.aborted).toBe(true);
    await tick();
    // Nobody waits: no new timer is set.
    expect(clock.held).toHaveLength(1);
    expect(limiter.stats().queued).toBe(0);
  });
});

describe("rate limiter and its shared ledger, in detail", () => {
  /** A ledger that records every turn; while `held`, each claim waits until the test answers it. */
  class GatedLedger extends MemoryLedger {
    readonly turns: ClaimTurn[] = [];
    settles: Array<[string, number]> = [];
    held = false;
    /** Claims waiting for the test, oldest first: call one to let it decide. */
    readonly waiting: Array<() => void> = [];
    override async claim(turn: ClaimTurn): Promise<Claimed> {
      this.turns.push(turn);
      if (this.held) await new Promise<void>((resolve) => this.waiting.push(resolve));
      return super.claim(turn);
    }
    override async settle(owner: string, count: number, now: () => number): Promise<void> {
      this.settles.push([owner, count]);
      return super.settle(owner, count, now);
    }
  }

  function collectLogs(): { records: LogRecord[]; restore: () => void } {
    const records: LogRecord[] = [];
    const previous = setLogSink((record) => records.push(record));
    return { records, restore: () => setLogSink(previous) };
  }

  it("asks the ledger with the window and the margin as the span, and 2 minutes before an open start lapses", async () => {
    const ledger = new GatedLedger();
    const clock = fakeClock(0);
    const limiter = new RateLimiter({
      limit: 5,
      windowMs: 1000,
      now: clock.now,
      sleep: clock.sleep,
      ledger,
    });
    (await limiter.acquire())();
    expect(ledger.turns[0]).toMatchObject({ limit: 5, spanMs: 1020, wanted: 1, openMs: 120_000 });
    const own = new RateLimiter({ limit: 5, windowMs: 1000, marginMs: 7, openMs: 9_000, ledger });
    (await own.acquire())();
    expect(ledger.turns[1]).toMatchObject({ spanMs: 1007, openMs: 9_000 });
  });

  it("names each process on the shared record by a short id of its own", async () => {
    const ledger = new GatedLedger();
    const a = new RateLimiter({ limit: 5, windowMs: 1000, ledger });
    const b = new RateLimiter({ limit: 5, windowMs: 1000, ledger });
    await a.acquire();
    await b.acquire();
    const [first, second] = ledger.record.open.map((o) => o.owner);
    expect(first).toMatch(/^[0-9a-z]+-[0-9a-z]{1,8}$/);
    expect(second).toMatch(/^[0-9a-z]+-[0-9a-z]{1,8}$/);
    expect(first).not.toBe(second);
  });

  it("never starts more than its own limit, even when the shared record grants more (a record lost or reset)", async () => {
    // A ledger that grants whatever is asked: only the process's own log holds it to the limit.
    const generous: StartLedger = {
      claim: async (turn) => ({ granted: turn.wanted, waitMs: 0 }),
      settle: async () => {},
      pauseUntil: async () => {},
    };
    const clock = fakeClock(0);
    const limiter = new RateLimiter({
      limit: 3,
      windowMs: 1000,
      marginMs: 0,
      now: clock.now,
      sleep: clock.sleep,
      ledger: generous,
    });
    const starts: number[] = [];
    await Promise.all(
      Array.from({ length: 7 }, () => limiter.acquire().then(() => void starts.push(clock.now())))
    );
    expect(starts).toEqual([0, 0, 0, 1000, 1000, 1000, 2000]);
  });

  it("settles a start once however often its request reports its answer", async () => {
    const ledger = new GatedLedger();
    const limiter = new RateLimiter({ limit: 5, windowMs: 1000, ledger });
    const first = await limiter.acquire();
    await limiter.acquire();
    expect(ledger.record.open).toHaveLength(2);
    first();
    first();
    await limiter.settled();
    expect(ledger.record.open).toHaveLength(1);
    expect(ledger.record.starts).toHaveLength(1);
  });

  it("settles only as many of its open starts as were answered, oldest first", () => {
    const record: LedgerRecord = {
      starts: [],
      open: [
        { owner: "a", at: 10 },
        { owner: "b", at: 20 },
        { owner: "a", at: 30 },
        { owner: "a", at: 40 },
      ],
      pausedUntil: 0,
    };
    settleSlots(record, "a", 1, 500);
    expect(record.starts).toEqual([500]);
    expect(record.open).toEqual([
      { owner: "b", at: 20 },
      { owner: "a", at: 30 },
      { owner: "a", at: 40 },
    ]);
    settleSlots(record, "a", 5, 600);
    expect(record.starts).toEqual([500, 600, 600]);
    expect(record.open).toEqual([{ owner: "b", at: 20 }]);
  });

  it("keeps at most `limit` starts in a shared record (a larger former limit left more)", () => {
    const record: LedgerRecord = { starts: [100, 200, 300, 400, 500], open: [], pausedUntil: 0 };
    expect(
      claimSlots(record, { limit: 2, spanMs: 1000, wanted: 1, owner: "a", openMs: 10_000 }, 600)
    ).toEqual({ granted: 0, waitMs: 1000 + 400 - 600 });
    expect(record.starts).toEqual([400, 500]);
  });

  it("waits for the ledger's report of every answered start before settled() resolves", async () => {
    const ledger = new GatedLedger();
    let reported: (() => void) | undefined;
    ledger.settle = (owner, count, now) =>
      new Promise<void>((resolve) => {
        reported = () => {
          settleSlots(ledger.record, owner, count, now());
          resolve();
        };
      });
    const limiter = new RateLimiter({ limit: 5, windowMs: 1000, ledger });
    (await limiter.acquire())();
    let done = false;
    const settled = limiter.settled().then(() => (done = true));
    await tick();
    expect(done).toBe(false);
    reported?.();
    await settled;
    expect(ledger.record.open).toEqual([]);
  });

  it("gives back, at once, starts granted to callers that gave up while the ledger was asked", async () => {
    const ledger = new GatedLedger();
    const clock = fakeClock(0, { held: true });
    const limiter = new RateLimiter({
      limit: 5,
      windowMs: 1000,
      now: clock.now,
      sleep: clock.sleep,
      ledger,
    });
    // The first caller claims alone; two more queue while it holds the record.
    ledger.held = true;
    const first = limiter.acquire();
    const leaving = new AbortController();
    const gone = limiter.acquire(leaving.signal);
    const staying = limiter.acquire();
    await tick();
    ledger.waiting[0]();
    await first;
    // The next claim (for both queued callers) waits; one of them gives up meanwhile.
    await tick();
    expect(ledger.turns.map((t) => t.wanted)).toEqual([1, 2]);
    leaving.abort(new Error("gave up"));
    await expect(gone).rejects.toThrow("gave up");
    ledger.waiting[1]();
    await staying;
    await limiter.settled();
    // Two starts granted, one used: the unused one is settled, the first and the staying one stay open.
    expect(ledger.settles.map(([, n]) => n)).toEqual([1]);
    expect(ledger.record.open).toHaveLength(2);
    expect(limiter.stats().queued).toBe(0);
  });

  it("gives back the start of a lone caller that gave up while the ledger was asked", async () => {
    const ledger = new GatedLedger();
    const limiter = new RateLimiter({ limit: 5, windowMs: 1000, ledger });
    ledger.held = true;
    const leaving = new AbortController();
    const gone = limiter.acquire(leaving.signal);
    await tick();
    leaving.abort(new Error("gave up"));
    await expect(gone).rejects.toThrow("gave up");
    ledger.held = false;
    ledger.waiting[0]();
    await tick();
    await limiter.settled();
    expect(ledger.record.open).toEqual([]);
    expect(ledger.record.starts).toHaveLength(1);
    // The limiter still serves the next caller.
    await expect(limiter.acquire()).resolves.toBeInstanceOf(Function);
  });

  it("leaves no listener on a caller's signal once it got its slot", async () => {
    const limiter = new RateLimiter({ limit: 5, windowMs: 1000 });
    const controller = new AbortController();
    const added = jest.spyOn(controller.signal, "addEventListener");
    const removed = jest.spyOn(controller.signal, "removeEventListener");
    await limiter.acquire(controller.signal);
    expect(added).toHaveBeenCalledTimes(1);
    expect(removed).toHaveBeenCalledWith("abort", added.mock.calls[0][1]);
  });

  it("wakes nobody when a request without a ledger reports its answer", async () => {
    const clock = fakeClock(0, { held: true });
    const limiter = new RateLimiter({
      limit: 1,
      windowMs: 1000,
      now: clock.now,
      sleep: clock.sleep,
    });
    const finished = await limiter.acquire();
    const waiting = limiter.acquire();
    await tick();
    const timer = clock.lastHeld();
    finished();
    await tick();
    expect(timer.signal?.aborted).toBe(false);
    expect(clock.held).toHaveLength(1);
    timer.wake();
    await waiting;
  });

  it("after the ledger failed, a request's answer wakes nobody either", async () => {
    const logs = collectLogs();
    try {
      const ledger = new GatedLedger();
      ledger.failure = new Error("EIO");
      const clock = fakeClock(0, { held: true });
      const limiter = new RateLimiter({
        limit: 1,
        windowMs: 1000,
        now: clock.now,
        sleep: clock.sleep,
        ledger,
      });
      const finished = await limiter.acquire();
      const waiting = limiter.acquire();
      await tick();
      const timer = clock.lastHeld();
      finished();
      await tick();
      expect(timer.signal?.aborted).toBe(false);
      timer.wake();
      await waiting;
    } finally {
      logs.restore();
    }
  });

  it("leaves a failing ledger aside for good, with one warning naming the failure", async () => {
    const logs = collectLogs();
    try {
      const ledger = new GatedLedger();
      ledger.failure = new Error("EACCES: permission denied");
      ledger.pauseUntil = () => Promise.reject(new Error("EROFS: read-only file system"));
      const clock = fakeClock(0);
      const limiter = new RateLimiter({
        limit: 5,
        windowMs: 1000,
        now: clock.now,
        sleep: clock.sleep,
        ledger,
      });
      await limiter.acquire();
      await limiter.acquire();
      limiter.pauseUntil(10);
      await tick();
      // Asked once: the failure put it aside, the second caller was paced by this process alone.
      expect(ledger.turns).toHaveLength(1);
      expect(logs.records).toEqual([
        {
          level: "warn",
          logger: "rate-limiter",
          message: "the shared record of request starts failed; pacing this process alone",
          data: { error: "EACCES: permission denied" },
        },
      ]);
    } finally {
      logs.restore();
    }
  });

  it("warns once when two turns of the ledger fail at the same time", async () => {
    const logs = collectLogs();
    try {
      const ledger = new GatedLedger();
      const limiter = new RateLimiter({ limit: 5, windowMs: 1000, ledger });
      const finished = await limiter.acquire();
      ledger.failure = new Error("EIO");
      ledger.settle = () => Promise.reject(new Error("EIO"));
      // The report of the answer and the next claim are both under way when either fails.
      finished();
      const next = limiter.acquire();
      await next;
      await limiter.settled();
      expect(ledger.turns).toHaveLength(2);
      expect(logs.records).toHaveLength(1);
    } finally {
      logs.restore();
    }
  });

  it("leaves the ledger aside when it fails to take a server's pause, still pausing this process", async () => {
    const logs = collectLogs();
    try {
      const ledger = new GatedLedger();
      ledger.pauseUntil = () => Promise.reject(new Error("EROFS: read-only file system"));
      const clock = fakeClock(0);
      const limiter = new RateLimiter({
        limit: 5,
        windowMs: 1000,
        now: clock.now,
        sleep: clock.sleep,
        ledger,
      });
      limiter.pauseUntil(3_000);
      await tick();
      await limiter.acquire();
      expect(clock.now()).toBe(3_000);
      expect(ledger.turns).toHaveLength(0);
      expect(logs.records.map((r) => r.data)).toEqual([{ error: "EROFS: read-only file system" }]);
    } finally {
      logs.restore();
    }
  });

  it("leaves the ledger aside when reporting answers fails, and settled() still resolves", async () => {
    const logs = collectLogs();
    try {
      const ledger = new GatedLedger();
      ledger.settle = () => Promise.reject(new Error("ENOSPC"));
      const limiter = new RateLimiter({ limit: 5, windowMs: 1000, ledger });
      (await limiter.acquire())();
      await limiter.settled();
      await limiter.acquire();
      expect(ledger.turns).toHaveLength(1);
      expect(logs.records.map((r) => r.data)).toEqual([{ error: "ENOSPC" }]);
    } finally {
      logs.restore();
    }
  });
});
