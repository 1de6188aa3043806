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
   * Atomically for every sharer: records as many of `turn.wanted` starts at `now()` as the record leaves room
   * for (none while a pause is in force), open and owned by `turn.owner`, and says how many; when none, `waitMs`
   * is how long until one may be. `now()` is read once the record is held. One lock for a whole burst.
   */
  claim(turn: ClaimTurn): Promise<Claimed>;
  /** `count` of `owner`'s open starts got their answer (or failed) by `now()`: see claimSlots. */
  settle(owner: string, count: number, now: () => number): Promise<void>;
  /** Holds every sharer's starts until `atMs` (a server's Retry-After, a 429's backoff). */
  pauseUntil(atMs: number): Promise<void>;
}

export interface ClaimTurn {
  limit: number;
  /** How long a settled start counts: the window and the margin. */
  spanMs: number;
  now: () => number;
  wanted: number;
  /** Who claims (one limiter, i.e. one process): its starts are settled by it. */
  owner: string;
  /** How long an open start may stay open before it is taken as settled then (its owner died). */
  openMs: number;
}

export interface Claimed {
  granted: number;
  /** When nothing was granted: ms until a start may be. */
  waitMs: number;
}

/**
 * A start whose request has not been answered yet. `C`: who claimed it, as the ledger's owner tells claimers
 * apart (the CLI: a process, src/cli/cache/process-identity.ts); the client only carries it.
 */
export interface OpenStart<C = unknown> {
  owner: string;
  at: number;
  /** The claimer, where the ledger records one (the record's member keeps its first name). */
  process?: C;
}

/**
 * What a ledger's owner knows beyond the record, given to claimSlots: who is claiming now, and whether the
 * claimer of an open start is gone (so it will never report the answer). The client knows no claimers itself.
 */
export interface Claimers<C> {
  /** Recorded with each open start claimed now. */
  self?: C;
  isGone?(start: OpenStart<C>): boolean;
}

/**
 * How far ahead of the reader's clock a recorded time may be and still be believed: clocks of processes on
 * one computer agree, and computers sharing a directory differ by a few seconds at most. A time further ahead
 * comes from a clock that was wrong (a run with the clock an hour ahead): such starts would hold the budget
 * for as long, so they are dropped.
 */
export const MAX_CLOCK_SKEW_MS = 5_000;

/**
 * When a start of a process that is gone is taken to have reached the service: its claim plus this. A live
 * process sends a request as soon as its start is granted (under load a second or so later, hence the
 * margin); a process that died sent what it sent by then, and nothing after.
 */
export const GONE_SEND_ALLOWANCE_MS = 2_000;

/** A shared record as a ledger keeps it: settled starts (oldest first), open starts and a pause. */
export interface LedgerRecord<C = unknown> {
  starts: number[];
  open: OpenStart<C>[];
  pausedUntil: number;
}

/**
 * The sliding-log decision on a shared record, for ledgers. A start counts from its claim until `spanMs` after
 * its request was answered, not after it was claimed: the service counts a request when it reaches it, which
 * is some time between the claim and the answer. Between processes that time is long under load (a burst
 * claimed at once leaves one process over a second; a process's first request loads the HTTP stack) and no
 * margin covers it; counting to the answer does, whatever the delays. An open start counts as long as it is
 * open, but at most `openMs` (then its owner is taken to have died with it).
 *
 * The record heals: an open start whose claimer is gone (`claimers.isGone`) counts as answered
 * GONE_SEND_ALLOWANCE_MS after its claim, not for `openMs`; starts and a pause dated further ahead than
 * MAX_CLOCK_SKEW_MS (and a pause longer than two spans) come from a wrong clock and are dropped.
 *
 * Drops what no longer counts, then records up to `wanted` open starts at `now`. The record is changed in place.
 */
export function claimSlots<C>(
  record: LedgerRecord<C>,
  turn: Omit<ClaimTurn, "now">,
  now: number,
  claimers: Claimers<C> = {}
): Claimed {
  const { limit, spanMs, wanted, owner, openMs } = turn;
  const future = now + MAX_CLOCK_SKEW_MS;
  const stillOpen: OpenStart<C>[] = [];
  for (const start of record.open) {
    if (start.at > future) continue;
    if (claimers.isGone?.(start))
      record.starts.push(Math.min(now, start.at + GONE_SEND_ALLOWANCE_MS));
    // (`<` would keep a start expiring right now open one instant longer: it counts the same either way, and a
    // wait on it is a span both ways.)
    // Stryker disable next-line EqualityOperator: see above
    else if (start.at + openMs <= now) record.starts.push(start.at + openMs);
    else stillOpen.push(start);
  }
  record.open = stillOpen;
  // Only the last `limit` starts can ever matter; older ones are noise from a larger former limit.
  record.starts = record.starts
    .filter((t) => t + spanMs > now && t <= future)
    .sort((a, b) => a - b)
    .slice(-limit);
  // This client never pauses for longer than a server's Retry-After it accepts (a minute): further ahead
  // than two spans is a clock that was wrong.
  if (record.pausedUntil > now + 2 * spanMs + MAX_CLOCK_SKEW_MS) record.pausedUntil = 0;
  const pause = record.pausedUntil - now;
  if (pause > 0) return { granted: 0, waitMs: pause };
  const counted = record.starts.length + record.open.length;
  const granted = Math.max(0, Math.min(wanted, limit - counted));
  if (granted === 0) {
    // Open starts free no sooner than a span from now; settled ones free in order.
    const excess = counted - limit;
    const waitMs = excess < record.starts.length ? record.starts[excess] + spanMs - now : spanMs;
    return { granted: 0, waitMs: Math.max(0, waitMs) };
  }
  for (let i = 0; i < granted; i++)
    record.open.push(
      claimers.self === undefined ? { owner, at: now } : { owner, at: now, process: claimers.self }
    );
  return { granted, waitMs: 0 };
}

