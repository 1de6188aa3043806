/**
 * From a run at a scaled rate limit to the time the same refresh takes at the service's real limit.
 *
 * The bench runs the limiter (client and simulator alike) `scale` times faster than the real 60 requests per
 * minute, so a run of minutes finishes in seconds. Only time spent waiting on the limiter, or backing off
 * after a 429 (whose delays are scaled too), stretches at the real limit; latency and computation do not.
 * Hence two views, and the projection is the larger:
 *  - quota: requests ÷ 60 per minute. What the refresh costs of the documented quota; a refresh that sends
 *    fewer than 60 requests into an idle minute may finish sooner, but repeated refreshes, or other open
 *    workbooks, pay this.
 *  - stretched: wall time + throttled time × (scale − 1), the measured run with its waits scaled back.
 */
import type { Sleep } from "../../client";

export const REAL_LIMIT_PER_MINUTE = 60;
const MINUTE_MS = 60_000;

export interface Projection {
  /** requests ÷ 60 per minute, in ms. */
  quotaMs: number;
  /** wall + throttled × (scale − 1), in ms. */
  stretchedMs: number;
  /** max(quotaMs, stretchedMs). */
  projectedMs: number;
}

export function projectToRealLimit(
  requests: number,
  wallMs: number,
  throttledMs: number,
  scale: number
): Projection {
  if (!(scale >= 1)) throw new RangeError(`scale must be >= 1, got ${scale}`);
  const quotaMs = (requests * MINUTE_MS) / REAL_LIMIT_PER_MINUTE;
  const stretchedMs = wallMs + throttledMs * (scale - 1);
  return { quotaMs, stretchedMs, projectedMs: Math.max(quotaMs, stretchedMs) };
}

/**
 * Wraps a Sleep and measures the time during which at least one sleep was pending: the union of the
 * limiter's waits and the client's backoffs (they overlap; counting each would double the stretch).
 */
export class ThrottleMeter {
  private active = 0;
  private since = 0;
  private total = 0;

  constructor(
    private readonly inner: Sleep,
    private readonly clock: () => number
  ) {}

  readonly sleep: Sleep = async (ms, signal) => {
    if (this.active++ === 0) this.since = this.clock();
    try {
      await this.inner(ms, signal);
    } finally {
      if (--this.active === 0) this.total += this.clock() - this.since;
    }
  };

  /** Throttled ms so far, a sleep still pending counted up to now. */
  throttledMs(): number {
    return this.total + (this.active > 0 ? this.clock() - this.since : 0);
  }

  reset(): void {
    this.total = 0;
    if (this.active > 0) this.since = this.clock();
  }
}
