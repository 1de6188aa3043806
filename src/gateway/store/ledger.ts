/**
 * One request budget per service key across gateway processes: the client's rate limiter with its record of
 * request starts (the start-ledger model of src/client/http/rate-limiter.ts: a start counts from its claim until
 * its answer, plus the window; a 429's pause holds every sharer) kept in Redis. Each turn of the record is a
 * WATCH/MULTI transaction running the client's own claimSlots/settleSlots on it, so the processes follow
 * exactly the rule a single limiter follows, and a turn lost to another process's is simply taken again.
 *
 * A process that died leaves open starts behind; they count until their owner's heartbeat is 10 s old, then as
 * answered then (the limiter's own fallback, 2 minutes, would hold the budget far longer).
 *
 * Redis unreachable: the process claims from a record of its own at a conservative share of the budget (the
 * limit divided by the number of gateway processes it last saw, at least two), and merges that record into the
 * shared one when Redis is back, so the service never sees more than its limit from the team.
 */
import type { Redis } from "ioredis";
import {
  claimSlots,
  settleSlots,
  type Claimed,
  type ClaimTurn,
  type LedgerRecord,
  type StartLedger,
} from "../../client";
import type { RedisLink } from "./redis-link";

/** How long an owner's heartbeat stays good: its open starts count until then. */
export const OWNER_TTL_MS = 10_000;
/** Transactions lost to other processes before a turn gives up (then the limiter paces this process alone). */
const MAX_TURN_ATTEMPTS = 50;

const empty = (): LedgerRecord => ({ starts: [], open: [], pausedUntil: 0 });

const copy = (r: LedgerRecord): LedgerRecord => ({
  starts: [...r.starts],
  open: r.open.map((o) => ({ ...o })),
  pausedUntil: r.pausedUntil,
});

/**
 * Turns queued per connection: WATCH belongs to a connection, so two records (two service keys) sharing one
 * must not interleave their transactions.
 */
const queues = new WeakMap<Redis, Promise<unknown>>();

function parse(text: string | null): LedgerRecord {
  if (!text) return empty();
  try {
    const json = JSON.parse(text) as Partial<LedgerRecord> & { version?: number };
    if (json.version !== 1) return empty();
    const finite = (t: unknown): t is number => typeof t === "number" && Number.isFinite(t);
    return {
      starts: Array.isArray(json.starts) ? json.starts.filter(finite) : [],
      open: Array.isArray(json.open)
        ? json.open.filter((o) => typeof o?.owner === "string" && finite(o?.at))
        : [],
      pausedUntil: finite(json.pausedUntil) ? json.pausedUntil : 0,
    };
  } catch {
    return empty();
  }
}

export class RedisStartLedger implements StartLedger {
  /** This process's owners (one per limiter), kept alive by heartbeats. */
  private readonly owners = new Set<string>();
  /** The record as this process last wrote it: what it knows of the team's starts when Redis goes away. */
  private last: LedgerRecord | undefined;
  private heartbeat: NodeJS.Timeout;

  /**
   * @param redis a connection of its own: each turn WATCHes the record on it, and any other transaction on the
   *   same connection (EXEC clears every WATCH) would let a turn overwrite another process's
   * @param side another connection, for heartbeats and reading who is alive
   * @param key the record's Redis key (per service key)
   * @param ttlMs how long the record outlives its last change (a few windows)
   */
  constructor(
    private readonly redis: Redis,
    private readonly side: Redis,
    private readonly key: string,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now
  ) {
    this.heartbeat = setInterval(() => void this.beat().catch(() => undefined), OWNER_TTL_MS / 4);
    this.heartbeat.unref();
  }

  private get ownersKey(): string {
    return `${this.key}:owners`;
  }

  private async beat(): Promise<void> {
    if (this.owners.size === 0) return;
    const now = this.now();
    const args: Array<string | number> = [];
    for (const owner of this.owners) args.push(now, owner);
    await this.side
      .multi()
      .zadd(this.ownersKey, ...args)
      .zremrangebyscore(this.ownersKey, "-inf", now - OWNER_TTL_MS * 6)
      .pexpire(this.ownersKey, OWNER_TTL_MS * 6)
      .exec();
  }

  async claim(turn: ClaimTurn): Promise<Claimed> {
    if (!this.owners.has(turn.owner)) {
      this.owners.add(turn.owner);
      await this.beat();
    }
    return this.turn(async (record) => {
      await this.settleDeadOwners(record);
      return claimSlots(record, turn, turn.now());
    });
  }

  settle(owner: string, count: number, now: () => number): Promise<void> {
    return this.turn((record) => settleSlots(record, owner, count, now()));
  }

  pauseUntil(atMs: number): Promise<void> {
    return this.turn((record) => {
      record.pausedUntil = Math.max(record.pausedUntil, atMs);
    });
  }

  /** Adds a record kept elsewhere meanwhile (while Redis was away) to the shared one. */
  merge(other: LedgerRecord): Promise<void> {
    return this.turn((record) => {
      record.starts = record.starts.concat(other.starts);
      record.open = record.open.concat(other.open);
      record.pausedUntil = Math.max(record.pausedUntil, other.pausedUntil);
    });
  }

  /** A copy of the record as last seen (see `last`). */
  lastSeen(): LedgerRecord {
    return this.last ? copy(this.last) : empty();
  }

