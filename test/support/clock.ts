/**
 * The tests' one fake clock, and timers that fire only when a test says so. Nothing here waits for real.
 *
 * A clock's sleeps and timers behave one of two ways, chosen when it is made:
 * - instant (the default): a sleep lets everything already due run, then moves the clock on by its length
 *   and resolves, so a retry schedule or a limiter's pacing plays out at once and `sleeps` says what it
 *   asked for; a timer fires once such a sleep of its length ends;
 * - held: sleeps and timers wait, each due at the time it was set plus its delay, until something moves
 *   them: the test (`lastHeld().wake()`, `fireNext()`), `advance(ms)`, which fires everything due on the
 *   way in time order as the time passes, or `drive(work)`, which fires the earliest due whenever
 *   everything else is idle (several limiters on one clock take turns in time order). Firing moves the
 *   clock to the due time, never back. The fault lab's driver (test/harness/faults/driver.ts) runs a
 *   whole workbook over real HTTP on a held clock with `nextDue()` and `fireNext()`.
 * Either way a sleep honours its abort signal as the client's own sleep does: an already aborted signal
 * rejects at once, and an abort rejects with the signal's reason.
 */
import type { Sleep, Timers } from "../../src/client";
import { abortReason } from "../../src/client/http/abort";

/** Noon UTC on 1 June 2024: a date inside every fixture's data. */
export const DEFAULT_START = Date.UTC(2024, 5, 1, 12);

/** Noon UTC on 20 November 2026: the engine's, runtime's and gateway's tests are set on this day. */
export const MIDDAY_2026 = Date.UTC(2026, 10, 20, 12);

/** A sleep on a held clock: how long it asked for, when it is due, its signal, and how to wake it. */
interface HeldSleep {
  readonly ms: number;
  readonly at: number;
  readonly signal?: AbortSignal;
  /** Moves the clock to `at` (never back) and resolves the sleep. */
  wake(): void;
}

interface FakeClockOptions {
  /** Sleeps and timers wait until the test, `advance` or `drive` moves them, instead of passing at once. */
  held?: boolean;
}

/** A held sleep or timer: due at `at`; among equals, the first set (lower `seq`) goes first. */
interface Due {
  readonly at: number;
  readonly seq: number;
  readonly fire: () => void;
}

export class FakeClock {
  private t: number;
  private seq = 0;
  /** The length of every sleep that began, in order (one with an already aborted signal begins none). */
  readonly sleeps: number[] = [];
  /** On a held clock, every sleep that began, in order, woken, aborted or still waiting. */
  readonly held: HeldSleep[] = [];
  /** On a held clock, the sleeps and timers neither fired, woken, aborted nor cleared, by `seq`. */
  private readonly pending = new Map<number, Due>();

  constructor(
    start = DEFAULT_START,
    private readonly options: FakeClockOptions = {}
  ) {
    this.t = start;
  }

  readonly now = (): number => this.t;

  /**
   * Moves the clock forward (a night, a weekend) without firing anything: on a held clock, what became
   * due fires, late but in order, the next time something moves it.
   */
  jump(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`jump: ms must be >= 0, got ${ms}`);
    this.t += ms;
  }

  /**
   * Lets `ms` pass: fires every held timer and wakes every held sleep due by then, in time order, moving
   * the clock to each, with promise callbacks let run between them (so one set in passing fires too if
   * due); then the clock stands at the end.
   */
  async advance(ms: number): Promise<void> {
    const target = this.t + ms;
    for (;;) {
      await flushPromises();
      const due = this.earliest();
      if (!due || due.at > target) break;
      this.fire(due);
    }
    this.t = target;
    await flushPromises();
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

  /** Runs until `work` settles, firing the earliest held sleep or timer whenever everything else is idle. */
  async drive<T>(work: Promise<T>): Promise<T> {
    let done = false;
    const tracked = work.finally(() => (done = true));
    while (!done) {
      await nextTurn();
      if (!done) this.fireNext();
    }
    return tracked;
  }

  /**
   * Timers on this clock. On an instant clock each fires once a sleep of its length ends (clearing one
   * aborts that sleep); on a held clock each waits with the held sleeps until fired, advanced past or driven.
   */
  readonly timers: Timers = {
    setTimeout: (fn, ms) => {
      if (this.options.held) return this.hold(ms, fn).seq;
      const controller = new AbortController();
      this.sleep(ms, controller.signal).then(fn, () => undefined);
      return controller;
    },
    clearTimeout: (handle) => {
      if (handle instanceof AbortController) handle.abort();
      else this.pending.delete(handle as number);
    },
  };

  /** Held sleeps and timers not yet fired, woken, aborted or cleared: after settled work, a leak. */
  get timersPending(): number {
    return this.pending.size;
  }

  /** When the earliest held sleep or timer is due, if any. */
  nextDue(): number | undefined {
    return this.earliest()?.at;
  }

  /** Fires the earliest held sleep or timer, moving the clock to its time; false when none is pending. */
  fireNext(): boolean {
    const due = this.earliest();
    if (!due) return false;
    this.fire(due);
    return true;
  }

  private earliest(): Due | undefined {
    let best: Due | undefined;
    for (const d of this.pending.values()) {
      if (!best || d.at < best.at || (d.at === best.at && d.seq < best.seq)) best = d;
    }
    return best;
  }

  private fire(due: Due): void {
    this.pending.delete(due.seq);
    this.t = Math.max(this.t, due.at);
    due.fire();
  }

  /** Queues `fire` at now + `ms`; a NaN or negative delay is due at once, as with the platform's setTimeout. */
  private hold(ms: number, fire: () => void): Due {
    const seq = ++this.seq;
    const due: Due = { at: this.t + (Number.isFinite(ms) && ms > 0 ? ms : 0), seq, fire };
    this.pending.set(seq, due);
    return due;
  }

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
        this.pending.delete(due.seq);
        reject(abortReason(signal as AbortSignal));
      };
      const due = this.hold(ms, () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      });
      this.sleeps.push(ms);
      this.held.push({
        ms,
        at: due.at,
        signal,
        wake: () => {
          if (this.pending.has(due.seq)) this.fire(due);
        },
      });
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }
}

/** A fake clock starting at `start`; sleeps and timers pass at once unless `held`. */
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

/** Lets every queued promise callback run (several rounds, for chains), without leaving the microtask queue. */
export async function flushPromises(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}