/**
 * `count` of `owner`'s open starts were answered at `now`: they count as starts at `now` from here on (the
 * oldest open ones first: the others keep the later expiry). Starts already taken as settled are skipped.
 */
export function settleSlots(record: LedgerRecord, owner: string, count: number, now: number): void {
  let left = count;
  record.open = record.open.filter((start) => {
    if (left === 0 || start.owner !== owner) return true;
    left--;
    record.starts.push(Math.max(now, start.at));
    return false;
  });
}

/** A wait for the shared budget this long is said (the CLI prints it): shorter ones go unnoticed anyway. */
const SHARED_WAIT_NOTE_MS = 2_000;

interface RateLimiterOptions {
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
  /**
   * With a ledger: how long a start may stay open (its answer not reported) before the other processes take
   * it as answered. Default 2 minutes, past the client's per-attempt time-out (30 s) with room to spare: only
   * a process that died mid-request leaves a start open that long.
   */
  openMs?: number;
}

/** Tells the limiter that the request it let start got its answer (or failed); calling it again does nothing. */
export type Finished = () => void;

interface RateLimiterStats {
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
  resolve: (finished: Finished) => void;
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
  // (Whatever it started with, the first read drops what no number compares as recent: `["…"]` is no start.)
  // Stryker disable next-line ArrayDeclaration: see above
  private starts: number[] = [];
  private readonly queue: Waiter[] = [];
  private pausedUntil = 0;
  private pumping = false;
  private wake: AbortController | null = null;
  private ledger: StartLedger | undefined;
  private readonly openMs: number;
  /** This limiter's name on the shared record (one limiter per process). */
  private readonly owner = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  /** Answered starts not yet reported to the ledger, and the report under way. */
  private unsettled = 0;
  private settling: Promise<void> | undefined;
  /** Starts granted through the ledger whose answer has not been reported yet. */
  private openShared = 0;
  /** Whether the current wait for the shared budget has been logged (once per wait). */
  private waitLogged = false;
  /** The claim on the ledger under way, if any. */
  private claiming: Promise<unknown> | undefined;
  /** Set by release(): the process is ending, nothing more starts. */
  private released = false;

  constructor(options: RateLimiterOptions = {}) {
    this.limit = options.limit ?? DEFAULT_LIMITS.rateLimit.limit;
    this.windowMs = options.windowMs ?? DEFAULT_LIMITS.rateLimit.windowMs;
    validate(this.limit, this.windowMs);
    this.marginMs = options.marginMs ?? defaultMargin(this.windowMs);
    validateMargin(this.marginMs);
    this.now = options.now ?? (() => Date.now());
    this.sleep = options.sleep ?? createSleep();
    this.ledger = options.ledger;
    this.openMs = options.openMs ?? 120_000;
  }

