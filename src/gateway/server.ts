/**
 * The team gateway: the service's interface (every v2 operation and v1's two) at its own origin, on fastify.
 * A request is authenticated (verifiers), checked against the interface (ask.ts), and answered from what the
 * team's processes share (answers.ts), which fetch from the service with the service key, within one budget.
 * Also: /healthz (the process is up), /readyz (ready to serve, and with what: Redis or process memory),
 * /metrics (Prometheus, for callers with a token).
 *
 * Nothing else is answered: another path is 404, another method 405 (GET only, as the service), and no header of
 * the caller's reaches the service.
 */
import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from "fastify";
import { RateLimiterMemory, RateLimiterRedis } from "rate-limiter-flexible";
import {
  realTimers,
  type ClientListener,
  type FetchLike,
  type RetryPolicy,
  type StartLedger,
  type Timers,
} from "../client";
import { redact } from "../client";
import { SIMULATED_HEADER_NAME } from "../client";
import { Answers, type Served } from "./answers";
import { parseAsk } from "./ask";
import { bearerOf, identify, type Caller, type Verifier } from "./auth/verifier";
import { GatewayError, toAnswer } from "./errors";
import { userCapOf, type UserCap } from "./fair-scheduler";
import { GatewayMetrics } from "./metrics";
import { OPERATIONS, routeOf, type OperationSpec } from "./operations";
import { FailoverStore } from "./store/failover-store";
import { FailoverLedger, Peers, RedisStartLedger } from "./store/ledger";
import { MemoryStore } from "./store/memory-store";
import { RedisLink } from "./store/redis-link";
import { RedisStore } from "./store/redis-store";
import type { Store } from "./store/store";
import { Upstream } from "./upstream";
import { ACCOUNT_PREFIX, registerAccountRoutes, type Budget, type SignInConfig } from "./account";
import type { UserKeys } from "./auth/user-keys";
import { Usage } from "./usage";

export interface GatewayConfig {
  /** The service's base URL (https, or http on loopback). */
  serviceUrl: string;
  /** The service key: used for upstream calls only, never shown. */
  serviceKey: string;
  /**
   * The service keys verifiers may name for their callers (`Caller.serviceKeyId`, per-user keys), by id;
   * undefined when none is registered. Each key has its own budget and cache namespace.
   */
  serviceKeys?: (id: string) => Promise<string | undefined>;
  /**
   * Per-user service keys (encrypted at rest): a signed-in caller who registered one is served with it, in
   * its own lane. Undefined: the gateway takes no personal keys.
   */
  userKeys?: UserKeys;
  /** Every signed-in caller must have registered their own key (their data plan ties keys to people). */
  requireUserKeys?: boolean;
  /**
   * Whether answers fetched with one service key may serve callers of another (default false: a person's plan
   * may see other data than the team's, so each key keeps its own cache; the budget is per key either way).
   */
  shareAnswersAcrossKeys?: boolean;
  /** How the add-in signs in (published at /gateway/v1/sign-in); undefined: sign-in not set up. */
  signIn?: SignInConfig;
  /** Token names (tokens file) that may read everyone's usage. */
  admins?: readonly string[];
  verifiers: readonly Verifier[];
  /** redis://HOST:PORT; undefined: process memory (one process). */
  redisUrl?: string;
  /** Upstream requests per window for the service key (default 60: the service's limit). */
  rateLimit?: number;
  /** The window (default a minute; shorter only against a simulator whose minute runs faster). */
  windowMs?: number;
  /** Upstream requests one user may start per window across processes (default three quarters of the limit). */
  userRate?: number;
  /** Upstream requests under way at once in this process (default 8). */
  concurrency?: number;
  /** How long a caller is held at most before 503 + Retry-After (default 25 s). */
  holdMs?: number;
  /** How long a process waits for Redis at start before serving from memory (default 3 s). */
  redisStartMs?: number;
  fetch?: FetchLike;
  retry?: Partial<RetryPolicy>;
  /** Longest open start of another process (the limiter's openMs; scaled with the window). */
  openMs?: number;
  timers?: Timers;
  now?: () => number;
  /** pino's level (default "info"); "silent" turns the log off. */
  logLevel?: string;
  /** Where the log goes (default stderr: stdout carries only the listening line). */
  logStream?: NodeJS.WritableStream;
}

