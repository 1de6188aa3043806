/**
 * The tests' one fake clock, and timers that fire only when a test says so. Nothing here waits for real.
 *
 * A clock's sleeps behave one of two ways, chosen when it is made:
 * - instant (the default): a sleep lets everything already due run, then moves the clock on by its length
 *   and resolves, so a retry schedule or a limiter's pacing plays out at once and `sleeps` says what it
 *   asked for;
 * - held: a sleep waits until it is woken, by the test (`lastHeld().wake()`) or by `drive(work)`, which
 *   wakes the earliest due whenever everything else is idle (several limiters on one clock take turns in
 *   time order). Waking moves the clock to the sleep's due time.
 * Either way a sleep honours its abort signal as the client's own sleep does: an already aborted signal
 * rejects at once, and an abort rejects with the signal's reason.
 */
import type { Sleep, Timers } from "../../src/client";
import { abortReason } from "../../src/client/http/abort";

/** Noon UTC on 1 June 2024: a date inside every fixture's data. */
export const DEFAULT_START = Date.UTC(2024, 5, 1, 12);

/** A sleep on a held clock: how long it asked for, when it is due, its signal, and how to wake it. */
export interface HeldSleep {
  readonly ms: number;
  readonly at: number;
  readonly signal?: AbortSignal;
  /** Moves the clock to `at` (never back) and resolves the sleep. */
  wake(): void;
}

export interface FakeClockOptions {
  /** Sleeps wait until the test or `drive` wakes them, instead of passing at once. */
  held?: boolean;
}

export class FakeClock {
  private t: number;
  /** The length of every sleep that began, in order (one with an already aborted signal begins none). */
  readonly sleeps: number[] = [];
  /** On a held clock, every sleep that began, in order, woken, aborted or still waiting. */
  readonly held: HeldSleep[] = [];
  /** Held sleeps neither woken nor aborted yet. */
  private readonly waiting = new Set<HeldSleep>();

  constructor(
    start = DEFAULT_START,
    private readonly options: FakeClockOptions = {}
  ) {
    this.t = start;
  }

  readonly now = (): number => this.t;

  /** Moves the clock on by `ms` without waking anyone. */
  advance(ms: number): void {
    this.t += ms;
  }

  readonly sleep: Sleep = (ms, signal) =>
    this.options.held ? this.holdSleep(ms, signal) : this.instantSleep(ms, signal);

  /** The last sleep that began on a held clock. */
  lastHeld(): HeldSleep {
    const last = this.held[this.held.length - 1];
    if (!last) throw new Error("no sleep has begun on this clock");
    return last;
  }

  /** Waits (a few event-loop turns at most) until `count` held sleeps have begun; returns the last. */
  async whenHeld(count = 1): Promise<HeldSleep> {
    for (let i = 0; i < 50 && this.held.length < count; i++) await nextTurn();
    if (this.held.length < count) throw new Error(`${this.held.length} of ${count} sleeps began`);
    return this.held[count - 1];
  }

  /** Runs until `work` settles, waking the earliest waiting sleep whenever everything else is idle. */
  async drive<T>(work: Promise<T>): Promise<T> {
    let done = false;
    const tracked = work.finally(() => (done = true));
    while (!done) {
      await nextTurn();
      if (done || this.waiting.size === 0) continue;
      // The earliest due; among equals, the first to begin.
      [...this.waiting].reduce((a, b) => (b.at < a.at ? b : a)).wake();
    }
    return tracked;
  }

  /**
   * Timers on this clock: each fires once a sleep of its length ends (at once on an instant clock, when
   * woken or driven on a held one); clearing one aborts its sleep.
   */
  readonly timers: Timers = {
    setTimeout: (fn, ms) => {
      const controller = new AbortController();
      this.sleep(ms, controller.signal).then(fn, () => undefined);
      return controller;
    },
    clearTimeout: (handle) => (handle as AbortController).abort(),
  };

  private async instantSleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw abortReason(signal);
    this.sleeps.push(ms);
    // Let everything already due run at the current time before time moves on.
    await nextTurn();
    this.t += ms;
    if (signal?.aborted) throw abortReason(signal);
  }

  private holdSleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortReason(signal));
        return;
      }
      const onAbort = (): void => {
        this.waiting.delete(sleep);
        reject(abortReason(signal as AbortSignal));
      };
      const sleep: HeldSleep = {
        ms,
        at: this.t + Math.max(0, ms),
        signal,
        wake: () => {
          if (!this.waiting.delete(sleep)) return;
          signal?.removeEventListener("abort", onAbort);
          this.t = Math.max(this.t, sleep.at);
          resolve();
        },
      };
      this.sleeps.push(ms);
      this.held.push(sleep);
      this.waiting.add(sleep);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }
}

/** A fake clock starting at `start`; sleeps pass at once unless `held`. */
export function fakeClock(start = DEFAULT_START, options: FakeClockOptions = {}): FakeClock {
  return new FakeClock(start, options);
}

/** Timers that never fire by themselves: tests fire them, so nothing waits for real. */
export function capturedTimers() {
  let next = 1;
  const pending = new Map<number, { fn: () => void; ms: number }>();
  const timers: Timers = {
    setTimeout: (fn, ms) => {
      const id = next++;
      pending.set(id, { fn, ms });
      return id;
    },
    clearTimeout: (handle) => {
      pending.delete(handle as number);
    },
  };
  return {
    timers,
    pending: () => [...pending.values()].map((p) => p.ms),
    /** Wait (a few event-loop turns at most) until a timer of `ms` is set, then fire it. */
    async fireWhenSet(ms: number): Promise<void> {
      for (let i = 0; i < 50; i++) {
        if ([...pending.values()].some((p) => p.ms === ms)) break;
        await nextTurn();
      }
      if (this.fire(ms) === 0) throw new Error(`no timer of ${ms} ms was set`);
    },
    /** Fire every pending timer set for exactly `ms`. */
    fire(ms: number): number {
      let fired = 0;
      for (const [id, p] of [...pending]) {
        if (p.ms !== ms) continue;
        pending.delete(id);
        p.fn();
        fired++;
      }
      return fired;
    },
  };
}

/** Resolves on the next macrotask: lets pending promise chains run. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
