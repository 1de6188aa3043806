/** How long to wait before the next attempt: exponential backoff with jitter, or the server's word. */
import type { RetryPolicy } from "../policy";

/**
 * Delay before attempt `attempt + 1`, after `attempt` failed attempts (1-based). Exponential from the
 * base (the 429 base when rate limited), capped, then jittered downwards within policy.jitter.
 */
export function backoffDelay(
  policy: RetryPolicy,
  attempt: number,
  random: () => number,
  rateLimited = false
): number {
  const base = rateLimited ? policy.rateLimitedBaseDelayMs : policy.baseDelayMs;
  const exp = Math.min(
    policy.maxDelayMs,
    base * Math.pow(policy.multiplier, Math.max(0, attempt - 1))
  );
  const r = Math.min(1, Math.max(0, random()));
  return Math.round(exp * (1 - policy.jitter * r));
}

/**
 * A Retry-After header in milliseconds from `nowMs`: delta-seconds ("120", also "1.5") or an HTTP date.
 * Undefined when absent or unreadable (the caller then backs off on its own schedule). Dates in the
 * past and negative numbers give 0: the header was there, but says nothing usable (the caller's floor,
 * policy.minRetryAfterMs, then applies). Not capped here: the caller decides what to do with long waits.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  nowMs: number
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent, kept for the reader: "" also fails both tests below.
  if (text === "") return undefined;
  if (/^[-+]?\d+(\.\d+)?$/.test(text)) return Math.max(0, Math.round(Number(text) * 1000));
  // Only date-like text: Date.parse would also accept things like "5" or "-1" as years.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/**
 * The wait before the next attempt after a failure with `retryAfterMs` from the server (if any). A
 * Retry-After the policy can use wins; one below policy.minRetryAfterMs (0, a date already past) is no
 * instruction at all, and the service is plainly overloaded: the client's own rate-limited schedule
 * (seconds, growing) applies, never back-to-back requests.
 */
export function retryDelay(
  policy: RetryPolicy,
  attempt: number,
  random: () => number,
  rateLimited: boolean,
  retryAfterMs: number | undefined
): { delayMs: number; fromServer: boolean } {
  // Stryker disable next-line ConditionalExpression: equivalent, `undefined >= n` is false; the check states the intent.
  if (retryAfterMs !== undefined && retryAfterMs >= policy.minRetryAfterMs)
    return { delayMs: retryAfterMs, fromServer: true };
  const throttled = rateLimited || retryAfterMs !== undefined;
  return { delayMs: backoffDelay(policy, attempt, random, throttled), fromServer: false };
}
