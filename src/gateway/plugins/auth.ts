/**
 * Authentication as a fastify plugin: every request gets `request.caller` (null until proven) and its label, in
 * one onRequest hook, before anything else runs (schema validation included: an unknown or missing token costs a
 * 401 and nothing more). A route says what it needs in its config: `auth: "required"` (401 otherwise),
 * "optional" (a caller sees more, e.g. /readyz), or "none".
 *
 * The verifiers are asked in turn (auth/verifier.ts): the tokens file, sign-in with Microsoft 365, and whatever a
 * deployment adds. The hook for a development-only verifier (a local demo issuer for `npm start`): implement
 * Verifier with `development: true` in a file of its own and pass it in `verifiers` from the development start
 * path with `development: true`; this plugin refuses to start with such a verifier otherwise, and the production
 * command (main.ts) never sets it.
 */
import fp from "fastify-plugin";
import { GatewayError } from "../errors";
import { bearerOf, identify, type Verifier } from "../auth/verifier";
import "./types";

interface AuthPluginOptions {
  verifiers: readonly Verifier[];
  /** Token names that are administrators (everyone's usage, per-person metrics). */
  admins: readonly string[];
  /** The development start path only: lets development verifiers in. */
  development: boolean;
}

const MISSING_TOKEN =
  "Missing authorization header: send the token the team gateway's administrator gave you, in the Authorization header after the word Bearer";
const INVALID_TOKEN =
  "Invalid authorization header: this token is not (or no longer) accepted by the team gateway";

export const authPlugin = fp<AuthPluginOptions>(
  async (app, options) => {
    const refused = options.verifiers.filter((v) => v.development === true);
    if (refused.length > 0 && !options.development)
      throw new Error(
        `the verifier ${refused.map((v) => v.name).join(", ")} is for development only: a production gateway never takes it`
      );
    app.decorateRequest("caller", null);
    app.decorateRequest("lane", null);
    app.decorateRequest("label", null);
    app.addHook("onRequest", async (request) => {
      const config = request.routeOptions.config;
      request.label = {
        user: "-",
        operation: config.operation ?? "other",
        ...(config.account ? { account: true } : {}),
      };
      const mode = config.auth ?? "none";
      if (mode === "none") return;
      const credential = bearerOf(request.headers.authorization);
      const found =
        credential === undefined ? undefined : await identify(options.verifiers, credential);
      const caller =
        found && found.via === "token" && options.admins.includes(found.user)
          ? { ...found, admin: true }
          : found;
      if (caller) {
        request.caller = caller;
        request.label.user = caller.user;
        return;
      }
      if (mode === "required")
        throw new GatewayError(401, credential === undefined ? MISSING_TOKEN : INVALID_TOKEN);
    });
  },
  { name: "cm-gateway-auth", fastify: "5.x" }
);
