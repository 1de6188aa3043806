/**
 * How a caller's request is answered: from the shared store when it holds what the answer is made of, else by
 * fetching it once for everybody. For each need (a series and its days, or a whole answer):
 *
 *  1. read it (this process's memory first, then the store every process shares);
 *  2. if it is missing, take its lock (several at once, atomically): the process that gets it fetches, every
 *     other caller (in any process) waits for the lock's release notice and reads the store again;
 *  3. needs locked by this process within a short window (10 ms) are fetched together: one upstream request per
 *     form, path, options and range, its members sorted and chunked as the client chunks them;
 *  4. the answer is split per series, merged into the store, the locks released (the notice wakes the waiters);
 *  5. a fetch that failed is marked for a few seconds, so that waiters fail over to what they had (stale-if-error)
 *     or report the failure rather than asking the service again, one after the other.
 *
 * A caller is held at most `holdMs` (below the client's 30 s per attempt): past it the answer is the previous one
 * (stale) or 503 with Retry-After, and the fetch goes on for the retry to find.
 */
import { LRUCache } from "lru-cache";
import {
  CryptometricsError,
  DEFAULT_LIMITS,
  realTimers,
  type ErrorKind,
  type Timers,
} from "../client";
import { formatDay } from "../client";
import type { WireEnvelope } from "../client";
import { chunkIds } from "../client";
import { DEFAULT_CACHE_POLICY } from "../engine/cache-policy";
import type { Ask, QueryValue, SeriesAsk } from "./ask";
import { GatewayError } from "./errors";
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
import type { Store } from "./store/store";
import type { Upstream } from "./upstream";
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
  /** Set when the answer is an earlier one, because fetching afresh failed. */
  staleReason?: string;
  /** Upstream requests this caller's needs caused (0 on a hit or a joined fetch). */
  upstream: number;
}

export interface AnswersOptions {
  store: Store;
  upstream: Upstream;
  /** This process, in lock owners (with a sequence number per fetch). */
  processId: string;
  now?: () => number;
  timers?: Timers;
  /**
   * How long needs locked by this process wait for others before they are fetched together. 10 ms: a team's
   * requests for one model arrive within milliseconds of each other at each process.
   */
  windowMs?: number;
  /** Ids per upstream request (the client's chunk size, 50). */
  maxIdsPerRequest?: number;
  /** Longest upstream URL (the client's, 2,000 characters). */
  maxUrlLength?: number;
  /** A lock outlives a dead owner by at most this; renewed every third of it while its fetch goes on. */
  lockTtlMs?: number;
  /** How long a failed fetch answers for its needs instead of a new one. */
  failureTtlMs?: number;
  /** A waiter checks again at least this often (a release notice lost in a reconnection). */
  waitPollMs?: number;
  /** The longest a caller is held (see the module comment). */
  holdMs?: number;
  /** Data points of series kept in this process's memory. */
  maxMemoryRecords?: number;
  /** Called once per upstream request the needs of a caller caused. */
  onFetch?: (form: string) => void;
}

/** 6 s (renewed every 2 s while a fetch goes on): a dead process's locks hold its needs back no longer. */
const LOCK_TTL_MS = 6_000;
/** 5 s: within a client's first retries, so a failing need is asked again once per few seconds, not per caller. */
const FAILURE_TTL_MS = 5_000;
/** 25 s: below the client's 30 s per attempt, so the caller hears "try again" rather than timing out. */
const HOLD_MS = 25_000;

interface Item {
  need: Need;
  ask: SeriesAsk;
  owner: string;
  user: string;
  /** Called with the number of the upstream request that brought the need. */
  resolve: (request: number) => void;
  reject: (error: unknown) => void;
}

interface Failure {
  kind: ErrorKind;
  message: string;
  status?: number;
  retryAfterMs?: number;
}

function encodeFailure(error: unknown): string {
  const f: Failure =
    error instanceof CryptometricsError
      ? {
          kind: error.kind,
          message: error.message,
          ...(error.status === undefined ? {} : { status: error.status }),
          ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
        }
      : { kind: "malformed-response", message: "the gateway could not use the service's answer" };
  return JSON.stringify(f);
}

