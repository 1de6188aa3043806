/**
 * Client-side rate limiter shared by every caller in the runtime (functions, taskpane), so that a
 * workbook refresh spaces its requests instead of provoking 429s.
 *
 * Sliding log: the start times of the last `limit` requests are kept; a new start at time t is allowed
 * only when the `limit`-th most recent start is at least `windowMs` old. Hence no half-open window
 * [a, a + windowMs) ever holds more than `limit` starts, whatever the arrival pattern. Waiters are
 * served strictly first in, first out; each wait is abortable.
 *
 * With a ledger, the log is shared: separate processes using one key (consecutive or concurrent CLI runs)
 * each claim their starts in one record (the CLI keeps it in its cache directory, under a lock), so together
 * they keep the service's limit. A ledger that fails is left aside with a warning: the limiter then paces this
 * process alone, as it would without one.
 */
import { abortReason, createSleep, type Sleep } from "./abort";
import { messageOf } from "../errors";
import { createLogger } from "../log";
import { DEFAULT_LIMITS } from "../policy";

const log = createLogger("rate-limiter");

/** Request starts shared between processes (see the module comment). */
export interface StartLedger {
  /**
   * Atomically for every sharer: when the record leaves room for one more start within `spanMs` (and no pause
   * is in force), records one at `now()` and answers 0; otherwise answers how many ms to wait. `now()` is read
   * once the record is held.
   */
  claim(limit: number, spanMs: number, now: () => number): Promise<number>;
  /** Holds every sharer's starts until `atMs` (a server's Retry-After, a 429's backoff). */
  pauseUntil(atMs: number): Promise<void>;
}

/** A shared record as a ledger keeps it: recent starts (oldest first) and a pause. */
export interface LedgerRecord {
  starts: number[];
  pausedUntil: number;
}

/**
 * The sliding-log decision on a shared record, for ledgers: drops starts that no longer count, then records a
 * start at `now` (answer 0) or answers the wait. The record is changed in place.
 */
export function claimSlot(
  record: LedgerRecord,
  limit: number,
  spanMs: number,
  now: number
): number {
  record.starts = record.starts.filter((t) => t + spanMs > now).sort((a, b) => a - b);
  // Only the last `limit` starts can ever matter; older ones are noise from a larger former limit.
  if (record.starts.length > limit) record.starts = record.starts.slice(-limit);
  const pause = record.pausedUntil - now;
  const slot =
    record.starts.length < limit ? 0 : record.starts[record.starts.length - limit] + spanMs - now;
  const wait = Math.max(0, pause, slot);
  if (wait === 0) record.starts.push(now);
  return wait;
}

export interface RateLimiterOptions {
  /** Request starts allowed per window (default 60, the service's documented limit). */
  limit?: number;
  /** Window length in ms (default 60 000). */
  windowMs?: number;
  /**
   * Extra spacing added to the window (default: 2 % of it, at most 1 s). Starting a request exactly one window
   * after the limit-th previous one is legal here but not at the service: send and network delays move the
   * two closer together there, and the later one draws a 429. The benchmark measured hundreds of such 429s
   * without a margin and none with one; it costs under 2 % of throughput.
   */
  marginMs?: number;
  now?: () => number;
  sleep?: Sleep;
  /** Shares the record of starts with other processes (see the module comment). */
  ledger?: StartLedger;
}

export interface RateLimiterStats {
  limit: number;
  windowMs: number;
  /** Request starts within the last window: the taskpane's usage meter. */
  used: number;
  /** Callers waiting for a slot. */
  queued: number;
  /** Ms until the next start would be allowed (0 = now). */
  nextSlotInMs: number;
  /** When a server-requested pause (429 with Retry-After) ends, if one is in force. */
  pausedUntil: number | null;
  /**
   * Request starts the limiter still holds: never more than `limit`, since starts older than the window and
   * the margin no longer count against any future window and are forgotten (a long session stays small).
   */
  remembered: number;
}

