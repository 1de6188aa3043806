/**
 * The fetching half of a lane's answers (answers.ts serves, this fetches): demands are taken from the queue in
 * turns (fair-queue.ts), each with the other users' demands of its shape riding along; a demand takes a slot of
 * the shared budget, then locks its needs (a place per fetch over its days: store/store.ts), reads the store
 * again, and fetches what is still missing in ONE request, as its caller asked it; what came is merged into the
 * store (entries.ts), the demands settled, the locks released (the notice wakes every waiter, in any process). A
 * failure is remembered for that request and that key only. Every upstream request takes its own slot, a 5xx,
 * a network failure or a time-out is tried once more (UPSTREAM_ATTEMPTS), a 429 pauses every sharer.
 */
import {
  CryptometricsError,
  DEFAULT_LIMITS,
  chunkIds,
  isRetryableKind,
  type Finished,
} from "../client";
import type { Ask, SeriesAsk } from "./ask";
import {
  FAILURE_TTL_MS,
  LOCK_TTL_MS,
  MAX_LOCK_HOLD_MS,
  UPSTREAM_ATTEMPTS,
  UPSTREAM_CONCURRENCY,
} from "./bounds";
import type { Budget } from "./budget";
import { repeat, type GatewayClock } from "./clock";
import type { Entries } from "./entries";
import { GatewayError } from "./errors";
import { encodeFailure, failureKeyOf } from "./failures";
import type { Demand, DemandResult, FairQueue } from "./fair-queue";
import { OPEN_END, OPEN_START, freshFor, type Need, type SeriesEntry } from "./series/entry";
import { splitAnswer, type SeriesRequest } from "./series/split";
import { aboutOf, describeRequest } from "./series/team-record";
import { covered, lockValue, type LockHolder, type Store } from "./store/store";
import { Upstream, type UpstreamAnswer, type UpstreamRequest } from "./upstream";
import { seriesRequest, wholeRequest } from "./upstream-requests";
import { expiryOf, freshWhole, type WholeEntry } from "./whole";

/** A demand's work; `account`: whose usage its upstream requests count as (the caller's identity). */
export type Job =
  | { kind: "series"; ask: SeriesAsk; whole: Ask; needs: Need[]; account: string }
  | { kind: "whole"; ask: Ask; account: string };

/** How a demand ended, with what its fetch brought (for callers whose answer was not kept). */
export interface Result extends DemandResult {
  series?: Map<string, SeriesEntry>;
  whole?: WholeEntry;
}

/** Whether `bytes` more of a user's answers may be kept today (see bounds.ts, MAX_USER_CACHE_BYTES_PER_DAY). */
export interface ByteAllowance {
  charge(user: string, bytes: number): Promise<boolean>;
}

/** Whether a fetch under way (one of the need's locks) will answer it: the same days or more. */
export function covers(
  holders: readonly LockHolder[] | undefined,
  need: { start: number; end: number }
): boolean {
  return holders !== undefined && covered(holders, need);
}

const WHOLE_RANGE = { start: OPEN_START, end: OPEN_END };

interface FetcherOptions {
  queue: FairQueue<Job>;
  entries: Entries;
  store: Store;
  upstream: Upstream;
  budget: Budget;
  clock: GatewayClock;
  /** This process, in lock owners (with a sequence number per fetch). */
  processId: string;
  failureNamespace: string;
  allowance: ByteAllowance;
  /** The rate window: backoffs of retried requests are parts of it (so they scale with a faster minute). */
  windowMs: number;
  /** Wakes this process's waiters on `keys` (a store notice may take a round trip). */
  wake: (keys: readonly string[]) => void;
  lockTtlMs?: number;
  failureTtlMs?: number;
  /** Ids per upstream request (the client's chunk size, 50). */
  maxIdsPerRequest?: number;
  /** Longest upstream URL (the client's, 2,000 characters). */
  maxUrlLength?: number;
  concurrency?: number;
  onUpstream?: (user: string) => void;
}

export class Fetcher {
  private readonly lockTtlMs: number;
  private readonly failureTtlMs: number;
  private readonly maxIds: number;
  private readonly maxUrl: number;
  private readonly concurrency: number;
  /** Locks held by fetches under way: value -> keys and since when (renewed until released, or too long). */
  private readonly held = new Map<string, { keys: Set<string>; since: number }>();
  private readonly stopRenewing: () => void;
  private sequence = 0;
  private inFlight = 0;
  private pumping = false;
  private closed = false;

