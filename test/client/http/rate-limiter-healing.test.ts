/**
 * The shared budget heals: an open start of a process that is gone stops being held open, starts dated
 * ahead of the clock (a run whose clock was an hour ahead) are dropped, an interrupted process reports what
 * it holds open, and a call whose deadline passes while it waits for a turn says that it waited.
 */
import {
  RateLimiter,
  claimSlots,
  settleSlots,
  type Claimed,
  type ClaimTurn,
  type LedgerRecord,
  type OpenStart,
  type StartLedger,
} from "../../../src/client";
import { GONE_SEND_ALLOWANCE_MS, MAX_CLOCK_SKEW_MS } from "../../../src/client/http/rate-limiter";
import { createClient } from "../../../src/client";
import { setLogSink, type LogRecord } from "../../../src/client/log";
import { API_KEY } from "../helpers";
import { fakeClock } from "../../support/clock";

const SPAN = 61_000;
const turn = (wanted: number, owner = "next") => ({
  limit: 60,
  spanMs: SPAN,
  wanted,
  owner,
  openMs: 120_000,
});
/** A claimer as a ledger's owner may name one (the CLI's processes): the client only carries it. */
interface Claimer {
  pid: number;
  host: string;
  started: string;
}
const me: Claimer = { pid: 200, host: "here", started: "5" };

function record(
  open: OpenStart<Claimer>[],
  starts: number[] = [],
  pausedUntil = 0
): LedgerRecord<Claimer> {
  return { starts, open, pausedUntil };
}

describe("open starts of a process that is gone", () => {
  const dead = { pid: 100, host: "here", started: "1" };
  const opens = (n: number, at: number, process = dead): OpenStart<Claimer>[] =>
    Array.from({ length: n }, () => ({ owner: "old", at, process }));

  it("count as reaching the service just after their claim, not for two minutes", () => {
    // 58 starts claimed at 10 s by a run killed at 14 s (one answered before); the next run asks at 15 s.
    const r = record(opens(58, 10_000), [9_000]);
    const isGone = (s: OpenStart<Claimer>) => s.process?.pid === 100;
    expect(claimSlots(r, turn(1), 15_000, { isGone })).toEqual({ granted: 1, waitMs: 0 });
    expect(r.open).toEqual([{ owner: "next", at: 15_000 }]);
    expect(r.starts).toEqual([9_000, ...Array(58).fill(10_000 + GONE_SEND_ALLOWANCE_MS)]);
    // Full: the next start waits for the oldest to leave the window, a span after it, not 120 s + a span.
    expect(claimSlots(r, turn(1), 15_000, { isGone })).toEqual({
      granted: 0,
      waitMs: 9_000 + SPAN - 15_000,
    });
  });

  it("are held open while their process lives, and without a health check (as before)", () => {
    const alive = record(opens(60, 10_000));
    expect(claimSlots(alive, turn(1), 15_000, { isGone: () => false })).toEqual({
      granted: 0,
      waitMs: SPAN,
    });
    expect(alive.open).toHaveLength(60);
    const unchecked = record(opens(60, 10_000));
    expect(claimSlots(unchecked, turn(1), 15_000)).toEqual({ granted: 0, waitMs: SPAN });
  });

  it("record the claiming process with each new open start", () => {
    const r = record([]);
    expect(claimSlots(r, turn(2, "mine"), 1_000, { self: me })).toEqual({ granted: 2, waitMs: 0 });
    expect(r.open).toEqual([
      { owner: "mine", at: 1_000, process: me },
      { owner: "mine", at: 1_000, process: me },
    ]);
  });
});

