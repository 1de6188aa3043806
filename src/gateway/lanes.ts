/**
 * A lane is everything one service key has of its own: its budget (the record of starts, per key), its fetch
 * queue, its cache namespace (answers fetched with one key are never served to callers of another, unless the
 * administrator shares them), its upstream client. The team's key has one from the start; a person's own key
 * gets one when first used, and loses it when replaced, removed or idle (LANE_IDLE_MS), so a user replacing
 * their key a thousand times leaves one lane behind, not a thousand; there are at most MAX_LANES at once.
 *
 * Which lane serves a caller: a verifier's choice (Caller.serviceKeyId), else the signed-in user's own key, else
 * the team's, unless keys are required (`--user-keys required`: nobody is served with the team's key, personal
 * tokens included), the user's key was lost by the store (they are told), or the store cannot say (503).
 */
import { LRUCache } from "lru-cache";
import { redact, type ClientListener, type FetchLike } from "../client";
import { Answers, type ByteAllowance } from "./answers";
import type { UserKeys } from "./auth/user-keys";
import type { Caller } from "./auth/verifier";
import {
  LANE_IDLE_MS,
  MAX_LANES,
  MAX_REMEMBERED_KEY_USERS,
  MAX_USER_CACHE_BYTES_PER_DAY,
} from "./bounds";
import { Budget } from "./budget";
import { repeat, type GatewayClock } from "./clock";
import { GatewayError } from "./errors";
import { Integrity } from "./integrity";
import { TeamRecord } from "./restatements";
import { FailoverStore } from "./store/failover-store";
import { hashOf, PREFIX, storeKeys } from "./store/keys";
import { FailoverLedger, RedisStartLedger } from "./store/ledger";
import { MemoryStore } from "./store/memory-store";
import type { RedisLink } from "./store/redis-link";
import { RedisStore } from "./store/redis-store";
import type { Store } from "./store/store";
import { REFRESH_USER, TeamRefresh } from "./team-refresh";
import { Upstream } from "./upstream";
import { dayOf } from "./usage";

export interface LaneDeps {
  serviceUrl: string;
  /** The team's key: its lane is opened at once, and its hash keys the cache's integrity secret. */
  teamKey: string;
  clock: GatewayClock;
  link?: RedisLink;
  processId: string;
  rateLimit: number;
  windowMs: number;
  openMs?: number;
  /** The share of the budget this process takes while it cannot use Redis. */
  share: (limit: number) => number;
  fetch?: FetchLike;
  listeners: readonly ClientListener[];
  holdMs?: number;
  concurrency?: number;
  shareAnswersAcrossKeys: boolean;
  userKeys?: UserKeys;
  requireUserKeys: boolean;
  /** A verifier-named key (Caller.serviceKeyId), by id. */
  serviceKeys?: (id: string) => Promise<string | undefined>;
  /** Told of each upstream request, with whose turn it was. */
  onUpstream: (user: string) => void;
  log: (level: "info" | "warn", fields: Record<string, unknown>, message: string) => void;
  /** Told when a budget's record was found lost in Redis (restarted empty). */
  onLedgerLost: () => void;
  /** Whether the team's lane asks the requests used in the last days again each night (default true). */
  dailyRefresh?: boolean;
}

export class Lane {
  readonly answers: Answers;
  readonly budget: Budget;
  readonly store: Store;
  readonly ledger: FailoverLedger | undefined;
  /** The record of restatements of this lane's answers (shared with the lane whose store it shares). */
  readonly restatements: TeamRecord;
  /** Users served by this lane now (a personal key's owner, or several who registered one same key). */
  readonly users = new Set<string>();
  lastUsed: number;
  /** Requests being served on it now (Lanes.use): a lane is never closed for room under one. */
  active = 0;
  private readonly ownsStore: boolean;
  private readonly redisLedger: RedisStartLedger | undefined;
  private readonly serviceKey: string;

