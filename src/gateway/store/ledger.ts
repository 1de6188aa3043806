/**
 * One request budget per service key across gateway processes: the client's rate limiter with its record of
 * request starts (the start-ledger model of src/client/http/rate-limiter.ts: a start counts from its claim until
 * its answer, plus the window; a 429's pause holds every sharer) kept in Redis. Each turn reads the record, runs
 * the client's own claimSlots/settleSlots on it and writes it back only if nobody wrote in between (a Lua
 * compare-and-set on one key: no WATCH, no connection of its own, and it runs on a Redis Cluster), so the
 * processes follow exactly the rule a single limiter follows; a turn lost to another process's is taken again.
 *
 * Redis that lost its data (restarted empty, flushed) is recognised by the record's epoch, a key without a TTL
 * beside it. When the epoch is not the one this process last saw, the record is rebuilt in the most
 * conservative state: the starts this process last saw (every process adds what it knew), and, since what the
 * others started after this process's last look is unknown, the rest of the window taken as spent at that
 * moment. A restart costs the team at most a window without new requests; it never lets the budget start from
 * zero (which let two processes send 120 requests in a minute against a limit of 60).
 *
 * A process that died leaves open starts behind; they count until their owner's heartbeat is 10 s old, then as
 * answered then (the limiter's own fallback, 2 minutes, would hold the budget far longer).
 *
 * Redis unreachable: the process claims from a record of its own at a conservative share of the budget (the
 * limit divided by the number of processes: the most of `--processes` and of those it last saw), starting from
 * the starts it last saw, and merges what it started meanwhile into the shared record when Redis is back.
 */
import { randomBytes } from "node:crypto";
import {
  claimSlots,
  settleSlots,
  type Claimed,
  type ClaimTurn,
  type LedgerRecord,
  type StartLedger,
  type Timers,
} from "../../client";
import { repeat } from "../clock";
import { budgetKeys } from "./keys";
import type { RedisClient, RedisLink } from "./redis-link";

/** How long an owner's heartbeat stays good: its open starts count until then. */
const OWNER_TTL_MS = 10_000;
/** Turns lost to other processes before one gives up (then the limiter paces this process alone). */
const MAX_TURN_ATTEMPTS = 50;

const empty = (): LedgerRecord => ({ starts: [], open: [], pausedUntil: 0 });

const copy = (r: LedgerRecord): LedgerRecord => ({
  starts: [...r.starts],
  open: r.open.map((o) => ({ ...o })),
  pausedUntil: r.pausedUntil,
});

/** Reads the record, its epoch (made if missing) and the owners alive, in one step. */
const READ = `
local epoch = redis.call('GET', KEYS[2])
if not epoch then
  redis.call('SET', KEYS[2], ARGV[1])
  epoch = ARGV[1]
end
local record = redis.call('GET', KEYS[1]) or ''
local alive = redis.call('ZRANGEBYSCORE', KEYS[3], ARGV[2], '+inf')
return {epoch, record, alive}`;

/** Writes the record if the epoch and the record are still the ones read: 1 done, 0 lost, -1 epoch changed. */
const WRITE = `
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return -1 end
local cur = redis.call('GET', KEYS[1]) or ''
if cur ~= ARGV[2] then return 0 end
redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[4])
return 1`;

interface LedgerScripts {
  cmLedgerRead(...args: Array<string | number>): Promise<[string, string, string[]]>;
  cmLedgerWrite(...args: Array<string | number>): Promise<number>;
}

const defined = new WeakSet<object>();

function scripts(client: RedisClient): RedisClient & LedgerScripts {
  if (!defined.has(client)) {
    client.defineCommand("cmLedgerRead", { numberOfKeys: 3, lua: READ });
    client.defineCommand("cmLedgerWrite", { numberOfKeys: 2, lua: WRITE });
    defined.add(client);
  }
  return client as RedisClient & LedgerScripts;
}