describe("times ahead of the clock", () => {
  const HOUR = 3_600_000;

  it("drops 58 starts and open starts a run made with its clock an hour ahead", () => {
    const now = 1_000_000;
    const r = record(
      [{ owner: "ahead", at: now + HOUR }],
      Array.from({ length: 58 }, (_, i) => now + HOUR + i)
    );
    expect(claimSlots(r, turn(10), now)).toEqual({ granted: 10, waitMs: 0 });
    expect(r.starts).toEqual([]);
    expect(r.open).toHaveLength(10);
  });

  it("keeps what is ahead by no more than a small skew (clocks of computers sharing a directory)", () => {
    const now = 1_000_000;
    const r = record(
      [{ owner: "near", at: now + MAX_CLOCK_SKEW_MS }],
      [now + MAX_CLOCK_SKEW_MS, now + MAX_CLOCK_SKEW_MS + 1]
    );
    claimSlots(r, turn(1), now);
    expect(r.starts).toEqual([now + MAX_CLOCK_SKEW_MS]);
    expect(r.open).toEqual([
      { owner: "near", at: now + MAX_CLOCK_SKEW_MS },
      { owner: "next", at: now },
    ]);
  });

  it("drops a pause set an hour ahead, keeps a Retry-After's minute", () => {
    const wrong = record([], [], 2_000_000 + HOUR);
    expect(claimSlots(wrong, turn(1), 2_000_000)).toEqual({ granted: 1, waitMs: 0 });
    expect(wrong.pausedUntil).toBe(0);
    const minute = record([], [], 2_060_000);
    expect(claimSlots(minute, turn(1), 2_000_000)).toEqual({ granted: 0, waitMs: 60_000 });
  });
});

/** A ledger in memory that records what it was told. */
class RecordingLedger implements StartLedger {
  readonly record: LedgerRecord = { starts: [], open: [], pausedUntil: 0 };
  readonly settles: number[] = [];
  async claim(t: ClaimTurn): Promise<Claimed> {
    await Promise.resolve();
    return claimSlots(this.record, t, t.now());
  }
  async settle(owner: string, count: number, now: () => number): Promise<void> {
    await Promise.resolve();
    this.settles.push(count);
    settleSlots(this.record, owner, count, now());
  }
  async pauseUntil(): Promise<void> {}
}

describe("a process that is interrupted", () => {
  it("reports every start it holds open as answered, once: later answers report nothing more", async () => {
    const clock = fakeClock(0);
    const ledger = new RecordingLedger();
    const limiter = new RateLimiter({
      limit: 5,
      windowMs: 1000,
      now: clock.now,
      sleep: clock.sleep,
      ledger,
    });
    const finished = await Promise.all([limiter.acquire(), limiter.acquire(), limiter.acquire()]);
    expect(ledger.record.open).toHaveLength(3);
    clock.jump(400);
    limiter.release();
    await limiter.settled();
    expect(ledger.record.open).toEqual([]);
    expect(ledger.record.starts).toEqual([400, 400, 400]);
    for (const done of finished) done();
    await limiter.settled();
    expect(ledger.settles).toEqual([3]);
  });
});

describe("waiting for the budget", () => {
  /** A ledger whose budget other processes hold for ever. */
  const held: StartLedger = {
    claim: () => Promise.resolve({ granted: 0, waitMs: 30_000 }),
    settle: () => Promise.resolve(),
    pauseUntil: () => Promise.resolve(),
  };

  it("is said once it is long, and a deadline passing in it says it waited, never that the service was unreachable", async () => {
    const clock = fakeClock(Date.UTC(2024, 0, 1), { held: true });
    const logs: LogRecord[] = [];
    const previous = setLogSink((r) => logs.push(r));
    let fetched = 0;
    try {
      const client = createClient({
        baseUrl: "https://metrics.example",
        apiKey: API_KEY,
        fetch: () => {
          fetched++;
          return Promise.reject(new Error("never sent"));
        },
        now: clock.now,
        sleep: clock.sleep,
        // The call's deadline fires once the clock has moved past it.
        timers: clock.timers,
        limiter: new RateLimiter({ now: clock.now, sleep: clock.sleep, ledger: held }),
      });
      const failure = await clock.drive(
        client.listProjects().then(
          () => undefined,
          (e: unknown) => e as { kind: string; attempts?: number; message: string }
        )
      );
      expect(fetched).toBe(0);
      expect(failure).toMatchObject({ kind: "timeout", attempts: 0 });
      expect(failure?.message).toMatch(
        /^listProjects\(\): waited 1\d\d s for a turn in the request budget \(60 requests a minute for this key, shared with the other processes using it\); the call's deadline passed before its request could be sent$/
      );
      expect(logs.filter((l) => l.logger === "rate-limiter").map((l) => l.message)).toEqual([
        "waiting 30 s for the request budget (60 requests a minute for this key, shared with the other processes using it)",
      ]);
    } finally {
      setLogSink(previous);
    }
  });
});
