/**
 * What a lane remembers of a failed request (FAILURE_TTL_MS): under its key's namespace and the request's own key,
 * so one user's refused request fails no one else's (another request, another key), and only its kind and
 * status: never a message of the service's, which may quote what the caller sent.
 */
import { CryptometricsError, type ErrorKind } from "../client";
import type { Ask } from "./ask";
import { GatewayError } from "./errors";

interface Failure {
  kind?: ErrorKind;
  status?: number;
  retryAfterMs?: number;
  /** A GatewayError's own (fixed) text and status. */
  gateway?: { status: number; message: string; retryAfterSeconds?: number };
}

/** A failure as remembered: its kind and status, never a message of the service's (it may quote the caller). */
export function encodeFailure(error: unknown): string {
  const f: Failure =
    error instanceof GatewayError
      ? {
          gateway: {
            status: error.status,
            message: error.message,
            ...(error.retryAfterSeconds === undefined
              ? {}
              : { retryAfterSeconds: error.retryAfterSeconds }),
          },
        }
      : error instanceof CryptometricsError
        ? {
            kind: error.kind,
            ...(error.status === undefined ? {} : { status: error.status }),
            ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
          }
        : { kind: "malformed-response" };
  return JSON.stringify(f);
}

/** The failure a remembered one stands for, answered as the first was (in fixed words). */
export function decodeFailure(text: string): Error {
  try {
    const f = JSON.parse(text) as Failure;
    if (f.gateway)
      return new GatewayError(f.gateway.status, f.gateway.message, f.gateway.retryAfterSeconds);
    return new CryptometricsError(f.kind ?? "server", "an earlier fetch of this request failed", {
      operation: "gateway",
      ...(f.status === undefined ? {} : { status: f.status }),
      ...(f.retryAfterMs === undefined ? {} : { retryAfterMs: f.retryAfterMs }),
    });
  } catch {
    return new CryptometricsError("server", "an earlier fetch of this request failed", {
      operation: "gateway",
    });
  }
}

/** Where a request's failure is remembered: per key (the lane's namespace) and per request. */
export function failureKeyOf(namespace: string, ask: Ask): string {
  return `${namespace}\n${ask.key}`;
}
