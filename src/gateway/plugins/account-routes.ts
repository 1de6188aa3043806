/**
 * The gateway's own API for the add-in's taskpane and for administrators, under /gateway/v1/ (GET, PUT and
 * DELETE only here; the service's interface stays GET only), each route with its schema:
 * - GET  /gateway/v1/sign-in    how the add-in signs in to this gateway (client id, authority, scope): no token;
 * - GET  /gateway/v1/me         who the caller is (as the gateway sees them), whether their own service key is
 *                               registered (never the key: its last four characters), the budget serving them as
 *                               this gateway counts it, and the caller's usage today;
 * - PUT  /gateway/v1/me/key     registers (or replaces) the caller's own service key: `{"key": "…"}` and nothing else;
 * - DELETE /gateway/v1/me/key   forgets it (the team's key serves the caller again, unless keys are required);
 * - GET  /gateway/v1/usage[?day=YYYY-MM-DD]   everyone's counters for a day: administrators only (the admin
 *                               app role in a sign-in token, or a token name listed with --admins).
 * Registering a key is for signed-in users only (a personal access token names a person the administrator
 * made up, not an identity). Changes are bounded per user per hour (auth/user-keys.ts).
 */
import fp from "fastify-plugin";
import type { Caller } from "../auth/verifier";
import type { UserKeys } from "../auth/user-keys";
import { MAX_USER_KEY_LENGTH } from "../bounds";
import { GatewayError } from "../errors";
import type { Lane } from "../lanes";
import { dayOf } from "../usage";
import "./types";

export const ACCOUNT_PREFIX = "/gateway/v1/";

/** What the add-in needs to sign in to this gateway (public: app ids and scopes are no secrets). */
export interface SignInConfig {
  /** The add-in's application (client) id in Entra ID. */
  clientId: string;
  /** The authority: a tenant's, or organizations for several. */
  authority: string;
  /** The gateway API's delegated scope, e.g. api://<gateway app id>/access_as_user. */
  scopes: string[];
}

interface Budget {
  limit: number;
  windowMs: number;
  /** Upstream requests counted in the current window (across processes when the record is shared). */
  used: number;
  /** The team's key, the caller's own key, or none (keys required and none registered yet). */
  key: "team" | "own" | "none";
}

interface AccountOptions {
  signIn?: SignInConfig;
  userKeys?: UserKeys;
  requireUserKeys: boolean;
  windowMs: number;
  now: () => number;
}

/** What the account routes' body refusals say (fixed words: never what was sent). */
export const KEY_BODY_TEXT = `The team gateway takes {"key": "…"} here: your service key as a string of at most ${MAX_USER_KEY_LENGTH} characters, and nothing else`;

async function budgetOf(lane: Lane | undefined, windowMs: number): Promise<Budget> {
  if (!lane) return { limit: 0, windowMs, used: 0, key: "none" };
  return {
    limit: lane.budget.limitNow(),
    windowMs,
    used: await lane.budget.used(),
    key: lane.own ? "own" : "team",
  };
}

export const accountRoutes = fp<AccountOptions>(
  async (app, options) => {
    const { userKeys } = options;
    const signedIn = (caller: Caller): void => {
      if (caller.via === "token")
        throw new GatewayError(
          403,
          "Registering your own service key needs sign-in with your work account (Team gateway in the add-in's Settings), not a personal access token"
        );
    };
    const keys = (): UserKeys => {
      if (!userKeys)
        throw new GatewayError(
          404,
          "This team gateway does not take personal service keys: its administrator has not set a key-encryption key"
        );
      return userKeys;
    };
    const account = (operation: string, auth: "required" | "none" = "required") => ({
      auth,
      operation,
      account: true,
    });
    const callerOf = (caller: Caller | null): Caller => {
      if (!caller) throw new GatewayError(401, "A token is needed");
      return caller;
    };

    // No authentication: the add-in asks how to sign in before it can.
    app.get(
      `${ACCOUNT_PREFIX}sign-in`,
      { config: account("sign-in-config", "none") },
      async (_request, reply) => {
        if (!options.signIn)
          throw new GatewayError(
            404,
            "Sign-in with Microsoft 365 is not set up on this team gateway: ask its administrator for a token, or to set up sign-in"
          );
        return reply.send(options.signIn);
      }
    );

    app.get(`${ACCOUNT_PREFIX}me`, { config: account("me") }, async (request, reply) => {
      const caller = callerOf(request.caller);
      const key =
        userKeys && caller.via !== "token"
          ? await userKeys.info(caller.user)
          : { registered: false };
      let lane: Lane | undefined;
      try {
        lane = await app.lanes.of(caller);
      } catch (error) {
        // No lane serves this caller yet (keys required and none registered, or theirs lost): no budget to show.
        if (!(error instanceof GatewayError)) throw error;
      }
      const today = dayOf(options.now());
      const mine = (await app.usage.day(today)).get(caller.user) ?? {
        requests: 0,
        hits: 0,
        upstream: 0,
      };
      return reply.send({
        user: caller.user,
        ...(caller.name ? { name: caller.name } : {}),
        via: caller.via,
        admin: caller.admin === true,
        ownKey: {
          accepted: userKeys !== undefined && caller.via !== "token",
          required: options.requireUserKeys,
          ...key,
        },
        budget: await budgetOf(lane, options.windowMs),
        usage: { day: today, ...mine },
      });
    });

    app.put(
      `${ACCOUNT_PREFIX}me/key`,
      {
        config: account("register-key"),
        schema: {
          body: {
            type: "object",
            required: ["key"],
            additionalProperties: false,
            properties: { key: { type: "string", minLength: 1, maxLength: MAX_USER_KEY_LENGTH } },
          },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request.caller);
        signedIn(caller);
        const key = (request.body as { key: string }).key.trim();
        await keys().register(caller.user, key);
        await app.lanes.detach(caller.user);
        return reply.code(200).send({ ownKey: await keys().info(caller.user) });
      }
    );

    app.delete(
      `${ACCOUNT_PREFIX}me/key`,
      { config: account("forget-key") },
      async (request, reply) => {
        const caller = callerOf(request.caller);
        signedIn(caller);
        await keys().remove(caller.user);
        await app.lanes.detach(caller.user);
        return reply.code(200).send({ ownKey: { registered: false } });
      }
    );

    app.get(
      `${ACCOUNT_PREFIX}usage`,
      {
        config: account("usage"),
        schema: {
          querystring: {
            type: "object",
            additionalProperties: false,
            properties: { day: { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$" } },
          },
        },
      },
      async (request, reply) => {
        const caller = callerOf(request.caller);
        if (!caller.admin)
          throw new GatewayError(
            403,
            "Only the team gateway's administrators may see everyone's usage"
          );
        const query = request.query as { day?: string };
        const day = query.day ?? dayOf(options.now());
        if (Number.isNaN(Date.parse(`${day}T00:00:00Z`)))
          throw new GatewayError(400, "day takes a date as YYYY-MM-DD");
        const users = Object.fromEntries(await app.usage.day(day));
        return reply.send({ day, users });
      }
    );
  },
  { name: "cm-gateway-account", dependencies: ["cm-gateway-auth", "cm-gateway-lanes"] }
);
