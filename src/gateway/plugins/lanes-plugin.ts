/**
 * The lanes (one per service key in use: lanes.ts), the usage counters and the metrics, decorated on the
 * instance for the routes; one log line per request (who, what, how it was answered, time: never a query, a
 * header or a token) and its counters, in one onResponse hook.
 */
import fp from "fastify-plugin";
import { Lanes, type LaneDeps } from "../lanes";
import { GatewayMetrics } from "../metrics";
import { Usage } from "../usage";
import "./types";

type LanesPluginOptions = Omit<
  LaneDeps,
  "link" | "share" | "onUpstream" | "log" | "onLedgerLost" | "listeners"
>;

export const lanesPlugin = fp<LanesPluginOptions>(
  async (app, options) => {
    const { link } = app.shared;
    const made: { lanes?: Lanes } = {};
    const metrics = new GatewayMetrics({
      queueDepth: () =>
        (made.lanes?.all() ?? []).reduce((n, lane) => n + lane.answers.pendingFetches, 0),
      shared: () => (link?.up ? 1 : 0),
      lanes: () => made.lanes?.count ?? 0,
    });
    const usage = new Usage({
      ...(link ? { link } : {}),
      now: options.clock.now,
      onCount: (user, counter, n) => metrics.usage.inc({ user: metrics.label(user), counter }, n),
    });
    let lostLogged = false;
    const lanes = new Lanes({
      ...options,
      ...(link ? { link } : {}),
      share: app.shared.share,
      listeners: [metrics.onClientEvent],
      onUpstream: (user) => usage.count(user, "upstream"),
      log: (level, fields, message) => app.log[level](fields, message),
      onLedgerLost: () => {
        if (lostLogged) return;
        lostLogged = true;
        app.log.warn(
          "Redis lost the shared record of request starts (restarted empty, or flushed): the budget goes on from the starts this process saw, not from zero"
        );
      },
    });
    made.lanes = lanes;
    app.decorate("lanes", lanes);
    app.decorate("usage", usage);
    app.decorate("gatewayMetrics", metrics);

    app.addHook("onResponse", async (request, reply) => {
      const label = request.label ?? { user: "-", operation: "other" };
      const status = String(reply.statusCode);
      metrics.requests.inc({ operation: label.operation, status });
      if (label.user !== "-") {
        metrics.userRequests.inc({
          user: metrics.label(label.user),
          operation: label.operation,
          status,
        });
        if (!label.account) {
          usage.count(label.user, "requests");
          if (label.how === "hit") usage.count(label.user, "hits");
        }
      }
      if (label.how) metrics.answers.inc({ how: label.how });
      // The path only, and at most 200 characters of it: a query may hold what a caller should not have put there.
      const path = request.url.split("?")[0];
      request.log.info(
        {
          user: label.user,
          operation: label.operation,
          status: reply.statusCode,
          how: label.how,
          ms: Math.round(reply.elapsedTime),
        },
        `${request.method} ${path.length > 200 ? `${path.slice(0, 200)}…` : path}`
      );
    });
  },
  { name: "cm-gateway-lanes", dependencies: ["cm-gateway-shared"] }
);
