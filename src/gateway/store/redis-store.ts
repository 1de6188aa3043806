/**
 * The store shared by every gateway process of a team, in Redis (one server or a cluster: every script names keys
 * of one hash slot, see keys.ts). Values carry their revision (`REV|text`), written only if the revision read is
 * still the stored one (a Lua compare-and-set), so two fetches of one series merge instead of one overwriting the
 * other. Locks are taken several at once by a Lua script (atomic: two processes asking for the same needs at the
 * same instant never split them), each need with FETCHES_PER_NEED places for fetches over different days; a
 * lock without an expiry, or with one longer than a lock may have, holds no place (Redis edited by hand, or
 * tampered with, never blocks an answer for good). Every key carries a TTL.
 */
import { FETCHES_PER_NEED, LOCK_TTL_MS } from "../bounds";
import { KEY_COUNT_FIRST_SCRIPTS, type RedisClient, type RedisLink } from "./redis-link";
import { RELEASED_CHANNEL, storeKeys } from "./keys";
import { parseLockValue, type LockHolder, type Store, type Stored } from "./store";

const WRITE_IF = `
local cur = redis.call('GET', KEYS[1])
local rev = 0
if cur then rev = tonumber(string.match(cur, '^(%d+)|')) or 0 end
if rev ~= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], tostring(rev + 1) .. '|' .. ARGV[2], 'PX', ARGV[3])
return rev + 1`;

/**
 * Each need has FETCHES_PER_NEED lock keys (its places); KEYS holds them need after need. ARGV[1]: the lock's
 * value (owner|start|end), ARGV[2]: its TTL, ARGV[3]: places per need, ARGV[4], ARGV[5]: its days. Per need,
 * "" when a place was taken, else the holders in force (newline-separated): a fetch under way covers the days,
 * or every place is busy. A lock without an expiry, or with a longer one than a lock has, holds no place.
 */
const LOCK_MANY = `
local ttl = tonumber(ARGV[2])
local places = tonumber(ARGV[3])
local s = tonumber(ARGV[4])
local e = tonumber(ARGV[5])
local out = {}
for n = 1, #KEYS / places do
  local holders = {}
  local covered = false
  local free = nil
  for i = 1, places do
    local key = KEYS[(n - 1) * places + i]
    local cur = redis.call('GET', key)
    local left = redis.call('PTTL', key)
    if cur and left >= 0 and left <= ttl then
      holders[#holders + 1] = cur
      local hs, he = string.match(cur, '|(%-?%d+)|(%-?%d+)$')
      if hs and tonumber(hs) <= s and e <= tonumber(he) then covered = true end
    elseif not free then
      free = key
    end
  end
  if free and not covered then
    redis.call('SET', free, ARGV[1], 'PX', ttl)
    out[n] = ''
  else
    out[n] = table.concat(holders, '\\n')
  end
end
return out`;

/** KEYS: every place of every need; ARGV[1]: the longest TTL a lock may have, ARGV[2]: places per need. */
const HOLDERS = `
local ttl = tonumber(ARGV[1])
local places = tonumber(ARGV[2])
local out = {}
for n = 1, #KEYS / places do
  local holders = {}
  for i = 1, places do
    local key = KEYS[(n - 1) * places + i]
    local cur = redis.call('GET', key)
    local left = redis.call('PTTL', key)
    if cur and left >= 0 and left <= ttl then holders[#holders + 1] = cur end
  end
  out[n] = table.concat(holders, '\\n')
end
return out`;

const RENEW_MANY = `
for _, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then redis.call('PEXPIRE', key, ARGV[2]) end
end
return 0`;

/**
 * KEYS: every place of every need; ARGV[1]: the lock's value, ARGV[2]: the channel, ARGV[3]: the lane's tag,
 * ARGV[4]: places per need, ARGV[5..]: the logical keys, one per need.
 */
const RELEASE_MANY = `
local places = tonumber(ARGV[4])
local released = {ARGV[3]}
for n = 1, #KEYS / places do
  local gone = false
  for i = 1, places do
    local key = KEYS[(n - 1) * places + i]
    if redis.call('GET', key) == ARGV[1] then
      redis.call('DEL', key)
      gone = true
    end
  end
  if gone then released[#released + 1] = ARGV[n + 4] end
end
if #released > 1 then redis.call('PUBLISH', ARGV[2], table.concat(released, '\\n')) end
return #released - 1`;

interface Scripted {
  cmWriteIf(...args: Array<string | number>): Promise<number>;
  cmLockMany(...args: Array<string | number>): Promise<string[]>;
  cmHolders(...args: Array<string | number>): Promise<string[]>;
  cmRenewMany(...args: Array<string | number>): Promise<number>;
  cmReleaseMany(...args: Array<string | number>): Promise<number>;
}

const defined = new WeakSet<object>();

