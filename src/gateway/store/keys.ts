/**
 * Every Redis key the gateway writes, in one place. Each group of keys that a script or a multi-key command
 * touches together carries one hash tag (`{…}`), so every such command names keys of one hash slot and runs
 * on a Redis Cluster as on one server:
 *
 * - a lane's store (one service key's answers, locks, failure marks): `cm:gw:2:{s<hash>}:e|l|f:<hash>`;
 * - a key's budget (its record of request starts, its epoch, the processes and limiters alive):
 *   `cm:gw:2:{b<hash>}:ledger|epoch|owners|procs`;
 * - per-user keys (one record per user, the group's epoch, registration counts): `cm:gw:2:{user-keys}:…`;
 * - usage (a hash per UTC day): `cm:gw:2:{usage}:<day>`.
 *
 * A cluster thus spreads service keys (lanes) over its primaries, not one lane's entries: a lane's store is on
 * one primary. Hashes are SHA-256 (never a key, a token or a user's id in clear).
 *
 * Every key has a TTL except the epochs (one per group, a few bytes: their absence is how a Redis that lost its
 * data is recognised) and per-user key records (their loss would silently cost a user their key): so
 * `maxmemory-policy volatile-lru` evicts answers first and never those.
 */
import { createHash } from "node:crypto";

export const PREFIX = "cm:gw:2";

export function hashOf(text: string, length = 40): string {
  return createHash("sha256").update(text).digest("hex").slice(0, length);
}

/** The channel release notices go out on: one for every lane (the message names the lane's store). */
export const RELEASED_CHANNEL = `${PREFIX}:released`;

export const storeKeys = (storeHash: string) => {
  const tag = `${PREFIX}:{s${storeHash}}`;
  return {
    tag,
    entry: (key: string) => `${tag}:e:${hashOf(key)}`,
    lock: (key: string) => `${tag}:l:${hashOf(key)}`,
    failure: (key: string) => `${tag}:f:${hashOf(key)}`,
    bytes: (user: string, day: string) => `${tag}:u:${hashOf(user, 24)}:${day}`,
  };
};

export const budgetKeys = (budgetHash: string) => {
  const tag = `${PREFIX}:{b${budgetHash}}`;
  return {
    tag,
    ledger: `${tag}:ledger`,
    epoch: `${tag}:epoch`,
    owners: `${tag}:owners`,
    procs: `${tag}:procs`,
    userCap: `${tag}:cap:`,
  };
};

export const userKeyKeys = {
  tag: `${PREFIX}:{user-keys}`,
  record: (user: string) => `${PREFIX}:{user-keys}:k:${hashOf(`user\n${user}`)}`,
  changes: (user: string) => `${PREFIX}:{user-keys}:c:${hashOf(`user\n${user}`)}`,
  epoch: `${PREFIX}:{user-keys}:epoch`,
};

export const usageKey = (day: string): string => `${PREFIX}:{usage}:${day}`;
