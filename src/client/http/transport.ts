/**
 * One logical request: rate-limiter slot, fetch with a per-attempt timeout, redirects, the response
 * read, and retries with backoff until success, a final error, the attempt cap or the call deadline.
 *
 * Redirects work in Node and in the browser alike. The client asks fetch for redirect: "manual".
 * In Node the 3xx arrives readable: the client follows it itself (at most limits.maxRedirects hops),
 * sending the key only to the same origin, refusing http outside loopback, and reporting a loop or too
 * many hops as "malformed-response" (the server is misconfigured; retrying cannot help). In a browser
 * the 3xx arrives opaque (unreadable): the client repeats the request with redirect: "follow", and the
 * browser follows it, dropping Authorization on a cross-origin hop as the Fetch standard requires.
 *
 * Time-outs: each attempt (and each redirect hop) gets the smaller of limits.timeoutMs and the time
 * left before the call's deadline. A timed-out attempt is retried like a network error while the
 * attempt cap and the deadline allow (policy.retryTimeouts); the deadline itself is final.
 * Retries: 429, listed 5xx, network errors and time-outs; Retry-After wins over the own schedule, above
 * a floor (policy.minRetryAfterMs): "Retry-After: 0" or a past date gets the rate-limited schedule.
 * A body over limits.maxResponseBytes is "too-large": never retried (it would be as large again).
 */
import { abortReason } from "./abort";
import { retryDelay } from "./backoff";
import { CryptometricsError, type ErrorKind } from "../errors";
import { fetchOnce } from "./exchange";
import { isRedirectStatus } from "./fetch";
import type { RetryPolicy } from "../policy";
import { requestLabel } from "../label";
import { interpretResponse } from "./response";
import { sanitizeCause } from "../redact";
import { redirectTarget } from "./redirect";
import type { CallContext, RequestSpec, TransportDeps } from "./request";
import { displayPath } from "./url";
import type { WireEnvelope } from "../data/wire";

export async function sendRequest(
  deps: TransportDeps,
  call: CallContext,
  spec: RequestSpec
): Promise<WireEnvelope> {
  const { policy } = deps;
  // The failure that made us retry: when the deadline then cuts the retries short (a long queue at the
  // limiter), the caller hears about it ("service error", "rate limited"), not only that time ran out.
  let retried: CryptometricsError | undefined;
  const cutShort = (e: unknown, attempt: number): CryptometricsError => {
    const error = asClientError(e, call, spec, attempt);
    return retried && error.kind === "timeout" && call.abortKind() === "timeout"
      ? giveUp(retried, attempt - 1, call, "the call's deadline passed before the next attempt")
      : error;
  };
  for (let attempt = 1; ; attempt++) {
    let error: CryptometricsError;
    let known: ReturnType<typeof knownNetworkFailure>;
    try {
      return await attemptOnce(deps, call, spec, attempt);
    } catch (e) {
      // Only a failure without an HTTP answer can be one of those (an answer is the client's own error).
      known =
        call.signal.aborted || e instanceof CryptometricsError
          ? undefined
          : knownNetworkFailure(e, new URL(spec.url));
      error = call.signal.aborted ? cutShort(e, attempt) : asClientError(e, call, spec, attempt);
    }
    // Cancelled or past the deadline, or an address that is wrong: nothing more to try.
    if (call.signal.aborted || known?.retry === "never" || !shouldRetry(error, policy)) throw error;
    const serverWait = error.retryAfterMs;
    const rateLimited = error.kind === "rate-limited";
    const cap = known?.retry === "refused" ? policy.maxRefusedAttempts : policy.maxAttempts;
    if (attempt >= Math.min(cap, policy.maxAttempts)) {
      // A caller told "rate limited" also learns when trying again makes sense.
      const next = retryDelay(policy, attempt, deps.random, true, serverWait).delayMs;
      throw giveUp(rateLimited ? error.with({ retryAfterMs: next }) : error, attempt, call);
    }
    if (serverWait !== undefined && serverWait > policy.maxRetryAfterMs) {
      throw giveUp(
        error,
        attempt,
        call,
        `the service asks to wait ${Math.ceil(serverWait / 1000)} s`
      );
    }
    const { delayMs: delay } = retryDelay(policy, attempt, deps.random, rateLimited, serverWait);
    if (deps.now() + delay > call.deadlineAt) {
      throw giveUp(error, attempt, call, "no time left to retry before the call's deadline");
    }
    deps.events.emit({
      type: "retry",
      operation: call.operation,
      // The client's own URL: nothing in it to redact (see ../redact.ts).
      url: spec.url,
      attempt,
      delayMs: delay,
      reason: error.kind,
      ...(error.status === undefined ? {} : { status: error.status }),
      ...(serverWait === undefined ? {} : { retryAfterMs: serverWait }),
    });
    // Every caller sharing the limiter waits too: the others would only collect more 429s.
    if (rateLimited) deps.limiter.pauseUntil(deps.now() + delay);
    retried = error;
    try {
      await deps.sleep(delay, call.signal);
    } catch (e) {
      throw cutShort(e, attempt + 1);
    }
  }
}

