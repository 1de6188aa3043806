/**
 * What the gateway answers when it cannot answer with data: a status and a message a person can act on, as a
 * JSON body `{ "message": ... }` (the shape the service's own errors have), from ONE error handler.
 *
 * The rule: a message is fixed text. It names a parameter by the interface's own name (a public word) or by its
 * position, never quotes what the caller sent, and never carries the service's own error text (which may echo
 * what the caller sent). Nothing a caller chose ever passes through a redactor that knows a secret, so no answer
 * can tell a caller whether a guess is part of a key (the "[REDACTED]" oracle). The service's text goes to the log
 * only, redacted there with the one key the request used.
 *
 * Failures of the service reach the caller as the status the service gave (400, 404, 429) or, when they are the
 * gateway's business (its service key refused, the service unreachable), 502/503/504: the caller's own token is
 * fine, so the add-in must not tell its user that their key was refused.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { CryptometricsError, type ErrorKind } from "../client";

export class GatewayError extends Error {
  constructor(
    readonly status: number,
    /** Fixed text (see the module comment): never anything the caller sent. */
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

/** The gateway's words for each kind of failure of the service: fixed, whatever the service said. */
const TEXT_OF_KIND: Readonly<Record<ErrorKind, string>> = {
  "invalid-input":
    "The service refused this request as invalid: check the ids, dates and options it asks for",
  unauthorized:
    "The team gateway's service key was refused by the service; tell the gateway's administrator",
  subscription:
    "The team gateway's service plan does not cover this request; tell the gateway's administrator",
  "not-found":
    "Not found at the service: the project, product, market sector or metric asked for is not one it has",
  "rate-limited": "The service's rate limit was reached; try again in a few seconds",
  server: "The service failed to answer the team gateway; try again shortly",
  network: "The service could not be reached from the team gateway; try again shortly",
  timeout: "The service did not answer the team gateway in time; try again shortly",
  cancelled: "The request was cancelled (the team gateway is stopping); try again",
  "malformed-response": "The service's answer could not be read by the team gateway",
  "too-large": "The service's answer was too large for the team gateway to read",
};

/** The same failures when the caller's own registered key was used: their key, their business. */
const OWN_KEY_TEXT: Partial<Record<ErrorKind, [number, string]>> = {
  unauthorized: [
    403,
    "The service refused your own service key (registered on this team gateway): register it again in the add-in's Settings, or remove it to be served with the team's key",
  ],
  subscription: [
    403,
    "Your own service key's plan does not cover this request: check your plan, or remove your key to be served with the team's key",
  ],
};

interface Answer {
  status: number;
  message: string;
  retryAfterSeconds?: number;
}

export const UNEXPECTED = "The team gateway failed unexpectedly; its log says more.";

/**
 * Any failure as the caller's status, message and Retry-After. `ownKey`: the request was served with the
 * caller's own registered key.
 */
function answerOf(error: unknown, ownKey = false): Answer {
  if (error instanceof GatewayError)
    return {
      status: error.status,
      message: error.message,
      ...(error.retryAfterSeconds === undefined
        ? {}
        : { retryAfterSeconds: error.retryAfterSeconds }),
    };
  if (error instanceof CryptometricsError) {
    const own = ownKey ? OWN_KEY_TEXT[error.kind] : undefined;
    if (own) return { status: own[0], message: own[1] };
    const passed =
      (error.kind === "not-found" || error.kind === "invalid-input") &&
      error.status !== undefined &&
      error.status >= 400 &&
      error.status < 500
        ? error.status
        : STATUS_OF_KIND[error.kind];
    const retryAfterSeconds =
      error.retryAfterMs !== undefined
        ? Math.max(1, Math.ceil(error.retryAfterMs / 1000))
        : error.kind === "rate-limited"
          ? 2
          : undefined;
    return {
      status: passed,
      message: TEXT_OF_KIND[error.kind],
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    };
  }
  return { status: 500, message: UNEXPECTED };
}

/** Writes an answer: the JSON body and the headers that go with its status. */
export function sendAnswer(reply: FastifyReply, answer: Answer): FastifyReply {
  if (answer.status === 401)
    reply.header("www-authenticate", 'Bearer realm="cryptometrics-gateway"');
  if (answer.retryAfterSeconds !== undefined)
    reply.header("retry-after", String(answer.retryAfterSeconds));
  return reply.code(answer.status).send({ message: answer.message });
}

/** Explains a schema refusal of a request (interface routes and account routes say it in their words). */
type ValidationExplainer = (request: FastifyRequest, error: FastifyError) => string | undefined;

interface ErrorHandling {
  /** A failure's text as the log may carry it: redacted with the key the request used and the team's. */
  redactFor(request: FastifyRequest, text: string): string;
  explainValidation: ValidationExplainer;
}

/**
 * The one error handler: refusals of the request (schema, body, size) in fixed words, failures as answerOf says,
 * and anything unexpected as a 500 whose cause (redacted) goes to the log.
 */
export function installErrorHandler(app: FastifyInstance, handling: ErrorHandling): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    const own = request.lane?.own === true;
    const fastifyError = error as FastifyError;
    if (Array.isArray(fastifyError.validation)) {
      const text =
        handling.explainValidation(request, fastifyError) ??
        "The request does not match the interface (see the gateway's README)";
      return sendAnswer(reply, { status: 400, message: text });
    }
    const status = fastifyError.statusCode;
    if (
      !(error instanceof GatewayError) &&
      !(error instanceof CryptometricsError) &&
      typeof status === "number" &&
      status >= 400 &&
      status < 500
    )
      return sendAnswer(reply, {
        status,
        message:
          status === 413
            ? "The request's body is too large for the team gateway"
            : status === 415
              ? 'The team gateway takes JSON bodies: send Content-Type: application/json and {"key": "…"}'
              : 'The team gateway could not read the request: send JSON such as {"key": "…"}',
      });
    const answer = answerOf(error, own);
    if (answer.status >= 500 || error instanceof CryptometricsError) {
      const cause = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      const stack = error instanceof Error && answer.status === 500 ? error.stack : undefined;
      const level = answer.status === 500 ? "error" : answer.status >= 500 ? "warn" : "info";
      request.log[level](
        {
          status: answer.status,
          cause: handling.redactFor(request, cause).slice(0, 2_000),
          ...(stack ? { stack: handling.redactFor(request, stack).slice(0, 4_000) } : {}),
        },
        answer.status === 500 ? "request failed unexpectedly" : "the service's failure, answered"
      );
    }
    return sendAnswer(reply, answer);
  });
}