function scripted(client: RedisClient): RedisClient & Scripted {
  if (!defined.has(client)) {
    client.defineCommand("cmWriteIf", { numberOfKeys: 1, lua: WRITE_IF });
    // Any number of keys, the count first: never auto-pipelined on a Cluster (see KEY_COUNT_FIRST_SCRIPTS).
    const variadic: Record<(typeof KEY_COUNT_FIRST_SCRIPTS)[number], string> = {
      cmLockMany: LOCK_MANY,
      cmHolders: HOLDERS,
      cmRenewMany: RENEW_MANY,
      cmReleaseMany: RELEASE_MANY,
    };
    for (const name of KEY_COUNT_FIRST_SCRIPTS) client.defineCommand(name, { lua: variadic[name] });
    defined.add(client);
  }
  return client as RedisClient & Scripted;
}

function holdersOf(text: string): LockHolder[] {
  return text
    .split("\n")
    .map((v) => parseLockValue(v))
    .filter((h): h is LockHolder => !!h);
}

function parseStored(text: string | null | undefined): Stored | undefined {
  if (text === null || text === undefined) return undefined;
  const bar = text.indexOf("|");
  const rev = Number(text.slice(0, bar));
  return bar > 0 && Number.isInteger(rev) && rev > 0
    ? { rev, text: text.slice(bar + 1) }
    : undefined;
}

export class RedisStore implements Store {
  readonly name = "redis";
  private readonly redis: RedisClient & Scripted;
  private readonly keys: ReturnType<typeof storeKeys>;
  private readonly listeners = new Set<(keys: readonly string[]) => void>();
  private readonly stopListening: () => void;

  /** @param storeHash the lane's store namespace (its service and key, hashed) */
  constructor(link: RedisLink, storeHash: string) {
    this.redis = scripted(link.main);
    this.keys = storeKeys(storeHash);
    const prefix = `${this.keys.tag}\n`;
    this.stopListening = link.subscribe(RELEASED_CHANNEL, (message) => {
      if (!message.startsWith(prefix)) return;
      const keys = message.slice(prefix.length).split("\n");
      for (const listener of [...this.listeners]) listener(keys);
    });
  }

  async read(keys: readonly string[]): Promise<Array<Stored | undefined>> {
    if (keys.length === 0) return [];
    const values = await this.redis.mget(...keys.map((k) => this.keys.entry(k)));
    return values.map(parseStored);
  }

  async writeIf(key: string, rev: number, text: string, ttlMs: number): Promise<boolean> {
    const done = await this.redis.cmWriteIf(
      this.keys.entry(key),
      rev,
      text,
      Math.max(1, Math.round(ttlMs))
    );
    return done > 0;
  }

  /** Every place of every need's lock, need after need (see LOCK_MANY). */
  private places(keys: readonly string[]): string[] {
    return keys.flatMap((k) =>
      Array.from({ length: FETCHES_PER_NEED }, (_, i) => `${this.keys.lock(k)}:${i}`)
    );
  }

  async lock(
    keys: readonly string[],
    value: string,
    ttlMs: number
  ): Promise<{ taken: Set<string>; held: Map<string, LockHolder[]> }> {
    const taken = new Set<string>();
    const held = new Map<string, LockHolder[]>();
    if (keys.length === 0) return { taken, held };
    const days = parseLockValue(value) ?? { start: 0, end: 0 };
    const places = this.places(keys);
    const out = await this.redis.cmLockMany(
      places.length,
      ...places,
      value,
      Math.max(1, Math.round(ttlMs)),
      FETCHES_PER_NEED,
      days.start,
      days.end
    );
    keys.forEach((key, i) => {
      if (out[i] === "") taken.add(key);
      else held.set(key, holdersOf(out[i]));
    });
    return { taken, held };
  }

  /** A lock without an expiry, or with one longer than a lock may have, is nobody's (see lock()). */
  async holders(keys: readonly string[]): Promise<LockHolder[][]> {
    if (keys.length === 0) return [];
    const places = this.places(keys);
    const values = await this.redis.cmHolders(
      places.length,
      ...places,
      LOCK_TTL_MS,
      FETCHES_PER_NEED
    );
    return values.map(holdersOf);
  }

  async renew(keys: readonly string[], value: string, ttlMs: number): Promise<void> {
    if (keys.length === 0) return;
    const places = this.places(keys);
    await this.redis.cmRenewMany(places.length, ...places, value, Math.max(1, Math.round(ttlMs)));
  }

  async release(keys: readonly string[], value: string): Promise<void> {
    if (keys.length === 0) return;
    const places = this.places(keys);
    await this.redis.cmReleaseMany(
      places.length,
      ...places,
      value,
      RELEASED_CHANNEL,
      this.keys.tag,
      FETCHES_PER_NEED,
      ...keys
    );
  }

  async markFailed(key: string, failure: string, ttlMs: number): Promise<void> {
    await this.redis.set(this.keys.failure(key), failure, "PX", Math.max(1, Math.round(ttlMs)));
  }

  async failure(key: string): Promise<string | undefined> {
    return (await this.redis.get(this.keys.failure(key))) ?? undefined;
  }

  onReleased(listener: (keys: readonly string[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): Promise<void> {
    this.listeners.clear();
    this.stopListening();
    return Promise.resolve();
  }
}
