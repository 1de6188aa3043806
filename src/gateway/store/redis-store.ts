/**
 * The store shared by every gateway process of a team, in Redis. Logical keys are hashed into fixed-length
 * Redis keys under the namespace (the service and its key: answers fetched with one service key are never
 * served to callers of another); every key carries a TTL, so `maxmemory-policy volatile-lru` (or allkeys-lru)
 * keeps Redis bounded. Locks are taken several at once by a Lua script (atomic: two processes asking for the
 * same needs at the same instant never split them), released by another that also publishes the notice.
 */
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import type { RedisLink } from "./redis-link";
import type { Store } from "./store";

const LOCK_MANY = `
local taken = {}
for i, key in ipairs(KEYS) do
  if redis.call('SET', key, ARGV[1], 'NX', 'PX', ARGV[2]) then taken[#taken + 1] = i end
end
return taken`;

const RENEW_MANY = `
for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('PEXPIRE', key, ARGV[2]) end
end
return 0`;

/** KEYS: the locks; ARGV[1]: owner, ARGV[2]: channel, ARGV[3..]: the logical keys, in KEYS' order. */
const RELEASE_MANY = `
local released = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('DEL', key)
    released[#released + 1] = ARGV[i + 2]
  end
end
if #released > 0 then redis.call('PUBLISH', ARGV[2], table.concat(released, '\\n')) end
return #released`;

interface Scripted {
  cmLockMany(...args: Array<string | number>): Promise<number[]>;
  cmRenewMany(...args: Array<string | number>): Promise<number>;
  cmReleaseMany(...args: Array<string | number>): Promise<number>;
}

function define(redis: Redis): Redis & Scripted {
  redis.defineCommand("cmLockMany", { lua: LOCK_MANY });
  redis.defineCommand("cmRenewMany", { lua: RENEW_MANY });
  redis.defineCommand("cmReleaseMany", { lua: RELEASE_MANY });
  return redis as Redis & Scripted;
}

export class RedisStore implements Store {
  readonly name = "redis";
  private readonly redis: Redis & Scripted;
  private readonly channel: string;
  private readonly listeners = new Set<(keys: readonly string[]) => void>();

  /** @param prefix the namespace of this service and key, e.g. "cm:gw:1:3f2a…:" */
  constructor(
    link: RedisLink,
    private readonly prefix: string
  ) {
    this.redis = define(link.main);
    this.channel = `${prefix}released`;
    link.sub.on("message", (channel: string, message: string) => {
      if (channel !== this.channel) return;
      const keys = message.split("\n");
      for (const listener of [...this.listeners]) listener(keys);
    });
    void link.sub.subscribe(this.channel).catch(() => undefined);
  }

  private hashed(kind: string, key: string): string {
    return `${this.prefix}${kind}:${createHash("sha256").update(key).digest("hex").slice(0, 40)}`;
  }

  async read(keys: readonly string[]): Promise<Array<string | undefined>> {
    if (keys.length === 0) return [];
    const values = await this.redis.mget(...keys.map((k) => this.hashed("e", k)));
    return values.map((v) => v ?? undefined);
  }

  async write(key: string, value: string, ttlMs: number): Promise<void> {
    await this.redis.set(this.hashed("e", key), value, "PX", Math.max(1, Math.round(ttlMs)));
  }

  async lock(keys: readonly string[], owner: string, ttlMs: number): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const taken = await this.redis.cmLockMany(
      keys.length,
      ...keys.map((k) => this.hashed("l", k)),
      owner,
      Math.max(1, Math.round(ttlMs))
    );
    return new Set(taken.map((i) => keys[i - 1]));
  }

  async renew(keys: readonly string[], owner: string, ttlMs: number): Promise<void> {
    if (keys.length === 0) return;
    await this.redis.cmRenewMany(
      keys.length,
      ...keys.map((k) => this.hashed("l", k)),
      owner,
      Math.max(1, Math.round(ttlMs))
    );
  }

  async release(keys: readonly string[], owner: string): Promise<void> {
    if (keys.length === 0) return;
    await this.redis.cmReleaseMany(
      keys.length,
      ...keys.map((k) => this.hashed("l", k)),
      owner,
      this.channel,
      ...keys
    );
  }

  async markFailed(keys: readonly string[], message: string, ttlMs: number): Promise<void> {
    if (keys.length === 0) return;
    const batch = this.redis.multi();
    for (const key of keys) batch.set(this.hashed("f", key), message, "PX", Math.max(1, ttlMs));
    await batch.exec();
  }

  async failures(keys: readonly string[]): Promise<Array<string | undefined>> {
    if (keys.length === 0) return [];
    const values = await this.redis.mget(...keys.map((k) => this.hashed("f", k)));
    return values.map((v) => v ?? undefined);
  }

  onReleased(listener: (keys: readonly string[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): Promise<void> {
    this.listeners.clear();
    return Promise.resolve();
  }
}
