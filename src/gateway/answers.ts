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
 */
import { LRUCache } from "lru-cache";
import {
  CryptometricsError,
  DEFAULT_LIMITS,
  chunkIds,
  formatDay,
  isRetryableKind,
  type ErrorKind,
  type Finished,
  type WireEnvelope,
} from "../client";
import { DEFAULT_CACHE_POLICY } from "../engine/cache-policy";
import type { Ask, QueryValue, SeriesAsk } from "./ask";
import {
  FAILURE_TTL_MS,
  HOLD_MS,
  LOCAL_CACHE_BYTES,
  LOCK_TTL_MS,
  MAX_ENTRY_BYTES,
  MAX_LOCK_HOLD_MS,
  UPSTREAM_ATTEMPTS,
  UPSTREAM_CONCURRENCY,
  WAIT_POLL_MS,
} from "./bounds";
import type { Budget } from "./budget";
import { repeat, type GatewayClock } from "./clock";
import { GatewayError } from "./errors";
import { FairQueue, type Demand, type DemandResult, type Ticket } from "./fair-queue";
import type { Integrity } from "./integrity";
import type { SeriesForm } from "./operations";
import { composeAnswer } from "./series/compose";
import {
  OPEN_END,
  OPEN_START,
  freshFor,
  merge,
  readEntry,
  seriesKey,
  staleFor,
  writeEntry,
  type Need,
  type SeriesEntry,
  type SeriesSnapshot,
} from "./series/entry";
import { splitAnswer, type SeriesRequest } from "./series/split";
import { covered, lockValue, type LockHolder, type Store, type Stored } from "./store/store";
import { Upstream, type UpstreamAnswer, type UpstreamRequest } from "./upstream";
import {
  expiryOf,
  freshWhole,
  nextWhole,
  readWhole,
  staleWhole,
  writeWhole,
  type WholeEntry,
} from "./whole";

export type HowServed = "hit" | "fetched" | "joined" | "stale";

export interface Served {
  body: WireEnvelope;
  simulated: boolean;
  /** When the oldest part of the answer was fetched. */
  fetchedAt: number;
  how: HowServed;
}

/** Whether `bytes` more of a user's answers may be kept today (see bounds.ts, MAX_USER_CACHE_BYTES_PER_DAY). */
export interface ByteAllowance {
  charge(user: string, bytes: number): Promise<boolean>;
}

export interface AnswersOptions {
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
  /** Told each time an upstream request starts, with whose turn it is. */
  onUpstream?: (user: string) => void;
  /** Told of what is worth a log line (a failure's cause, an answer too large to keep). */
  log?: (level: "info" | "warn", fields: Record<string, unknown>, message: string) => void;
}

/** A demand's work; `account`: whose usage its upstream requests count as (the caller's identity). */
type Job =
  | { kind: "series"; ask: SeriesAsk; whole: Ask; needs: Need[]; account: string }
  | { kind: "whole"; ask: Ask; account: string };

interface Result extends DemandResult {
  series?: Map<string, SeriesEntry>;
  whole?: WholeEntry;
}

interface Failure {
  kind?: ErrorKind;
  status?: number;
  retryAfterMs?: number;
  /** A GatewayError's own (fixed) text and status. */
  gateway?: { status: number; message: string; retryAfterSeconds?: number };
}

function encodeFailure(error: unknown): string {
  const f: Failure =
    error instanceof GatewayError
      ? {
          gateway: {
            status: error.status,
            message: error.message,
            ...(error.retryAfterSeconds === undefined
              ? {}
              : { retryAfterSeconds: error.retryAfterSeconds }),
          },
        }
      : error instanceof CryptometricsError
        ? {
            kind: error.kind,
            ...(error.status === undefined ? {} : { status: error.status }),
            ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
          }
        : { kind: "malformed-response" };
  return JSON.stringify(f);
}

