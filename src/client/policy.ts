/**
 * Retry policy and limits as data: the defaults below are what a workbook gets unless the caller
 * overrides them, and each number says why it is what it is.
 */

export interface RetryPolicy {
  /** Attempts per request, the first included. */
  maxAttempts: number;
  /** First backoff delay for 5xx, network errors and time-outs. */
  baseDelayMs: number;
  /** First backoff delay for a 429 that carries no Retry-After. */
  rateLimitedBaseDelayMs: number;
  /** Growth factor between consecutive backoff delays. */
  multiplier: number;
  /** Ceiling of any single computed backoff delay. */
  maxDelayMs: number;
  /**
   * Share of each computed delay that is randomised: the delay is drawn uniformly from
   * [delay × (1 − jitter), delay]. 0 = no jitter, 1 = "full jitter".
   */
  jitter: number;
  /** Ceiling applied to a server's Retry-After. */
  maxRetryAfterMs: number;
  /** Floor of a server's Retry-After: a shorter one gives way to the client's rate-limited backoff. */
  minRetryAfterMs: number;
  /** Statuses retried; other 4xx are the caller's mistake and would fail the same way again. */
  retryStatuses: readonly number[];
  /** Whether network errors (no HTTP answer) are retried. */
  retryNetworkErrors: boolean;
  /** Whether an attempt that hit the per-attempt timeout is retried (within the call's deadline). */
  retryTimeouts: boolean;
  /** Attempts, the first included, while nothing answers at the address (connection refused). */
  maxRefusedAttempts: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  // Six attempts: a burst of up to five failures (a deploy, a 429 spike) never reaches the cell.
  maxAttempts: 6,
  // Half a second: long enough for a restarting backend or a dropped connection to come back,
  // short enough that one transient failure costs the user nothing noticeable.
  baseDelayMs: 500,
  // The service's documented limit is per minute and it sends no Retry-After: 2, 4, 8, 16, 30 s covers
  // a whole minute window within the attempt cap, so a 429 burst drains instead of re-triggering.
  rateLimitedBaseDelayMs: 2_000,
  // Doubling: the classic exponential backoff the interface asks for (§8.1).
  multiplier: 2,
  // No single wait longer than 30 s: beyond that the user is better served by an error they can act on.
  maxDelayMs: 30_000,
  // Half the delay randomised: spreads clients that failed together without ever retrying instantly.
  jitter: 0.5,
  // Honour Retry-After up to a minute (one rate-limit window); a server asking for more gets a
  // rate-limited error with retryAfterMs rather than a cell busy for minutes.
  maxRetryAfterMs: 60_000,
  // One second: "Retry-After: 0", a negative value or a date already past would have the client retry
  // back to back (six attempts in a few ms, then a failed cell); a service that says "wait" is overloaded,
  // so such answers get the rate-limited schedule (2, 4, 8 s..., jittered to no less than 1 s).
  minRetryAfterMs: 1_000,
  // 408/429 and the 5xx family; 501 "not implemented" will not change by waiting.
  retryStatuses: Object.freeze([408, 429, 500, 502, 503, 504]),
  retryNetworkErrors: true,
  retryTimeouts: true,
  // As many as any failure: a server restarting (a deploy of the gateway) is back within them. The command
  // line, which a person runs and reruns, takes 2 (runtime-setup.ts).
  maxRefusedAttempts: 6,
});

export interface ClientLimits {
  /** Per attempt, headers and body: a hung connection is given up after this. */
  timeoutMs: number;
  /** Whole call: limiter waits, every attempt and every backoff. Every call settles by then. */
  deadlineMs: number;
  /** Longest URL the client sends; longer id lists are split into several requests. */
  maxUrlLength: number;
  /** Most ids in one list parameter of one request; more are split into several requests. */
  maxIdsPerRequest: number;
  /** Redirect hops followed per request before giving up. */
  maxRedirects: number;
  /** Client-side rate limit: request starts allowed per window. */
  rateLimit: { limit: number; windowMs: number };
  /** Largest response body read; a bigger one is refused as "too-large" and not read further. */
  maxResponseBytes: number;
  /** Exchanges at once; the others wait for a slot before their time-out starts (http/in-flight.ts). */
  maxInFlight: number;
}

