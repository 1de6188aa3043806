/**
 * One HTTP exchange, headers and body, under the per-attempt time-out: a slot among the exchanges in flight
 * (./in-flight), then a rate-limiter start,
 * then fetch with redirect "manual" (and, in a browser that hides the redirect, once more with
 * "follow"), events for the request and its response, and the body read as text, at most
 * limits.maxResponseBytes of it (./body): a bigger answer is a "too-large" error, never retried.
 */
import { linkSignals, raceAbort } from "./abort";
import { BodyTooLargeError, readBody } from "./body";
import { CryptometricsError } from "../errors";
import {
  GATEWAY_HEADER_NAME,
  isRedirectStatus,
  SIMULATED_HEADER_NAME,
  type FetchResponseLike,
} from "./fetch";
import { requestLabel } from "../label";
import { redact, sanitizeCause } from "../redact";
import type { CallContext, RequestSpec, TransportDeps } from "./request";
import type { Finished } from "./rate-limiter";
import { displayPath } from "./url";

/**
 * A turn in the rate budget. When the call's deadline passes while waiting for one, that is what the error
 * says (a "timeout" with the attempts actually made, 0 for a first attempt), never that the service could
 * not be reached: nothing was sent, and other runs of the same key may hold the budget.
 */
async function slotOf(
  deps: TransportDeps,
  call: CallContext,
  spec: RequestSpec,
  attempt: number
): Promise<Finished> {
  const asked = deps.now();
  try {
    return await deps.limiter.acquire(call.signal);
  } catch (error) {
    if (!call.signal.aborted || call.abortKind() !== "timeout") throw error;
    const waited = Math.round((deps.now() - asked) / 1000);
    throw new CryptometricsError(
      "timeout",
      `${requestLabel(call, spec)}: waited ${waited} s for a turn in the request budget (${deps.limiter.describeBudget()}); the call's deadline passed before its request could be sent`,
      {
        operation: call.operation,
        ids: spec.ids,
        attempts: attempt - 1,
        request: { method: "GET", url: displayPath(spec.url) },
        cause: error,
      }
    );
  }
}

/** One HTTP exchange (headers and body) under the per-attempt timeout. */
export async function fetchOnce(
  deps: TransportDeps,
  call: CallContext,
  spec: RequestSpec,
  url: string,
  /** `url` as events and errors show it: the client's own URL, or a server's Location redacted once. */
  shown: string,
  attempt: number,
  withKey: boolean
): Promise<{ response: FetchResponseLike; body: string }> {
  // A slot first: the rate limiter's start, and this attempt's time-out, begin once the exchange can run.
  const release = await deps.inFlight.acquire(call.signal);
  // The answer (or the failure) is reported back: with a shared ledger, the start counts until then.
  let finished: Finished;
  try {
    finished = await slotOf(deps, call, spec, attempt);
  } catch (error) {
    release();
    throw error;
  }
  const link = linkSignals(call.signal);
  let timedOut = false;
  const budget = Math.max(0, Math.min(deps.limits.timeoutMs, call.deadlineAt - deps.now()));
  const timer = deps.timers.setTimeout(() => {
    timedOut = true;
    link.abort(new Error("attempt timed out"));
  }, budget);
  const headers: Record<string, string> = { Accept: "application/json" };
  if (withKey) headers.Authorization = `Bearer ${call.apiKey}`;
  try {
    const get = async (redirect: "manual" | "follow"): Promise<FetchResponseLike> => {
      call.stats.requests++;
      const startedAt = deps.now();
      deps.events.emit({
        type: "request",
        operation: call.operation,
        method: "GET",
        url: shown,
        attempt,
        at: startedAt,
      });
      const response = await raceAbort(
        deps.fetch(url, { method: "GET", headers, redirect, signal: link.signal }),
        link.signal
      );
      if (response.headers.get(SIMULATED_HEADER_NAME) === "true") call.stats.simulated = true;
      const location = response.headers.get("location");
      deps.events.emit({
        type: "response",
        operation: call.operation,
        url: shown,
        status: response.status,
        ms: deps.now() - startedAt,
        attempt,
        simulated: call.stats.simulated,
        ...(response.headers.get(GATEWAY_HEADER_NAME) !== null ? { gateway: true } : {}),
        ...(location && isRedirectStatus(response.status)
          ? // A server may write the key into a Location (a login page's ?token=): its text, redacted.
            { location: redact(location, [call.apiKey]) }
          : {}),
      });
      return response;
    };
    let response = await get("manual");
    if (response.type === "opaqueredirect") {
      // Browser: the redirect cannot be read, so let the browser follow it (see the module comment).
      response = await get("follow");
      if (response.redirected && response.url) {
        call.stats.redirects.push({
          status: 0,
          from: displayPath(shown),
          to: displayPath(redact(response.url, [call.apiKey])), // the browser's hop: its text
        });
      }
    }
    if (isRedirectStatus(response.status)) {
      // Release the connection; the body of a redirect is of no use.
      response.body?.cancel().catch(() => undefined);
      return { response, body: "" };
    }
    const body = await readBody(response, deps.limits.maxResponseBytes, link.signal);
    return { response, body };
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      // Nothing more is read; the connection goes with the aborted signal.
      link.abort(error);
      throw tooLarge(error, call, spec, shown, attempt);
    }
    if (isDecodingError(error)) {
      // The bytes arrived; they are not what their Content-Encoding says. Asking again brings the same.
      throw new CryptometricsError(
        "malformed-response",
        `${requestLabel(call, spec)}: unusable response: its compressed body is corrupt (${redact(decodingDetail(error), [call.apiKey])})`,
        {
          operation: call.operation,
          ids: spec.ids,
          attempts: attempt,
          request: { method: "GET", url: displayPath(shown) },
          cause: sanitizeCause(error, [call.apiKey]),
        }
      );
    }
    if (timedOut && !call.signal.aborted) {
      throw new CryptometricsError(
        "timeout",
        `${requestLabel(call, spec)}: no answer within ${budget} ms (attempt ${attempt})`,
        {
          operation: call.operation,
          ids: spec.ids,
          attempts: attempt,
          request: { method: "GET", url: displayPath(shown) },
          cause: sanitizeCause(error, [call.apiKey]),
        }
      );
    }
    throw error;
  } finally {
    finished();
    release();
    deps.timers.clearTimeout(timer);
    link.dispose();
  }
}

