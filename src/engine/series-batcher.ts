/**
 * Turns many cell calls into few requests (habits of dataloader): calls arriving within one recalculation
 * window are queued, grouped and planned together (series-grouping.ts, planner.ts) and answered from one set
 * of requests. The window closes once no call has arrived for `windowMs` (at most `maxWindowMs` after its first
 * call), and its calls are planned in a canonical order: the same model gives the same requests however Excel
 * paced and ordered its cells, so analysts sharing a cache in front of the service share its answers too; a call whose series is already being fetched for a range that covers it joins that request;
 * answers come from the cache when fresh. Every call settles: each request ends in resolve or reject for
 * every caller (a caller whose series the answer lacks is rejected at once, as dataloader does, rather than
 * left to its deadline), a deadline bounds each call, and a cancelled call leaves the batch (the request
 * itself is aborted once nobody waits for it).
 */
import { staleMayCover } from "../cache/policy";
import { CryptometricsError, type Timers } from "../client";
import { groupRequests, type Universe } from "./series-grouping";
import { hasAnyValue, notAvailableIssue, type AvailabilityLookup } from "./availability";
import {
  describeGroup,
  fetchGroup,
  type GroupRequest,
  type GroupResult,
  type PairResult,
  type SeriesClient,
} from "./series-fetch";
import type { SeriesStore } from "./series-store";
import { seriesRefOf } from "./series-ledger";
import type { DayPoint } from "./figures/series-ops";
import {
  answerFrom,
  seriesKey,
  type SeriesCallOptions,
  type SeriesAnswer,
  type SeriesQuery,
} from "./series-types";
import { messageOf } from "../client";

interface BatcherOptions {
  /** How long the window stays open after its latest call, waiting for more, before the batch is planned. */
  windowMs: number;
  /**
   * The longest a window stays open after its first call. Default: five windows (250 ms with the engine's
   * 50 ms). Excel hands a recalculation's cells over in bursts; a window closing a fixed time after its first
   * call cut a slow recalculation into several plans, each with other request forms for the same model. Waiting
   * for a quiet gap keeps the recalculation whole; the cap bounds what its first cell waits.
   */
  maxWindowMs?: number;
  /** Per call, from its arrival: it settles by then whatever the service does. */
  deadlineMs: number;
  /** Ids per request the client sends (its chunk size): the planner's cost unit. */
  maxIdsPerRequest: number;
  /** A call with earlier values gets them after this long without an answer (stale-if-slow). */
  staleAfterMs: number;
  /** The catalogue's size and today, read when a window is planned: may a metric be asked of all projects? */
  universe?: () => Universe | undefined;
}

interface Waiter {
  query: SeriesQuery;
  key: string;
  resolve(answer: SeriesAnswer): void;
  reject(error: unknown): void;
  settled: boolean;
  /** Answered with the previous values while its request goes on (stale-if-slow). */
  refreshing?: boolean;
  timer?: unknown;
  staleTimer?: unknown;
  flight?: Flight;
  detach?: () => void;
}

interface Flight {
  request: GroupRequest;
  waiters: Set<Waiter>;
  controller: AbortController;
  description: string;
}

/** Sends one planned request (fetchGroup; a test may pass its own). */
export type FetchGroup = (
  client: SeriesClient,
  request: GroupRequest,
  signal: AbortSignal
) => Promise<GroupResult>;

function sliceResult(result: PairResult, start: number, end: number): Map<string, DayPoint[]> {
  const out = new Map<string, DayPoint[]>();
  for (const [dim, points] of result.dims)
    out.set(
      dim,
      points.filter((p) => p.day >= start && p.day <= end)
    );
  return out;
}

