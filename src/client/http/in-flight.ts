/**
 * At most so many exchanges at once (limits.maxInFlight), the others waiting their turn, first come first
 * served. Without it, the 60 starts a minute the rate limiter allows all run together: a big workbook's
 * first minute is 60 answers of megabytes sharing one line (and, in a browser, 6 connections to the
 * host), each on its own 30 s time-out. When together they need longer than that, every one of them times
 * out at once, and each retry adds to the load: measured on 10,000 METRIC spills, 601 attempts timed out
 * and half the cells ended #N/A. An exchange's time-out starts once it holds a slot, so it measures the
 * exchange, not the queue (the call's deadline still covers the wait).
 */
import { abortReason } from "./abort";

interface Waiter {
  grant: () => void;
  reject: (reason: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

export class InFlightLimit {
  private active = 0;
  private readonly queue: Waiter[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`maxInFlight must be a positive integer, got ${limit}`);
  }

  /** Exchanges holding a slot now, and waiting for one (for stats and tests). */
  get state(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.queue.length };
  }

  /** Resolves with the slot's release once one is free; rejects if `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (this.active < this.limit) {
      this.active++;
      return Promise.resolve(this.releaser());
    }
    return new Promise<() => void>((resolve, reject) => {
      const waiter: Waiter = { grant: () => resolve(this.releaser()), reject, signal };
      if (signal) {
        waiter.onAbort = () => {
          const i = this.queue.indexOf(waiter);
          if (i >= 0) this.queue.splice(i, 1);
          reject(abortReason(signal));
        };
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      this.queue.push(waiter);
    });
  }

  /** Releases once, whatever the caller does: the slot goes to the next waiter, or back to the pool. */
  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      if (!next) {
        this.active--;
        return;
      }
      if (next.signal && next.onAbort) next.signal.removeEventListener("abort", next.onAbort);
      next.grant(); // the slot passes on: `active` stays
    };
  }
}