function decodeFailure(text: string): CryptometricsError {
  try {
    const f = JSON.parse(text) as Failure;
    return new CryptometricsError(f.kind, f.message, {
      operation: "gateway",
      ...(f.status === undefined ? {} : { status: f.status }),
      ...(f.retryAfterMs === undefined ? {} : { retryAfterMs: f.retryAfterMs }),
    });
  } catch {
    return new CryptometricsError("server", "an earlier fetch of this failed", {
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

/** Extends the lifetime of a store entry: fresh until its expiry, then a week's fallback. */
function storeTtl(expiresAt: number, now: number): number {
  return Math.max(1_000, expiresAt - now) + DEFAULT_CACHE_POLICY.maxStaleMs;
}

export class Answers {
  private readonly now: () => number;
  private readonly timers: Timers;
  private readonly windowMs: number;
  private readonly maxIds: number;
  private readonly maxUrl: number;
  private readonly lockTtlMs: number;
  private readonly failureTtlMs: number;
  private readonly waitPollMs: number;
  private readonly holdMs: number;
  private readonly series: LRUCache<string, SeriesEntry>;
  private readonly wholes: LRUCache<string, WholeEntry>;
  private pending: Item[] = [];
  private flushTimer: unknown;
  private sequence = 0;
  /** Locks held by fetches under way: owner -> keys (renewed until released). */
  private readonly held = new Map<string, Set<string>>();
  private readonly renewTimer: NodeJS.Timeout;
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly stopListening: () => void;

  constructor(private readonly options: AnswersOptions) {
    this.now = options.now ?? Date.now;
    this.timers = options.timers ?? realTimers;
    this.windowMs = options.windowMs ?? 10;
    this.maxIds = options.maxIdsPerRequest ?? DEFAULT_LIMITS.maxIdsPerRequest;
    this.maxUrl = options.maxUrlLength ?? 2_000;
    this.lockTtlMs = options.lockTtlMs ?? LOCK_TTL_MS;
    this.failureTtlMs = options.failureTtlMs ?? FAILURE_TTL_MS;
    this.waitPollMs = options.waitPollMs ?? 1_000;
    this.holdMs = options.holdMs ?? HOLD_MS;
    this.series = new LRUCache<string, SeriesEntry>({
      maxSize: options.maxMemoryRecords ?? 2_000_000,
      sizeCalculation: (e) => 1 + e.cur.records.length + (e.prev?.records.length ?? 0),
    });
    this.wholes = new LRUCache<string, WholeEntry>({ max: 20_000 });
    this.stopListening = options.store.onReleased((keys) => this.wake(keys));
    this.renewTimer = setInterval(() => void this.renew(), Math.max(50, this.lockTtlMs / 3));
    this.renewTimer.unref();
  }

  close(): void {
    clearInterval(this.renewTimer);
    this.stopListening();
    if (this.flushTimer !== undefined) this.timers.clearTimeout(this.flushTimer);
  }

  /** Fetches waiting for their window or under way (the queue-depth gauge adds the scheduler's). */
  get pendingFetches(): number {
    return this.pending.length;
  }

  async serve(ask: Ask, user: string): Promise<Served> {
    return ask.series ? this.serveSeries(ask.series, user) : this.serveWhole(ask, user);
  }

  // ---- series ----

  private async readSeries(needs: readonly Need[]): Promise<Array<SeriesEntry | undefined>> {
    const now = this.now();
    const entries = needs.map((n) => this.series.get(n.key));
    const missing = needs
      .map((n, i) => (freshFor(entries[i], n, now) ? -1 : i))
      .filter((i) => i >= 0);
    if (missing.length === 0) return entries;
    const texts = await this.options.store.read(missing.map((i) => needs[i].key));
    missing.forEach((i, j) => {
      const stored = readEntry(texts[j], needs[i].key);
      if (stored && (!entries[i] || stored.cur.fetchedAt >= entries[i].cur.fetchedAt)) {
        entries[i] = stored;
        this.series.set(needs[i].key, stored);
      }
    });
    return entries;
  }

  private async serveSeries(ask: SeriesAsk, user: string): Promise<Served> {
    const needs = needsOf(ask);
    const holdUntil = this.now() + this.holdMs;
    let how: HowServed = "hit";
    let upstream = 0;
    for (;;) {
      const entries = await this.readSeries(needs);
      const now = this.now();
      const snapshots = new Map<string, SeriesSnapshot>();
      const missing: Need[] = [];
      needs.forEach((need, i) => {
        const s = freshFor(entries[i], need, now);
        if (s) snapshots.set(need.member, s);
        else missing.push(need);
      });
      if (missing.length === 0) return this.composed(ask, snapshots, how, upstream);
      const keys = missing.map((n) => n.key);
      const failed = (await this.options.store.failures(keys)).find((f) => f !== undefined);
      if (failed !== undefined) return this.staleSeries(ask, needs, entries, decodeFailure(failed));
      if (now >= holdUntil) return this.staleSeries(ask, needs, entries, this.holdError());
      const owner = `${this.options.processId}:${++this.sequence}`;
      const taken = await this.options.store.lock(keys, owner, this.lockTtlMs);
      const theirs = missing.filter((n) => !taken.has(n.key));
      let mine = missing.filter((n) => taken.has(n.key));
      if (mine.length > 0) {
        // Read again once locked: a fetch that ended between the read above and the lock stored its answer
        // before letting go of the lock, so what is still missing now is really this caller's to fetch.
        const again = await this.readSeries(mine);
        const later = this.now();
        const done = mine.filter((n, i) => freshFor(again[i], n, later));
        if (done.length > 0) {
          await this.options.store
            .release(
              done.map((n) => n.key),
              owner
            )
            .catch(() => undefined);
          mine = mine.filter((n) => !done.includes(n));
        }
      }
      if (mine.length > 0) how = "fetched";
      else if (how === "hit") how = "joined";
      const waits: Array<Promise<unknown>> = [];
      if (mine.length > 0) {
        const fetched = this.enqueue(mine, ask, owner, user);
        // The fetch goes on after a caller stops waiting (held too long): its failure is handled there.
        fetched.catch(() => undefined);
        waits.push(fetched.then((n) => (upstream += n)));
      }
      if (theirs.length > 0) waits.push(this.released(theirs.map((n) => n.key)));
      try {
        await this.within(Promise.all(waits), holdUntil);
      } catch (error) {
        return this.staleSeries(ask, needs, await this.readSeries(needs), error);
      }
    }
  }

  private composed(
    ask: SeriesAsk,
    snapshots: Map<string, SeriesSnapshot>,
    how: HowServed,
    upstream: number,
    staleReason?: string
  ): Served {
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
      upstream,
      ...(staleReason === undefined ? {} : { staleReason }),
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
    if (!stale) return this.composed(ask, snapshots, "fetched", 0);
    if (snapshots.size < needs.length) throw error;
    return this.composed(ask, snapshots, "stale", 0, reasonOf(error));
  }

  /** Queues needs locked by this caller; resolves with the upstream requests they took once all are stored. */
  private enqueue(
    needs: readonly Need[],
    ask: SeriesAsk,
    owner: string,
    user: string
  ): Promise<number> {
    this.held.set(owner, new Set(needs.map((n) => n.key)));
    const done = needs.map(
      (need) =>
        new Promise<number>((resolve, reject) =>
          this.pending.push({ need, ask, owner, user, resolve, reject })
        )
    );
    if (this.flushTimer === undefined)
      this.flushTimer = this.timers.setTimeout(() => this.flush(), this.windowMs);
    return Promise.all(done).then((requests) => new Set(requests).size);
  }

  /** Upstream requests sent by this process, numbered. */
  private fetchCount = 0;

  /** Sends what the window holds: one request per form, path, options and range (members chunked). */
  private flush(): void {
    this.flushTimer = undefined;
    const items = this.pending;
    this.pending = [];
    const groups = new Map<string, Item[]>();
    for (const item of items) {
      const { ask, need } = item;
      const gk = JSON.stringify([
        ask.form,
        ask.projectId,
        ask.productId,
        ask.metricId,
        ask.variant.key,
        need.start,
        need.end,
      ]);
      let group = groups.get(gk);
      if (!group) groups.set(gk, (group = []));
      group.push(item);
    }
    for (const group of groups.values()) {
      const members = [...new Set(group.map((i) => i.need.member))].sort();
      const first = group[0];
      const chunks =
        chunkIds(members, this.maxIds, this.maxUrl, (chunk) =>
          this.options.upstream.url(
            seriesPath(first.ask.form, first.ask),
            this.seriesQuery(first, chunk)
          )
        ) ?? members.map((m) => [m]);
      for (const chunk of chunks) {
        const inChunk = new Set(chunk);
        void this.fetchChunk(
          first,
          chunk,
          group.filter((i) => inChunk.has(i.need.member))
        );
      }
    }
  }

  /** The query of a series request: the list, the caller's options, the range; in the interface's order. */
  private seriesQuery(item: Item, members: readonly string[]): Array<[string, QueryValue]> {
    const { ask, need } = item;
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
    return query;
  }

  private async fetchChunk(first: Item, members: string[], items: readonly Item[]): Promise<void> {
    const { ask, need } = first;
    const keyOf = new Map(items.map((i) => [i.need.member, i.need.key]));
    const keys = [...keyOf.values()];
    const request: SeriesRequest = {
      form: ask.form,
      projectId: ask.projectId,
      productId: ask.productId,
      metricId: ask.metricId,
      members,
      start: need.start,
      end: need.end,
    };
    try {
      // The turn is the first caller's: whoever asked first in the window.
      const answer = await this.options.upstream.get(
        first.user,
        seriesPath(ask.form, ask),
        this.seriesQuery(first, members)
      );
      const number = ++this.fetchCount;
      this.options.onFetch?.(ask.form);
      const split = splitAnswer(request, answer.envelope, answer.simulated);
      const stored = [...keyOf];
      const texts = await this.options.store.read(stored.map(([, key]) => key));
      const now = this.now();
      await Promise.all(
        stored.map(async ([member, key], i) => {
          const got = split.get(member);
          if (!got) return;
          const entry = merge(readEntry(texts[i], key), key, got, now);
          this.series.set(key, entry);
          await this.options.store.write(
            key,
            writeEntry(entry),
            storeTtl(entry.cur.expiresAt, now)
          );
        })
      );
      await this.releaseItems(items);
      for (const item of items) item.resolve(number);
    } catch (error) {
      await this.options.store
        .markFailed(keys, encodeFailure(error), this.failureTtlMs)
        .catch(() => undefined);
      await this.releaseItems(items);
      for (const item of items) item.reject(error);
    }
  }

  private async releaseItems(items: readonly Item[]): Promise<void> {
    const byOwner = new Map<string, string[]>();
    for (const item of items) {
      const keys = byOwner.get(item.owner) ?? [];
      keys.push(item.need.key);
      byOwner.set(item.owner, keys);
    }
    for (const [owner, keys] of byOwner) {
      const held = this.held.get(owner);
      for (const key of keys) held?.delete(key);
      if (held && held.size === 0) this.held.delete(owner);
      await this.options.store.release(keys, owner).catch(() => undefined);
      // This process's waiters hear it at once (the store's notice may take a round trip).
      this.wake(keys);
    }
  }

  // ---- whole answers ----

  private async readWholeEntry(key: string): Promise<WholeEntry | undefined> {
    const cached = this.wholes.get(key);
    if (freshWhole(cached, this.now())) return cached;
    const [text] = await this.options.store.read([key]);
    const stored = readWhole(text, key);
    if (stored && (!cached || stored.cur.fetchedAt >= cached.cur.fetchedAt)) {
      this.wholes.set(key, stored);
      return stored;
    }
    return cached;
  }

  private async serveWhole(ask: Ask, user: string): Promise<Served> {
    const holdUntil = this.now() + this.holdMs;
    let how: HowServed = "hit";
    let upstream = 0;
    for (;;) {
      const entry = await this.readWholeEntry(ask.key);
      const fresh = freshWhole(entry, this.now());
      if (fresh)
        return {
          body: fresh.body,
          simulated: fresh.simulated,
          fetchedAt: fresh.fetchedAt,
          how,
          upstream,
        };
      const [failed] = await this.options.store.failures([ask.key]);
      if (failed !== undefined) return this.staleOf(entry, decodeFailure(failed));
      if (this.now() >= holdUntil) return this.staleOf(entry, this.holdError());
      const owner = `${this.options.processId}:${++this.sequence}`;
      const taken = await this.options.store.lock([ask.key], owner, this.lockTtlMs);
      if (taken.has(ask.key) && freshWhole(await this.readWholeEntry(ask.key), this.now())) {
        // Stored by a fetch that ended between the read above and the lock (see serveSeries).
        await this.options.store.release([ask.key], owner).catch(() => undefined);
        continue;
      }
      try {
        if (taken.has(ask.key)) {
          how = "fetched";
          upstream++;
          this.held.set(owner, new Set([ask.key]));
          const fetched = this.fetchWhole(ask, user, owner);
          fetched.catch(() => undefined);
          await this.within(fetched, holdUntil);
        } else {
          if (how === "hit") how = "joined";
          await this.within(this.released([ask.key]), holdUntil);
        }
      } catch (error) {
        return this.staleOf(await this.readWholeEntry(ask.key), error);
      }
    }
  }

  private async fetchWhole(ask: Ask, user: string, owner: string): Promise<void> {
    const segments: string[] = [];
    let id = 0;
    for (const part of ask.spec.path) segments.push(part.startsWith(":") ? ask.ids[id++] : part);
    const query = Object.keys(ask.spec.params)
      .filter((name) => ask.params.has(name))
      .map((name): [string, QueryValue] => [name, ask.params.get(name) as QueryValue]);
    try {
      const answer = await this.options.upstream.get(user, segments, query);
      ++this.fetchCount;
      this.options.onFetch?.("whole");
      const now = this.now();
      const [text] = await this.options.store.read([ask.key]);
      const entry = nextWhole(
        readWhole(text, ask.key),
        ask.key,
        {
          fetchedAt: now,
          expiresAt: expiryOf(ask.spec.lifetime, now),
          body: answer.envelope,
          simulated: answer.simulated,
        },
        now
      );
      this.wholes.set(ask.key, entry);
      await this.options.store.write(
        ask.key,
        writeWhole(entry),
        storeTtl(entry.cur.expiresAt, now)
      );
    } catch (error) {
      await this.options.store
        .markFailed([ask.key], encodeFailure(error), this.failureTtlMs)
        .catch(() => undefined);
      throw error;
    } finally {
      this.held.delete(owner);
      await this.options.store.release([ask.key], owner).catch(() => undefined);
      this.wake([ask.key]);
    }
  }

  private staleOf(entry: WholeEntry | undefined, error: unknown): Served {
    const s = staleWhole(entry, this.now());
    if (!s) throw error;
    return {
      body: s.body,
      simulated: s.simulated,
      fetchedAt: s.fetchedAt,
      how: "stale",
      upstream: 0,
      staleReason: reasonOf(error),
    };
  }

  // ---- waiting ----

  private holdError(): GatewayError {
    return new GatewayError(
      503,
      "The service has not answered the team gateway yet (the team's requests are queued behind its rate limit); try again in a few seconds",
      2
    );
  }

  /** Resolves when one of `keys` is released by any process, or after the poll interval. */
  private released(keys: readonly string[]): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer: { handle?: unknown } = {};
      const done = (): void => {
        this.timers.clearTimeout(timer.handle);
        for (const key of keys) this.waiters.get(key)?.delete(done);
        resolve();
      };
      for (const key of keys) {
        let set = this.waiters.get(key);
        if (!set) this.waiters.set(key, (set = new Set()));
        set.add(done);
      }
      timer.handle = this.timers.setTimeout(done, this.waitPollMs);
    });
  }

  private wake(keys: readonly string[]): void {
    for (const key of keys) {
      const set = this.waiters.get(key);
      if (!set) continue;
      this.waiters.delete(key);
      for (const done of [...set]) done();
    }
  }

  /** `work`, or nothing once `until` has passed (the caller is then answered another way). */
  private async within(work: Promise<unknown>, until: number): Promise<void> {
    let timer: unknown;
    const timeout = new Promise<void>((resolve) => {
      timer = this.timers.setTimeout(resolve, Math.max(0, until - this.now()));
    });
    try {
      await Promise.race([work, timeout]);
    } finally {
      this.timers.clearTimeout(timer);
    }
  }

  private async renew(): Promise<void> {
    for (const [owner, keys] of this.held) {
      if (keys.size > 0)
        await this.options.store.renew([...keys], owner, this.lockTtlMs).catch(() => undefined);
    }
  }
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
