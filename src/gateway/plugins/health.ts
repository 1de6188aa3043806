/**
 * Health: `GET /healthz` (200 while the process runs) and `GET /readyz` (200 while it serves, 503 while it
 * stops). Without a token, /readyz says ready or not and nothing else (a load balancer needs no more, and a
 * stranger learns nothing of the setup); with a valid token it adds what the process serves from, the processes
 * it sees, the budget in force and what is used of it, and what its verifiers hold.
 */
import fp from "fastify-plugin";
import type { Verifier } from "../auth/verifier";
import "./types";

interface HealthOptions {
  verifiers: readonly Verifier[];
  rateLimit: number;
  windowMs: number;
  stopping: () => boolean;
}

export const healthRoutes = fp<HealthOptions>(
  async (app, options) => {
    app.get("/healthz", { config: { operation: "healthz" } }, async (_request, reply) =>
      reply.send({ status: "ok" })
    );
    app.get(
      "/readyz",
      { config: { operation: "readyz", auth: "optional" } },
      async (request, reply) => {
        const { link, peers } = app.shared;
        const status = options.stopping() ? "stopping" : link && !link.up ? "degraded" : "ready";
        // Degraded still serves (from memory, at a share of the budget): only a stopping process is not ready.
        reply.code(status === "stopping" ? 503 : 200);
        if (!request.caller) return reply.send({ status });
        const team = app.lanes.team;
        return reply.send({
          status,
          store: app.shared.storeName(),
          ...(link ? { redis: link.up ? "up" : "unreachable", processes: peers?.count ?? 0 } : {}),
          budget: {
            limit: options.rateLimit,
            windowMs: options.windowMs,
            inForce: team.budget.limitNow(),
            used: await team.budget.used(),
          },
          lanes: app.lanes.count,
          verifiers: Object.fromEntries(options.verifiers.map((v) => [v.name, v.describe()])),
        });
      }
    );
  },
  { name: "cm-gateway-health", dependencies: ["cm-gateway-auth", "cm-gateway-lanes"] }
);
