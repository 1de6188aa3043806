/**
 * GET /gateway/v1/restatements?projects=aave,uniswap&metrics=fees&since=2026-11-01: the restatements the team's
 * gateway recorded for those projects and metrics (src/gateway/restatements.ts), newest first, for CHANGES and
 * vintage= in the add-in and the CLI signed in to the gateway. The caller sees the record of the lane serving
 * them (the team's key's, or their own key's), as the interface routes serve them; a caller the interface
 * routes would refuse is refused here too. The wire shape is in the gateway's README ("The team's record of
 * restatements").
 */
import fp from "fastify-plugin";
import { parseDay } from "../../client";
import type { Change } from "../../engine";
import { MAX_LIST_IDS } from "../bounds";
import { GatewayError } from "../errors";
import { ID_LIST_SCHEMA, ID_REGEX } from "../schema";
import { ACCOUNT_PREFIX } from "./account-routes";
import "./types";

const RESTATEMENTS_ROUTE = `${ACCOUNT_PREFIX}restatements`;

/** One change as sent (the README's wire shape): days as YYYY-MM-DD, instants as ISO texts (ms kept). */
interface WireChange {
  project_id: string;
  product_id: string;
  metric_id: string;
  filter: string;
  member: string;
  day: string;
  before: number | null;
  after: number | null;
  before_seen_at: string;
  seen_at: string;
  request: string;
}

function dayText(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

function wireChange(c: Change): WireChange {
  return {
    project_id: c.series.projectId,
    product_id: c.series.productId,
    metric_id: c.series.metricId,
    filter: c.series.filter,
    member: c.dim,
    day: dayText(c.day),
    before: c.before,
    after: c.after,
    before_seen_at: new Date(c.beforeSeenAt).toISOString(),
    seen_at: new Date(c.seenAt).toISOString(),
    request: c.request,
  };
}

function idsOf(name: string, text: string): Set<string> {
  const ids = text.split(",");
  if (ids.length > MAX_LIST_IDS || !ids.every((id) => ID_REGEX.test(id)))
    throw new GatewayError(
      400,
      `${name} takes at most ${MAX_LIST_IDS} ids, separated by commas (letters, digits and - _ . ~ : @ +)`
    );
  return new Set(ids);
}

export const restatementsRoute = fp(
  async (app) => {
    app.get(
      RESTATEMENTS_ROUTE,
      {
        config: { auth: "required", operation: "restatements", account: true },
        schema: {
          querystring: {
            type: "object",
            additionalProperties: false,
            required: ["projects", "metrics"],
            properties: {
              projects: ID_LIST_SCHEMA,
              metrics: ID_LIST_SCHEMA,
              since: { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$" },
            },
          },
        },
      },
      async (request, reply) => {
        const caller = request.caller;
        if (!caller) throw new GatewayError(401, "A token is needed");
        const query = request.query as { projects: string; metrics: string; since?: string };
        const projects = idsOf("projects", query.projects);
        const metrics = idsOf("metrics", query.metrics);
        const sinceDay = query.since === undefined ? undefined : parseDay(query.since);
        if (query.since !== undefined && sinceDay === undefined)
          throw new GatewayError(400, "since takes a date as YYYY-MM-DD");
        const read = await app.lanes.use(caller, (lane) => {
          request.lane = lane;
          return lane.restatements.since(
            sinceDay === undefined ? -Infinity : sinceDay * 86_400_000,
            { projects, metrics }
          );
        });
        return reply.send({
          data: {
            changes: read.changes.map(wireChange),
            truncated: read.truncated,
            kept_since: Number.isFinite(read.keptSince)
              ? new Date(read.keptSince).toISOString()
              : null,
          },
        });
      }
    );
  },
  { name: "cm-gateway-restatements", dependencies: ["cm-gateway-auth", "cm-gateway-lanes"] }
);
