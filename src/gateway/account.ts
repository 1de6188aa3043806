/**
 * The gateway's own API for the add-in's taskpane and for administrators, under /gateway/v1/ (GET, PUT and
 * DELETE only here; the service's interface stays GET only):
 * - GET  /gateway/v1/sign-in    how the add-in signs in to this gateway (client id, authority, scope): no token;
 * - GET  /gateway/v1/me         who the caller is (as the gateway sees them), whether their own service key is
 *                               registered (never the key: its last four characters), the team budget as this
 *                               gateway counts it, and the caller's usage today;
 * - PUT  /gateway/v1/me/key     registers (or replaces) the caller's own service key: `{"key": "…"}`;
 * - DELETE /gateway/v1/me/key   forgets it (the team's key serves the caller again, unless keys are required);
 * - GET  /gateway/v1/usage[?day=YYYY-MM-DD]   everyone's counters for a day: administrators only (the admin
 *                               app role in a sign-in token, or a token name listed with --admins).
 * Registering a key is for signed-in users only (a personal access token names a person the administrator
 * made up, not an identity).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Caller } from "./auth/verifier";
import { serviceKeyProblem, type UserKeys } from "./auth/user-keys";
import { GatewayError } from "./errors";
import { dayOf, type Usage } from "./usage";

export const ACCOUNT_PREFIX = "/gateway/v1/";

export interface Budget {
  limit: number;
  windowMs: number;
  /** Upstream requests counted in the current window (across processes when the record is shared). */
  used: number;
  /** The team's key, the caller's own key, or none (keys required and none registered yet). */
  key: "team" | "own" | "none";
}

/** What the add-in needs to sign in to this gateway (public: app ids and scopes are no secrets). */
export interface SignInConfig {
  /** The add-in's application (client) id in Entra ID. */
  clientId: string;
  /** The authority: a tenant's, or organizations for several. */
  authority: string;
  /** The gateway API's delegated scope, e.g. api://<gateway app id>/access_as_user. */
  scopes: string[];
}

export interface AccountDeps {
  signIn?: SignInConfig;
  authenticate: (request: FastifyRequest) => Promise<Caller>;
  fail: (reply: FastifyReply, error: unknown) => FastifyReply;
  userKeys?: UserKeys;
  /** Whether every signed-in user must register their own key. */
  requireUserKeys: boolean;
  usage: Usage;
  budgetOf(caller: Caller): Promise<Budget>;
  now(): number;
  /** Marks who the request was for (the log line and metrics). */
  label(request: FastifyRequest, user: string, operation: string): void;
  /** Told when a caller's key changed (lanes of the old key are let go). */
  onKeyChanged(user: string): void;
}

export function registerAccountRoutes(app: FastifyInstance, deps: AccountDeps): void {
  const { authenticate, fail, usage } = deps;

  const signedIn = (caller: Caller): void => {
    if (caller.via === "token")
      throw new GatewayError(
        403,
        "Registering your own service key needs sign-in with your work account (Team gateway in the add-in's Settings), not a personal access token"
      );
  };
  const keys = (): UserKeys => {
    if (!deps.userKeys)
      throw new GatewayError(
        404,
        "This team gateway does not take personal service keys: its administrator has not set a key-encryption key"
      );
    return deps.userKeys;
  };

  // No authentication: the add-in asks how to sign in before it can.
  app.get(`${ACCOUNT_PREFIX}sign-in`, async (request, reply) => {
    deps.label(request, "-", "sign-in-config");
    if (!deps.signIn)
      return reply.code(404).send({
        message:
          "Sign-in with Microsoft 365 is not set up on this team gateway: ask its administrator for a token, or to set up sign-in",
      });
    return reply.send(deps.signIn);
  });

  app.get(`${ACCOUNT_PREFIX}me`, async (request, reply) => {
    deps.label(request, "-", "me");
    try {
      const caller = await authenticate(request);
      deps.label(request, caller.user, "me");
      const key = deps.userKeys ? await deps.userKeys.info(caller.user) : { registered: false };
      const today = dayOf(deps.now());
      const mine = (await usage.day(today))[caller.user] ?? { requests: 0, hits: 0, upstream: 0 };
      return reply.send({
        user: caller.user,
        ...(caller.name ? { name: caller.name } : {}),
        via: caller.via,
        admin: caller.admin === true,
        ownKey: {
          accepted: deps.userKeys !== undefined && caller.via !== "token",
          required: deps.requireUserKeys,
          ...key,
        },
        budget: await deps.budgetOf(caller),
        usage: { day: today, ...mine },
      });
    } catch (error) {
      return fail(reply, error);
    }
  });

  app.put(`${ACCOUNT_PREFIX}me/key`, async (request, reply) => {
    deps.label(request, "-", "register-key");
    try {
      const caller = await authenticate(request);
      deps.label(request, caller.user, "register-key");
      signedIn(caller);
      const body = request.body as { key?: unknown } | undefined;
      const key = typeof body?.key === "string" ? body.key.trim() : "";
      const problem = serviceKeyProblem(key);
      if (problem) throw new GatewayError(400, problem);
      await keys().register(caller.user, key);
      deps.onKeyChanged(caller.user);
      return reply.code(200).send({ ownKey: await keys().info(caller.user) });
    } catch (error) {
      return fail(reply, error);
    }
  });

  app.delete(`${ACCOUNT_PREFIX}me/key`, async (request, reply) => {
    deps.label(request, "-", "forget-key");
    try {
      const caller = await authenticate(request);
      deps.label(request, caller.user, "forget-key");
      signedIn(caller);
      await keys().remove(caller.user);
      deps.onKeyChanged(caller.user);
      return reply.code(200).send({ ownKey: { registered: false } });
    } catch (error) {
      return fail(reply, error);
    }
  });

  app.get(`${ACCOUNT_PREFIX}usage`, async (request, reply) => {
    deps.label(request, "-", "usage");
    try {
      const caller = await authenticate(request);
      deps.label(request, caller.user, "usage");
      if (!caller.admin)
        throw new GatewayError(
          403,
          "Only the team gateway's administrators may see everyone's usage"
        );
      const query = request.query as { day?: unknown };
      const day = typeof query.day === "string" ? query.day : dayOf(deps.now());
      if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`)))
        throw new GatewayError(400, "day takes a date as YYYY-MM-DD");
      return reply.send({ day, users: await usage.day(day) });
    } catch (error) {
      return fail(reply, error);
    }
  });
}
