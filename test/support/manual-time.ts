/** A clock and timers that move only when a test says so: nothing in the suite sleeps for real. */
import type { Timers } from "../../src/client";

export class ManualTime {
  private t: number;
  private seq = 0;
  private readonly pending = new Map<number, { at: number; fn: () => void }>();

  constructor(start = Date.UTC(2026, 10, 20, 12)) {
    this.t = start;
  }

  readonly now = (): number => this.t;

  readonly timers: Timers = {
    setTimeout: (fn, ms) => {
      const id = ++this.seq;
      this.pending.set(id, { at: this.t + Math.max(0, ms), fn });
      return id;
    },
    clearTimeout: (handle) => {
      this.pending.delete(handle as number);
    },
  };

  get timersPending(): number {
    return this.pending.size;
  }

  /** Moves the clock, firing due timers in order; lets promise callbacks run between timers. */
  async advance(ms: number): Promise<void> {
    const target = this.t + ms;
    for (;;) {
      await flushPromises();
      const due = [...this.pending.entries()]
        .filter(([, p]) => p.at <= target)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.pending.delete(due[0]);
      this.t = Math.max(this.t, due[1].at);
      due[1].fn();
    }
    this.t = target;
    await flushPromises();
  }
}

/** Lets every queued promise callback run (several rounds, for chains). */
export async function flushPromises(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}
