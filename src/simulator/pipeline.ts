/**
 * What happens to one request, in order:
 *  1. logged (status 0 until answered); simulated + CORS headers set;
 *  2. `hang`: never answered;
 *  3. latency;
 *  4. OPTIONS: CORS preflight (204) under the reading preflight=answer, else 405 as any other method than GET;
 *  5. bearer auth: 401 without an accepted key;
 *  6. rate limit per key: 429 (Retry-After when enabled);
 *  7. injected 429s, then injected 5xx;
 *  8. a renamed project id: 308 to the new path;
 *  9. the operation (404 for unknown paths, 400 for invalid parameters);
 * 10. `fault`: the answer damaged (or the socket reset).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { DemoDataset, todayOf } from "./data/dataset";
import { HttpError, Query } from "./http/params";
import { matchRoute, pathSegments } from "./http/router";
import { drawFor, RateLimiter, sendsRetryAfter, type ActiveKnobs } from "./knobs";
import { commonHeaders, preflight, sendEmpty, sendFault, sendJson, type Reply } from "./responses";
import type { RequestLogEntry } from "./types";
import { messageOf } from "../client";
import { Restatements } from "./restatements";
import { parseDate } from "./util/days";

interface PipelineState {
  now: () => number;
  /** The dataset's fixed "today", when set; otherwise the UTC day of now(). */
  today?: string;
  apiKeys: readonly string[];
  knobs: () => ActiveKnobs;
  random: () => number;
  log: (entry: RequestLogEntry) => void;
  answered: (entry: RequestLogEntry) => void;
  /** Resolves true after ms, or false at once if the simulator closes first (the request is then dropped). */
  delay: (ms: number) => Promise<boolean>;
  /** Size of the project universe (see SimulatorOptions.projects). */
  projects?: number;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