  /**
   * Resolves when the caller may start one request, with the function to call once its answer came (or it
   * failed): with a ledger, the start counts until then (see claimSlots). Rejects with the signal's reason on
   * abort.
   */
  acquire(signal?: AbortSignal): Promise<Finished> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (this.released)
      return Promise.reject(new Error("the process is ending: no more requests start"));
    return new Promise<Finished>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal };
      if (signal) {
        waiter.onAbort = () => this.abandon(waiter);
        // (A signal fires "abort" once: `once` only lets the listener go with it, nothing observable.)
        // Stryker disable next-line ObjectLiteral,BooleanLiteral: see above
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      this.queue.push(waiter);
      void this.pump();
    });
  }

  /** Hold every caller until `atMs` (a server said Retry-After); never shortens an existing pause. */
  pauseUntil(atMs: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, atMs);
    this.ledger?.pauseUntil(atMs).catch((error: unknown) => this.dropLedger(error));
  }

  /** Resolves once every answered start has been reported to the ledger (before the process exits). */
  async settled(): Promise<void> {
    // A claim under way may grant starts that must be reported too.
    if (this.claiming) await this.claiming;
    while (this.settling) await this.settling;
  }

  /**
   * The process is ending (interrupted, terminated): its starts still open count as answered now, so that
   * the processes sharing the ledger do not hold them for `openMs` waiting for answers that will never be
   * reported. Await settled() after it. The requests' own answers, if any still come, report nothing more.
   */
  release(): void {
    this.released = true;
    const open = this.openShared;
    this.openShared = 0;
    if (open > 0) this.finish(open);
    // Nothing more starts: the callers still waiting are turned away.
    for (const waiter of this.queue.splice(0)) {
      if (waiter.onAbort)
        (waiter.signal as AbortSignal).removeEventListener("abort", waiter.onAbort);
      waiter.reject(new Error("the process is ending: no more requests start"));
    }
    this.wake?.abort();
  }

  /** The budget in words, for a message about waiting for it. */
  describeBudget(): string {
    const per = this.windowMs === 60_000 ? "a minute" : `per ${Math.round(this.windowMs / 1000)} s`;
    return this.ledger
      ? `${this.limit} requests ${per} for this key, shared with the other processes using it`
      : `${this.limit} requests ${per}`;
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
    // Starts older than a window can no longer count against any future window, and only the last `limit`
    // can hold up a new one (more remain after configure() lowers the limit): the log stays that small.
    const span = this.windowMs + this.marginMs;
    this.starts = this.starts.filter((t) => t + span > now).slice(-this.limit);
    const excess = this.starts.length - this.limit;
    const slot = excess < 0 ? 0 : this.starts[excess] + span - now;
    return Math.max(0, pause, slot);
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      while (this.queue.length > 0) {
        let wait = this.waitMs(this.now());
        let granted = wait <= 0 ? 1 : 0;
        let shared = false;
        if (wait <= 0 && this.ledger) {
          // Everyone queued that this process's own log has room for, in one claim: a burst costs one turn
          // of the shared record, not one per request. (waitMs has just dropped the starts that no longer count.)
          const room = this.limit - this.starts.length;
          const claim = this.claimShared(this.ledger, Math.min(this.queue.length, room));
          this.claiming = claim;
          const claimed = await claim;
          this.claiming = undefined;
          granted = claimed.granted;
          wait = claimed.waitMs;
          shared = claimed.shared;
          if (this.released) {
            // Released while the record was asked: these starts will never be used.
            if (shared && granted > 0) this.finish(granted);
            return;
          }
        }
        if (shared && granted === 0) this.noteSharedWait(wait);
        if (granted > 0) {
          this.waitLogged = false;
          let given = 0;
          for (; given < granted && this.queue.length > 0; given++) this.grant(shared);
          // Waiters that gave up while the ledger was asked leave their starts unused: answered at once.
          if (shared && given < granted) this.finish(granted - given);
          continue;
        }
        this.wake = new AbortController();
        try {
          await this.sleep(wait, this.wake.signal);
        } catch {
          // Woken early (queue emptied or limits changed): re-evaluate.
        }
        this.wake = null;
      }
    } finally {
      this.pumping = false;
    }
  }

  private grant(shared: boolean): void {
    const head = this.queue.shift() as Waiter;
    // A signal may outlive its request (one per recalculation): leave no listener on it.
    if (head.onAbort) (head.signal as AbortSignal).removeEventListener("abort", head.onAbort);
    this.starts.push(this.now());
    let done = !shared;
    if (shared) this.openShared++;
    head.resolve(() => {
      if (done) return;
      done = true;
      // Already reported by release().
      if (this.openShared === 0) return;
      this.openShared--;
      this.finish(1);
    });
  }

  /** Says once per wait, when it is long enough to notice, that this process waits for the others. */
  private noteSharedWait(waitMs: number): void {
    if (this.waitLogged || waitMs < SHARED_WAIT_NOTE_MS) return;
    this.waitLogged = true;
    log.warn(
      `waiting ${Math.ceil(waitMs / 1000)} s for the request budget (${this.describeBudget()})`
    );
  }

  /**
   * What the shared record grants (`shared`: open starts there, to be settled); when the ledger fails, the
   * local decision (one start) stands.
   */
  private async claimShared(
    ledger: StartLedger,
    wanted: number
  ): Promise<Claimed & { shared: boolean }> {
    try {
      const claimed = await ledger.claim({
        limit: this.limit,
        spanMs: this.windowMs + this.marginMs,
        now: this.now,
        wanted,
        owner: this.owner,
        openMs: this.openMs,
      });
      return { ...claimed, shared: true };
    } catch (error) {
      this.dropLedger(error);
      return { granted: 1, waitMs: 0, shared: false };
    }
  }

  /** Reports answered starts to the ledger, those of a whole burst in one turn of the record. */
  private finish(count: number): void {
    this.unsettled += count;
    this.settling ??= this.reportSettled().finally(() => (this.settling = undefined));
  }

  private async reportSettled(): Promise<void> {
    while (this.unsettled > 0 && this.ledger) {
      const count = this.unsettled;
      this.unsettled = 0;
      try {
        await this.ledger.settle(this.owner, count, this.now);
      } catch (error) {
        this.dropLedger(error);
      }
    }
    // Other processes may be waiting on these starts; so may this one (a claim answered "wait a span").
    this.wake?.abort();
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
    // (Defensive: the listener goes when the waiter is granted, so only a queued waiter is abandoned.)
    // Stryker disable next-line ConditionalExpression: see above
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
