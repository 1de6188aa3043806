/**
 * One service key's request budget, as the gateway takes it: the client's rate limiter (its sliding log and
 * margin), over the record of starts every process shares (store/ledger.ts) when there is Redis. The gateway
 * takes a slot itself before each upstream request (the fetch queue decides whose request it is once the slot
 * is there), so the turn goes to whoever is next when the budget allows, not to whoever queued in the limiter.
 *
 * A gateway without Redis is one process: the whole limit. One with Redis that cannot reach it (away, or not yet
 * seen at start) takes a share: the limit divided by the number of processes, the most of `--processes` (default
 * DEFAULT_PROCESSES) and of those last seen alive in Redis (see store/ledger.ts).
 */
import { RateLimiter, type Finished } from "../client";
import type { GatewayClock } from "./clock";
import type { FailoverLedger } from "./store/ledger";

interface BudgetOptions {
  rateLimit: number;
  windowMs: number;
  clock: GatewayClock;
  /** The shared record (with Redis); undefined: one process, the whole limit. */
  ledger?: FailoverLedger;
  /** Longest open start of another process (the limiter's openMs; scaled with the window). */
  openMs?: number;
}

/** The share of `limit` one of `processes` processes may take alone: never more than its part. */
export function shareOf(limit: number, processes: number): number {
  return Math.max(1, Math.floor(limit / Math.max(1, processes)));
}

export class Budget {
  readonly limiter: RateLimiter;
  private readonly ledger: FailoverLedger | undefined;

  constructor(private readonly options: BudgetOptions) {
    this.ledger = options.ledger;
    this.limiter = new RateLimiter({
      limit: options.rateLimit,
      windowMs: options.windowMs,
      now: options.clock.now,
      sleep: options.clock.sleep,
      ...(options.ledger ? { ledger: options.ledger } : {}),
      ...(options.openMs !== undefined ? { openMs: options.openMs } : {}),
    });
  }

  /** A slot for one upstream request; call the result once its answer came (or it failed). */
  acquire(signal?: AbortSignal): Promise<Finished> {
    return this.limiter.acquire(signal);
  }

  /** Holds every sharer until `atMs` (a 429's Retry-After, or its backoff). */
  pauseUntil(atMs: number): void {
    this.limiter.pauseUntil(atMs);
  }

  /** The requests per window in force now: the whole limit on shared Redis, a share otherwise. */
  limitNow(): number {
    return this.ledger ? this.ledger.limitNow(this.options.rateLimit) : this.options.rateLimit;
  }

  /** Requests counted in the current window (across processes, as Redis holds it now, when it is shared). */
  async used(): Promise<number> {
    const own = this.limiter.stats().used;
    return this.ledger
      ? Math.max(own, await this.ledger.usedNow(this.options.clock.now(), this.options.windowMs))
      : own;
  }

  /** The process is ending: nothing more starts, and open starts count as answered now. */
  async release(): Promise<void> {
    this.limiter.release();
    await this.limiter.settled();
  }
}