export function createPipeline(
  state: PipelineState
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const limiter = new RateLimiter();
  // One restating service per setting (setKnobs with a new one starts afresh) and per dataset day.
  let restating: { setting: object; today: string; restatements: Restatements } | undefined;
  const restatementsFor = (knobs: ActiveKnobs, today: string): Restatements | undefined => {
    if (knobs.restatements.mode === "none") return undefined;
    if (restating?.setting !== knobs.restatements || restating.today !== today) {
      const { mode, ...choice } = knobs.restatements;
      restating = {
        setting: knobs.restatements,
        today,
        restatements: new Restatements(mode, parseDate(today) ?? 0, choice),
      };
    }
    return restating.restatements;
  };
  const datasets = new Map<string, DemoDataset>();

  const datasetFor = (today: string): DemoDataset => {
    let dataset = datasets.get(today);
    if (!dataset) {
      // Tests move the clock across days; keep only the latest couple of datasets.
      if (datasets.size >= 2) datasets.delete(datasets.keys().next().value as string);
      dataset = new DemoDataset(today, { projects: state.projects });
      datasets.set(today, dataset);
    }
    return dataset;
  };

  return async (req, res) => {
    const url = new URL(req.url ?? "/", "http://simulator.invalid");
    const method = (req.method ?? "GET").toUpperCase();
    const presented = BEARER.exec(req.headers.authorization ?? "")?.[1];
    const entry: RequestLogEntry = {
      method,
      path: url.pathname,
      query: redactedQuery(url.searchParams, [...state.apiKeys, ...(presented ? [presented] : [])]),
      status: 0,
      at: state.now(),
      authorized: false,
    };
    state.log(entry);
    commonHeaders(res);
    const finish = (reply: Reply) => {
      // Bodies of error answers are not shown by the interface (§7): the errorBodies reading decides.
      if (reply.status >= 400 && state.knobs().readings.errorBodies === "empty")
        sendEmpty(res, reply);
      else sendJson(res, reply);
      entry.status = reply.status;
      state.answered(entry);
    };

    const knobs = state.knobs();
    if (knobs.hang === true || (knobs.hang instanceof RegExp && matches(knobs.hang, url.pathname)))
      return;
    const draws = drawFor(knobs, state.random);
    if (draws.latencyMs > 0 && !(await state.delay(draws.latencyMs))) return;

    const answersPreflight = knobs.readings.preflight === "answer";
    if (method === "OPTIONS" && answersPreflight) {
      preflight(res, req.headers["access-control-request-private-network"] === "true");
      entry.status = 204;
      state.answered(entry);
      return;
    }
    if (method !== "GET") {
      return finish({
        status: 405,
        body: { message: `Method ${method} not allowed: the service is read-only (GET).` },
        headers: { Allow: answersPreflight ? "GET, OPTIONS" : "GET" },
      });
    }
    const keyIndex = presented === undefined ? -1 : state.apiKeys.indexOf(presented);
    if (keyIndex < 0) {
      const message = req.headers.authorization
        ? "Invalid authorization header"
        : "Missing authorization header";
      return finish({
        status: 401,
        body: { message },
        headers: { "WWW-Authenticate": 'Bearer realm="cryptometrics"' },
      });
    }
    entry.authorized = true;

    if (knobs.rateLimit) {
      const verdict = limiter.take(keyIndex, state.now(), knobs.rateLimit);
      if (!verdict.allowed) {
        const seconds = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
        const { limit, windowMs } = knobs.rateLimit;
        return finish({
          status: 429,
          body: {
            message: `Too many requests: the limit is ${limit} requests per ${windowMs / 1000} seconds.`,
          },
          headers: sendsRetryAfter(knobs.rateLimit.retryAfter, knobs.readings)
            ? { "Retry-After": String(seconds) }
            : {},
        });
      }
    }
    if (draws.inject429) {
      return finish({
        status: 429,
        body: { message: "Too many requests (simulated)." },
        headers: sendsRetryAfter(knobs.retryAfter429, knobs.readings) ? { "Retry-After": "1" } : {},
      });
    }
    if (draws.inject5xx !== undefined) {
      const messages = {
        500: "Internal server error",
        502: "Bad gateway",
        503: "Service unavailable",
      };
      return finish({
        status: draws.inject5xx,
        body: { message: `${messages[draws.inject5xx]} (simulated).` },
      });
    }

    const segments = pathSegments(url.pathname);
    const renamedTo =
      segments && segments[1] === "projects" && segments.length >= 3
        ? knobs.renamed[segments[2]]
        : undefined;
    let reply: Reply;
    if (segments && renamedTo !== undefined) {
      const moved = [...segments.slice(0, 2), renamedTo, ...segments.slice(3)]
        .map(encodeURIComponent)
        .join("/");
      reply = {
        status: 308,
        body: { message: `Project ${segments[2]} was renamed to ${renamedTo}.` },
        headers: { Location: `/${moved}${url.search}` },
      };
    } else {
      const today = state.today ?? todayOf(state.now());
      reply = route(segments, url, datasetFor(today), knobs);
      // A restating service changes days it served before, as the answer leaves (restatements.ts).
      if (reply.status === 200)
        restatementsFor(knobs, today)?.restateAnswer(url.pathname, reply.body);
    }

    if (draws.fault === "reset") {
      req.socket.destroy();
      state.answered(entry);
      return;
    }
    if (draws.fault !== null) {
      entry.status = sendFault(res, draws.fault, reply, `${url.pathname}${url.search}`);
      state.answered(entry);
      return;
    }
    finish(reply);
  };
}

function route(
  segments: string[] | undefined,
  url: URL,
  dataset: DemoDataset,
  knobs: ActiveKnobs
): Reply {
  const match = segments ? matchRoute(segments) : undefined;
  if (!match) return { status: 404, body: { message: `Not found: ${url.pathname}` } };
  try {
    const query = new Query(url.searchParams, match.accepted(knobs.readings));
    const unknown = query.unknown();
    if (unknown.length > 0 && knobs.readings.unknownParams === "refuse") {
      throw new HttpError(
        400,
        `Unknown parameter${unknown.length === 1 ? "" : "s"} ${unknown.join(", ")} for ${url.pathname}.`
      );
    }
    const result = match.handler({
      dataset,
      knobs: {
        reportUnavailable: knobs.reportUnavailable,
        duplicateRows: knobs.duplicateRows,
        readings: knobs.readings,
      },
      query,
      params: match.params,
    });
    return "body" in result
      ? { status: 200, body: result.body, headers: result.headers }
      : { status: 200, body: result };
  } catch (error: unknown) {
    if (error instanceof HttpError)
      return { status: error.status, body: { message: error.message }, headers: error.headers };
    const message = messageOf(error);
    return { status: 500, body: { message: `Simulator error: ${message}` } };
  }
}

function matches(pattern: RegExp, path: string): boolean {
  pattern.lastIndex = 0;
  return pattern.test(path);
}

function redactedQuery(
  params: URLSearchParams,
  secrets: readonly string[]
): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of params) query[name] = secrets.includes(value) ? "[redacted]" : value;
  return query;
}