function shouldRetry(error: CryptometricsError, policy: RetryPolicy): boolean {
  if (error.status !== undefined) return policy.retryStatuses.includes(error.status);
  if (error.kind === "network") return policy.retryNetworkErrors;
  if (error.kind === "timeout") return policy.retryTimeouts;
  return false;
}

function giveUp(
  error: CryptometricsError,
  attempts: number,
  call: CallContext,
  why?: string
): CryptometricsError {
  const parts = [attempts > 1 ? `gave up after ${attempts} attempts` : "", why ?? ""].filter(
    Boolean
  );
  const suffix = parts.length > 0 ? ` (${parts.join("; ")})` : "";
  return error.with({ message: `${error.message}${suffix}`, attempts });
}

async function attemptOnce(
  deps: TransportDeps,
  call: CallContext,
  spec: RequestSpec,
  attempt: number
): Promise<WireEnvelope> {
  let url = spec.url;
  // The URL as reports show it: the client's own, then each server's Location redacted once (./redirect).
  let shown = url;
  let sameOrigin = true;
  const visited = [url];
  const shownVisited = [shown];
  for (let hop = 0; ; hop++) {
    const res = await fetchOnce(deps, call, spec, url, shown, attempt, sameOrigin);
    if (!isRedirectStatus(res.response.status)) {
      return interpretResponse(res.response, res.body, {
        operation: call.operation,
        label: requestLabel(call, spec),
        ids: spec.ids,
        url: displayPath(shown),
        secrets: [call.apiKey],
        now: deps.now(),
        attempt,
        bare: spec.bare === true,
      });
    }
    const target = redirectTarget(
      res.response,
      { url, shown },
      { visited, shown: shownVisited },
      hop,
      deps.limits.maxRedirects,
      call,
      spec
    );
    sameOrigin = sameOrigin && new URL(target.next).origin === new URL(spec.url).origin;
    call.stats.redirects.push({
      status: res.response.status,
      from: displayPath(shown),
      to: displayPath(target.shown),
    });
    visited.push(target.next);
    shownVisited.push(target.shown);
    url = target.next;
    shown = target.shown;
  }
}

