/**
 * The gateway's requests to the service, one attempt each: the project's own client transport (bounded bodies,
 * per-attempt time-outs, redirects followed by hand, answers checked to be JSON with `data`), without its rate
 * limiter and retries, which the gateway runs itself through the shared budget (budget.ts, answers.ts).
 *
 * The service key is added by the fetch the transport uses, and only to requests for the service's own
 * operations: the transport itself holds a stand-in it never sees answered, so nothing the service sends back
 * is redacted by a client that knows the key. The gateway redacts answers itself, with the one key the request
 * used, and leaves alone the texts the request itself carried (the ids it named): a service echoing an unknown
 * id back in `errors` shows the caller their own id, never "[REDACTED]" for an id that happens to be a stretch
 * of the key (which would tell the caller that their guess is in it).
 *
 * Only the interface's paths under the configured service URL are ever fetched: any other URL (a redirect to
 * another origin, to a path that is not an operation, with credentials in it, or with an id holding "/", "\",
 * "..") is refused before it leaves, so the gateway is no open proxy.
 */
import { randomBytes } from "node:crypto";
import {
  CryptometricsError,
  RateLimiter,
  buildUrl,
  defaultFetch,
  hasSecretRun,
  parseBaseUrl,
  redactRuns,
  resolveConfig,
  runCall,
  type ClientListener,
  type FetchLike,
  type JsonValue,
  type ResolvedConfig,
  type WireEnvelope,
} from "../client";
import type { QueryValue } from "./ask";
import { UPSTREAM_CONCURRENCY } from "./bounds";
import type { GatewayClock } from "./clock";
import { matchPath, pathIdNames } from "./operations";
import { ID_REGEX } from "./schema";

interface UpstreamOptions {
  serviceUrl: string;
  serviceKey: string;
  clock: GatewayClock;
  fetch?: FetchLike;
  listeners?: readonly ClientListener[];
  /** Per attempt (the client's default, 30 s). */
  timeoutMs?: number;
}

export interface UpstreamRequest {
  segments: readonly string[];
  query: ReadonlyArray<readonly [string, QueryValue]>;
}

export interface UpstreamAnswer {
  envelope: WireEnvelope;
  simulated: boolean;
}

/** Why the gateway would not send a request: a redirect elsewhere, or a path that is not an operation. */
class RefusedRequest extends Error {
  constructor() {
    super("refused: not an operation of the configured service");
    this.name = "RefusedRequest";
  }
}

/** Every text a request carries (path ids, list items, values): the caller's own words, never redacted. */
function textsOf(request: UpstreamRequest): string[] {
  const out: string[] = [...request.segments];
  for (const [, value] of request.query) {
    if (typeof value === "string") out.push(value);
    else {
      for (const item of value) out.push(item);
      out.push(value.join(","));
    }
  }
  return out;
}

/** `text` with every run of `key` redacted, except inside the request's own texts (see the module comment). */
function cleanText(text: string, key: string, own: readonly string[]): string {
  if (!hasSecretRun(text, [key])) return text;
  const lower = text.toLowerCase();
  const kept: Array<[number, number]> = [];
  for (const t of own) {
    if (t.length === 0) continue;
    const needle = t.toLowerCase();
    for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + 1))
      kept.push([at, at + needle.length]);
  }
  kept.sort((a, b) => a[0] - b[0]);
  // The service's own text between the caller's is redacted piece by piece: a run through the caller's text
  // is broken there, so what is redacted never depends on what the caller sent.
  const out: string[] = [];
  let from = 0;
  for (const [a, b] of kept) {
    if (b <= from) continue;
    if (a > from) out.push(redactRuns(text.slice(from, a), [key]));
    out.push(text.slice(Math.max(a, from), b));
    from = b;
  }
  out.push(redactRuns(text.slice(from), [key]));
  return out.join("");
}

type Container = JsonValue[] | { [name: string]: JsonValue };

function isContainer(value: JsonValue | undefined): value is Container {
  return value !== null && typeof value === "object";
}

/** Redacts every string (member names included) of an answer in place; iterative, so no depth overflows. */
function redactAnswer(envelope: WireEnvelope, key: string, own: readonly string[]): void {
  // One scan of the whole answer first: an answer without a run of the key (nearly all) is left as it is.
  if (!hasSecretRun(JSON.stringify(envelope), [key])) return;
  const fix = (value: JsonValue): JsonValue =>
    typeof value === "string" ? cleanText(value, key, own) : value;
  envelope.data = fix(envelope.data);
  if (envelope.errors !== undefined) envelope.errors = fix(envelope.errors);
  const stack: Container[] = [];
  for (const root of [envelope.data, envelope.errors]) if (isContainer(root)) stack.push(root);
  while (stack.length > 0) {
    const value = stack.pop() as Container;
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        value[i] = fix(item);
        if (isContainer(item)) stack.push(item);
      });
      continue;
    }
    for (const name of Object.keys(value)) {
      const item = fix(value[name]);
      const clean = cleanText(name, key, own);
      if (clean !== name) delete value[name];
      // defineProperty: a "__proto__" member stays a plain member.
      Object.defineProperty(value, clean, {
        value: item,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      if (isContainer(item)) stack.push(item);
    }
  }
}

