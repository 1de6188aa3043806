/**
 * How a caller's request is answered: from the shared store when it holds what the answer is made of, else by
 * fetching what is missing once for everybody. For each request:
 *
 *  1. read its needs (series and their days, or a whole answer): this process's copy, then the shared store;
 *  2. what is missing and not covered by a fetch under way (a lock names the days its fetch covers) is queued as
 *     the caller's demand, in the caller's turn (fair-queue.ts); nothing is locked while it waits;
 *  3. when its turn comes, the demand (with the same-shaped demands of others, which ride along) takes a slot of
 *     the shared budget, then locks its needs (several at once, atomically), reads the store again, and fetches
 *     what is still missing in ONE upstream request, as the caller asked it (never split because part of it is
 *     being fetched over other days: that split is what made 12 analysts cost more than one);
 *  4. the answer is split per series and merged into the store (compare-and-set on each entry's revision, so two
 *     fetches of one series over different days both stay), the locks released (the notice wakes every waiter,
 *     in any process);
 *  5. a failure is remembered a few seconds for that request and that key only, so the same request is not asked
 *     again by each of its callers in turn, and nobody else's request fails with it.
 *
 * A caller is held at most HOLD_MS (below the client's 30 s per attempt): past it the answer is the previous one
 * (stale) or 503 with Retry-After, and the demand stays queued a while for the retry to find. A caller that hangs
 * up takes its demand with it (when nobody else waits for it).
 *
 * This file serves (1, 2 and the waiting); fetcher.ts fetches (3 to 5), writing its requests as upstream-requests.ts
 * says and its failures as failures.ts keeps them; entries.ts reads and merges entries.
 */
import { CryptometricsError, type WireEnvelope } from "../client";
import type { Ask, SeriesAsk } from "./ask";
import { HOLD_MS, WAIT_POLL_MS } from "./bounds";
import type { Budget } from "./budget";
import type { GatewayClock } from "./clock";
import { Entries, type EntriesOptions } from "./entries";
import { GatewayError } from "./errors";
import { FairQueue, type Ticket } from "./fair-queue";
import { decodeFailure, failureKeyOf } from "./failures";
import { Fetcher, covers, type ByteAllowance, type Job, type Result } from "./fetcher";
import type { Integrity } from "./integrity";
import { composeAnswer } from "./series/compose";
import {
  OPEN_END,
  OPEN_START,
  freshFor,
  seriesKey,
  staleFor,
  type Need,
  type SeriesEntry,
  type SeriesSnapshot,
} from "./series/entry";
import type { Store } from "./store/store";
import type { Upstream } from "./upstream";
import { freshWhole, staleWhole, type WholeEntry } from "./whole";

export type { ByteAllowance } from "./fetcher";

export type HowServed = "hit" | "fetched" | "joined" | "stale";

export interface Served {
  body: WireEnvelope;
  simulated: boolean;
  /** When the oldest part of the answer was fetched. */
  fetchedAt: number;
  how: HowServed;
}

interface AnswersOptions {
  store: Store;
  upstream: Upstream;
  budget: Budget;
  integrity: Integrity;
  clock: GatewayClock;
  /** This process, in lock owners (with a sequence number per fetch). */
  processId: string;
  /** The lane's own namespace: failure marks are per key even when answers are shared across keys. */
  failureNamespace: string;
  allowance: ByteAllowance;
  /** The rate window: backoffs of retried requests are parts of it (so they scale with a faster minute). */
  windowMs: number;
  holdMs?: number;
  lockTtlMs?: number;
  failureTtlMs?: number;
  waitPollMs?: number;
  maxEntryBytes?: number;
  /** Ids per upstream request (the client's chunk size, 50). */
  maxIdsPerRequest?: number;
  /** Longest upstream URL (the client's, 2,000 characters). */
  maxUrlLength?: number;
  concurrency?: number;
  /** Told each time an upstream request starts, with whose usage it counts as. */
  onUpstream?: (user: string) => void;
  /** Told of what is worth a log line (an answer too large to keep). */
  log?: (level: "info" | "warn", fields: Record<string, unknown>, message: string) => void;
  /** The lane's record of restatements (entries.ts compares each series answer with what it replaces). */
  restatements?: EntriesOptions["restatements"];
}

function bound(day: number, open: number): number {
  return Number.isFinite(day) ? day : open;
}

/** Each need of a series ask: one per member. */
export function needsOf(ask: SeriesAsk): Need[] {
  const family = ask.form === "product" ? "product" : "project";
  return ask.members.map((member) => ({
    key: seriesKey(
      family,
      ask.form === "metric" ? member : ask.projectId,
      ask.productId,
      ask.form === "metric" ? ask.metricId : member,
      ask.variant.key
    ),
    form: ask.form,
    member,
    start: bound(ask.start, OPEN_START),
    end: bound(ask.end, OPEN_END),
  }));
}