/** zlib's and brotli's error codes, as Node's fetch (undici) reports a body it could not decompress. */
const DECODING_CODE = /^(Z_[A-Z_]+|ERR_BROTLI[A-Z_]*|ERR__ERROR_[A-Z_0-9]+|ERR_ZLIB[A-Z_]*)$/;

/**
 * The decompression failure in an error's cause chain, if there is one. Duck-typed: errors from Node's
 * internals may come from another realm (a vm context, jest's sandbox), where `instanceof Error` fails.
 */
function decodingCause(error: unknown): { code: string; message?: unknown } | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === "string" && DECODING_CODE.test(code))
      return current as { code: string; message?: unknown };
    current = cause;
  }
  return undefined;
}

/**
 * A body whose bytes could not be decompressed (a corrupt gzip or brotli stream): the answer came, and is
 * unusable; not a network error (which a retry might cure).
 */
function isDecodingError(error: unknown): boolean {
  return decodingCause(error) !== undefined;
}

function decodingDetail(error: unknown): string {
  const cause = decodingCause(error);
  const message = typeof cause?.message === "string" ? cause.message : "";
  return [cause?.code ?? "", message].filter(Boolean).join(": ");
}

function megabytes(bytes: number): string {
  const mb = bytes / 1_048_576;
  return `${mb >= 10 ? Math.round(mb) : Math.round(mb * 10) / 10} MB`;
}

function tooLarge(
  error: BodyTooLargeError,
  call: CallContext,
  spec: RequestSpec,
  url: string,
  attempt: number
): CryptometricsError {
  const what =
    error.declaredBytes === undefined
      ? `the service's answer is larger than ${megabytes(error.limitBytes)}`
      : `the service announced an answer of ${megabytes(error.declaredBytes)}`;
  return new CryptometricsError(
    "too-large",
    `${requestLabel(call, spec)}: ${what}, over the client's limit of ${megabytes(error.limitBytes)}; it was not read. Ask for less (a shorter period, fewer projects)`,
    {
      operation: call.operation,
      ids: spec.ids,
      attempts: attempt,
      request: { method: "GET", url: displayPath(url) },
      cause: error,
    }
  );
}