function parse(text: string): LedgerRecord {
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

/** Two views of one record put together: each start counted as often as the view that counts it most. */
function unionOf(a: LedgerRecord, b: LedgerRecord): LedgerRecord {
  const count = (list: readonly number[]): Map<number, number> => {
    const m = new Map<number, number>();
    for (const t of list) m.set(t, (m.get(t) ?? 0) + 1);
    return m;
  };
  const ca = count(a.starts);
  const cb = count(b.starts);
  const starts: number[] = [];
  for (const t of new Set([...ca.keys(), ...cb.keys()]))
    for (let i = 0; i < Math.max(ca.get(t) ?? 0, cb.get(t) ?? 0); i++) starts.push(t);
  const seen = new Set(a.open.map((o) => `${o.owner}|${o.at}`));
  const open = [
    ...a.open.map((o) => ({ ...o })),
    ...b.open.filter((o) => !seen.has(`${o.owner}|${o.at}`)),
  ];
  return {
    starts: starts.sort((x, y) => x - y),
    open,
    pausedUntil: Math.max(a.pausedUntil, b.pausedUntil),
  };
}

interface RedisLedgerOptions {
  link: RedisLink;
  /** The budget's namespace (the service key, hashed). */
  budgetHash: string;
  /** How long the record outlives its last change (a few windows). */
  ttlMs: number;
  now: () => number;
  timers: Timers;
  /** Told once when Redis lost the record (restarted empty). */
  onLost?: () => void;
}

export class RedisStartLedger implements StartLedger {
  /** This process's owners (one per limiter), kept alive by heartbeats. */
  private readonly owners = new Set<string>();
  /** The record as this process last read or wrote it: what it knows of the team's starts. */
  private last: LedgerRecord | undefined;
  private epoch: string | undefined;
  private readonly stopBeat: () => void;
  private readonly redis: RedisClient & LedgerScripts;
  private readonly keys: ReturnType<typeof budgetKeys>;
  private queue: Promise<unknown> = Promise.resolve();
  /** Times this process found the record lost (tests and the log). */
  lostCount = 0;
  /** Set when the record was found lost, until the rebuilt one is written (see the module comment). */
  private recovering = false;
  /** The limit the last claim named (the record is rebuilt full up to it). */
  private limit = 0;

  constructor(private readonly options: RedisLedgerOptions) {
    this.redis = scripts(options.link.main);
    this.keys = budgetKeys(options.budgetHash);
    this.stopBeat = repeat(options.timers, OWNER_TTL_MS / 4, () => this.beat());
  }

  private async beat(): Promise<void> {
    if (this.owners.size === 0 || !this.options.link.up) return;
    const now = this.options.now();
    const args: Array<string | number> = [];
    for (const owner of this.owners) args.push(now, owner);
    await this.redis
      .multi()
      .zadd(this.keys.owners, ...args)
      .zremrangebyscore(this.keys.owners, "-inf", now - OWNER_TTL_MS * 6)
      .pexpire(this.keys.owners, OWNER_TTL_MS * 6)
      .exec();
  }

  async claim(turn: ClaimTurn): Promise<Claimed> {
    this.limit = turn.limit;
    if (!this.owners.has(turn.owner)) {
      this.owners.add(turn.owner);
      await this.beat();
    }
    return this.turn((record, alive) => {
      this.settleDeadOwners(record, alive);
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

  /**
   * The record as Redis holds it now, read without changing it (what /readyz shows): the one this process last
   * saw may be older than the other processes' last turns (a start since answered would still be open in it).
   * Redis that lost the record reads as the last seen, until a turn rebuilds it.
   */
  async current(): Promise<LedgerRecord> {
    const text = await this.redis.get(this.keys.ledger);
    return text ? parse(text) : this.lastSeen();
  }

  /** A copy of the record as last seen (see `last`). */
  lastSeen(): LedgerRecord {
    return this.last ? copy(this.last) : empty();
  }

  close(): void {
    this.stopBeat();
  }

  /** Open starts whose owner's heartbeat stopped are taken as answered now. */
  private settleDeadOwners(record: LedgerRecord, aliveList: readonly string[]): void {
    if (record.open.length === 0) return;
    const now = this.options.now();
    const alive = new Set(aliveList);
    for (const owner of this.owners) alive.add(owner);
    record.open = record.open.filter((start) => {
      if (alive.has(start.owner)) return true;
      record.starts.push(now);
      return false;
    });
  }

  /** One change of the record, after this process's earlier ones, retried while other processes win. */
  private turn<T>(change: (record: LedgerRecord, alive: string[]) => T): Promise<T> {
    const run = async (): Promise<T> => {
      for (let attempt = 0; attempt < MAX_TURN_ATTEMPTS; attempt++) {
        const fresh = randomBytes(8).toString("hex");
        const [epoch, text, alive] = await this.redis.cmLedgerRead(
          this.keys.ledger,
          this.keys.epoch,
          this.keys.owners,
          fresh,
          this.options.now() - OWNER_TTL_MS
        );
        let record = parse(text);
        if (this.epoch !== undefined && epoch !== this.epoch) {
          this.lostCount++;
          this.options.onLost?.();
          this.recovering = true;
        }
        this.epoch = epoch;
        if (this.recovering) {
          // Redis lost the record (restarted empty, flushed): the starts this process saw still count, and the
          // rest of the window is taken as spent now (what the others started since is unknown).
          record = unionOf(record, this.lastSeen());
          const now = this.options.now();
          while (record.starts.length + record.open.length < this.limit) record.starts.push(now);
        }
        const result = change(record, alive);
        const done = await this.redis.cmLedgerWrite(
          this.keys.ledger,
          this.keys.epoch,
          epoch,
          text,
          JSON.stringify({ version: 1, ...record }),
          Math.max(1, Math.round(this.options.ttlMs))
        );
        if (done === 1) {
          this.last = copy(record);
          this.recovering = false;
          return result;
        }
      }
      throw new Error("the shared record of request starts is too busy");
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

/** How many gateway processes share the budget, as last seen in Redis (each one's heartbeat). */
export class Peers {
  private seen = 0;
  private readonly stop: () => void;
  private readonly key: string;

  constructor(
    private readonly link: RedisLink,
    budgetHash: string,
    private readonly id: string,
    private readonly now: () => number,
    timers: Timers
  ) {
    this.key = budgetKeys(budgetHash).procs;
    this.stop = repeat(timers, 2_000, () => this.beat());
  }

  /** The processes seen at the last heartbeat (this one included); 0 before any. */
  get count(): number {
    return this.seen;
  }

  async beat(): Promise<void> {
    if (!this.link.up) return;
    const now = this.now();
    try {
      const results = await this.link.main
        .multi()
        .zadd(this.key, now, this.id)
        .zremrangebyscore(this.key, "-inf", now - OWNER_TTL_MS)
        .zcard(this.key)
        .pexpire(this.key, OWNER_TTL_MS * 6)
        .exec();
      this.seen = Number(results?.[2]?.[1] ?? this.seen);
    } catch (error) {
      this.link.failed(error);
    }
  }

  async leave(): Promise<void> {
    this.stop();
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
    return this.link.up && !this.away ? limit : this.share(limit);
  }

  /**
   * Starts counted in the last window: the shared record as Redis holds it now, or this process's own while
   * Redis is away (or does not answer this read).
   */
  async usedNow(now: number, windowMs: number): Promise<number> {
    let record = this.away ? this.local : this.shared.lastSeen();
    if (this.link.up && !this.away)
      record = await this.shared.current().catch((error: unknown) => {
        this.link.failed(error);
        return record;
      });
    return record.starts.filter((s) => s > now - windowMs).length + record.open.length;
  }

  private async rejoin(): Promise<void> {
    if (!this.away) return;
    await this.shared.merge(this.mine);
    this.away = false;
    this.local = empty();
    this.mine = empty();
  }
}