export interface Gateway {
  readonly app: FastifyInstance;
  /** Starts listening; resolves with http://HOST:PORT. */
  listen(port: number, host: string): Promise<string>;
  /** Answers one request from another server (npm start mounts the gateway in its dev server). */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Whether a path is the gateway's to answer (the interface's, /healthz, /readyz, /metrics). */
  owns(path: string): boolean;
  /** Stops taking requests, lets the ones in flight finish, then closes its connections. */
  close(): Promise<void>;
}

/** The namespace of a service and key: answers and budgets of one never meet another's. */
function namespaceOf(serviceUrl: string, serviceKey: string): { store: string; budget: string } {
  const hash = (text: string): string =>
    createHash("sha256").update(text).digest("hex").slice(0, 24);
  return {
    store: `cm:gw:1:${hash(`${serviceUrl}\n${serviceKey}`)}:`,
    budget: `cm:gw:1:budget:${hash(serviceKey)}`,
  };
}

const OWN_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);
/** The lane id of a caller's own key: the user is in it, the key never (see UserKeys.idFor). */
const USER_LANE = "user:";

/** What one service key has of its own (see makeLane). */
interface Lane {
  upstream: Upstream;
  answers: Answers;
  store: Store;
  failover?: FailoverLedger;
  redisLedger?: RedisStartLedger;
}

