/**
 * What the transport, the exchange and the redirect logic share: the dependencies a request runs with, the
 * context of the call it belongs to, and the request itself. In their own module so that the three import
 * it and not each other.
 */
import type { Sleep, Timers } from "./abort";
import type { ClientEvents } from "../events";
import type { FetchLike } from "./fetch";
import type { ClientLimits, RetryPolicy } from "../policy";
import type { InFlightLimit } from "./in-flight";
import type { RateLimiter } from "./rate-limiter";
import type { Redirect } from "../data/types";

export interface TransportDeps {
  fetch: FetchLike;
  now: () => number;
  sleep: Sleep;
  timers: Timers;
  random: () => number;
  limiter: RateLimiter;
  /** Exchanges at once (limits.maxInFlight): a slot is held before the rate limiter's start is taken. */
  inFlight: InFlightLimit;
  events: ClientEvents;
  policy: RetryPolicy;
  limits: ClientLimits;
}

/** What one client call shares across its requests (chunks): key, cancellation, deadline, meta. */
export interface CallContext {
  operation: string;
  /** "getProject(aave)": how messages about the call as a whole start. */
  label: string;
  /** The call's own ids (path ids); each request adds the ids of its list. */
  ids: readonly string[];
  apiKey: string;
  /** Aborts on the caller's signal, the call deadline, or a sibling request's failure. */
  signal: AbortSignal;
  deadlineAt: number;
  /** Why `signal` aborted: the caller cancelled, or the deadline passed. */
  abortKind(): "cancelled" | "timeout";
  stats: { requests: number; simulated: boolean; redirects: Redirect[] };
}

export interface RequestSpec {
  url: string;
  /** Every id the request is about: the call's ids and the list it sends. */
  ids: readonly string[];
  /** The id list (or the part of it) this request sends, named in its messages. */
  list?: readonly string[];
  /** The answer may be a bare JSON list rather than an object with `data` (v1: its shape is not shown). */
  bare?: boolean;
}