export class SeriesBatcher {
  private pending: Waiter[] = [];
  private flushTimer: unknown = undefined;
  /** Closes the open window at its cap (see BatcherOptions.maxWindowMs). */
  private capTimer: unknown = undefined;
  /** Series key -> flights fetching it, with their ranges, so later calls can join them. */
  private readonly flightsByKey = new Map<string, Set<Flight>>();
  /**
   * A cell's signal -> its waiting calls: one abort listener per cell, however many series it needs (a
   * METRIC over 50 projects would otherwise put 50 listeners on one signal, and Node warns past 10).
   */
  private readonly bySignal = new Map<AbortSignal, { waiters: Set<Waiter>; onAbort: () => void }>();

  constructor(
    private readonly client: SeriesClient,
    private readonly store: SeriesStore,
    private readonly timers: Timers,
    private readonly options: BatcherOptions,
    private readonly availability?: AvailabilityLookup,
    private readonly fetch: FetchGroup = fetchGroup
  ) {}

  /** Calls waiting for a request (queued or in flight): zero when the workbook has settled. */
  get waiting(): number {
    let n = this.pending.length;
    const seen = new Set<Flight>();
    for (const flights of this.flightsByKey.values()) for (const f of flights) seen.add(f);
    for (const f of seen) n += f.waiters.size;
    return n;
  }

  /**
   * The answer from a fresh cached snapshot covering the query, or undefined: exactly what get() resolves
   * with at once on a hit, for callers that can use it without waiting (the warm path of a cell).
   */
  cached(query: SeriesQuery, key: string = seriesKey(query)): SeriesAnswer | undefined {
    const hit = this.store.fresh(key, query.start, query.end);
    return hit && answerFrom(hit, this.store.read(hit, query.start, query.end));
  }

  get(query: SeriesQuery, ctx: SeriesCallOptions = {}): Promise<SeriesAnswer> {
    const key = seriesKey(query);
    const hit = this.cached(query, key);
    if (hit) return Promise.resolve(hit);
    return new Promise<SeriesAnswer>((resolve, reject) => {
      const waiter: Waiter = { query, key, resolve, reject, settled: false };
      if (ctx.signal) {
        if (ctx.signal.aborted) {
          reject(this.cancelled(query));
          return;
        }
        waiter.detach = this.watch(ctx.signal, waiter);
      }
      waiter.timer = this.timers.setTimeout(() => this.expire(waiter), this.options.deadlineMs);
      if (this.store.stale(key, query.start, query.end)) {
        waiter.staleTimer = this.timers.setTimeout(
          () => this.answerStale(waiter),
          this.options.staleAfterMs
        );
      }
      const flight = this.coveringFlight(key, query.start, query.end);
      if (flight) {
        waiter.flight = flight;
        flight.waiters.add(waiter);
        return;
      }
      this.pending.push(waiter);
      this.extendWindow();
    });
  }

  /**
   * Opens the window, or keeps it open `windowMs` longer. A second timer closes it `maxWindowMs` after it
   * opened, whatever keeps arriving (the timers carry no clock: two timers need none).
   */
  private extendWindow(): void {
    const { windowMs } = this.options;
    if (this.flushTimer !== undefined) this.timers.clearTimeout(this.flushTimer);
    this.flushTimer = this.timers.setTimeout(() => this.flush(), windowMs);
    if (this.capTimer === undefined) {
      const cap = Math.max(windowMs, this.options.maxWindowMs ?? windowMs * 5);
      this.capTimer = this.timers.setTimeout(() => this.flush(), cap);
    }
  }

