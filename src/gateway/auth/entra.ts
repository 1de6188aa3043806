/**
 * Sign-in with Microsoft 365: the gateway accepts access tokens of the Microsoft identity platform (Entra ID)
 * issued for its own API (`api://<gateway app id>/access_as_user`), checked with jose:
 * - the signature against the issuer's published keys (JWKS: fetched once, cached, fetched again when a token
 *   names a key id it does not hold, at most once per cooldown), RS256 only (no `none`, no HMAC: a public key
 *   can never become a shared secret);
 * - the issuer: `https://login.microsoftonline.com/{tid}/v2.0` for a tenant of the allow-list, and `tid` the
 *   same tenant (a token from another organisation is refused even though Microsoft signed it);
 * - the audience (the gateway's app id URI or app id), the delegated scope (`scp` holds `access_as_user`),
 *   expiry and not-before with a small clock skew.
 * The caller is `tid.oid` (the object id is stable per user and tenant; a name or e-mail is not), an
 * administrator when the token's `roles` hold the admin app role.
 *
 * Every default is Entra's own, so an administrator sets the tenants and the audience only; tests point the
 * JWKS and issuer at a local issuer of their own.
 */
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from "jose";
import type { Caller, Verifier } from "./verifier";

interface EntraOptions {
  /** Tenant ids (GUIDs) whose users may sign in. */
  tenants: readonly string[];
  /** Accepted `aud` values: the gateway's app id URI (api://…) and/or its application (client) id. */
  audience: readonly string[];
  /** The delegated scope the add-in asks for. Default "access_as_user". */
  scope?: string;
  /** Where the signing keys are published. Default Entra's (common keys, every tenant). */
  jwksUrl?: string;
  /** The issuer of a tenant, `{tenantid}` standing for its id. Default Entra's v2.0 issuer. */
  issuerTemplate?: string;
  /** Clock skew allowed on exp/nbf, in seconds. Default 60 (Microsoft's tokens live 60–90 minutes). */
  clockToleranceSec?: number;
  /** The app role that makes a caller an administrator (usage of everyone). Default "Gateway.Admin". */
  adminRole?: string;
  /** Shortest time between two JWKS fetches for unknown key ids (ms). Default 30 s (jose's). */
  jwksCooldownMs?: number;
  /** Told why a token was refused (a short code, never the token), for the log. */
  onRefused?: (reason: string) => void;
}

export const ENTRA_DEFAULTS = {
  // Microsoft publishes every tenant's signing keys here; the issuer check pins the tenant.
  jwksUrl: "https://login.microsoftonline.com/common/discovery/v2.0/keys",
  issuerTemplate: "https://login.microsoftonline.com/{tenantid}/v2.0",
  scope: "access_as_user",
  // Small: enough for laptops' clocks, far below a token's lifetime.
  clockToleranceSec: 60,
  adminRole: "Gateway.Admin",
} as const;

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A signed-in caller: who (tid.oid), and the display name the token carries (shown to that user only). */
interface SignedInCaller extends Caller {
  readonly name?: string;
}

/** Why a token was refused, in a word the log can carry. */
function reasonOf(error: unknown): string {
  if (error instanceof errors.JWTExpired) return "expired";
  if (error instanceof errors.JWTClaimValidationFailed) return `claim ${error.claim}`;
  if (error instanceof errors.JWKSNoMatchingKey) return "unknown key id";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "bad signature";
  if (error instanceof errors.JOSEAlgNotAllowed) return "algorithm not allowed";
  if (error instanceof errors.JWKSTimeout) return "keys not reachable (timeout)";
  if (error instanceof errors.JOSEError) return error.code;
  return error instanceof Error ? error.message.slice(0, 100) : "unreadable";
}

export class EntraVerifier implements Verifier {
  readonly name = "entra";
  private readonly jwks: ReturnType<typeof createRemoteJWKSet>;
  private readonly issuers: Map<string, string>;
  private accepted = 0;
  private refused = 0;

