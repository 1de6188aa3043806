/**
 * Cache lifetimes and bounds, as data. Each default says why. The engine's caches and the team gateway's
 * share it: one answer is fresh as long in a workbook as in the gateway's cache.
 */
import { isCryptometricsError } from "../client";

/** How long a whole answer lives: a catalogue for catalogueTtlMs, any other answer until the daily update. */
export type Lifetime = "catalogue" | "daily";

export interface CachePolicy {
  /** Project, metric and sector lists and details. */
  catalogueTtlMs: number;
  /**
   * Series, statements and aggregations are fresh until the service's next daily update, at this UTC hour.
   * The service updates metrics once a day; its hour is not documented, so midnight UTC is assumed.
   */
  dailyUpdateUtcHour: number;
  /**
   * A series answer that reaches today but whose newest day is older than today (the service's expected
   * latest day) may have been fetched before the service published the day: it is fresh this long, not until
   * the next daily update, so a session (or a saved cache) does not keep yesterday's "latest" all day.
   */
  unpublishedTtlMs: number;
  /** A value older than this is not served even when a refresh fails (stale-if-error has limits). */
  maxStaleMs: number;
  /**
   * Stale-if-slow: a refresh whose answer takes longer than this shows the previous values (flagged stale)
   * while the request goes on and fills the cache. Without it, a hanging service holds a refreshed cell for
   * the whole retry deadline (2 minutes) per request before the fallback shows.
   */
  staleAfterMs: number;
  /** Bound on cached series data, in data points (one point = one metric value of one day). */
  maxPoints: number;
  /** Bound on the number of cached catalogue and statement entries. */
  maxEntries: number;
}

export const DEFAULT_CACHE_POLICY: Readonly<CachePolicy> = {
  // The service advises refreshing project and metric lists daily or weekly (§8.3): one day.
  catalogueTtlMs: 24 * 60 * 60 * 1000,
  dailyUpdateUtcHour: 0,
  // Half an hour: the service's publication hour is not documented; asking again twice an hour costs a
  // request per series at most, while a day's figures missing until midnight UTC cost a wrong "latest".
  unpublishedTtlMs: 30 * 60 * 1000,
  // A week: a model refreshed on Monday may still show Friday's figures, flagged stale, rather than errors.
  maxStaleMs: 7 * 24 * 60 * 60 * 1000,
  // Ten seconds: a healthy service answers a batch in well under a second, a slow one within a few; past that
  // the user is better served by the figures they had, marked stale, than by a busy cell.
  staleAfterMs: 10_000,
  // 4 million points, 12 bytes each in the store's typed arrays (about 50 MB at most): a workbook of 10,000
  // METRIC spills of a year (3.65 million points) stays cached, so its next recalculation asks nothing. At
  // 300,000 points it was evicted while being filled, and every recalculation asked again (20 minutes of
  // requests at 60 a minute).
  maxPoints: 4_000_000,
  // Catalogues, project details, statements: a few hundred objects at most in any real workbook.
  maxEntries: 2_000,
};

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The first daily-update instant strictly after `now`. */
export function nextDailyUpdate(now: number, utcHour: number): number {
  const todayUpdate = Math.floor(now / DAY_MS) * DAY_MS + utcHour * HOUR_MS;
  return todayUpdate > now ? todayUpdate : todayUpdate + DAY_MS;
}

/**
 * When an earlier value may stand in for a failed reload (stale-if-error), and when it may not. The service
 * refusing the key (401) or the plan (402, 403), and a key missing or unreadable, are not outages to ride
 * out: a revoked key or a lapsed plan must not keep a model showing last week's figures as if nothing
 * happened. Those cells fail with what was refused; every other failure may fall back to what was fetched
 * before (flagged stale, up to the cache policy's limit).
 */
export function staleMayCover(error: unknown): boolean {
  return !(
    isCryptometricsError(error) &&
    (error.kind === "unauthorized" || error.kind === "subscription")
  );
}
