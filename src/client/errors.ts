/**
 * The client's one error type. `kind` is the stable contract (callers map it to Excel errors, to the
 * taskpane's messages and to retry decisions); messages are for people and may change.
 */
import { redact, sanitizeCause } from "./redact";

export { redact, snippet } from "./redact";

export const ERROR_KINDS = [
  "invalid-input", // caught before sending, or a 400 from the service
  "unauthorized", // 401, or no key set
  "subscription", // 402/403: the plan does not cover this call
  "not-found", // 404
  "rate-limited", // 429 after retries
  "server", // 5xx after retries
  "network", // no HTTP answer (DNS, reset, refused), after retries
  "timeout", // an attempt or the whole call ran out of time
  "cancelled", // the caller's AbortSignal fired
  "malformed-response", // an answer we cannot use: HTML, wrong type, truncated JSON, no `data`, loops
  "too-large", // an answer over the client's size limit: not read, never retried (it would be as big again)
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

/** Kinds worth another attempt: the same request may well succeed a moment later. */
const RETRYABLE: ReadonlySet<ErrorKind> = new Set<ErrorKind>([
  "rate-limited",
  "server",
  "network",
  "timeout",
]);

interface ErrorDetails {
  /** Client method that failed, e.g. "getProjectMetrics". */
  operation: string;
  status?: number;
  /** The ids the failing request was about (project, product, metric ids...). */
  ids?: readonly string[];
  /** From Retry-After or the client's own backoff: when trying again makes sense. */
  retryAfterMs?: number;
  /** HTTP attempts made before giving up (retries included). */
  attempts?: number;
  /** The request that failed, as it can safely be shown: method and URL only, never headers. */
  request?: { method: "GET"; url: string };
  cause?: unknown;
  /**
   * Secrets to look for in message and cause (the API key): for text not yet redacted. The client's own errors
   * need none: their foreign parts were redacted on arrival (see redact.ts, "Where it runs").
   */
  secrets?: readonly (string | undefined)[];
}

export class CryptometricsError extends Error {
  readonly kind: ErrorKind;
  readonly operation: string;
  readonly status?: number;
  readonly ids?: readonly string[];
  readonly retryAfterMs?: number;
  readonly attempts?: number;
  readonly request?: { readonly method: "GET"; readonly url: string };

  constructor(kind: ErrorKind, message: string, details: ErrorDetails) {
    const secrets = details.secrets ?? [];
    const cause = sanitizeCause(details.cause, secrets);
    super(redact(message, secrets), cause === undefined ? undefined : { cause });
    this.name = "CryptometricsError";
    this.kind = kind;
    this.operation = details.operation;
    if (details.status !== undefined) this.status = details.status;
    if (details.ids !== undefined) this.ids = [...details.ids];
    if (details.retryAfterMs !== undefined) this.retryAfterMs = details.retryAfterMs;
    if (details.attempts !== undefined) this.attempts = details.attempts;
    if (details.request !== undefined) {
      this.request = { method: "GET", url: redact(details.request.url, secrets) };
    }
    // Error's own `cause` is set by super() only where the runtime supports it; make it uniform.
    if (cause !== undefined && !("cause" in this)) {
      Object.defineProperty(this, "cause", { value: cause, writable: true, configurable: true });
    }
  }

  /** Whether the retry policy would try again after this error. */
  get retryable(): boolean {
    return RETRYABLE.has(this.kind);
  }

  /** A copy with more facts attached (attempt count, final message), same kind and cause. */
  with(details: Partial<ErrorDetails> & { message?: string }): CryptometricsError {
    return new CryptometricsError(this.kind, details.message ?? this.message, {
      operation: details.operation ?? this.operation,
      status: details.status ?? this.status,
      ids: details.ids ?? this.ids,
      retryAfterMs: details.retryAfterMs ?? this.retryAfterMs,
      attempts: details.attempts ?? this.attempts,
      request: details.request ?? this.request,
      cause: details.cause ?? this.cause,
      secrets: details.secrets,
    });
  }

  /** Serialisable form for logs and diagnostics: no stack, the cause reduced to its (redacted) message. */
  toJSON(): Record<string, unknown> {
    const cause = this.cause;
    return {
      name: this.name,
      kind: this.kind,
      message: this.message,
      operation: this.operation,
      status: this.status,
      ids: this.ids,
      retryAfterMs: this.retryAfterMs,
      attempts: this.attempts,
      request: this.request,
      cause:
        cause instanceof Error
          ? `${cause.name}: ${redact(cause.message)}`
          : cause === undefined
            ? undefined
            : redact(messageOf(cause)),
    };
  }
}

export function isCryptometricsError(value: unknown): value is CryptometricsError {
  return value instanceof CryptometricsError;
}

export function isRetryableKind(kind: ErrorKind): boolean {
  return RETRYABLE.has(kind);
}

/** The kind an HTTP error status stands for; undefined for statuses that are not errors. */
export function kindForStatus(status: number): ErrorKind | undefined {
  if (status >= 200 && status < 300) return undefined;
  if (status === 401) return "unauthorized";
  if (status === 402 || status === 403) return "subscription";
  if (status === 404 || status === 410) return "not-found";
  if (status === 408) return "timeout";
  if (status === 429) return "rate-limited";
  if (status >= 500 && status < 600) return "server";
  if (status >= 400 && status < 500) return "invalid-input";
  // 1xx, an unfollowed 3xx, or nonsense: nothing we can use.
  return "malformed-response";
}

/**
 * The message of anything thrown: an error's message, or the thing itself as text. Duck-typed, because
 * errors from Node internals or another realm (jest's sandbox, a vm context) are not `instanceof Error` here.
 */
export function messageOf(error: unknown): string {
  return typeof error === "object" &&
    error !== null &&
    typeof (error as { message?: unknown }).message === "string"
    ? (error as { message: string }).message
    : String(error);
}

/** The first line of messageOf: what a one-line report (the CLI's stderr, a status bar) shows. */
export function firstLineOf(error: unknown): string {
  return messageOf(error).split("\n")[0];
}