export const DEFAULT_LIMITS: Readonly<ClientLimits> = Object.freeze({
  // 30 s: a five-year daily series for many metrics can take seconds on a busy day; a stuck socket
  // cannot hold a cell longer than this per attempt.
  timeoutMs: 30_000,
  // Two minutes: room for the full 429 backoff schedule and a queue behind the rate limiter, after
  // which Excel shows an error rather than #BUSY! forever.
  deadlineMs: 120_000,
  // 2,000 characters: the conservative limit that every browser, proxy and CDN accepts.
  maxUrlLength: 2_000,
  // 50 ids: the service's own example batches 20 projects per metric request; 50 keeps responses
  // moderate while cutting the request count (and so rate-limit pressure) for big workbooks.
  maxIdsPerRequest: 50,
  // 5 hops: a renamed id is one 308; anything longer is a misconfiguration or a loop.
  maxRedirects: 5,
  // The service's documented limit (60 requests per minute): staying under it means a workbook
  // refresh never provokes a 429 in the first place.
  rateLimit: Object.freeze({ limit: 60, windowMs: 60_000 }),
  // 64 MB: the largest real answer (five years of daily rows for 50 projects in one metric request) is
  // about 11 MB, so this never refuses real data; a body without end, or of gigabytes, stops here, which
  // keeps the CLI under 200 MB of memory (measured on an endless body) instead of growing until it dies.
  maxResponseBytes: 64 * 1_048_576,
  // 6: what a browser opens to one host over HTTP/1.1 (a seventh fetch would wait inside the browser while
  // its time-out ran); enough to keep 60 starts a minute flowing, few enough that each answer of megabytes
  // arrives within its time-out on an ordinary line.
  maxInFlight: 6,
});

/**
 * The default policy with every delay divided by `scale`: for runs against a simulator whose rate-limit window
 * is `scale` times shorter than the service's minute, so that backoffs shrink as the limiter's waits do.
 */
export function scaledRetryPolicy(scale: number): Partial<RetryPolicy> {
  return {
    baseDelayMs: DEFAULT_RETRY_POLICY.baseDelayMs / scale,
    rateLimitedBaseDelayMs: DEFAULT_RETRY_POLICY.rateLimitedBaseDelayMs / scale,
    maxDelayMs: DEFAULT_RETRY_POLICY.maxDelayMs / scale,
    maxRetryAfterMs: DEFAULT_RETRY_POLICY.maxRetryAfterMs / scale,
  };
}

export function resolveRetryPolicy(overrides?: Partial<RetryPolicy>): RetryPolicy {
  const policy = { ...DEFAULT_RETRY_POLICY, ...(overrides ?? {}) };
  for (const key of ["maxAttempts", "maxRefusedAttempts"] as const)
    if (!Number.isInteger(policy[key]) || policy[key] < 1)
      throw new RangeError(`retry.${key} must be a positive integer, got ${policy[key]}`);
  for (const key of [
    "baseDelayMs",
    "rateLimitedBaseDelayMs",
    "maxDelayMs",
    "maxRetryAfterMs",
    "minRetryAfterMs",
  ] as const) {
    if (!(policy[key] >= 0)) throw new RangeError(`retry.${key} must be >= 0, got ${policy[key]}`);
  }
  if (!(policy.multiplier >= 1)) {
    throw new RangeError(`retry.multiplier must be >= 1, got ${policy.multiplier}`);
  }
  if (!(policy.jitter >= 0 && policy.jitter <= 1)) {
    throw new RangeError(`retry.jitter must be within 0..1, got ${policy.jitter}`);
  }
  return policy;
}