  close(): void {
    clearInterval(this.heartbeat);
  }

  /** Open starts whose owner's heartbeat stopped are taken as answered now. */
  private async settleDeadOwners(record: LedgerRecord): Promise<void> {
    if (record.open.length === 0) return;
    const now = this.now();
    const alive = new Set(
      await this.redis.zrangebyscore(this.ownersKey, now - OWNER_TTL_MS, "+inf")
    );
    for (const owner of this.owners) alive.add(owner);
    record.open = record.open.filter((start) => {
      if (alive.has(start.owner)) return true;
      record.starts.push(now);
      return false;
    });
  }

  /** One change of the record, after this process's earlier ones, retried while other processes win. */
  private turn<T>(change: (record: LedgerRecord) => T | Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      for (let attempt = 0; attempt < MAX_TURN_ATTEMPTS; attempt++) {
        await this.redis.watch(this.key);
        let result: T;
        let record: LedgerRecord;
        try {
          record = parse(await this.redis.get(this.key));
          result = await change(record);
        } catch (error) {
          await this.redis.unwatch().catch(() => undefined);
          throw error;
        }
        const done = await this.redis
          .multi()
          .set(this.key, JSON.stringify({ version: 1, ...record }), "PX", this.ttlMs)
          .exec();
        if (done !== null) {
          this.last = copy(record);
          return result;
        }
      }
      throw new Error("the shared record of request starts is too busy");
    };
    const queue = queues.get(this.redis) ?? Promise.resolve();
    const next = queue.then(run, run);
    queues.set(
      this.redis,
      next.catch(() => undefined)
    );
    return next;
  }
}

/** How many gateway processes share the budget, as last seen in Redis (each one's heartbeat). */
export class Peers {
  private seen = 0;
  private timer: NodeJS.Timeout;

  constructor(
    private readonly link: RedisLink,
    private readonly key: string,
    private readonly id: string,
    private readonly now: () => number = Date.now
  ) {
    this.timer = setInterval(() => void this.beat(), 2_000);
    this.timer.unref();
    void this.beat();
  }

  /** The processes seen at the last heartbeat (this one included); 0 before any. */
  get count(): number {
    return this.seen;
  }

  async beat(): Promise<void> {
    if (!this.link.up) return;
    const now = this.now();
    try {
      const [, , counted] = (await this.link.main
        .multi()
        .zadd(this.key, now, this.id)
        .zremrangebyscore(this.key, "-inf", now - OWNER_TTL_MS)
        .zcard(this.key)
        .pexpire(this.key, OWNER_TTL_MS * 6)
        .exec()) as Array<[Error | null, unknown]>;
      this.seen = Number(counted?.[1] ?? this.seen);
    } catch (error) {
      this.link.failed(error);
    }
  }

  async leave(): Promise<void> {
    clearInterval(this.timer);
    if (this.link.up) await this.link.main.zrem(this.key, this.id).catch(() => undefined);
  }
}

/**
 * The shared record while Redis answers; a record of this process's own at `share(limit)` while it does not (see
 * the module comment). That record starts from the shared one as this process last saw it: the team's starts of
 * the last window still count at the service, so the share begins only as they age out. What the process starts
 * meanwhile is merged into the shared record when Redis is back.
 */
export class FailoverLedger implements StartLedger {
  /** What decisions use while Redis is away. */
  private local: LedgerRecord = empty();
  /** This process's own starts while Redis is away: merged into the shared record on rejoining. */
  private mine: LedgerRecord = empty();
  private away = false;

  constructor(
    private readonly shared: RedisStartLedger,
    private readonly link: RedisLink,
    private readonly share: (limit: number) => number
  ) {}

  async claim(turn: ClaimTurn): Promise<Claimed> {
    if (this.link.up) {
      try {
        await this.rejoin();
        return await this.shared.claim(turn);
      } catch (error) {
        this.link.failed(error);
      }
    }
    if (!this.away) {
      this.away = true;
      this.local = this.shared.lastSeen();
      this.mine = empty();
    }
    const now = turn.now();
    const claimed = claimSlots(this.local, { ...turn, limit: this.share(turn.limit) }, now);
    for (let i = 0; i < claimed.granted; i++) this.mine.open.push({ owner: turn.owner, at: now });
    return claimed;
  }

  async settle(owner: string, count: number, now: () => number): Promise<void> {
    if (this.away) {
      const at = now();
      settleSlots(this.local, owner, count, at);
      settleSlots(this.mine, owner, count, at);
      return;
    }
    try {
      await this.shared.settle(owner, count, now);
    } catch (error) {
      this.link.failed(error);
    }
  }

  async pauseUntil(atMs: number): Promise<void> {
    for (const record of [this.local, this.mine])
      record.pausedUntil = Math.max(record.pausedUntil, atMs);
    if (!this.link.up) return;
    try {
      await this.shared.pauseUntil(atMs);
    } catch (error) {
      this.link.failed(error);
    }
  }

  /** The budget share in force: the whole limit on Redis, a share without it. */
  limitNow(limit: number): number {
    return this.link.up ? limit : this.share(limit);
  }

  private async rejoin(): Promise<void> {
    if (!this.away) return;
    await this.shared.merge(this.mine);
    this.away = false;
    this.local = empty();
    this.mine = empty();
  }
}