  constructor(private readonly options: FetcherOptions) {
    this.lockTtlMs = options.lockTtlMs ?? LOCK_TTL_MS;
    this.failureTtlMs = options.failureTtlMs ?? FAILURE_TTL_MS;
    this.maxIds = options.maxIdsPerRequest ?? DEFAULT_LIMITS.maxIdsPerRequest;
    this.maxUrl = options.maxUrlLength ?? DEFAULT_LIMITS.maxUrlLength;
    this.concurrency = options.concurrency ?? UPSTREAM_CONCURRENCY;
    this.stopRenewing = repeat(options.clock.timers, Math.max(50, this.lockTtlMs / 3), () =>
      this.renew()
    );
  }

  /** Fetches under way in this process. */
  get underWay(): number {
    return this.inFlight;
  }

  /** Locks this process holds for fetches under way. */
  get locksHeld(): number {
    let n = 0;
    for (const h of this.held.values()) n += h.keys.size;
    return n;
  }

  /** Takes nothing more from the queue; fetches under way end on their own. */
  close(): void {
    this.closed = true;
    this.stopRenewing();
  }

  /** Dispatches what waits, as the budget and the concurrency allow (the queue calls it when something comes). */
  pump(): void {
    if (this.pumping || this.closed) return;
    this.pumping = true;
    void this.dispatchAll().finally(() => {
      this.pumping = false;
      if (!this.closed && this.inFlight < this.concurrency && this.options.queue.queued > 0)
        this.pump();
    });
  }

  private async dispatchAll(): Promise<void> {
    while (this.inFlight < this.concurrency && !this.closed) {
      const batch = this.options.queue.next((taken, candidate) => this.fits(taken, candidate));
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
    const request = seriesRequest(ask, need, members);
    return this.options.upstream.url(request.segments, request.query);
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
      this.held.set(value, { keys: new Set(taken), since: this.options.clock.now() });
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
    const entries = await this.options.entries.readSeries(needs);
    const now = this.options.clock.now();
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
            failureKeyOf(
              this.options.failureNamespace,
              d.payload.kind === "series" ? d.payload.whole : d.payload.ask
            ),
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
    this.options.wake(keys);
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
            this.options.clock.now() +
              (error.retryAfterMs ?? Math.round(this.options.windowMs / 30))
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
        const answer = await this.send(seriesRequest(ask, need, chunk), user, given);
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
        // In bytes as the stores count them (two a character), as MAX_USER_CACHE_BYTES_PER_DAY is.
        const keep = await this.options.allowance.charge(
          user,
          2 * JSON.stringify(answer.envelope).length
        );
        const described = describeRequest(ask, chunk.length, need.start, need.end);
        const items = chunk.flatMap((member) => {
          const got = split.get(member);
          const n = byMember.get(member);
          return got && n ? [{ key: n.key, got, about: aboutOf(ask, member, described) }] : [];
        });
        for (const [key, entry] of await this.options.entries.mergeSeries(items, keep))
          result.series?.set(key, entry);
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

  private async fetchWhole(
    batch: ReadonlyArray<Demand<Job>>,
    ask: Ask,
    value: string,
    slot: Finished
  ): Promise<void> {
    const key = ask.key;
    const user = batch[0].payload.account;
    try {
      const answer = await this.send(wholeRequest(ask), user, slot);
      const keep = await this.options.allowance.charge(
        user,
        2 * JSON.stringify(answer.envelope).length
      );
      const now = this.options.clock.now();
      const entry = await this.options.entries.mergeWhole(
        key,
        {
          fetchedAt: now,
          expiresAt: expiryOf(ask.spec.lifetime, now),
          body: answer.envelope,
          simulated: answer.simulated,
        },
        keep
      );
      this.settle(batch, { fetched: true, ...(entry ? { whole: entry } : {}) });
      await this.release([key], value);
    } catch (error) {
      await this.fail(batch, error);
      await this.release([key], value);
    }
  }

  private async dispatchWhole(
    batch: ReadonlyArray<Demand<Job>>,
    ask: Ask,
    owner: string
  ): Promise<void> {
    const key = ask.key;
    const answered = async (): Promise<boolean> =>
      freshWhole(await this.options.entries.readWhole(key), this.options.clock.now()) !== undefined;
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
      this.held.set(value, { keys: new Set([key]), since: this.options.clock.now() });
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

  private async renew(): Promise<void> {
    const now = this.options.clock.now();
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
