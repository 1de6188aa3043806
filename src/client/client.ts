/**
 * The metrics service client: one typed method per operation of the interface (v2 §4.1–4.13, v1 §9).
 * `§` references in this project are sections of src/client/INTERFACE.md. No Office globals: it runs in Node (tests, CLI) and in Excel's shared runtime alike.
 */
import { runCall, type Runner } from "./call";
import { resolveConfig, type ClientConfig, type ResolvedConfig } from "./config";
import type { ClientEventOf, ClientEventType, ClientListener } from "./events";
import type { RateLimiter } from "./http/rate-limiter";
import { operations, type Operations } from "./operations";
import type { ClientLimits } from "./policy";

export interface MetricsClient extends Operations {
  /** The checked base URL (no trailing slash). */
  readonly baseUrl: string;
  /** The limits it works under (chunk size, deadlines, …): the engine above follows them. */
  readonly limits: Readonly<ClientLimits>;
  /** The limiter this client uses (shared if one was given): stats() feeds a usage meter. */
  readonly limiter: RateLimiter;
  /** Listen to one event type; returns the function that stops listening. */
  on<T extends ClientEventType>(type: T, fn: (event: ClientEventOf<T>) => void): () => void;
  /** Listen to every event; returns the function that stops listening. */
  subscribe(listener: ClientListener): () => void;
}

/**
 * Creates a client. Throws a CryptometricsError of kind "invalid-input" at once for a base URL that is
 * not https (plain http is accepted on loopback only) or for nonsensical limits: before any request.
 */
export function createClient(config: ClientConfig): MetricsClient {
  const resolved: ResolvedConfig = resolveConfig(config);
  const { deps, base } = resolved;
  const run: Runner = (operation, pathIds, plan, signal) =>
    runCall(resolved, operation, pathIds, plan, signal);
  return {
    baseUrl: `${base.origin}${base.pathname}`,
    limits: deps.limits,
    limiter: deps.limiter,
    on: (type, fn) => deps.events.on(type, fn),
    subscribe: (listener) => deps.events.subscribe(listener),
    ...operations(base, deps.limits, run, deps.now),
  };
}