/** Any failure of an attempt as a client error: aborts by kind, unknown throws as network errors. */
function asClientError(
  error: unknown,
  call: CallContext,
  spec: RequestSpec,
  attempt: number
): CryptometricsError {
  if (error instanceof CryptometricsError) return error;
  const base = {
    operation: call.operation,
    ids: spec.ids,
    attempts: attempt,
    request: { method: "GET" as const, url: displayPath(spec.url) },
  };
  const label = requestLabel(call, spec);
  if (call.signal.aborted) {
    const kind: ErrorKind = call.abortKind();
    const message =
      kind === "cancelled"
        ? `${label}: cancelled`
        : `${label}: the call's deadline passed before it completed`;
    return new CryptometricsError(kind, message, { ...base, cause: abortReason(call.signal) });
  }
  const target = new URL(spec.url);
  // fetch's error is foreign text (a proxy's, a test double's may quote the request): one pass, on arrival.
  const cause = sanitizeCause(error, [call.apiKey]);
  const known = knownNetworkFailure(error, target);
  if (known)
    return new CryptometricsError("network", `${label}: ${known.message}`, { ...base, cause });
  const reason = describeNetworkError(cause);
  return new CryptometricsError(
    "network",
    `${label}: network error reaching ${target.host}: ${reason}`,
    { ...base, cause }
  );
}

type ErrorLike = { message: string; code?: unknown; cause?: unknown };

/** Read by shape: fetch's errors may come from another realm (a worker, a test's sandbox). */
function errorLike(value: unknown): ErrorLike | undefined {
  return typeof value === "object" &&
    value !== null &&
    typeof (value as { message?: unknown }).message === "string"
    ? (value as ErrorLike)
    : undefined;
}

/** The cause's code (undici hides it in `cause`): "ECONNREFUSED", "ERR_SSL_WRONG_VERSION_NUMBER"… */
function causeOf(error: unknown): { code: string; message: string } | undefined {
  const outer = errorLike(error);
  if (!outer) return undefined;
  const source = errorLike(outer.cause) ?? outer;
  return { code: typeof source.code === "string" ? source.code : "", message: source.message };
}

const CERTIFICATE_CODES =
  /^(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT(_LOCALLY)?|CERT_HAS_EXPIRED|CERT_NOT_YET_VALID|ERR_TLS_CERT_ALTNAME_INVALID)$/;

/**
 * The failures a person can act on, in words (the system's text is OpenSSL's or undici's): https to a server
 * that speaks plain http, nothing listening at the address, a host that does not exist, a certificate this
 * computer does not trust, a port browsers and Node refuse. All but "nothing listening" fail the same way when
 * asked again: never retried. Nothing listening may be a server restarting: retried up to
 * policy.maxRefusedAttempts.
 */
function knownNetworkFailure(
  error: unknown,
  url: URL
): { message: string; retry: "never" | "refused" } | undefined {
  const cause = causeOf(error);
  if (!cause) return undefined;
  const { code, message } = cause;
  const host = url.host;
  if (
    url.protocol === "https:" &&
    (code === "ERR_SSL_WRONG_VERSION_NUMBER" ||
      /wrong version number|packet length too long/i.test(message))
  )
    return {
      message: `${host} answers plain http, not https: use http://${host} as the address`,
      retry: "never",
    };
  if (code === "ECONNREFUSED")
    return {
      message: `nothing answers at ${host} (connection refused): is the server running?`,
      retry: "refused",
    };
  if (code === "ENOTFOUND")
    return {
      message: `the host ${url.hostname} does not exist (no DNS entry): check the address`,
      retry: "never",
    };
  if (CERTIFICATE_CODES.test(code))
    return {
      message: `the certificate of ${host} is not trusted on this computer (${code}): use the service's public address, or trust its certificate authority`,
      retry: "never",
    };
  if (/^bad port$/i.test(message))
    return {
      message: `port ${url.port} is one that browsers and Node refuse to call: use another port`,
      retry: "never",
    };
  return undefined;
}

/** "fetch failed (ECONNRESET: socket hang up)": undici hides the useful part in `cause`. */
function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const inner: unknown = error.cause;
  if (!(inner instanceof Error)) return error.message;
  const code = (inner as Error & { code?: unknown }).code;
  const detail = [typeof code === "string" ? code : "", inner.message].filter(Boolean).join(": ");
  return detail && detail !== error.message ? `${error.message} (${detail})` : error.message;
}