/** Demands of one group can go as one request: the form, path, options and days. */
function seriesGroup(ask: SeriesAsk): string {
  return JSON.stringify([
    ask.form,
    ask.projectId,
    ask.productId,
    ask.metricId,
    ask.variant.key,
    bound(ask.start, OPEN_START),
    bound(ask.end, OPEN_END),
  ]);
}

export class Answers {
  private readonly now: () => number;
  private readonly holdMs: number;
  private readonly waitPollMs: number;
  readonly queue: FairQueue<Job>;
  private readonly entries: Entries;
  private readonly fetcher: Fetcher;
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly stopListening: () => void;
  private closed = false;

  constructor(private readonly options: AnswersOptions) {
    this.now = options.clock.now;
    this.holdMs = options.holdMs ?? HOLD_MS;
    this.waitPollMs = options.waitPollMs ?? WAIT_POLL_MS;
    this.entries = new Entries({
      store: options.store,
      integrity: options.integrity,
      now: options.clock.now,
      ...(options.maxEntryBytes !== undefined ? { maxEntryBytes: options.maxEntryBytes } : {}),
      ...(options.log ? { log: options.log } : {}),
      ...(options.restatements ? { restatements: options.restatements } : {}),
    });
    this.queue = new FairQueue<Job>({ now: this.now, onQueued: () => this.fetcher.pump() });
    this.fetcher = new Fetcher({
      ...options,
      queue: this.queue,
      entries: this.entries,
      wake: (keys) => this.wake(keys),
    });
    this.stopListening = options.store.onReleased((keys) => this.wake(keys));
  }

  /** Stops taking demands: those queued are answered "cancelled"; fetches under way end on their own. */
  close(): void {
    this.closed = true;
    this.fetcher.close();
    this.stopListening();
    this.queue.clear(
      new CryptometricsError("cancelled", "the team gateway is stopping", { operation: "gateway" })
    );
    for (const set of this.waiters.values()) for (const wake of [...set]) wake();
    this.waiters.clear();
  }

  /** Fetches waiting for their turn or under way (the queue-depth gauge). */
  get pendingFetches(): number {
    return this.queue.queued + this.fetcher.underWay;
  }

  /** Locks this process holds for fetches under way. */
  get locksHeld(): number {
    return this.fetcher.locksHeld;
  }

  /**
   * Answers one request for `user` (the person whose turn it takes; `account`, whose usage it counts as, the
   * user by default); `signal` aborts when the caller hangs up.
   */
  serve(ask: Ask, user: string, signal?: AbortSignal, account = user): Promise<Served> {
    return ask.series
      ? this.serveSeries(ask, ask.series, user, account, signal)
      : this.serveWhole(ask, user, account, signal);
  }

  private async serveSeries(
    whole: Ask,
    ask: SeriesAsk,
    user: string,
    account: string,
    signal?: AbortSignal
  ): Promise<Served> {
    const needs = needsOf(ask);
    const holdUntil = this.now() + this.holdMs;
    const given = new Map<string, SeriesEntry>();
    let how: HowServed = "hit";
    let ticket: Ticket<Job> | undefined;
    try {
      for (;;) {
        const entries = await this.entries.readSeries(needs, given);
        const now = this.now();
        const snapshots = new Map<string, SeriesSnapshot>();
        const missing: Need[] = [];
        needs.forEach((need, i) => {
          const s = freshFor(entries[i], need, now);
          if (s) snapshots.set(need.member, s);
          else missing.push(need);
        });
        if (missing.length === 0) return this.composed(ask, snapshots, how);
        // Both asked at once (one round trip where Redis pipelines them).
        const [failed, holders] = await Promise.all([
          this.options.store.failure(failureKeyOf(this.options.failureNamespace, whole)),
          this.options.store.holders(missing.map((n) => n.key)),
        ]);
        if (failed !== undefined)
          return this.staleSeries(ask, needs, entries, decodeFailure(failed));
        if (now >= holdUntil || this.closed)
          return this.staleSeries(ask, needs, entries, this.holdError());
        const uncovered = missing.filter((n, i) => !covers(holders[i], n));
        if (uncovered.length > 0 && !ticket) {
          ticket = this.queue.join(user, whole.key, seriesGroup(ask), uncovered.length, () => ({
            kind: "series",
            ask,
            whole,
            needs: uncovered,
            account,
          }));
        }
        const outcome = await this.waitFor(
          ticket,
          missing.map((n) => n.key),
          holdUntil,
          signal
        );
        if (outcome.error !== undefined)
          return this.staleSeries(
            ask,
            needs,
            await this.entries.readSeries(needs, given),
            outcome.error
          );
        if (outcome.result) {
          ticket?.leave(false);
          ticket = undefined;
          for (const [key, entry] of outcome.result.series ?? []) given.set(key, entry);
          if (outcome.result.fetched) how = "fetched";
        }
        if (how === "hit") how = "joined";
        if (signal?.aborted) throw this.holdError();
      }
    } finally {
      ticket?.leave(signal?.aborted === true);
    }
  }

