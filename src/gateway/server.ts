/**
 * The team gateway: the service's interface (every v2 operation and v1's two) at its own origin, as a fastify
 * application of plugins, registered in this order:
 *
 *   shared (plugins/shared.ts)        Redis, or process memory: `app.shared`
 *   auth (plugins/auth.ts)            `request.caller`, in one onRequest hook, from the verifiers
 *   lanes (plugins/lanes-plugin.ts)   one lane per service key in use, usage, metrics; the request log line
 *   interface (interface-routes.ts)   one route per operation of the table, with its derived JSON schema
 *   account (account-routes.ts)       /gateway/v1/…, with body schemas
 *   restatements (restatements-route) /gateway/v1/restatements: the team's record of restatements
 *   health, metrics                   /healthz, /readyz, /metrics
 *
 * with ONE error handler (errors.ts) and one not-found handler. Clock and timers are injected (GatewayConfig.now,
 * .timers): nothing in the gateway sleeps for real under a test's fake clock.
 *
 * When it listens itself (not mounted in another server by `npm start`), its HTTP server bounds connections: at
 * most MAX_CONNECTIONS open, MAX_CONNECTIONS_PER_ADDRESS from one address, headers complete within
 * HEADERS_TIMEOUT_MS, a request within REQUEST_TIMEOUT_MS, an idle socket closed after IDLE_SOCKET_TIMEOUT_MS.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import Fastify, { LogController, type FastifyInstance, type FastifyRequest } from "fastify";
import { redact, type FetchLike, type Timers } from "../client";
import { MemoryKeyRecords, RedisKeyRecords, UserKeys } from "./auth/user-keys";
import type { Verifier } from "./auth/verifier";
import {
  CONNECTIONS_CHECK_MS,
  HEADERS_TIMEOUT_MS,
  IDLE_SOCKET_TIMEOUT_MS,
  KEEP_ALIVE_TIMEOUT_MS,
  MAX_BODY_BYTES,
  MAX_CONNECTIONS,
  MAX_CONNECTIONS_PER_ADDRESS,
  MAX_HEADER_BYTES,
  MAX_ID_LENGTH,
  MAX_REQUESTS_PER_SOCKET,
  REQUEST_TIMEOUT_MS,
} from "./bounds";
import { gatewayClock } from "./clock";
import { installErrorHandler, sendAnswer } from "./errors";
import {
  accountRoutes,
  ACCOUNT_PREFIX,
  KEY_BODY_TEXT,
  type SignInConfig,
} from "./plugins/account-routes";
import { restatementsRoute } from "./plugins/restatements-route";
import { authPlugin } from "./plugins/auth";
import { healthRoutes } from "./plugins/health";
import { interfaceRoutes } from "./plugins/interface-routes";
import { lanesPlugin } from "./plugins/lanes-plugin";
import { metricsRoute } from "./plugins/metrics-route";
import { sharedPlugin } from "./plugins/shared";
import { explainInterfaceRefusal, parseQuery } from "./schema";
import type { RedisTarget } from "./store/redis-link";

export interface GatewayConfig {
  /** The service's base URL (https, or http on loopback). */
  serviceUrl: string;
  /** The team's service key: used for upstream calls only, never shown. */
  serviceKey: string;
  /**
   * The service keys verifiers may name for their callers (`Caller.serviceKeyId`), by id; undefined when none is
   * registered. Each key has its own lane: its budget, queue and cache namespace.
   */
  serviceKeys?: (id: string) => Promise<string | undefined>;
  /** Per-user service keys (encrypted at rest); undefined: the gateway takes no personal keys. */
  userKeys?: UserKeys;
  /**
   * Or the key-encryption key of per-user keys: their records are then kept in this gateway's Redis (or its memory
   * without Redis), on its own connection.
   */
  userKeyKek?: Buffer;
  /** Every person must be served with their own key (signed in, registered): the team's key serves nobody. */
  requireUserKeys?: boolean;
  /** Whether answers fetched with one service key may serve callers of another (default false). */
  shareAnswersAcrossKeys?: boolean;
  /** Whether the team's requests of the last days are asked again each night (team-refresh.ts; default true). */
  dailyRefresh?: boolean;
  /** How the add-in signs in (published at /gateway/v1/sign-in); undefined: sign-in not set up. */
  signIn?: SignInConfig;
  /** Token names (tokens file) that may read everyone's usage and the per-person metrics. */
  admins?: readonly string[];
  /** Token names that may read the per-person metrics (a Prometheus scraper's token). */
  metricsReaders?: readonly string[];
  verifiers: readonly Verifier[];
  /**
   * The development start path only (`npm start`): development verifiers (a local demo issuer) are taken. The
   * production command never sets it (see plugins/auth.ts).
   */
  development?: boolean;
  /** redis://HOST:PORT, one server; or `redis` for Sentinel or a Cluster. Neither: process memory (one process). */
  redisUrl?: string;
  redis?: RedisTarget;
  /** How many processes the team runs: each takes 1/N of the budget while it cannot use Redis. */
  processes?: number;
  /** Upstream requests per window for a service key (default 60: the service's limit). */
  rateLimit?: number;
  /** The window (default a minute; shorter only against a simulator whose minute runs faster). */
  windowMs?: number;
  /** Upstream requests under way at once per key in this process (default UPSTREAM_CONCURRENCY). */
  concurrency?: number;
  /** How long a caller is held at most before 503 + Retry-After (default HOLD_MS). */
  holdMs?: number;
  /** How long a process waits for Redis at start before serving from memory (default 3 s). */
  redisStartMs?: number;
  fetch?: FetchLike;
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
  /** Whether a path is the gateway's to answer (the interface's, /healthz, /readyz, /metrics, /gateway/v1/). */
  owns(path: string): boolean;
  /** Stops taking requests, lets the ones in flight finish, then closes its connections. */
  close(): Promise<void>;
}