export class Upstream {
  readonly base: URL;
  private readonly config: ResolvedConfig;
  private readonly serviceKey: string;

  constructor(options: UpstreamOptions) {
    this.base = parseBaseUrl(options.serviceUrl);
    this.serviceKey = options.serviceKey;
    // What the transport believes the key is: never sent, never seen in an answer (see the module comment).
    const standIn = `cm-gateway-stand-in-${randomBytes(16).toString("hex")}`;
    const inner = options.fetch ?? defaultFetch();
    const fetch: FetchLike = (url, init) => {
      if (this.refusal(url)) return Promise.reject(new RefusedRequest());
      const headers = { ...init.headers };
      if (headers.Authorization === `Bearer ${standIn}`)
        headers.Authorization = `Bearer ${this.serviceKey}`;
      return inner(url, { ...init, headers });
    };
    this.config = resolveConfig({
      baseUrl: options.serviceUrl,
      apiKey: standIn,
      fetch,
      now: options.clock.now,
      timers: options.clock.timers,
      sleep: options.clock.sleep,
      // The gateway takes its slots from the shared budget before each request and retries through it; the
      // transport's own limiter and retries would count and retry behind its back.
      limiter: new RateLimiter({
        limit: 1_000_000,
        windowMs: 1_000,
        marginMs: 0,
        now: options.clock.now,
      }),
      retry: { maxAttempts: 1 },
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      maxInFlight: UPSTREAM_CONCURRENCY,
      listeners: options.listeners,
    });
  }

  /** Why the gateway will not fetch `url`; undefined when it is an operation of the service. */
  private refusal(url: string): string | undefined {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return "not a URL";
    }
    if (parsed.username !== "" || parsed.password !== "") return "credentials in the URL";
    const basePath = this.base.pathname.replace(/\/+$/, "");
    if (parsed.origin !== this.base.origin || !parsed.pathname.startsWith(`${basePath}/`))
      return "another origin";
    let segments: string[];
    try {
      segments = parsed.pathname
        .slice(basePath.length + 1)
        .split("/")
        .map(decodeURIComponent);
    } catch {
      return "a path that cannot be read";
    }
    const match = matchPath(segments);
    if (!match) return "a path that is not an operation";
    if (!match.ids.every((id) => ID_REGEX.test(id))) return "an id that is not one";
    if (pathIdNames(match.spec).length !== match.ids.length)
      return "a path that is not an operation";
    return undefined;
  }

  /** The URL of an operation of the service (segments unencoded, lists as arrays). */
  url(segments: readonly string[], query: ReadonlyArray<readonly [string, QueryValue]>): string {
    return buildUrl(this.base, segments, query);
  }

  /**
   * One attempt at one operation of the service: the answer's envelope (redacted as the module comment says), or
   * the client's CryptometricsError (a refused URL: kind "malformed-response" with a RefusedRequest cause).
   */
  async once(request: UpstreamRequest, signal?: AbortSignal): Promise<UpstreamAnswer> {
    const match = matchPath(request.segments);
    if (!match)
      throw new CryptometricsError("invalid-input", "not an operation of the service", {
        operation: "gateway",
      });
    const url = this.url(request.segments, request.query);
    const listed = request.query.flatMap(([, value]) => (typeof value === "string" ? [] : value));
    const ids = [...match.ids, ...listed].slice(0, 20);
    const result = await runCall(
      this.config,
      match.spec.op,
      match.ids,
      () => ({
        ids,
        // v1's answers may be bare lists (§9 shows no shape): read, and kept bare (see WireEnvelope.bare).
        requests: [{ url, ids, ...(match.spec.path[0] === "v1" ? { bare: true } : {}) }],
        combine: ([envelope]: readonly WireEnvelope[]) => ({ data: envelope, errors: [] }),
      }),
      signal
    );
    const envelope = result.data;
    redactAnswer(envelope, this.serviceKey, textsOf(request));
    return { envelope, simulated: result.meta.simulated };
  }

  /** Whether a failure was the gateway refusing to send (no retry: the same URL would be refused again). */
  static refused(error: unknown): boolean {
    for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; depth++) {
      if (e instanceof RefusedRequest || e.name === "RefusedRequest") return true;
      e = (e as { cause?: unknown }).cause;
    }
    return false;
  }
}