  /** Cancels the waiter when the signal aborts; returns how to stop watching. */
  private watch(signal: AbortSignal, waiter: Waiter): () => void {
    let entry = this.bySignal.get(signal);
    if (!entry) {
      const waiters = new Set<Waiter>();
      const onAbort = (): void => {
        this.bySignal.delete(signal);
        for (const w of [...waiters]) this.cancel(w);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.bySignal.set(signal, (entry = { waiters, onAbort }));
    }
    const { waiters, onAbort } = entry;
    waiters.add(waiter);
    return () => {
      waiters.delete(waiter);
      if (waiters.size === 0 && this.bySignal.get(signal) === entry) {
        signal.removeEventListener("abort", onAbort);
        this.bySignal.delete(signal);
      }
    };
  }

  /** Plans and sends everything queued now (the window timer calls this; tests may too). */
  flush(): void {
    if (this.flushTimer !== undefined) this.timers.clearTimeout(this.flushTimer);
    if (this.capTimer !== undefined) this.timers.clearTimeout(this.capTimer);
    this.flushTimer = undefined;
    this.capTimer = undefined;
    // A call already answered with stale values still wants its request: the answer refreshes the cache.
    const waiters = this.pending.filter((w) => !w.settled || w.refreshing);
    this.pending = [];
    if (waiters.length === 0) return;
    // Planned in key order, not arrival order: the same cells give the same requests (see the module comment).
    waiters.sort((a, b) =>
      a.key < b.key ? -1 : a.key > b.key ? 1 : a.query.start - b.query.start
    );
    const universe = this.options.universe?.();
    for (const request of groupRequests(waiters, this.options.maxIdsPerRequest, universe)) {
      this.launch(request, waiters);
    }
  }

  private launch(request: GroupRequest, waiters: readonly Waiter[]): Flight {
    const keys = new Set(request.queries.map(seriesKey));
    const flight: Flight = {
      request,
      waiters: new Set(waiters.filter((w) => keys.has(w.key))),
      controller: new AbortController(),
      description: describeGroup(request),
    };
    for (const w of flight.waiters) w.flight = flight;
    for (const key of keys) {
      let set = this.flightsByKey.get(key);
      if (!set) this.flightsByKey.set(key, (set = new Set()));
      set.add(flight);
    }
    this.fetch(this.client, request, flight.controller.signal)
      .then(async (result) => ({ result, failed: await this.checkEmpty(request, result) }))
      .then(
        ({ result, failed }) => {
          this.unregister(flight, keys);
          const queryOf = new Map(request.queries.map((q) => [seriesKey(q), q]));
          for (const [key, r] of result.results) {
            if (failed.has(key)) continue;
            const asked = queryOf.get(key);
            if (r.issue) this.store.writeIssue(key, r.issue, result.description);
            else
              this.store.write(
                key,
                request.start,
                request.end,
                r.dims,
                result.description,
                r.warnings,
                asked && seriesRefOf(asked)
              );
          }
          for (const w of flight.waiters) {
            if (failed.has(w.key)) {
              this.fail(w, failed.get(w.key));
              continue;
            }
            const r = result.results.get(w.key);
            if (!r) {
              this.fail(w, this.unanswered(w.query, result.description));
              continue;
            }
            this.settle(w, () =>
              w.resolve({
                dims: sliceResult(r, w.query.start, w.query.end),
                issue: r.issue,
                warnings: r.warnings,
                servedBy: [result.description],
              })
            );
          }
        },
        (error: unknown) => {
          this.unregister(flight, keys);
          for (const w of flight.waiters) this.fail(w, error);
        }
      );
    return flight;
  }

  /**
   * Series that came back with no value and no issue: the published availability tells "not available"
   * (the issue §4.11 would have given) from "no data in this range" (availability.ts). Returns the series
   * whose availability could not be read, with the error (they fail rather than guess).
   */
  private async checkEmpty(
    request: GroupRequest,
    result: GroupResult
  ): Promise<Map<string, unknown>> {
    const failed = new Map<string, unknown>();
    const lookup = this.availability;
    // §4.11 reports METRIC_NOT_AVAILABLE itself: an empty series there is "no data".
    if (!lookup || request.form === "metric") return failed;
    await Promise.all(
      request.queries.map(async (q) => {
        const key = seriesKey(q);
        const r = result.results.get(key);
        if (!r || r.issue || hasAnyValue(r.dims)) return;
        try {
          if ((await lookup(q.projectId, q.productId, q.metricId)) === false)
            r.issue = notAvailableIssue(q.projectId, q.metricId, q.productId);
        } catch (error) {
          failed.set(key, error);
        }
      })
    );
    return failed;
  }

  private unregister(flight: Flight, keys: Iterable<string>): void {
    for (const key of keys) {
      const set = this.flightsByKey.get(key);
      set?.delete(flight);
      if (set && set.size === 0) this.flightsByKey.delete(key);
    }
  }

  private coveringFlight(key: string, start: number, end: number): Flight | undefined {
    for (const f of this.flightsByKey.get(key) ?? []) {
      if (!f.controller.signal.aborted && f.request.start <= start && end <= f.request.end)
        return f;
    }
    return undefined;
  }

  /**
   * Resolve with the last good answer when there is one (stale-if-error), else reject. Never for a refused
   * key or plan (cache-policy.ts, staleMayCover).
   */
  private fail(w: Waiter, error: unknown): void {
    const stale = staleMayCover(error)
      ? this.store.stale(w.key, w.query.start, w.query.end)
      : undefined;
    this.settle(w, () => {
      if (stale) {
        const reason = messageOf(error);
        w.resolve(
          answerFrom(stale, this.store.read(stale, w.query.start, w.query.end), {
            fetchedAt: stale.fetchedAt,
            reason,
          })
        );
      } else {
        w.reject(error);
      }
    });
  }

  private expire(w: Waiter): void {
    const seconds = Math.round(this.options.deadlineMs / 1000);
    this.leave(w);
    this.fail(
      w,
      new CryptometricsError(
        "timeout",
        `${this.describe(w.query)}: no answer within ${seconds} s`,
        {
          operation: "series",
          ids: [w.query.projectId, w.query.metricId],
        }
      )
    );
  }

  private cancel(w: Waiter): void {
    this.leave(w);
    this.settle(w, () => w.reject(this.cancelled(w.query)));
  }

  /** Takes a waiter out of the queue or its flight; a flight nobody waits for any more is aborted. */
  private leave(w: Waiter): void {
    this.pending = this.pending.filter((p) => p !== w);
    const f = w.flight;
    if (f) {
      f.waiters.delete(w);
      if (f.waiters.size === 0 && !f.controller.signal.aborted) {
        f.controller.abort(this.cancelled(w.query));
        this.unregister(f, f.request.queries.map(seriesKey));
      }
    }
  }

  /** Stale-if-slow: the previous values now, the request still under way (it fills the cache). */
  private answerStale(w: Waiter): void {
    const stale = this.store.stale(w.key, w.query.start, w.query.end);
    if (w.settled || !stale) return;
    const seconds = Math.round(this.options.staleAfterMs / 1000);
    const reason = `the service has not answered within ${seconds} s; showing the previous values while it is asked again`;
    w.refreshing = true;
    this.settle(w, () =>
      w.resolve(
        answerFrom(stale, this.store.read(stale, w.query.start, w.query.end), {
          fetchedAt: stale.fetchedAt,
          reason,
        })
      )
    );
  }

  private settle(w: Waiter, action: () => void): void {
    if (w.settled) return;
    w.settled = true;
    if (w.timer !== undefined) this.timers.clearTimeout(w.timer);
    if (w.staleTimer !== undefined) this.timers.clearTimeout(w.staleTimer);
    w.detach?.();
    action();
  }

  /** A request came back without the series a caller waits for: not worth waiting for the deadline. */
  private unanswered(q: SeriesQuery, description: string): CryptometricsError {
    return new CryptometricsError(
      "malformed-response",
      `${this.describe(q)}: the answer to ${description} holds nothing for it`,
      { operation: "series", ids: [q.projectId, q.metricId] }
    );
  }

  private cancelled(q: SeriesQuery): CryptometricsError {
    return new CryptometricsError("cancelled", `${this.describe(q)}: cancelled by Excel`, {
      operation: "series",
      ids: [q.projectId, q.metricId],
    });
  }

  private describe(q: SeriesQuery): string {
    return `${q.metricId} of ${q.productId ? `${q.projectId}/${q.productId}` : q.projectId}`;
  }
}