  private async serveWhole(
    ask: Ask,
    user: string,
    account: string,
    signal?: AbortSignal
  ): Promise<Served> {
    const holdUntil = this.now() + this.holdMs;
    let given: WholeEntry | undefined;
    let how: HowServed = "hit";
    let ticket: Ticket<Job> | undefined;
    try {
      for (;;) {
        const entry = await this.entries.readWhole(ask.key, given);
        const fresh = freshWhole(entry, this.now());
        if (fresh)
          return { body: fresh.body, simulated: fresh.simulated, fetchedAt: fresh.fetchedAt, how };
        const [failed, [holders]] = await Promise.all([
          this.options.store.failure(failureKeyOf(this.options.failureNamespace, ask)),
          this.options.store.holders([ask.key]),
        ]);
        if (failed !== undefined) return this.staleOf(entry, decodeFailure(failed));
        if (this.now() >= holdUntil || this.closed) return this.staleOf(entry, this.holdError());
        if (holders.length === 0 && !ticket)
          ticket = this.queue.join(user, ask.key, `whole\n${ask.key}`, 1, () => ({
            kind: "whole",
            ask,
            account,
          }));
        const outcome = await this.waitFor(ticket, [ask.key], holdUntil, signal);
        if (outcome.error !== undefined)
          return this.staleOf(await this.entries.readWhole(ask.key, given), outcome.error);
        if (outcome.result) {
          ticket?.leave(false);
          ticket = undefined;
          given = outcome.result.whole ?? given;
          if (outcome.result.fetched) how = "fetched";
        }
        if (how === "hit") how = "joined";
        if (signal?.aborted) throw this.holdError();
      }
    } finally {
      ticket?.leave(signal?.aborted === true);
    }
  }

  private composed(ask: SeriesAsk, snapshots: Map<string, SeriesSnapshot>, how: HowServed): Served {
    let simulated = false;
    let fetchedAt = Infinity;
    for (const s of snapshots.values()) {
      simulated ||= s.simulated;
      fetchedAt = Math.min(fetchedAt, s.fetchedAt);
    }
    return {
      body: composeAnswer(ask, snapshots),
      simulated,
      fetchedAt: Number.isFinite(fetchedAt) ? fetchedAt : this.now(),
      how,
    };
  }

  /** The previous answer for every need, or the failure when one of them has none. */
  private staleSeries(
    ask: SeriesAsk,
    needs: readonly Need[],
    entries: ReadonlyArray<SeriesEntry | undefined>,
    error: unknown
  ): Served {
    const now = this.now();
    const snapshots = new Map<string, SeriesSnapshot>();
    let stale = false;
    needs.forEach((need, i) => {
      const fresh = freshFor(entries[i], need, now);
      const s = fresh ?? staleFor(entries[i], need, now);
      if (!fresh) stale = true;
      if (s) snapshots.set(need.member, s);
    });
    if (!stale) return this.composed(ask, snapshots, "fetched");
    if (snapshots.size < needs.length) throw error;
    return this.composed(ask, snapshots, "stale");
  }

  private staleOf(entry: WholeEntry | undefined, error: unknown): Served {
    const s = staleWhole(entry, this.now());
    if (!s) throw error;
    return { body: s.body, simulated: s.simulated, fetchedAt: s.fetchedAt, how: "stale" };
  }

  private holdError(): GatewayError {
    return new GatewayError(
      503,
      "The service has not answered the team gateway yet (the team's requests are queued behind its rate limit); try again in a few seconds",
      2
    );
  }

  /**
   * Until the caller's demand settles, one of `keys` is released (by any process), the poll interval passes,
   * the hold ends or the caller hangs up.
   */
  private waitFor(
    ticket: Ticket<Job> | undefined,
    keys: readonly string[],
    holdUntil: number,
    signal?: AbortSignal
  ): Promise<{ result?: Result; error?: unknown }> {
    return new Promise<void>((resolve) => {
      const { timers } = this.options.clock;
      let done = false;
      const wake = (): void => {
        if (done) return;
        done = true;
        timers.clearTimeout(timer);
        for (const key of keys) this.waiters.get(key)?.delete(wake);
        signal?.removeEventListener("abort", wake);
        resolve();
      };
      for (const key of keys) {
        let set = this.waiters.get(key);
        if (!set) this.waiters.set(key, (set = new Set()));
        set.add(wake);
      }
      const timer = timers.setTimeout(
        wake,
        Math.max(0, Math.min(this.waitPollMs, holdUntil - this.now()))
      );
      signal?.addEventListener("abort", wake, { once: true });
      ticket?.demand.settled.then(wake, wake);
    }).then(() => {
      // How the caller's demand ended, whatever woke the caller first (its own fetch releases its locks too).
      const outcome = ticket?.demand.outcome;
      if (!outcome) return {};
      return "error" in outcome ? { error: outcome.error } : { result: outcome.result };
    });
  }

  private wake(keys: readonly string[]): void {
    for (const key of keys) {
      const set = this.waiters.get(key);
      if (!set) continue;
      this.waiters.delete(key);
      for (const wake of [...set]) wake();
    }
  }
}
