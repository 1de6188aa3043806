/**
 * Fairness between the people of a team: one analyst's bulk refresh cannot starve another's single cell.
 *
 * - Upstream requests wait in one queue per user and start in turn, one user after the other (round robin),
 *   at most `concurrency` at a time per process. The rate limiter behind it therefore never holds more than
 *   that many requests: a cell asked while a colleague's thousand are waiting is next but a few, not last.
 * - Each user may start at most `userRate` upstream requests per window across all gateway processes (a
 *   rate-limiter-flexible limiter, in Redis with an in-memory insurance limiter, or in memory): whatever one
 *   person asks, part of the team's budget is always left for the others. A user over their share waits (the
 *   others go first); nobody is refused for it.
 */
import { RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { realTimers, type Timers } from "../client";

/** Whether `user` may start one more upstream request: 0 when granted, else the ms until they may. */
export interface UserCap {
  take(user: string): Promise<number>;
}

/** A UserCap on a rate-limiter-flexible limiter (points per duration, per user). */
export function userCapOf(limiter: RateLimiterAbstract): UserCap {
  return {
    async take(user) {
      try {
        await limiter.consume(user, 1);
        return 0;
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return Math.max(1, rejection.msBeforeNext);
        throw rejection;
      }
    },
  };
}

interface Job {
  run: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
}

export interface FairSchedulerOptions {
  /** Upstream requests under way at once in this process. */
  concurrency: number;
  cap?: UserCap;
  timers?: Timers;
  now?: () => number;
}

export class FairScheduler {
  private readonly queues = new Map<string, Job[]>();
  /** Users in turn order; the next turn starts after `cursor`. */
  private order: string[] = [];
  private cursor = 0;
  private readonly notBefore = new Map<string, number>();
  private active = 0;
  private pumping = false;
  private wake: unknown;
  private readonly timers: Timers;
  private readonly now: () => number;

  constructor(private readonly options: FairSchedulerOptions) {
    if (!(Number.isInteger(options.concurrency) && options.concurrency >= 1))
      throw new RangeError(`concurrency must be a positive integer, got ${options.concurrency}`);
    this.timers = options.timers ?? realTimers;
    this.now = options.now ?? Date.now;
  }

  /** Requests waiting for their turn. */
  get queued(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }

  get running(): number {
    return this.active;
  }

  run<T>(user: string, job: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let queue = this.queues.get(user);
      if (!queue) this.queues.set(user, (queue = []));
      // A user not in the round joins it next in line: one cell asked during a colleague's bulk refresh goes
      // after the request under way. A user whose queue ran dry keeps their place until their turn passes.
      if (!this.order.includes(user)) {
        this.cursor = Math.min(this.cursor, this.order.length);
        this.order.splice(this.cursor, 0, user);
      }
      queue.push({ run: job, resolve: resolve as (v: unknown) => void, reject });
      void this.pump();
    });
  }

  /** The next user whose turn it is and who may start now; undefined when none. */
  private nextUser(): string | undefined {
    const now = this.now();
    for (let step = 0; step < this.order.length;) {
      const index = (this.cursor + step) % this.order.length;
      const user = this.order[index];
      if ((this.queues.get(user)?.length ?? 0) === 0) {
        // Their turn came with nothing waiting: they leave the round.
        this.queues.delete(user);
        this.notBefore.delete(user);
        this.order.splice(index, 1);
        if (index < this.cursor) this.cursor--;
        continue;
      }
      step++;
      if ((this.notBefore.get(user) ?? 0) > now) continue;
      this.cursor = index + 1;
      return user;
    }
    return undefined;
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.active < this.options.concurrency && this.queued > 0) {
        const user = this.nextUser();
        if (user === undefined) {
          this.sleepUntilSomeoneMay();
          return;
        }
        const wait = this.options.cap ? await this.takeCap(user) : 0;
        if (wait > 0) {
          this.notBefore.set(user, this.now() + wait);
          continue;
        }
        this.notBefore.delete(user);
        const job = (this.queues.get(user) as Job[]).shift() as Job;
        this.active++;
        job
          .run()
          .then(job.resolve, job.reject)
          .finally(() => {
            this.active--;
            void this.pump();
          });
      }
    } finally {
      this.pumping = false;
    }
  }

  /** The cap's answer; a cap that fails (its store unreachable, no insurance) does not stop the queue. */
  private async takeCap(user: string): Promise<number> {
    try {
      return await (this.options.cap as UserCap).take(user);
    } catch {
      return 0;
    }
  }

  private sleepUntilSomeoneMay(): void {
    if (this.wake !== undefined) return;
    const now = this.now();
    let soonest = Infinity;
    for (const user of this.order) soonest = Math.min(soonest, this.notBefore.get(user) ?? now);
    this.wake = this.timers.setTimeout(
      () => {
        this.wake = undefined;
        void this.pump();
      },
      Math.max(1, soonest - now)
    );
  }
}
