/**
 * What the gateway answers when it cannot answer with data: a status and a message a person can act on, as a
 * JSON body `{ "message": ... }` (the shape the service's own errors have). Failures of the service reach the
 * caller as the status the service would have given (400, 404, 429...), except the ones that are the gateway's
 * business (its service key refused, the service unreachable), which are 502/503/504: the caller's own token
 * is fine, so the add-in must not tell its user that their key was refused.
 *
 * Every message is redacted of the service key before it leaves (the client's errors already are; this is the
 * second lock on the door).
 */
import { CryptometricsError, type ErrorKind } from "../client";
import { redact } from "../client";

export class GatewayError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Seconds the caller should wait before trying again (Retry-After). */
    readonly retryAfterSeconds?: number
  ) {
    super(message);
    this.name = "GatewayError";
  }
}

/** Statuses the service's own failures are passed on as, by the client's kind. */
const STATUS_OF_KIND: Readonly<Record<ErrorKind, number>> = {
  "invalid-input": 400,
  // The gateway's service key was refused: the administrator's problem, not the caller's.
  unauthorized: 502,
  subscription: 502,
  "not-found": 404,
  "rate-limited": 429,
  server: 502,
  network: 502,
  timeout: 504,
  cancelled: 503,
  "malformed-response": 502,
  "too-large": 502,
};

/** The gateway's words for the failures that are not the caller's doing. */
function explain(kind: ErrorKind, message: string): string {
  switch (kind) {
    case "unauthorized":
    case "subscription":
      return `The team gateway's service key was refused by the service; tell the gateway's administrator (${message})`;
    case "network":
    case "server":
      return `The service could not be reached from the team gateway: ${message}`;
    case "timeout":
      return `The service did not answer the team gateway in time: ${message}`;
    case "malformed-response":
    case "too-large":
      return `The service's answer could not be read by the team gateway: ${message}`;
    default:
      return message;
  }
}

/** Any failure as the status, message and Retry-After the caller gets; `secrets` are redacted. */
export function toAnswer(
  error: unknown,
  secrets: readonly string[]
): { status: number; message: string; retryAfterSeconds?: number } {
  if (error instanceof GatewayError) {
    return {
      status: error.status,
      message: redact(error.message, secrets),
      ...(error.retryAfterSeconds === undefined
        ? {}
        : { retryAfterSeconds: error.retryAfterSeconds }),
    };
  }
  if (error instanceof CryptometricsError) {
    const status =
      error.kind === "not-found" || error.kind === "invalid-input"
        ? (error.status ?? STATUS_OF_KIND[error.kind])
        : STATUS_OF_KIND[error.kind];
    const retryAfterSeconds =
      error.retryAfterMs !== undefined
        ? Math.max(1, Math.ceil(error.retryAfterMs / 1000))
        : undefined;
    return {
      status,
      message: redact(explain(error.kind, error.message), secrets),
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    };
  }
  return { status: 500, message: "The team gateway failed unexpectedly; its log says more." };
}
