/**
 * Virtual time for whole-workbook runs over real HTTP: a clock and timers that move only when the driver
 * (driver.ts) says so. The client's per-attempt time-outs, its call deadline, backoff waits, the rate
 * limiter's windows, the engine's batching window and the simulator's own clock all read this one clock, so
 * a two-minute deadline or a one-minute rate-limit window costs no real time, and every duration measured in
 * it is what a user would have waited.
 */
import { createSleep, type Sleep, type Timers } from "../../../src/client";

interface Pending {
  at: number;
  seq: number;
  fn: () => void;
}

export class VirtualTime {
  private t: number;
  private seq = 0;
  private readonly pending = new Map<number, Pending>();

  constructor(start: number) {
    this.t = start;
  }

  readonly now = (): number => this.t;

  readonly timers: Timers = {
    setTimeout: (fn, ms) => {
      const id = ++this.seq;
      // A NaN or negative delay runs at once, as the platform's setTimeout does.
      const delay = Number.isFinite(ms) && ms > 0 ? ms : 0;
      this.pending.set(id, { at: this.t + delay, seq: id, fn });
      return id;
    },
    clearTimeout: (handle) => {
      this.pending.delete(handle as number);
    },
  };

  readonly sleep: Sleep = createSleep(this.timers);

  /** Timers set and neither fired nor cleared: after a settled workbook, anything here is a leak. */
  get timersPending(): number {
    return this.pending.size;
  }

  /** When the earliest pending timer is due, if any. */
  nextDue(): number | undefined {
    let best: Pending | undefined;
    for (const p of this.pending.values()) if (!best || before(p, best)) best = p;
    return best?.at;
  }

  /** Fires the earliest pending timer, moving the clock to its time; false when none is pending. */
  fireNext(): boolean {
    let best: Pending | undefined;
    for (const p of this.pending.values()) if (!best || before(p, best)) best = p;
    if (!best) return false;
    this.pending.delete(best.seq);
    this.t = Math.max(this.t, best.at);
    best.fn();
    return true;
  }

  /**
   * Moves the clock forward (a night, a weekend) without firing anything: timers that became due fire, in
   * order, the next time the driver runs. Only meaningful while the workbook is idle.
   */
  jump(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`jump: ms must be >= 0, got ${ms}`);
    this.t += ms;
  }
}

function before(a: Pending, b: Pending): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}
