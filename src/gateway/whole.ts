/**
 * Answers kept whole, by what they are (ask.ts's key: operation, ids, parameters with lists as sets): the
 * catalogues, details, statements, aggregations, breakdowns, v1, and the series requests whose answer is not
 * made of named series (every metric of a project, a metric of every project). As the engine keeps them:
 * catalogues for a day (the service advises refreshing lists daily), the rest until the next daily update; the
 * previous answer stays a week as the fallback when the service fails (stale-if-error).
 */
import { DEFAULT_CACHE_POLICY, nextDailyUpdate } from "../cache/policy";
import type { Lifetime } from "../cache/policy";
import type { WireEnvelope } from "../client";
import { readStored, writeStored } from "./stored-entry";

export interface WholeSnapshot {
  fetchedAt: number;
  expiresAt: number;
  body: WireEnvelope;
  simulated: boolean;
}

export interface WholeEntry {
  key: string;
  cur: WholeSnapshot;
  prev?: WholeSnapshot;
}

export function expiryOf(lifetime: Lifetime, now: number): number {
  return lifetime === "catalogue"
    ? now + DEFAULT_CACHE_POLICY.catalogueTtlMs
    : nextDailyUpdate(now, DEFAULT_CACHE_POLICY.dailyUpdateUtcHour);
}

export function freshWhole(entry: WholeEntry | undefined, now: number): WholeSnapshot | undefined {
  return entry && now < entry.cur.expiresAt ? entry.cur : undefined;
}

export function staleWhole(entry: WholeEntry | undefined, now: number): WholeSnapshot | undefined {
  const limit = now - DEFAULT_CACHE_POLICY.maxStaleMs;
  for (const s of [entry?.cur, entry?.prev]) if (s && s.fetchedAt >= limit) return s;
  return undefined;
}

export function nextWhole(
  entry: WholeEntry | undefined,
  key: string,
  snapshot: WholeSnapshot,
  now: number
): WholeEntry {
  const old = entry && entry.key === key ? entry : undefined;
  const prev = old && now < old.cur.expiresAt ? old.prev : (old?.cur ?? old?.prev);
  return { key, cur: snapshot, ...(prev ? { prev } : {}) };
}

export function readWhole(text: string | undefined, key: string): WholeEntry | undefined {
  return readStored<WholeSnapshot>(text, key);
}

export function writeWhole(entry: WholeEntry): string {
  return writeStored(entry);
}
