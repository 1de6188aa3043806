/**
 * The team's restatement ledger (src/engine/ledger) in Redis, shared by every gateway process: one list per
 * day of recording (its lines, appended with RPUSH: processes never overwrite each other), a hash of each day's
 * size, and the ledger's small record of state. Every key of a namespace (one service key's answers) carries
 * one hash tag, so each command, MULTI included, names keys of one slot and runs on a Redis Cluster as on one
 * server. Every key has the ledger's lifetime (LEDGER_TTL_MS, renewed on each append), so
 * `maxmemory-policy volatile-lru` keeps Redis bounded even if a team stops writing; within it, the ledger keeps its
 * own bound (MAX_LEDGER_BYTES, oldest days first). Lines are sealed with an HMAC under the gateway's secret
 * (codec.ts's hmacSeal): a line written into Redis by anyone else is refused, and its day dropped.
 */
import { createHash } from "node:crypto";
import type { Cluster, Redis } from "ioredis";
import { utf8Bytes, type LedgerSegmentInfo, type LedgerStore } from "../../engine";

/**
 * 400 days: a year of changes and a margin. A day's list is renewed with each append to it; the index and the
 * record of state with every append.
 */
const LEDGER_TTL_MS = 400 * 86_400_000;

/** Lines one day's list may hold before it is read as damaged: a bound on what one read loads. */
const MAX_LINES_PER_DAY = 200_000;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * KEYS[1]: a day's list, KEYS[2]: the index of sizes; ARGV[1]: the bytes to keep, ARGV[2]: the day. Keeps the
 * newest lines within the bytes (each line and its line end; Lua's # counts UTF-8 bytes, as utf8Bytes does), in
 * one step: two processes trimming at once drop what one would.
 */
const KEEP_NEWEST = `
local lines = redis.call('LRANGE', KEYS[1], 0, -1)
local max = tonumber(ARGV[1])
local total = 0
local keep = 0
for i = #lines, 1, -1 do
  local size = #lines[i] + 1
  if total + size > max then break end
  total = total + size
  keep = keep + 1
end
local drop = #lines - keep
if drop > 0 then
  redis.call('LTRIM', KEYS[1], drop, -1)
  redis.call('HSET', KEYS[2], ARGV[2], total)
end
return drop`;

interface Scripted {
  cmLedgerKeepNewest(day: string, days: string, maxBytes: number, id: string): Promise<number>;
}

function keysOf(prefix: string, ns: string) {
  const tag = `${prefix}:{r${createHash("sha256").update(ns).digest("hex").slice(0, 40)}}`;
  return {
    days: `${tag}:days`,
    day: (day: string) => `${tag}:d:${day}`,
    meta: `${tag}:meta`,
  };
}

export class RedisLedgerStore implements LedgerStore {
  readonly location = "the gateway's Redis";

  /** @param prefix the gateway's key prefix (e.g. "cm:gw:2"); the namespace's hash and hash tag follow it. */
  private readonly redis: (Redis | Cluster) & Scripted;

  constructor(
    redis: Redis | Cluster,
    private readonly prefix: string
  ) {
    redis.defineCommand("cmLedgerKeepNewest", { numberOfKeys: 2, lua: KEEP_NEWEST });
    this.redis = redis as (Redis | Cluster) & Scripted;
  }

  private day(day: string): string {
    if (!DAY.test(day)) throw new RangeError(`not a day: "${day}"`);
    return day;
  }

  async append(ns: string, segment: string, lines: readonly string[]): Promise<void> {
    if (lines.length === 0) return;
    const k = keysOf(this.prefix, ns);
    const key = k.day(this.day(segment));
    const bytes = lines.reduce((n, l) => n + utf8Bytes(l) + 1, 0);
    await this.redis
      .multi()
      .rpush(key, ...lines)
      .hincrby(k.days, segment, bytes)
      .pexpire(key, LEDGER_TTL_MS)
      .pexpire(k.days, LEDGER_TTL_MS)
      .pexpire(k.meta, LEDGER_TTL_MS)
      .exec();
  }

  async segments(ns: string): Promise<LedgerSegmentInfo[]> {
    const all = await this.redis.hgetall(keysOf(this.prefix, ns).days);
    return Object.entries(all)
      .filter(([day, bytes]) => DAY.test(day) && Number.isSafeInteger(Number(bytes)))
      .map(([id, bytes]) => ({ id, bytes: Number(bytes) }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  async read(ns: string, segment: string): Promise<string[] | undefined> {
    const k = keysOf(this.prefix, ns);
    const key = k.day(this.day(segment));
    const length = await this.redis.llen(key);
    if (length === 0) return (await this.redis.hexists(k.days, segment)) ? [] : undefined;
    // A list longer than the ledger ever writes is not its own: it reads as damaged, and is dropped.
    if (length > MAX_LINES_PER_DAY) return ["\u0000"];
    return this.redis.lrange(key, 0, -1);
  }

  async remove(ns: string, segments: readonly string[]): Promise<void> {
    if (segments.length === 0) return;
    const k = keysOf(this.prefix, ns);
    await this.redis
      .multi()
      .del(...segments.map((s) => k.day(this.day(s))))
      .hdel(k.days, ...segments)
      .exec();
  }

  async keepNewest(ns: string, segment: string, maxBytes: number): Promise<void> {
    const k = keysOf(this.prefix, ns);
    await this.redis.cmLedgerKeepNewest(k.day(this.day(segment)), k.days, maxBytes, segment);
  }

  async readMeta(ns: string): Promise<string | undefined> {
    return (await this.redis.get(keysOf(this.prefix, ns).meta)) ?? undefined;
  }

  async writeMeta(ns: string, text: string): Promise<void> {
    await this.redis.set(keysOf(this.prefix, ns).meta, text, "PX", LEDGER_TTL_MS);
  }

  /**
   * Removes every namespace's ledger under the prefix: each day's list, the index and the record of state,
   * found with SCAN on every primary.
   */
  async clear(): Promise<void> {
    const nodes = "nodes" in this.redis ? this.redis.nodes("master") : [this.redis];
    for (const node of nodes) {
      let cursor = "0";
      do {
        const [next, keys] = await node.scan(
          cursor,
          "MATCH",
          `${this.prefix}:{r*}:*`,
          "COUNT",
          500
        );
        cursor = next;
        // One DEL per key: a cluster refuses a DEL naming keys of several slots.
        for (const key of keys) await node.del(key);
      } while (cursor !== "0");
    }
  }
}