export async function createGateway(config: GatewayConfig): Promise<Gateway> {
  const now = config.now ?? Date.now;
  const timers = config.timers ?? realTimers;
  const rateLimit = config.rateLimit ?? 60;
  const windowMs = config.windowMs ?? 60_000;
  const userRate = config.userRate ?? Math.max(1, Math.ceil(rateLimit * 0.75));
  const processId = `${process.pid}-${randomBytes(4).toString("hex")}`;
  /** Every service key in use: redacted from whatever leaves. */
  const secrets = [config.serviceKey];

  const app = Fastify({
    logger: {
      level: config.logLevel ?? "info",
      stream: config.logStream ?? process.stderr,
      redact: ["req.headers.authorization", "headers.authorization"],
    },
    // One line per request, ours (onResponse below): who, what, how it was answered; never a query or a header.
    logController: new LogController({ disableRequestLogging: true }),
    exposeHeadRoutes: false,
    routerOptions: { maxParamLength: 256 },
    bodyLimit: 1_024,
    return503OnClosing: true,
  });
  const log = app.log;

  // ---- Redis, shared by the team's processes (or nothing: this process's memory) ----
  let link: RedisLink | undefined;
  let peers: Peers | undefined;
  const userDuration = Math.max(1, Math.ceil(windowMs / 1000));
  // Without Redis: at most half the budget, or 1/N of it for the N processes last seen (they may be running too).
  const share = (limit: number): number =>
    Math.max(1, Math.floor(limit / Math.max(2, peers?.count ?? 0)));
  if (config.redisUrl) {
    link = new RedisLink({
      url: config.redisUrl,
      onChange: (up, why) => {
        if (up)
          log.info(
            { redis: "up" },
            "Redis is reachable: the team's shared cache and budget are in use"
          );
        else
          log.warn(
            { redis: "down", reason: redact(why, secrets) },
            `Redis is unreachable: serving from this process's memory at ${share(rateLimit)} upstream requests per window (a share of the budget) until it is back`
          );
      },
    });
    peers = new Peers(link, `${namespaceOf(config.serviceUrl, "").budget}:procs`, processId, now);
    const up = await link.ready(config.redisStartMs ?? 3_000);
    if (!up)
      log.warn(
        "Redis did not answer at start: serving from this process's memory until it does (see /readyz)"
      );
    await peers.beat();
  }

  const lanes = new Map<string, Lane>();
  const metrics = new GatewayMetrics({
    queueDepth: () =>
      [...lanes.values()].reduce(
        (n, lane) =>
          n +
          lane.upstream.scheduler.queued +
          lane.upstream.limiter.stats().queued +
          lane.answers.pendingFetches,
        0
      ),
    shared: () => (link?.up ? 1 : 0),
  });
  const listeners: ClientListener[] = [metrics.onClientEvent];
  const usage = new Usage({
    link,
    now,
    onCount: (user, counter, n) => metrics.usage.inc({ user, counter }, n),
  });

  /**
   * Everything one service key has of its own: its budget (the record of starts, per key), its per-user shares,
   * its cache namespace (answers fetched with one key are never served to callers of another), its upstream
   * client. The gateway's key has one from the start; a key a verifier names for its caller (per-user keys) gets
   * one when first used.
   */
  const makeLane = (serviceKey: string, shareStoreOf?: Lane): Lane => {
    const ns = namespaceOf(config.serviceUrl, serviceKey);
    const memory = new MemoryStore({ now });
    let store: Store = shareStoreOf?.store ?? memory;
    let ledger: StartLedger | undefined;
    let failover: FailoverLedger | undefined;
    let redisLedger: RedisStartLedger | undefined;
    let cap: UserCap;
    if (link) {
      redisLedger = new RedisStartLedger(
        link.ledger,
        link.main,
        ns.budget,
        Math.max(60_000, windowMs * 5),
        now
      );
      failover = new FailoverLedger(redisLedger, link, share);
      ledger = failover;
      store =
        shareStoreOf?.store ?? new FailoverStore(new RedisStore(link, ns.store), memory, link);
      cap = userCapOf(
        new RateLimiterRedis({
          storeClient: link.main,
          keyPrefix: `${ns.budget}:user`,
          points: userRate,
          duration: userDuration,
          rejectIfRedisNotReady: true,
          insuranceLimiter: new RateLimiterMemory({
            points: Math.max(1, Math.floor(userRate / 2)),
            duration: userDuration,
          }),
        })
      );
    } else {
      cap = userCapOf(new RateLimiterMemory({ points: userRate, duration: userDuration }));
    }
    const upstream = new Upstream({
      serviceUrl: config.serviceUrl,
      serviceKey,
      rateLimit,
      windowMs,
      ledger,
      openMs: config.openMs,
      concurrency: config.concurrency ?? 8,
      cap,
      fetch: config.fetch,
      retry: config.retry,
      timers,
      now,
      listeners,
      onStart: (user) => usage.count(user, "upstream"),
    });
    const answers = new Answers({
      store,
      upstream,
      processId,
      now,
      timers,
      holdMs: config.holdMs,
    });
    return { upstream, answers, store, failover, redisLedger };
  };
  const main = makeLane(config.serviceKey);
  lanes.set("", main);
  /** Lanes by their key's hash: two ids naming one key (two people registering the same key) share its budget. */
  const byKey = new Map<string, Lane>([
    [namespaceOf(config.serviceUrl, config.serviceKey).budget, main],
  ]);
  const { userKeys } = config;
  const keyOfId = async (id: string): Promise<string | undefined> => {
    if (id.startsWith(USER_LANE) && userKeys) {
      const user = id.slice(USER_LANE.length).split("#")[0];
      return userKeys.reveal(user);
    }
    return config.serviceKeys?.(id);
  };

  /** The lane id serving a caller: a verifier's choice, else their own registered key, else the team's. */
  const laneIdOf = async (caller: Caller): Promise<string> => {
    if (caller.serviceKeyId) return caller.serviceKeyId;
    if (!userKeys || caller.via === "token") return "";
    const own = await userKeys.idFor(caller.user);
    if (own) return `${USER_LANE}${caller.user}#${own}`;
    if (config.requireUserKeys)
      throw new GatewayError(
        403,
        "This team gateway serves each person with their own service key: register yours in the add-in (Settings, Team gateway) first"
      );
    return "";
  };

  /** The lane of the service key serving a caller (the gateway's own unless a verifier named another). */
  const laneOf = async (caller: Caller): Promise<Lane> => {
    const id = await laneIdOf(caller);
    if (id === "") return main;
    const known = lanes.get(id);
    if (known) return known;
    const key = await keyOfId(id);
    if (!key)
      throw new GatewayError(
        403,
        "No service key is registered for you on the team gateway yet; register yours, or ask its administrator"
      );
    if (!secrets.includes(key)) secrets.push(key);
    const budget = namespaceOf(config.serviceUrl, key).budget;
    const lane =
      lanes.get(id) ??
      byKey.get(budget) ??
      makeLane(key, config.shareAnswersAcrossKeys ? main : undefined);
    byKey.set(budget, lane);
    lanes.set(id, lane);
    return lane;
  };

  /** The budget serving a caller, as this gateway counts it (the shared record's when there is one). */
  const budgetOf = async (caller: Caller): Promise<Budget> => {
    let lane: Lane;
    try {
      lane = await laneOf(caller);
    } catch (error) {
      // Keys required and none registered yet: no budget serves this caller until they register one.
      if (error instanceof GatewayError) return { limit: 0, windowMs, used: 0, key: "none" };
      throw error;
    }
    const t = now();
    let used = lane.upstream.limiter.stats().used;
    if (lane.redisLedger && link?.up) {
      const record = lane.redisLedger.lastSeen();
      used = Math.max(
        used,
        record.starts.filter((s) => s > t - windowMs).length + record.open.length
      );
    }
    const limit = lane.failover ? lane.failover.limitNow(rateLimit) : rateLimit;
    return { limit, windowMs, used, key: lane === main ? "team" : "own" };
  };

  let state: "ready" | "stopping" = "ready";

  const authenticate = async (request: FastifyRequest): Promise<Caller> => {
    const credential = bearerOf(request.headers.authorization);
    const found =
      credential === undefined ? undefined : await identify(config.verifiers, credential);
    const caller =
      found && found.via === "token" && config.admins?.includes(found.user)
        ? { ...found, admin: true }
        : found;
    if (!caller)
      throw new GatewayError(
        401,
        credential === undefined
          ? "Missing authorization header: send the token the team gateway's administrator gave you, in the Authorization header (Bearer scheme)"
          : "Invalid authorization header: this token is not (or no longer) accepted by the team gateway"
      );
    return caller;
  };

  const fail = (reply: FastifyReply, error: unknown): FastifyReply => {
    const answer = toAnswer(error, secrets);
    if (answer.status >= 500 && !(error instanceof GatewayError))
      log.warn({ status: answer.status }, answer.message);
    if (answer.status === 401)
      reply.header("www-authenticate", 'Bearer realm="cryptometrics-gateway"');
    if (answer.retryAfterSeconds !== undefined)
      reply.header("retry-after", String(answer.retryAfterSeconds));
    return reply.code(answer.status).send({ message: answer.message });
  };

  const respond = (reply: FastifyReply, served: Served): FastifyReply => {
    if (served.simulated) reply.header(SIMULATED_HEADER_NAME, "true");
    reply.header("x-cryptometrics-gateway", served.how);
    reply.header("x-cryptometrics-fetched-at", new Date(served.fetchedAt).toISOString());
    if (served.how === "stale")
      reply.header(
        "warning",
        `110 - "Response is Stale" "${new Date(served.fetchedAt).toUTCString()}"`
      );
    // Sent in the shape the service sent it: a bare list stays one (v1).
    return reply.code(200).send(served.body.bare ? served.body.data : served.body);
  };

  app.addHook("onSend", (_request, reply, payload, done) => {
    reply.header("cache-control", "no-store");
    reply.header("x-content-type-options", "nosniff");
    done(null, payload);
  });

  app.addHook("onResponse", (request, reply, done) => {
    const context = request as FastifyRequest & {
      cm?: { user: string; operation: string; how?: string; account?: boolean };
    };
    const operation = context.cm?.operation ?? "other";
    const user = context.cm?.user ?? "-";
    metrics.requests.inc({ user, operation, status: String(reply.statusCode) });
    if (user !== "-" && !context.cm?.account) {
      usage.count(user, "requests");
      if (context.cm?.how === "hit") usage.count(user, "hits");
    }
    if (context.cm?.how) metrics.answers.inc({ how: context.cm.how });
    // The path only: a query may hold what a caller should not have put there.
    const path = request.url.split("?")[0];
    log.info(
      {
        user,
        operation,
        status: reply.statusCode,
        how: context.cm?.how,
        ms: Math.round(reply.elapsedTime),
      },
      `${request.method} ${path.length > 200 ? `${path.slice(0, 200)}…` : path}`
    );
    done();
  });

  const handler =
    (spec: OperationSpec) =>
    async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
      const context = request as FastifyRequest & {
        cm?: { user: string; operation: string; how?: string; account?: boolean };
      };
      context.cm = { user: "-", operation: spec.op };
      try {
        const caller = await authenticate(request);
        context.cm.user = caller.user;
        const query = request.url.includes("?")
          ? request.url.slice(request.url.indexOf("?") + 1)
          : "";
        const ask = parseAsk(spec, request.params as Record<string, string>, query);
        const served = await (await laneOf(caller)).answers.serve(ask, caller.user);
        context.cm.how = served.how;
        return respond(reply, served);
      } catch (error) {
        return fail(reply, error);
      }
    };

  for (const spec of OPERATIONS) app.get(routeOf(spec), handler(spec));

  registerAccountRoutes(app, {
    ...(config.signIn ? { signIn: config.signIn } : {}),
    authenticate,
    fail,
    userKeys,
    requireUserKeys: config.requireUserKeys === true,
    usage,
    budgetOf,
    now,
    label: (request, user, operation) => {
      (
        request as FastifyRequest & {
          cm?: { user: string; operation: string; account?: boolean };
        }
      ).cm = { user, operation, account: true };
    },
    onKeyChanged: (user) => {
      for (const id of [...lanes.keys()])
        if (id.startsWith(`${USER_LANE}${user}#`)) lanes.delete(id);
    },
  });

  app.get("/healthz", async (_request, reply) => reply.send({ status: "ok" }));
  app.get("/readyz", async (_request, reply) => {
    const shared = link ? (link.up ? "redis" : "memory (Redis unreachable)") : "memory";
    const limitNow = main.failover ? main.failover.limitNow(rateLimit) : rateLimit;
    const body = {
      status: state === "stopping" ? "stopping" : link && !link.up ? "degraded" : "ready",
      store: shared,
      ...(link ? { redis: link.up ? "up" : "unreachable", processes: peers?.count ?? 0 } : {}),
      budget: { limit: rateLimit, windowMs, inUse: limitNow },
      verifiers: Object.fromEntries(config.verifiers.map((v) => [v.name, v.describe()])),
    };
    // Degraded still serves (from memory, at a share of the budget): only a stopping process is not ready.
    return reply.code(state === "stopping" ? 503 : 200).send(body);
  });
  app.get("/metrics", async (request, reply) => {
    try {
      await authenticate(request);
    } catch (error) {
      return fail(reply, error);
    }
    reply.header("content-type", metrics.registry.contentType);
    return reply.send(await metrics.registry.metrics());
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0];
    if (request.method !== "GET") {
      reply.header("allow", "GET");
      return reply.code(405).send({
        message: `Method ${request.method} not allowed: the service and its gateway answer GET only`,
      });
    }
    return reply.code(404).send({
      message: `Not an operation of the service: GET ${path.length > 100 ? `${path.slice(0, 100)}…` : path}`,
    });
  });
  app.setErrorHandler((error, _request, reply) => {
    const status = (error as { statusCode?: unknown }).statusCode;
    // Fastify's own refusals of a request (a body that is not JSON, or too large): the caller's, in our words.
    if (typeof status === "number" && status >= 400 && status < 500)
      return reply.code(status).send({
        message:
          status === 413
            ? "The request's body is too large for the team gateway"
            : 'The team gateway could not read the request: send JSON such as {"key": "…"}',
      });
    log.error(
      { err: { message: redact(error instanceof Error ? error.message : String(error), secrets) } },
      "request failed"
    );
    return reply
      .code(500)
      .send({ message: "The team gateway failed unexpectedly; its log says more." });
  });

  await app.ready();

  const owns = (path: string): boolean => {
    const clean = path.split("?")[0];
    return (
      OWN_PATHS.has(clean) ||
      clean.startsWith("/v1/") ||
      clean.startsWith("/v2/") ||
      clean.startsWith(ACCOUNT_PREFIX)
    );
  };

  let closing: Promise<void> | undefined;
  return {
    app,
    owns,
    async listen(port, host) {
      const address = await app.listen({ port, host });
      const url = new URL(address);
      return `http://${host.includes(":") ? `[${host}]` : host}:${url.port}`;
    },
    handle(req, res) {
      app.routing(req, res);
    },
    close() {
      closing ??= (async () => {
        state = "stopping";
        await app.close();
        for (const lane of lanes.values()) {
          lane.answers.close();
          await lane.upstream.limiter.settled();
          lane.redisLedger?.close();
          await lane.store.close();
        }
        await usage.close();
        await peers?.leave();
        for (const verifier of config.verifiers) verifier.close();
        await link?.close();
      })();
      return closing;
    },
  };
}