  constructor(
    readonly id: string,
    /** Whether it serves a person's own key (their failures are told as theirs). */
    readonly own: boolean,
    serviceKey: string,
    deps: LaneDeps,
    integrity: Integrity,
    shareStoreOf?: Lane
  ) {
    this.lastUsed = deps.clock.now();
    this.serviceKey = serviceKey;
    const storeHash = hashOf(`${deps.serviceUrl}\n${serviceKey}`, 24);
    const budgetHash = hashOf(`budget\n${serviceKey}`, 24);
    const memory = new MemoryStore({ now: deps.clock.now });
    this.ownsStore = shareStoreOf === undefined;
    this.store =
      shareStoreOf?.store ??
      (deps.link
        ? new FailoverStore(new RedisStore(deps.link, storeHash), memory, deps.link)
        : memory);
    this.restatements =
      shareStoreOf?.restatements ??
      new TeamRecord({
        namespace: storeHash,
        ...(deps.link ? { redis: deps.link.main } : {}),
        prefix: PREFIX,
        secret: integrity.ledgerSecret(),
        now: deps.clock.now,
        log: deps.log,
      });
    if (deps.link) {
      this.redisLedger = new RedisStartLedger({
        link: deps.link,
        budgetHash,
        ttlMs: Math.max(60_000, deps.windowMs * 5),
        now: deps.clock.now,
        timers: deps.clock.timers,
        onLost: deps.onLedgerLost,
      });
      this.ledger = new FailoverLedger(this.redisLedger, deps.link, deps.share);
    }
    this.budget = new Budget({
      rateLimit: deps.rateLimit,
      windowMs: deps.windowMs,
      clock: deps.clock,
      ...(this.ledger ? { ledger: this.ledger } : {}),
      ...(deps.openMs !== undefined ? { openMs: deps.openMs } : {}),
    });
    const upstream = new Upstream({
      serviceUrl: deps.serviceUrl,
      serviceKey,
      clock: deps.clock,
      fetch: deps.fetch,
      listeners: deps.listeners,
    });
    this.answers = new Answers({
      store: this.store,
      upstream,
      budget: this.budget,
      integrity,
      clock: deps.clock,
      processId: deps.processId,
      failureNamespace: budgetHash,
      allowance: allowanceOf(deps.link, storeHash, deps.clock.now),
      windowMs: deps.windowMs,
      holdMs: deps.holdMs,
      concurrency: deps.concurrency,
      onUpstream: deps.onUpstream,
      log: deps.log,
      restatements: this.restatements,
    });
  }

  /** A text for the log, redacted of this lane's key (the one its requests used). */
  redact(text: string): string {
    return redact(text, [this.serviceKey]);
  }

  /** Whether anything of it is under way: a request served, a fetch (a lane is closed for room only when idle). */
  get busy(): boolean {
    return this.active > 0 || this.answers.pendingFetches > 0;
  }

  async close(): Promise<void> {
    this.answers.close();
    await this.restatements.ledger.flush();
    await this.budget.release();
    this.redisLedger?.close();
    if (this.ownsStore) await this.store.close();
  }
}

/** Per-user daily bytes kept, in Redis (every process's) or this process's memory. */
export function allowanceOf(
  link: RedisLink | undefined,
  storeHash: string,
  now: () => number
): ByteAllowance {
  const local = new LRUCache<string, { day: string; bytes: number }>({
    max: MAX_REMEMBERED_KEY_USERS,
  });
  const keys = storeKeys(storeHash);
  const inMemory = (user: string, bytes: number): boolean => {
    const day = dayOf(now());
    const held = local.get(user);
    const total = (held?.day === day ? held.bytes : 0) + bytes;
    local.set(user, { day, bytes: total });
    return total <= MAX_USER_CACHE_BYTES_PER_DAY;
  };
  return {
    async charge(user, bytes) {
      if (link?.up) {
        try {
          const key = keys.bytes(user, dayOf(now()));
          const results = await link.main
            .multi()
            .incrby(key, bytes)
            .pexpire(key, 2 * 86_400_000)
            .exec();
          const total = Number(results?.[0]?.[1]);
          if (Number.isFinite(total)) return total <= MAX_USER_CACHE_BYTES_PER_DAY;
        } catch (error) {
          link.failed(error);
        }
      }
      return inMemory(user, bytes);
    },
  };
}

export class Lanes {
  readonly team: Lane;
  /** The team's daily refresh (team-refresh.ts); undefined when turned off. */
  readonly refresh: TeamRefresh | undefined;
  private readonly lanes = new Map<string, Lane>();
  /** Which lane a user's own key has (to let it go when the key changes). */
  private readonly userLane = new LRUCache<string, string>({ max: MAX_REMEMBERED_KEY_USERS });
  private readonly integrity: Integrity;
  private readonly stopSweeping: () => void;

  constructor(private readonly deps: LaneDeps) {
    this.integrity = new Integrity(deps.teamKey);
    this.team = new Lane("team", false, deps.teamKey, deps, this.integrity);
    this.lanes.set(this.team.id, this.team);
    const team = this.team;
    this.refresh =
      deps.dailyRefresh === false
        ? undefined
        : new TeamRefresh({
            store: team.store,
            integrity: this.integrity,
            clock: deps.clock,
            serve: (ask) => team.answers.serve(ask, REFRESH_USER, undefined, REFRESH_USER),
            processId: deps.processId,
            log: deps.log,
          });
    this.stopSweeping = repeat(deps.clock.timers, 60_000, () => this.sweep());
  }

  /** Every lane open now. */
  all(): Lane[] {
    return [...this.lanes.values()];
  }

  get count(): number {
    return this.lanes.size;
  }

  /** The lane serving a caller (see the module comment), to read from (its budget, say). */
  async of(caller: Caller): Promise<Lane> {
    const lane = await this.find(caller);
    lane.lastUsed = this.deps.clock.now();
    if (lane !== this.team) lane.active--;
    return lane;
  }