const OWN_PATHS = new Set(["/healthz", "/readyz", "/metrics"]);

/** The HTTP server of a gateway that listens itself: every connection bound (see the module comment). */
function boundedServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Server {
  const server = createServer(
    {
      headersTimeout: HEADERS_TIMEOUT_MS,
      requestTimeout: REQUEST_TIMEOUT_MS,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      connectionsCheckingInterval: CONNECTIONS_CHECK_MS,
      maxHeaderSize: MAX_HEADER_BYTES,
    },
    handler
  );
  server.maxConnections = MAX_CONNECTIONS;
  server.maxRequestsPerSocket = MAX_REQUESTS_PER_SOCKET;
  server.setTimeout(IDLE_SOCKET_TIMEOUT_MS, (socket: Socket) => socket.destroy());
  const perAddress = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "";
    const open = (perAddress.get(address) ?? 0) + 1;
    if (open > MAX_CONNECTIONS_PER_ADDRESS) {
      socket.destroy();
      return;
    }
    perAddress.set(address, open);
    socket.once("close", () => {
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left <= 0) perAddress.delete(address);
      else perAddress.set(address, left);
    });
  });
  return server;
}

export async function createGateway(config: GatewayConfig): Promise<Gateway> {
  const clock = gatewayClock(config.now, config.timers);
  const rateLimit = config.rateLimit ?? 60;
  const windowMs = config.windowMs ?? 60_000;
  const processId = `${process.pid}-${randomBytes(4).toString("hex")}`;
  const target: RedisTarget | undefined =
    config.redis ?? (config.redisUrl ? { kind: "single", url: config.redisUrl } : undefined);
  let state: "ready" | "stopping" = "ready";

  const app = Fastify({
    logger: {
      level: config.logLevel ?? "info",
      stream: config.logStream ?? process.stderr,
      redact: ["req.headers.authorization", "headers.authorization"],
    },
    // One line per request, ours (plugins/lanes-plugin.ts): who, what, how it was answered; never a query or a header.
    logController: new LogController({ disableRequestLogging: true }),
    exposeHeadRoutes: false,
    routerOptions: {
      maxParamLength: MAX_ID_LENGTH + 56,
      // A repeated name becomes a list, which each route's schema refuses; no name reaches a prototype.
      querystringParser: parseQuery,
    },
    bodyLimit: MAX_BODY_BYTES,
    return503OnClosing: true,
    serverFactory: (handler) => boundedServer(handler),
    ajv: {
      // The schemas refuse what they do not name (never drop it silently) and take strings as strings.
      customOptions: {
        removeAdditional: false,
        coerceTypes: false,
        useDefaults: false,
        allErrors: false,
      },
    },
  });

  const teamKey = config.serviceKey;
  installErrorHandler(app, {
    // The log line of a failure: redacted with the key the request used (its lane's) and the team's.
    redactFor: (request: FastifyRequest, text: string) =>
      redact(request.lane ? request.lane.redact(text) : text, [teamKey]),
    explainValidation: (request, error) => {
      const routeConfig = request.routeOptions.config;
      if (routeConfig.spec) return explainInterfaceRefusal(routeConfig.spec, request, error);
      if (routeConfig.account)
        return error.validationContext === "body"
          ? KEY_BODY_TEXT
          : "day takes a date as YYYY-MM-DD, and nothing else";
      return undefined;
    },
  });
  app.setNotFoundHandler((request, reply) => {
    if (request.method !== "GET") {
      reply.header("allow", "GET");
      return sendAnswer(reply, {
        status: 405,
        message: "Method not allowed: the service and its gateway answer GET only",
      });
    }
    return sendAnswer(reply, {
      status: 404,
      message:
        "Not an operation of the service: the path is none of the interface's (see its operations)",
    });
  });
  app.addHook("onSend", async (_request, reply, payload) => {
    reply.header("cache-control", "no-store");
    reply.header("x-content-type-options", "nosniff");
    return payload;
  });

  await app.register(sharedPlugin, {
    ...(target ? { target } : {}),
    teamKey,
    clock,
    processId,
    ...(config.processes !== undefined ? { processes: config.processes } : {}),
    startMs: config.redisStartMs ?? 3_000,
    rateLimit,
  });
  const { link } = app.shared;
  const userKeys =
    config.userKeys ??
    (config.userKeyKek
      ? new UserKeys(
          link ? new RedisKeyRecords(link) : new MemoryKeyRecords(clock.now),
          config.userKeyKek,
          {
            now: clock.now,
            minKeyLength: teamKey.length,
            onLost: () =>
              app.log.warn(
                "Redis lost the per-user key records (restarted empty, or flushed): users whose key this process knew are told to register it again"
              ),
          }
        )
      : undefined);
  await app.register(authPlugin, {
    verifiers: config.verifiers,
    admins: config.admins ?? [],
    development: config.development === true,
  });
  await app.register(lanesPlugin, {
    serviceUrl: config.serviceUrl,
    teamKey,
    clock,
    processId,
    rateLimit,
    windowMs,
    ...(config.openMs !== undefined ? { openMs: config.openMs } : {}),
    ...(config.fetch ? { fetch: config.fetch } : {}),
    ...(config.holdMs !== undefined ? { holdMs: config.holdMs } : {}),
    ...(config.concurrency !== undefined ? { concurrency: config.concurrency } : {}),
    shareAnswersAcrossKeys: config.shareAnswersAcrossKeys === true,
    dailyRefresh: config.dailyRefresh !== false,
    ...(userKeys ? { userKeys } : {}),
    requireUserKeys: config.requireUserKeys === true,
    ...(config.serviceKeys ? { serviceKeys: config.serviceKeys } : {}),
  });
  await app.register(interfaceRoutes);
  await app.register(accountRoutes, {
    ...(config.signIn ? { signIn: config.signIn } : {}),
    ...(userKeys ? { userKeys } : {}),
    requireUserKeys: config.requireUserKeys === true,
    windowMs,
    now: clock.now,
  });
  await app.register(restatementsRoute);
  await app.register(healthRoutes, {
    verifiers: config.verifiers,
    rateLimit,
    windowMs,
    stopping: () => state === "stopping",
  });
  await app.register(metricsRoute, { readers: config.metricsReaders ?? [] });
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
        await app.lanes.close();
        await app.usage.close();
        await app.shared.peers?.leave();
        for (const verifier of config.verifiers) verifier.close();
        await app.shared.link?.close();
      })();
      return closing;
    },
  };
}
