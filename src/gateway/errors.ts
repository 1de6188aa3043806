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
import { CryptometricsError, GATEWAY_WORDS } from "../client";

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
    // The gateway column of the table of error words (src/client/error-words/).
    const words = GATEWAY_WORDS[error.kind];
    if (ownKey && words.ownKey) return { status: words.ownKey.status, message: words.ownKey.text };
    const passed =
      words.passStatus && error.status !== undefined && error.status >= 400 && error.status < 500
        ? error.status
        : words.status;
    const retryAfterSeconds =
      error.retryAfterMs !== undefined
        ? Math.max(1, Math.ceil(error.retryAfterMs / 1000))
        : words.retryAfterSeconds;
    return {
      status: passed,
      message: words.text,
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