function decodeFailure(text: string): Error {
  try {
    const f = JSON.parse(text) as Failure;
    if (f.gateway)
      return new GatewayError(f.gateway.status, f.gateway.message, f.gateway.retryAfterSeconds);
    return new CryptometricsError(f.kind ?? "server", "an earlier fetch of this request failed", {
      operation: "gateway",
      ...(f.status === undefined ? {} : { status: f.status }),
      ...(f.retryAfterMs === undefined ? {} : { retryAfterMs: f.retryAfterMs }),
    });
  } catch {
    return new CryptometricsError("server", "an earlier fetch of this request failed", {
      operation: "gateway",
    });
  }
}

function bound(day: number, open: number): number {
  return Number.isFinite(day) ? day : open;
}

/** The path of a series form's operation. */
function seriesPath(form: SeriesForm, ask: SeriesAsk): string[] {
  switch (form) {
    case "metric":
      return ["v2", "metrics", ask.metricId];
    case "project":
      return ["v2", "projects", ask.projectId, "metrics"];
    case "product":
      return ["v2", "projects", ask.projectId, "products", ask.productId, "metrics"];
  }
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

/** Whether a fetch under way (one of the need's locks) will answer it: the same days or more. */
function covers(
  holders: readonly LockHolder[] | undefined,
  need: { start: number; end: number }
): boolean {
  return holders !== undefined && covered(holders, need);
}

/** Extends the lifetime of a store entry: fresh until its expiry, then a week's fallback. */
function storeTtl(expiresAt: number, now: number): number {
  return Math.max(1_000, expiresAt - now) + DEFAULT_CACHE_POLICY.maxStaleMs;
}

const WHOLE_RANGE = { start: OPEN_START, end: OPEN_END };

export class Answers {
  private readonly now: () => number;
  private readonly holdMs: number;
  private readonly lockTtlMs: number;
  private readonly failureTtlMs: number;
  private readonly waitPollMs: number;
  private readonly maxEntryBytes: number;
  private readonly maxIds: number;
  private readonly maxUrl: number;
  private readonly concurrency: number;
  readonly queue: FairQueue<Job>;
  /** Parsed copies of what this process read or wrote, bounded by bytes. */
  private readonly local: LRUCache<string, { entry: SeriesEntry | WholeEntry; bytes: number }>;
  private readonly waiters = new Map<string, Set<() => void>>();
  /** Locks held by fetches under way: value -> keys and since when (renewed until released, or too long). */
  private readonly held = new Map<string, { keys: Set<string>; since: number }>();
  private readonly stopRenewing: () => void;
  private readonly stopListening: () => void;
  private sequence = 0;
  private inFlight = 0;
  private pumping = false;
  private closed = false;

  constructor(private readonly options: AnswersOptions) {
    this.now = options.clock.now;
    this.holdMs = options.holdMs ?? HOLD_MS;
    this.lockTtlMs = options.lockTtlMs ?? LOCK_TTL_MS;
    this.failureTtlMs = options.failureTtlMs ?? FAILURE_TTL_MS;
    this.waitPollMs = options.waitPollMs ?? WAIT_POLL_MS;
    this.maxEntryBytes = options.maxEntryBytes ?? MAX_ENTRY_BYTES;
    this.maxIds = options.maxIdsPerRequest ?? DEFAULT_LIMITS.maxIdsPerRequest;
    this.maxUrl = options.maxUrlLength ?? DEFAULT_LIMITS.maxUrlLength;
    this.concurrency = options.concurrency ?? UPSTREAM_CONCURRENCY;
    this.queue = new FairQueue<Job>({ now: this.now, onQueued: () => this.pump() });
    this.local = new LRUCache({
      maxSize: LOCAL_CACHE_BYTES,
      maxEntrySize: this.maxEntryBytes * 2,
      sizeCalculation: (v) => v.bytes,
    });
    this.stopListening = options.store.onReleased((keys) => this.wake(keys));
    this.stopRenewing = repeat(options.clock.timers, Math.max(50, this.lockTtlMs / 3), () =>
      this.renew()
    );
  }

  /** Stops taking demands: those queued are answered "cancelled"; fetches under way end on their own. */
  close(): void {
    this.closed = true;
    this.stopRenewing();
    this.stopListening();
    this.queue.clear(
      new CryptometricsError("cancelled", "the team gateway is stopping", { operation: "gateway" })
    );
    for (const set of this.waiters.values()) for (const wake of [...set]) wake();
    this.waiters.clear();
  }

  /** Fetches waiting for their turn or under way (the queue-depth gauge). */
  get pendingFetches(): number {
    return this.queue.queued + this.inFlight;
  }

  /** Locks this process holds for fetches under way. */
  get locksHeld(): number {
    let n = 0;
    for (const h of this.held.values()) n += h.keys.size;
    return n;
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

  private failureKey(ask: Ask): string {
    return `${this.options.failureNamespace}\n${ask.key}`;
  }

  // ---- reading ----

  private openSeries(key: string, stored: Stored | undefined): SeriesEntry | undefined {
    return readEntry(this.options.integrity.open(key, stored?.text), key);
  }

  private openWhole(key: string, stored: Stored | undefined): WholeEntry | undefined {
    return readWhole(this.options.integrity.open(key, stored?.text), key);
  }

  private remember(key: string, entry: SeriesEntry | WholeEntry, bytes: number): void {
    this.local.set(key, { entry, bytes });
  }

  private async readSeries(
    needs: readonly Need[],
    given?: ReadonlyMap<string, SeriesEntry>
  ): Promise<Array<SeriesEntry | undefined>> {
    const now = this.now();
    const entries = needs.map(
      (n) => given?.get(n.key) ?? (this.local.get(n.key)?.entry as SeriesEntry | undefined)
    );
    const missing = needs
      .map((n, i) => (freshFor(entries[i], n, now) ? -1 : i))
      .filter((i) => i >= 0);
    if (missing.length === 0) return entries;
    const stored = await this.options.store.read(missing.map((i) => needs[i].key));
    missing.forEach((i, j) => {
      const entry = this.openSeries(needs[i].key, stored[j]);
      if (
        entry &&
        (!entries[i] || freshFor(entry, needs[i], now) || !freshFor(entries[i], needs[i], now))
      ) {
        entries[i] = entry;
        this.remember(needs[i].key, entry, 2 * (stored[j]?.text.length ?? 0));
      }
    });
    return entries;
  }

  private async readWholeEntry(key: string, given?: WholeEntry): Promise<WholeEntry | undefined> {
    const cached = given ?? (this.local.get(key)?.entry as WholeEntry | undefined);
    if (freshWhole(cached, this.now())) return cached;
    const [stored] = await this.options.store.read([key]);
    const entry = this.openWhole(key, stored);
    if (entry && (!cached || entry.cur.fetchedAt >= cached.cur.fetchedAt)) {
      this.remember(key, entry, 2 * (stored?.text.length ?? 0));
      return entry;
    }
    return cached;
  }

  // ---- serving ----

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
        const entries = await this.readSeries(needs, given);
        const now = this.now();
        const snapshots = new Map<string, SeriesSnapshot>();
        const missing: Need[] = [];
        needs.forEach((need, i) => {
          const s = freshFor(entries[i], need, now);
          if (s) snapshots.set(need.member, s);
          else missing.push(need);
        });
        if (missing.length === 0) return this.composed(ask, snapshots, how);
        const failed = await this.options.store.failure(this.failureKey(whole));
        if (failed !== undefined)
          return this.staleSeries(ask, needs, entries, decodeFailure(failed));
        if (now >= holdUntil || this.closed)
          return this.staleSeries(ask, needs, entries, this.holdError());
        const holders = await this.options.store.holders(missing.map((n) => n.key));
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
          return this.staleSeries(ask, needs, await this.readSeries(needs, given), outcome.error);
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
        const entry = await this.readWholeEntry(ask.key, given);
        const fresh = freshWhole(entry, this.now());
        if (fresh)
          return { body: fresh.body, simulated: fresh.simulated, fetchedAt: fresh.fetchedAt, how };
        const failed = await this.options.store.failure(this.failureKey(ask));
        if (failed !== undefined) return this.staleOf(entry, decodeFailure(failed));
        if (this.now() >= holdUntil || this.closed) return this.staleOf(entry, this.holdError());
        const [holders] = await this.options.store.holders([ask.key]);
        if (holders.length === 0 && !ticket)
          ticket = this.queue.join(user, ask.key, `whole\n${ask.key}`, 1, () => ({
            kind: "whole",
            ask,
            account,
          }));
        const outcome = await this.waitFor(ticket, [ask.key], holdUntil, signal);
        if (outcome.error !== undefined)
          return this.staleOf(await this.readWholeEntry(ask.key, given), outcome.error);
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

  // ---- fetching ----

  private pump(): void {
    if (this.pumping || this.closed) return;
    this.pumping = true;
    void this.dispatchAll().finally(() => {
      this.pumping = false;
      if (!this.closed && this.inFlight < this.concurrency && this.queue.queued > 0) this.pump();
    });
  }

  private async dispatchAll(): Promise<void> {
    while (this.inFlight < this.concurrency && !this.closed) {
      const batch = this.queue.next((taken, candidate) => this.fits(taken, candidate));
      if (!batch) return;
      try {
        await this.dispatch(batch);
      } catch (error) {
        for (const d of batch) d.reject(error);
      }
    }
  }

  /** Whether a same-group demand can ride in the batch's request (members of one request, URL length). */
  private fits(batch: ReadonlyArray<Demand<Job>>, candidate: Demand<Job>): boolean {
    const first = batch[0].payload;
    const next = candidate.payload;
    if (first.kind === "whole" || next.kind === "whole") return true;
    const members = new Set<string>();
    for (const d of [...batch, candidate])
      if (d.payload.kind === "series") for (const n of d.payload.needs) members.add(n.member);
    if (members.size > this.maxIds) return false;
    return this.seriesUrl(first.ask, first.needs[0], [...members]).length <= this.maxUrl;
  }

  private seriesUrl(ask: SeriesAsk, need: Need, members: readonly string[]): string {
    const request = this.seriesRequest(ask, need, members);
    return this.options.upstream.url(request.segments, request.query);
  }

  /** The query of a series request: the list, the caller's options, the range; in the interface's order. */
  private seriesRequest(ask: SeriesAsk, need: Need, members: readonly string[]): UpstreamRequest {
    const list = ask.form === "metric" ? "project_ids" : "metric_ids";
    const options = new Map(ask.variant.params);
    const query: Array<[string, QueryValue]> = [[list, members]];
    for (const name of ["chain_ids", "product_ids", "market_sector_ids", "aggregate_by"]) {
      const value = options.get(name);
      if (value !== undefined) query.push([name, value]);
    }
    if (need.start !== OPEN_START) query.push(["start", formatDay(need.start)]);
    if (need.end !== OPEN_END) query.push(["end", formatDay(need.end)]);
    const bridged = options.get("assets_bridged");
    if (bridged !== undefined) query.push(["assets_bridged", bridged]);
    return { segments: seriesPath(ask.form, ask), query };
  }

  private wholeRequest(ask: Ask): UpstreamRequest {
    const segments: string[] = [];
    let id = 0;
    for (const part of ask.spec.path) segments.push(part.startsWith(":") ? ask.ids[id++] : part);
    const query = Object.keys(ask.spec.params)
      .filter((name) => ask.params.has(name))
      .map((name): [string, QueryValue] => [name, ask.params.get(name) as QueryValue]);
    return { segments, query };
  }

  private async dispatch(batch: Array<Demand<Job>>): Promise<void> {
    const first = batch[0].payload;
    const owner = `${this.options.processId}:${++this.sequence}`;
    if (first.kind === "whole") return this.dispatchWhole(batch, first.ask, owner);
    // The needs of every demand in the batch (one form, path, options and days), each once.
    const byKey = new Map<string, Need>();
    for (const d of batch)
      if (d.payload.kind === "series") for (const n of d.payload.needs) byKey.set(n.key, n);
    const needs = [...byKey.values()];
    const range = { start: needs[0].start, end: needs[0].end };
    // Before a slot is taken: what another fetch answered or is fetching meanwhile is not asked again.
    let remaining = await this.stillMissing(needs);
    if (remaining.length === 0) return this.settle(batch, { fetched: false });
    const finished = await this.options.budget.acquire();
    const value = lockValue(owner, range.start, range.end);
    let locked: Need[] = [];
    try {
      const { taken, held } = await this.options.store.lock(
        remaining.map((n) => n.key),
        value,
        this.lockTtlMs
      );
      this.held.set(value, { keys: new Set(taken), since: this.now() });
      // Locked by a fetch over the same days or more: it answers them. Locked by one over other days: they stay
      // in this request, which goes whole as the caller asked it (see the module comment).
      remaining = remaining.filter((n) => taken.has(n.key) || !covers(held.get(n.key), n));
      locked = remaining.filter((n) => taken.has(n.key));
      // Read again once locked: a fetch that ended between the first read and the lock stored its answer first.
      const still = new Set((await this.stillMissing(locked, true)).map((n) => n.key));
      const done = locked.filter((n) => !still.has(n.key));
      if (done.length > 0)
        await this.release(
          done.map((n) => n.key),
          value
        );
      locked = locked.filter((n) => still.has(n.key));
      remaining = remaining.filter((n) => still.has(n.key) || !taken.has(n.key));
    } catch (error) {
      finished();
      await this.release(
        locked.map((n) => n.key),
        value
      );
      this.held.delete(value);
      throw error;
    }
    if (remaining.length === 0) {
      finished();
      this.held.delete(value);
      return this.settle(batch, { fetched: false });
    }
    this.inFlight++;
    void this.fetchSeries(batch, first.ask, remaining, value, locked, finished).finally(() => {
      this.inFlight--;
      this.pump();
    });
  }

  /** The needs not answered by the store, and (unless `lockedByUs`) not covered by a fetch under way. */
  private async stillMissing(needs: readonly Need[], lockedByUs = false): Promise<Need[]> {
    if (needs.length === 0) return [];
    const entries = await this.readSeries(needs);
    const now = this.now();
    const missing = needs.filter((n, i) => !freshFor(entries[i], n, now));
    if (lockedByUs || missing.length === 0) return missing;
    const holders = await this.options.store.holders(missing.map((n) => n.key));
    return missing.filter((n, i) => !covers(holders[i], n));
  }

  private settle(batch: ReadonlyArray<Demand<Job>>, result: Result): void {
    for (const d of batch) d.resolve(result);
  }

  private async fail(batch: ReadonlyArray<Demand<Job>>, error: unknown): Promise<void> {
    const encoded = encodeFailure(error);
    await Promise.all(
      batch.map((d) =>
        this.options.store
          .markFailed(
            this.failureKey(d.payload.kind === "series" ? d.payload.whole : d.payload.ask),
            encoded,
            this.failureTtlMs
          )
          .catch(() => undefined)
      )
    );
    for (const d of batch) d.reject(error);
  }

  private async release(keys: readonly string[], value: string): Promise<void> {
    const held = this.held.get(value);
    for (const key of keys) held?.keys.delete(key);
    if (held && held.keys.size === 0) this.held.delete(value);
    if (keys.length === 0) return;
    await this.options.store.release(keys, value).catch(() => undefined);
    // This process's waiters hear it at once (the store's notice may take a round trip).
    this.wake(keys);
  }

  /** One upstream request, retried once (UPSTREAM_ATTEMPTS) through the budget for 5xx, network and time-outs. */
  private async send(
    request: UpstreamRequest,
    user: string,
    slot?: Finished
  ): Promise<UpstreamAnswer> {
    let finished = slot;
    for (let attempt = 1; ; attempt++) {
      finished ??= await this.options.budget.acquire();
      try {
        this.options.onUpstream?.(user);
        return await this.options.upstream.once(request);
      } catch (error) {
        const kind = error instanceof CryptometricsError ? error.kind : undefined;
        if (error instanceof CryptometricsError && kind === "rate-limited")
          // The service said stop: every sharer of the budget holds (its Retry-After, or a part of the window).
          this.options.budget.pauseUntil(
            this.now() + (error.retryAfterMs ?? Math.round(this.options.windowMs / 30))
          );
        if (
          attempt >= UPSTREAM_ATTEMPTS ||
          Upstream.refused(error) ||
          kind === undefined ||
          !isRetryableKind(kind) ||
          this.closed
        )
          throw Upstream.refused(error)
            ? new GatewayError(
                502,
                "The service redirected the team gateway to an address that is not one of its operations: refused"
              )
            : error;
        if (kind !== "rate-limited")
          await this.options.clock.sleep(Math.round(this.options.windowMs / 120));
      } finally {
        finished?.();
        finished = undefined;
      }
    }
  }

  private async fetchSeries(
    batch: ReadonlyArray<Demand<Job>>,
    ask: SeriesAsk,
    needs: readonly Need[],
    value: string,
    locked: readonly Need[],
    slot: Finished
  ): Promise<void> {
    const byMember = new Map(needs.map((n) => [n.member, n]));
    const members = [...byMember.keys()].sort();
    const need = needs[0];
    const chunks =
      chunkIds(members, this.maxIds, this.maxUrl, (chunk) => this.seriesUrl(ask, need, chunk)) ??
      members.map((m) => [m]);
    const user = batch[0].payload.account;
    const result: Result = { fetched: true, series: new Map() };
    let unused: Finished | undefined = slot;
    try {
      for (const chunk of chunks) {
        const given = unused;
        unused = undefined;
        const answer = await this.send(this.seriesRequest(ask, need, chunk), user, given);
        const request: SeriesRequest = {
          form: ask.form,
          projectId: ask.projectId,
          productId: ask.productId,
          metricId: ask.metricId,
          members: chunk,
          start: need.start,
          end: need.end,
        };
        const split = splitAnswer(request, answer.envelope, answer.simulated);
        const keep = await this.options.allowance.charge(
          user,
          JSON.stringify(answer.envelope).length
        );
        for (const member of chunk) {
          const got = split.get(member);
          const n = byMember.get(member);
          if (!got || !n) continue;
          const entry = await this.mergeSeries(n.key, got, keep);
          if (entry) result.series?.set(n.key, entry);
        }
      }
      // Its own callers first (this fetch served them), then every other waiter.
      this.settle(batch, result);
      await this.release(
        locked.map((n) => n.key),
        value
      );
    } catch (error) {
      unused?.();
      await this.fail(batch, error);
      await this.release(
        locked.map((n) => n.key),
        value
      );
    }
  }

  /** Merges what came for one series into the store (compare-and-set, read again on a lost race). */
  private async mergeSeries(
    key: string,
    got: Parameters<typeof merge>[2],
    keep: boolean
  ): Promise<SeriesEntry | undefined> {
    let entry: SeriesEntry | undefined;
    for (let attempt = 0; attempt < 5; attempt++) {
      const now = this.now();
      const [stored] = await this.options.store.read([key]);
      entry = merge(this.openSeries(key, stored), key, got, now);
      const text = writeEntry(entry);
      if (!keep || 2 * text.length > this.maxEntryBytes) {
        if (keep)
          this.options.log?.(
            "warn",
            { bytes: 2 * text.length },
            "an answer too large to keep was served, not kept"
          );
        return entry;
      }
      const sealed = this.options.integrity.seal(key, text);
      if (
        await this.options.store.writeIf(
          key,
          stored?.rev ?? 0,
          sealed,
          storeTtl(entry.cur.expiresAt, now)
        )
      ) {
        this.remember(key, entry, 2 * sealed.length);
        return entry;
      }
    }
    return entry;
  }

  private async dispatchWhole(
    batch: ReadonlyArray<Demand<Job>>,
    ask: Ask,
    owner: string
  ): Promise<void> {
    const key = ask.key;
    const answered = async (): Promise<boolean> =>
      freshWhole(await this.readWholeEntry(key), this.now()) !== undefined;
    if (await answered()) return this.settle(batch, { fetched: false });
    const [holders] = await this.options.store.holders([key]);
    if (holders.length > 0) return this.settle(batch, { fetched: false });
    const finished = await this.options.budget.acquire();
    const value = lockValue(owner, WHOLE_RANGE.start, WHOLE_RANGE.end);
    let locked = false;
    try {
      const { taken } = await this.options.store.lock([key], value, this.lockTtlMs);
      locked = taken.has(key);
      if (!locked || (await answered())) {
        finished();
        if (locked) await this.release([key], value);
        return this.settle(batch, { fetched: false });
      }
      this.held.set(value, { keys: new Set([key]), since: this.now() });
    } catch (error) {
      finished();
      if (locked) await this.release([key], value);
      throw error;
    }
    this.inFlight++;
    void this.fetchWhole(batch, ask, value, finished).finally(() => {
      this.inFlight--;
      this.pump();
    });
  }

  private async fetchWhole(
    batch: ReadonlyArray<Demand<Job>>,
    ask: Ask,
    value: string,
    slot: Finished
  ): Promise<void> {
    const key = ask.key;
    const user = batch[0].payload.account;
    try {
      const answer = await this.send(this.wholeRequest(ask), user, slot);
      const keep = await this.options.allowance.charge(
        user,
        JSON.stringify(answer.envelope).length
      );
      let entry: WholeEntry | undefined;
      for (let attempt = 0; attempt < 5; attempt++) {
        const now = this.now();
        const [stored] = await this.options.store.read([key]);
        entry = nextWhole(
          this.openWhole(key, stored),
          key,
          {
            fetchedAt: now,
            expiresAt: expiryOf(ask.spec.lifetime, now),
            body: answer.envelope,
            simulated: answer.simulated,
          },
          now
        );
        const text = writeWhole(entry);
        if (!keep || 2 * text.length > this.maxEntryBytes) {
          if (keep)
            this.options.log?.(
              "warn",
              { bytes: 2 * text.length },
              "an answer too large to keep was served, not kept"
            );
          break;
        }
        const sealed = this.options.integrity.seal(key, text);
        if (
          await this.options.store.writeIf(
            key,
            stored?.rev ?? 0,
            sealed,
            storeTtl(entry.cur.expiresAt, now)
          )
        ) {
          this.remember(key, entry, 2 * sealed.length);
          break;
        }
      }
      this.settle(batch, { fetched: true, ...(entry ? { whole: entry } : {}) });
      await this.release([key], value);
    } catch (error) {
      await this.fail(batch, error);
      await this.release([key], value);
    }
  }

  private async renew(): Promise<void> {
    const now = this.now();
    for (const [value, held] of [...this.held]) {
      // A fetch still unanswered long after every attempt's time-out lets go: the need can be fetched again.
      if (now - held.since > MAX_LOCK_HOLD_MS) {
        this.held.delete(value);
        continue;
      }
      if (held.keys.size > 0)
        await this.options.store
          .renew([...held.keys], value, this.lockTtlMs)
          .catch(() => undefined);
    }
  }
}