interface Waiter {
  resolve: () => void;
  reject: (reason: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

export class RateLimiter {
  private limit: number;
  private windowMs: number;
  private marginMs: number;
  private readonly now: () => number;
  private readonly sleep: Sleep;
  private readonly starts: number[] = [];
  private readonly queue: Waiter[] = [];
  private pausedUntil = 0;
  private pumping = false;
  private wake: AbortController | null = null;
  private ledger: StartLedger | undefined;

  constructor(options: RateLimiterOptions = {}) {
    this.limit = options.limit ?? DEFAULT_LIMITS.rateLimit.limit;
    this.windowMs = options.windowMs ?? DEFAULT_LIMITS.rateLimit.windowMs;
    validate(this.limit, this.windowMs);
    this.marginMs = options.marginMs ?? defaultMargin(this.windowMs);
    validateMargin(this.marginMs);
    this.now = options.now ?? (() => Date.now());
    this.sleep = options.sleep ?? createSleep();
    this.ledger = options.ledger;
  }

  /** Resolves when the caller may start one request; rejects with the signal's reason on abort. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal };
      if (signal) {
        waiter.onAbort = () => this.abandon(waiter);
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      this.queue.push(waiter);
      void this.pump();
    });
  }

  /** Hold every caller until `atMs` (a server said Retry-After); never shortens an existing pause. */
  pauseUntil(atMs: number): void {
    if (atMs > this.pausedUntil) this.pausedUntil = atMs;
    this.ledger?.pauseUntil(atMs).catch((error: unknown) => this.dropLedger(error));
  }

  /**
   * Change the limit at runtime (e.g. a plan with a higher quota); waiters are re-evaluated. The margin goes
   * back to the default for the (new) window unless given. Invalid settings are refused and change nothing.
   */
  configure(options: { limit?: number; windowMs?: number; marginMs?: number }): void {
    const limit = options.limit ?? this.limit;
    const windowMs = options.windowMs ?? this.windowMs;
    validate(limit, windowMs);
    const marginMs = options.marginMs ?? defaultMargin(windowMs);
    validateMargin(marginMs);
    this.limit = limit;
    this.windowMs = windowMs;
    this.marginMs = marginMs;
    this.wake?.abort();
  }

  stats(): RateLimiterStats {
    const now = this.now();
    const nextSlotInMs = this.waitMs(now);
    return {
      limit: this.limit,
      windowMs: this.windowMs,
      used: this.starts.filter((t) => t > now - this.windowMs).length,
      queued: this.queue.length,
      nextSlotInMs,
      pausedUntil: this.pausedUntil > now ? this.pausedUntil : null,
      remembered: this.starts.length,
    };
  }

  private waitMs(now: number): number {
    const pause = this.pausedUntil - now;
    // Starts older than a window can no longer count against any future window.
    const span = this.windowMs + this.marginMs;
    while (this.starts.length > 0 && this.starts[0] + span <= now) this.starts.shift();
    // Only the last `limit` starts can hold up a new one (more remain after configure() lowers the limit).
    if (this.starts.length > this.limit) this.starts.splice(0, this.starts.length - this.limit);
    const excess = this.starts.length - this.limit;
    const slot = excess < 0 ? 0 : this.starts[excess] + span - now;
    return Math.max(0, pause, slot);
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length > 0) {
        const now = this.now();
        let wait = this.waitMs(now);
        if (wait <= 0 && this.ledger) wait = await this.claimShared();
        if (wait <= 0) {
          // The waiter that was at the head may have given up while the ledger was asked.
          const head = this.queue.shift();
          if (!head) break;
          if (head.signal && head.onAbort) head.signal.removeEventListener("abort", head.onAbort);
          this.starts.push(this.now());
          head.resolve();
          continue;
        }
        this.wake = new AbortController();
        try {
          await this.sleep(wait, this.wake.signal);
        } catch {
          // Woken early (queue emptied or limits changed): re-evaluate.
        } finally {
          this.wake = null;
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  /** 0 when the shared record granted a start (recorded there), else how long to wait. */
  private async claimShared(): Promise<number> {
    const ledger = this.ledger;
    if (!ledger) return 0;
    try {
      return await ledger.claim(this.limit, this.windowMs + this.marginMs, this.now);
    } catch (error) {
      this.dropLedger(error);
      return 0;
    }
  }

  private dropLedger(error: unknown): void {
    if (!this.ledger) return;
    this.ledger = undefined;
    log.warn("the shared record of request starts failed; pacing this process alone", {
      error: messageOf(error),
    });
  }

  private abandon(waiter: Waiter): void {
    const index = this.queue.indexOf(waiter);
    if (index < 0) return;
    this.queue.splice(index, 1);
    waiter.reject(abortReason(waiter.signal as AbortSignal));
    // Nobody left to wait for: release the pending timer so the process can exit.
    if (this.queue.length === 0) this.wake?.abort();
  }
}

function defaultMargin(windowMs: number): number {
  return Math.min(1_000, windowMs * 0.02);
}

/**
 * A negative margin would let starts through early, NaN would compare false everywhere (no spacing at all) and
 * an infinite one would stop every start after the first `limit`.
 */
function validateMargin(marginMs: number): void {
  if (!(Number.isFinite(marginMs) && marginMs >= 0))
    throw new RangeError(`rate limit margin must be >= 0 ms, got ${marginMs}`);
}

function validate(limit: number, windowMs: number): void {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`rate limit must be a positive integer, got ${limit}`);
  }
  if (!(windowMs > 0)) throw new RangeError(`rate limit window must be > 0 ms, got ${windowMs}`);
}

export function createRateLimiter(options?: RateLimiterOptions): RateLimiter {
  return new RateLimiter(options);
}
