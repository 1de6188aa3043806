/**
 * The service's interface as fastify routes: one GET route per operation of the table (operations.ts), each
 * with the JSON schema derived from its entry (schema.ts), a caller required (auth.ts). The handler reads the
 * request as the gateway understands it (ask.ts), finds the lane serving the caller (lanes.ts) and answers from
 * what the team's processes share (answers.ts), in the shape the service sent it.
 */
import fp from "fastify-plugin";
import type { FastifyReply } from "fastify";
import { GATEWAY_HEADER_NAME, SIMULATED_HEADER_NAME } from "../../client";
import type { Served } from "../answers";
import { parseAsk } from "../ask";
import { personOf } from "../auth/verifier";
import { GatewayError } from "../errors";
import { OPERATIONS, routeOf } from "../operations";
import { routeSchema } from "../schema";
import "./types";

function respond(reply: FastifyReply, served: Served): FastifyReply {
  if (served.simulated) reply.header(SIMULATED_HEADER_NAME, "true");
  reply.header(GATEWAY_HEADER_NAME, served.how);
  reply.header("x-cryptometrics-fetched-at", new Date(served.fetchedAt).toISOString());
  if (served.how === "stale")
    reply.header(
      "warning",
      `110 - "Response is Stale" "${new Date(served.fetchedAt).toUTCString()}"`
    );
  // Sent in the shape the service sent it: a bare list stays one (v1).
  return reply.code(200).send(served.body.bare ? served.body.data : served.body);
}

export const interfaceRoutes = fp(
  async (app) => {
    for (const spec of OPERATIONS)
      app.get(
        routeOf(spec),
        { schema: routeSchema(spec), config: { auth: "required", operation: spec.op, spec } },
        async (request, reply) => {
          const caller = request.caller;
          if (!caller) throw new GatewayError(401, "A token is needed");
          const ask = parseAsk(
            spec,
            request.params as Record<string, string>,
            request.query as Record<string, unknown>
          );
          // A caller who hangs up takes their queued fetch with them (when nobody else waits for it).
          const hangUp = new AbortController();
          reply.raw.once("close", () => {
            if (!reply.raw.writableFinished) hangUp.abort();
          });
          const served = await app.lanes.use(caller, (lane) => {
            request.lane = lane;
            return lane.answers.serve(ask, personOf(caller), hangUp.signal, caller.user);
          });
          if (request.label) request.label.how = served.how;
          // Served on the team's key: asked again tonight, so tomorrow morning's refresh is all hits.
          if (request.lane === app.lanes.team)
            app.lanes.refresh?.note(
              ask,
              request.params as Record<string, unknown>,
              request.query as Record<string, unknown>,
              caller.user
            );
          return respond(reply, served);
        }
      );
  },
  { name: "cm-gateway-interface", dependencies: ["cm-gateway-auth", "cm-gateway-lanes"] }
);
