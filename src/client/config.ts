/** Client configuration: what the caller provides, and the defaults that fill the rest. */
import {
  createSleep,
  realTimers,
  type ClientLifetime,
  type Sleep,
  type Timers,
} from "./http/abort";
import { CryptometricsError, messageOf } from "./errors";
import { ClientEvents, type ClientListener } from "./events";
import { defaultFetch, type FetchLike } from "./http/fetch";
import { DEFAULT_LIMITS, resolveRetryPolicy, type ClientLimits, type RetryPolicy } from "./policy";
import { InFlightLimit } from "./http/in-flight";
import { RateLimiter } from "./http/rate-limiter";
import type { TransportDeps } from "./http/request";
import { parseBaseUrl } from "./http/url";

/**
 * The API key, or a function returning it: the taskpane lets the user paste a new key at any time,
 * so it is read afresh for every call. No key → the call fails as "unauthorized" before any request.
 */
export type ApiKeySource = string | (() => string | undefined | Promise<string | undefined>);

export interface ClientConfig {
  /** https://…, or http:// on loopback only (the simulator). Other URLs are refused at creation. */
  baseUrl: string;
  apiKey: ApiKeySource;
  /** Default: the global fetch. */
  fetch?: FetchLike;
  /** Clock in ms since the epoch (deadlines, Retry-After dates, limiter windows). Default Date.now. */
  now?: () => number;
  /** Backoff and limiter waits. Default: a timer-based abortable sleep. */
  sleep?: Sleep;
  /** Timers for per-attempt time-outs and the call deadline. Default: global setTimeout. */
  timers?: Timers;
  /** Jitter source in [0, 1). Default Math.random. */
  random?: () => number;
  /** A limiter shared by every client of the runtime. Default: one per client, from `rateLimit`. */
  limiter?: RateLimiter;
  /** Limits of the client's own limiter when `limiter` is not given. Default 60 per 60 000 ms. */
  rateLimit?: { limit: number; windowMs: number };
  retry?: Partial<RetryPolicy>;
  /** Per attempt. Default DEFAULT_LIMITS.timeoutMs. */
  timeoutMs?: number;
  /** Whole call, limiter waits and retries included. Default DEFAULT_LIMITS.deadlineMs. */
  deadlineMs?: number;
  maxUrlLength?: number;
  maxIdsPerRequest?: number;
  maxRedirects?: number;
  /** Largest response body read, in bytes. Default DEFAULT_LIMITS.maxResponseBytes (64 MB). */
  maxResponseBytes?: number;
  /** Exchanges at once. Default DEFAULT_LIMITS.maxInFlight (6). */
  maxInFlight?: number;
  /** Receive every event from the start (see also client.on / client.subscribe). */
  listeners?: readonly ClientListener[];
  /**
   * The client's lifetime: once it ends, every call in flight settles as "cancelled" (its requests
   * aborted, no retry) and every later call fails so at once. A runtime replaced by new settings ends its
   * clients this way, so nothing more reaches the old service address or goes out with the old key.
   */
  lifetime?: ClientLifetime;
}

export interface ResolvedConfig {
  base: URL;
  apiKey: ApiKeySource;
  deps: TransportDeps;
  /** See ClientConfig.lifetime. */
  lifetime?: ClientLifetime;
}

/**
 * Every key of `defaults` with the value `given` has for it, else the default (undefined or null: not given,
 * as `??` reads it). DEFAULT_LIMITS names every limit, so the config's limits are read with none left out.
 */
function withDefaults<T extends object>(given: Partial<T>, defaults: Readonly<T>): T {
  const filled = { ...defaults } as T;
  for (const key of Object.keys(defaults) as (keyof T)[]) {
    const value = given[key];
    if (value !== undefined && value !== null) filled[key] = value;
  }
  return filled;
}

export function resolveConfig(config: ClientConfig): ResolvedConfig {
  const fail = (message: string, cause?: unknown): never => {
    throw new CryptometricsError("invalid-input", `createClient: ${message}`, {
      operation: "createClient",
      cause,
      secrets: typeof config.apiKey === "string" ? [config.apiKey] : [],
    });
  };
  let base: URL;
  try {
    base = parseBaseUrl(config.baseUrl);
  } catch (error) {
    return fail(messageOf(error));
  }
  let policy: RetryPolicy;
  try {
    policy = resolveRetryPolicy(config.retry);
  } catch (error) {
    return fail(messageOf(error));
  }
  const limits = withDefaults<ClientLimits>(config, DEFAULT_LIMITS);
  for (const key of [
    "timeoutMs",
    "deadlineMs",
    "maxUrlLength",
    "maxIdsPerRequest",
    "maxResponseBytes",
  ] as const) {
    if (!(limits[key] > 0)) fail(`${key} must be a positive number, got ${limits[key]}`);
  }
  if (!(limits.maxRedirects >= 0)) fail(`maxRedirects must be >= 0, got ${limits.maxRedirects}`);
  let inFlight: InFlightLimit;
  try {
    inFlight = new InFlightLimit(limits.maxInFlight);
  } catch (error) {
    return fail(messageOf(error));
  }
  const timers = config.timers ?? realTimers;
  const now = config.now ?? (() => Date.now());
  const sleep = config.sleep ?? createSleep(timers);
  let limiter = config.limiter;
  if (!limiter) {
    try {
      limiter = new RateLimiter({ ...limits.rateLimit, now, sleep });
    } catch (error) {
      return fail(messageOf(error));
    }
  }
  return {
    base,
    apiKey: config.apiKey,
    lifetime: config.lifetime,
    deps: {
      fetch: config.fetch ?? defaultFetch(),
      now,
      sleep,
      timers,
      random: config.random ?? Math.random,
      limiter,
      inFlight,
      events: new ClientEvents(config.listeners ?? []),
      policy,
      limits,
    },
  };
}
