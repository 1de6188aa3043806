/**
 * `GET /metrics` (Prometheus): a valid token needed; the team's figures for anyone with one, and the per-person
 * series (requests and usage by user) only for administrators and the names given with `--metrics-readers` (a
 * scraper's token), as everyone's usage is only theirs at /gateway/v1/usage.
 */
import fp from "fastify-plugin";
import { GatewayError } from "../errors";
import "./types";

interface MetricsRouteOptions {
  /** Token names that may read the per-person series (a Prometheus scraper's, say). */
  readers: readonly string[];
}

export const metricsRoute = fp<MetricsRouteOptions>(
  async (app, options) => {
    app.get(
      "/metrics",
      { config: { operation: "metrics", auth: "required" } },
      async (request, reply) => {
        const caller = request.caller;
        if (!caller) throw new GatewayError(401, "A token is needed");
        const perPerson = caller.admin === true || options.readers.includes(caller.user);
        reply.header("content-type", app.gatewayMetrics.contentType);
        return reply.send(await app.gatewayMetrics.text(perPerson));
      }
    );
  },
  { name: "cm-gateway-metrics", dependencies: ["cm-gateway-auth"] }
);