  constructor(private readonly options: EntraOptions) {
    if (options.tenants.length === 0)
      throw new Error("sign-in needs at least one allowed tenant id");
    for (const t of options.tenants)
      if (!GUID.test(t))
        throw new Error(`a tenant id is a GUID (Entra ID > Overview > Tenant ID), got "${t}"`);
    if (options.audience.length === 0 || options.audience.some((a) => a.trim() === ""))
      throw new Error("sign-in needs the gateway's audience (its app id URI or application id)");
    const template = options.issuerTemplate ?? ENTRA_DEFAULTS.issuerTemplate;
    if (!template.includes("{tenantid}"))
      throw new Error(`the issuer template must hold {tenantid}, got "${template}"`);
    this.issuers = new Map(
      options.tenants.map((t) => [template.replace("{tenantid}", t.toLowerCase()), t.toLowerCase()])
    );
    this.jwks = createRemoteJWKSet(new URL(options.jwksUrl ?? ENTRA_DEFAULTS.jwksUrl), {
      cooldownDuration: options.jwksCooldownMs ?? 30_000,
      timeoutDuration: 5_000,
      // Microsoft rotates keys every few weeks and announces them early: a day's cache is safe.
      cacheMaxAge: 24 * 3_600_000,
    });
  }

  async verify(credential: string): Promise<SignedInCaller | undefined> {
    // Only something shaped like a JWS is this verifier's business (a personal token is not).
    if (!/^[\w-]+\.[\w-]+\.[\w-]*$/.test(credential)) return undefined;
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(credential, this.jwks, {
        algorithms: ["RS256"],
        issuer: [...this.issuers.keys()],
        audience: [...this.options.audience],
        clockTolerance: this.options.clockToleranceSec ?? ENTRA_DEFAULTS.clockToleranceSec,
        requiredClaims: ["exp", "iss", "aud", "tid", "oid"],
      }));
    } catch (error) {
      return this.refuse(reasonOf(error));
    }
    const tid = typeof payload.tid === "string" ? payload.tid.toLowerCase() : "";
    const oid = typeof payload.oid === "string" ? payload.oid.toLowerCase() : "";
    // The issuer names the tenant; the tenant claim must be the same one (never a token minted elsewhere).
    if (this.issuers.get(String(payload.iss)) !== tid) return this.refuse("tenant");
    if (!GUID.test(oid)) return this.refuse("claim oid");
    const scope = this.options.scope ?? ENTRA_DEFAULTS.scope;
    const scopes = typeof payload.scp === "string" ? payload.scp.split(" ") : [];
    if (!scopes.includes(scope)) return this.refuse("scope");
    const roles = Array.isArray(payload.roles) ? payload.roles : [];
    const adminRole = this.options.adminRole ?? ENTRA_DEFAULTS.adminRole;
    const name = typeof payload.name === "string" ? payload.name.slice(0, 200) : undefined;
    // The person (turns and bounds): the sign-in name, which an administrator gives that person's tokens too.
    const upn = [payload.preferred_username, payload.upn].find(
      (v): v is string => typeof v === "string" && /^[^\s@]{1,64}@[^\s@]{1,190}$/.test(v)
    );
    this.accepted++;
    return {
      user: `${tid}.${oid}`,
      via: this.name,
      ...(upn ? { person: upn.toLowerCase() } : {}),
      ...(roles.includes(adminRole) ? { admin: true } : {}),
      ...(name ? { name } : {}),
    };
  }

  private refuse(reason: string): undefined {
    this.refused++;
    this.options.onRefused?.(reason);
    return undefined;
  }

  describe(): Record<string, unknown> {
    return {
      tenants: this.options.tenants.length,
      accepted: this.accepted,
      refused: this.refused,
    };
  }

  close(): void {
    // The key set holds no timer.
  }
}
