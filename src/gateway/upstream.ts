/**
 * The gateway's calls to the service, with the service key: the project's own client transport (src/client:
 * the key sent only to the service's origin, bounded bodies, per-attempt time-outs and a call deadline, retries
 * with backoff honouring Retry-After, redirects, secrets redacted from every message) and its rate limiter, whose
 * record of request starts is shared by every gateway process (store/ledger.ts). Each call waits its turn in
 * the fair scheduler first (fair-scheduler.ts).
 *
 * Only the interface's paths under the configured service URL are ever fetched: the fetch the transport uses
 * refuses any other URL (a redirect elsewhere included) before it leaves, so the gateway is no open proxy.
 */
import {
  CryptometricsError,
  RateLimiter,
  type ClientListener,
  type FetchLike,
  type RetryPolicy,
  type StartLedger,
  type Timers,
} from "../client";
import { runCall } from "../client";
import { resolveConfig, type ResolvedConfig } from "../client";
import type { WireEnvelope } from "../client";
import { defaultFetch } from "../client";
import { buildUrl, parseBaseUrl } from "../client";
import type { QueryValue } from "./ask";
import { FairScheduler, type UserCap } from "./fair-scheduler";
import { matchPath } from "./operations";

export interface UpstreamOptions {
  serviceUrl: string;
  serviceKey: string;
  /** Upstream requests per window for this service key (the service allows 60 per minute). */
  rateLimit: number;
  windowMs: number;
  ledger?: StartLedger;
  /** How long another process's unanswered start counts at most (see the rate limiter). */
  openMs?: number;
  /** Upstream requests under way at once in this process (fair-scheduler.ts). */
  concurrency: number;
  cap?: UserCap;
  fetch?: FetchLike;
  retry?: Partial<RetryPolicy>;
  deadlineMs?: number;
  timers?: Timers;
  now?: () => number;
  listeners?: readonly ClientListener[];
  /** Told each time one of `user`'s upstream calls starts (usage per person). */
  onStart?: (user: string) => void;
}

export interface UpstreamAnswer {
  envelope: WireEnvelope;
  simulated: boolean;
}

export class Upstream {
  readonly limiter: RateLimiter;
  readonly scheduler: FairScheduler;
  readonly base: URL;
  private readonly config: ResolvedConfig;
  private readonly onStart: ((user: string) => void) | undefined;

  constructor(options: UpstreamOptions) {
    this.onStart = options.onStart;
    this.base = parseBaseUrl(options.serviceUrl);
    const now = options.now ?? Date.now;
    this.limiter = new RateLimiter({
      limit: options.rateLimit,
      windowMs: options.windowMs,
      ledger: options.ledger,
      now,
      ...(options.openMs !== undefined ? { openMs: options.openMs } : {}),
    });
    this.scheduler = new FairScheduler({
      concurrency: options.concurrency,
      cap: options.cap,
      timers: options.timers,
      now,
    });
    const inner = options.fetch ?? defaultFetch();
    const fetch: FetchLike = (url, init) => {
      const refusal = this.refusal(url);
      if (refusal)
        return Promise.reject(
          new CryptometricsError("malformed-response", refusal, { operation: "gateway" })
        );
      return inner(url, init);
    };
    this.config = resolveConfig({
      baseUrl: options.serviceUrl,
      apiKey: options.serviceKey,
      fetch,
      limiter: this.limiter,
      now,
      timers: options.timers,
      retry: options.retry,
      deadlineMs: options.deadlineMs,
      // The scheduler decides who goes next; the client's own first-come queue would only reorder behind it.
      maxInFlight: options.concurrency,
      listeners: options.listeners,
    });
  }

  /** Why the gateway will not fetch `url`, or undefined when it is an operation of the service. */
  private refusal(url: string): string | undefined {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return "the gateway fetches only the service's own operations";
    }
    const basePath = this.base.pathname.replace(/\/+$/, "");
    if (parsed.origin !== this.base.origin || !parsed.pathname.startsWith(`${basePath}/`))
      return `the service redirected the gateway to ${parsed.origin}, which is not the service it is set up for`;
    const segments = parsed.pathname
      .slice(basePath.length + 1)
      .split("/")
      .map((s) => {
        try {
          return decodeURIComponent(s);
        } catch {
          return "";
        }
      });
    return matchPath(segments)
      ? undefined
      : "the service redirected the gateway to a path that is not one of its operations";
  }

  /** The URL of an operation of the service (segments unencoded, lists as arrays). */
  url(segments: readonly string[], query: ReadonlyArray<readonly [string, QueryValue]>): string {
    return buildUrl(this.base, segments, query);
  }

  /**
   * GET one operation of the service as `user`'s turn: the answer's envelope as the service sent it (checked to
   * be a JSON object with `data`), or the client's CryptometricsError.
   */
  get(
    user: string,
    segments: readonly string[],
    query: ReadonlyArray<readonly [string, QueryValue]>
  ): Promise<UpstreamAnswer> {
    const match = matchPath(segments);
    if (!match)
      return Promise.reject(
        new CryptometricsError(
          "invalid-input",
          `not an operation of the service: /${segments.join("/")}`,
          {
            operation: "gateway",
          }
        )
      );
    const url = this.url(segments, query);
    const listed = query.flatMap(([, value]) => (typeof value === "string" ? [] : value));
    const ids = [...match.ids, ...listed].slice(0, 20);
    return this.scheduler.run(user, async () => {
      this.onStart?.(user);
      const result = await runCall(this.config, match.spec.op, match.ids, () => ({
        ids,
        // v1's answers may be bare lists (§9 shows no shape): read, and kept bare (see WireEnvelope.bare).
        requests: [{ url, ids, ...(match.spec.path[0] === "v1" ? { bare: true } : {}) }],
        combine: ([envelope]: readonly WireEnvelope[]) => ({ data: envelope, errors: [] }),
      }));
      return { envelope: result.data, simulated: result.meta.simulated };
    });
  }
}