  /** Serves `work` on the caller's lane, which is not closed for room until the work ends. */
  async use<T>(caller: Caller, work: (lane: Lane) => Promise<T>): Promise<T> {
    const lane = await this.find(caller);
    lane.lastUsed = this.deps.clock.now();
    try {
      return await work(lane);
    } finally {
      if (lane !== this.team) lane.active--;
    }
  }

  private async find(caller: Caller): Promise<Lane> {
    const { userKeys } = this.deps;
    if (caller.serviceKeyId) {
      const key = await this.deps.serviceKeys?.(caller.serviceKeyId);
      if (!key)
        throw new GatewayError(
          403,
          "No service key is registered for you on the team gateway yet; register yours, or ask its administrator"
        );
      return this.open(key, caller.user);
    }
    if (!userKeys) return this.team;
    if (caller.via === "token") {
      if (this.deps.requireUserKeys)
        throw new GatewayError(
          403,
          "This team gateway serves each person with their own service key, which a personal access token cannot register: sign in with your work account in the add-in instead"
        );
      return this.team;
    }
    const state = await userKeys.current(caller.user);
    switch (state.state) {
      case "key":
        return this.open(state.key, caller.user);
      case "lost":
        throw new GatewayError(
          403,
          "Your own service key is no longer registered on the team gateway (its store was reset): register it again in the add-in's Settings, or remove it there to be served with the team's key"
        );
      case "unknown":
        throw new GatewayError(
          503,
          "The team gateway cannot reach its store right now to find your own service key; try again in a few seconds",
          5
        );
      case "none":
        await this.detach(caller.user);
        if (this.deps.requireUserKeys)
          throw new GatewayError(
            403,
            "This team gateway serves each person with their own service key: register yours in the add-in (Settings, Team gateway) first"
          );
        return this.team;
    }
  }

  /**
   * The lane of `key` for `user` (opened if needed), letting go of the user's previous lane; counted active
   * (see `use`) from here, with no wait in between, so that no other request's eviction can close it first.
   */
  private async open(key: string, user: string): Promise<Lane> {
    if (key === this.deps.teamKey) return this.team;
    const id = hashOf(`lane\n${key}`, 24);
    let lane = this.lanes.get(id);
    // Room is made, then taken, with no wait in between: requests opening lanes at once never pass MAX_LANES
    // (each evicting while another one adds), nor open one key's lane twice.
    while (!lane && this.lanes.size >= MAX_LANES) {
      await this.evictOne();
      lane = this.lanes.get(id);
    }
    if (!lane) {
      lane = new Lane(
        id,
        true,
        key,
        this.deps,
        this.integrity,
        this.deps.shareAnswersAcrossKeys ? this.team : undefined
      );
      this.lanes.set(id, lane);
    }
    lane.users.add(user);
    lane.active++;
    const before = this.userLane.get(user);
    if (before !== id) {
      this.userLane.set(user, id);
      try {
        if (before) await this.let(user, before);
      } catch (error) {
        lane.active--;
        throw error;
      }
    }
    return lane;
  }

  /** The user's key changed or went: their previous lane is let go (closed when nobody else uses it). */
  async detach(user: string): Promise<void> {
    const before = this.userLane.get(user);
    if (!before) return;
    this.userLane.delete(user);
    await this.let(user, before);
  }

  private async let(user: string, id: string): Promise<void> {
    const lane = this.lanes.get(id);
    if (!lane || lane === this.team) return;
    lane.users.delete(user);
    if (lane.users.size === 0) await this.closeLane(lane);
  }

  private async closeLane(lane: Lane): Promise<void> {
    this.lanes.delete(lane.id);
    for (const user of lane.users)
      if (this.userLane.get(user) === lane.id) this.userLane.delete(user);
    await lane.close();
  }

  /** Room for one more lane: the least recently used idle personal lane goes, or the caller is told to wait. */
  private async evictOne(): Promise<void> {
    const idle = [...this.lanes.values()]
      .filter((l) => l !== this.team && !l.busy)
      .sort((a, b) => a.lastUsed - b.lastUsed)[0];
    if (!idle)
      throw new GatewayError(
        503,
        "The team gateway is serving as many service keys as it can at once; try again in a minute",
        30
      );
    await this.closeLane(idle);
  }

  /** Closes personal lanes unused for LANE_IDLE_MS (opened again when next used). */
  async sweep(): Promise<void> {
    const limit = this.deps.clock.now() - LANE_IDLE_MS;
    for (const lane of [...this.lanes.values()])
      if (lane !== this.team && !lane.busy && lane.lastUsed <= limit) await this.closeLane(lane);
  }

  async close(): Promise<void> {
    this.stopSweeping();
    await this.refresh?.close();
    for (const lane of [...this.lanes.values()]) await lane.close();
    this.lanes.clear();
  }
}
