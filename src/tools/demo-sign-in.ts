/**
 * `npm start`'s demo sign-in: a local token issuer, so that a newcomer can try Settings > Use the team gateway >
 * Sign in without an Entra ID registration. It signs in one made-up person, "Demo Analyst", and nothing it
 * issues opens anything but the local simulator behind `npm start`'s gateway.
 *
 * How it fits, with no change to the gateway: `npm start` mounts `handle` in its dev server before the gateway
 * (paths under /demo-sign-in/), and gives `createGateway` this issuer's `verifier` (its `verifiers` option,
 * beside the demo key's) and `signInConfig` (its `signIn` option, published at /gateway/v1/sign-in). The
 * add-in sees a sign-in authority at the gateway's own origin and asks it for a token directly
 * (src/runtime/sign-in/sources.ts, LocalIssuerSource): no Microsoft page, no dialog, in Excel or a browser.
 *
 * Why the production gateway never trusts it: the signing key is an RSA key made when npm start starts, held in
 * that process's memory and never written or published, and the issuer is `https://localhost:PORT/demo-sign-in`.
 * `npm run gateway` (src/gateway/main.ts) has no flag that loads this module; its sign-in checks Microsoft's keys
 * and issuer, so a demo token is a bad signature there even with the same tenant, audience and scope
 * (test/tools/demo-sign-in.test.ts runs the production command against one).
 *
 * The protocol (the add-in's side is LocalIssuerSource): `POST /demo-sign-in/token` with a JSON body
 * `{"client_id": …, "scope": …}` (the values of the sign-in settings) answers
 * `{"token_type": "Bearer", "access_token", "expires_in", "account": {"username", "name"}}`. JSON only (a form
 * post from another site is refused, and the preflight a cross-site JSON post needs is never answered), a
 * request from another origin is refused, bodies are read up to 4 KB. Tokens are shaped like Entra's v2.0
 * access tokens (tid, oid, scp, name, preferred_username) and live an hour, as Microsoft's do; the add-in
 * renews them silently.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { generateKeyPair, jwtVerify, SignJWT, type CryptoKey } from "jose";
import type { SignInConfig } from "../gateway/plugins/account-routes";
import type { Caller, Verifier } from "../gateway/auth/verifier";

/** Where the issuer lives at the dev server's origin. */
const DEMO_SIGN_IN_PATH = "/demo-sign-in";
/** The person it signs in (made up: an address under the reserved .example domain). */
export const DEMO_ACCOUNT = { username: "analyst@demo.example", name: "Demo Analyst" } as const;

/** What its tokens say: Entra's shape, a tenant and an object id fixed so the user is the same at every start. */
export const DEMO_TOKEN_FACTS = {
  clientId: "cryptometrics-demo-addin",
  audience: "api://cryptometrics-demo-gateway",
  scope: "access_as_user",
  tenant: "00000000-0000-4000-8000-0000000de000",
  oid: "00000000-0000-4000-8000-0000000de001",
} as const;
const {
  clientId: CLIENT_ID,
  audience: AUDIENCE,
  scope: SCOPE,
  tenant: TENANT,
  oid: OID,
} = DEMO_TOKEN_FACTS;
/** An hour, as Microsoft's access tokens (60–90 minutes). */
const TOKEN_LIFE_S = 3_600;
/** Clock skew allowed on exp/nbf, as the gateway's Entra check. */
const CLOCK_TOLERANCE_S = 60;
/** A token request is two short strings; anything longer is refused unread. */
const MAX_BODY_BYTES = 4_096;

export interface DemoSignIn {
  /** What the gateway publishes at /gateway/v1/sign-in. */
  readonly signInConfig: SignInConfig;
  /** Checks this issuer's tokens for the gateway. */
  readonly verifier: Verifier;
  /** Whether a request path is the issuer's. */
  owns(path: string): boolean;
  /** Answers one request of the issuer's (the dev server's middleware). */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** A token, as the token endpoint hands it out (tests). */
  mint(): Promise<string>;
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  });
  res.end(JSON.stringify(body));
}

/** The body as text, or undefined when it is longer than the bound (the connection is then closed). */
function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.removeAllListeners("data");
        req.resume();
        done(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => done(Buffer.concat(chunks).toString("utf8")));
    req.on("error", fail);
  });
}

/** `origin`: the dev server's, e.g. https://localhost:3000 (the issuer and the only origin it answers). */
export async function createDemoSignIn(origin: string): Promise<DemoSignIn> {
  const issuer = `${origin}${DEMO_SIGN_IN_PATH}`;
  const scope = `${AUDIENCE}/${SCOPE}`;
  // Made now, never exported: no other process can sign what this one verifies.
  const { privateKey, publicKey }: { privateKey: CryptoKey; publicKey: CryptoKey } =
    await generateKeyPair("RS256");
  const kid = randomUUID();
  let accepted = 0;
  let refused = 0;

  const mint = (): Promise<string> => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      tid: TENANT,
      oid: OID,
      scp: SCOPE,
      ver: "2.0",
      name: DEMO_ACCOUNT.name,
      preferred_username: DEMO_ACCOUNT.username,
    })
      .setProtectedHeader({ alg: "RS256", typ: "JWT", kid })
      .setIssuer(issuer)
      .setAudience(AUDIENCE)
      .setSubject(OID)
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + TOKEN_LIFE_S)
      .sign(privateKey);
  };

  const verifier: Verifier = {
    name: "demo-sign-in",
    // The gateway takes it only from a development start (createGateway's `development`): never in production.
    development: true,
    async verify(credential): Promise<Caller | undefined> {
      // Only a JWS is this verifier's business (the demo key is not).
      if (!/^[\w-]+\.[\w-]+\.[\w-]*$/.test(credential)) return undefined;
      try {
        const { payload } = await jwtVerify(credential, publicKey, {
          algorithms: ["RS256"],
          issuer,
          audience: AUDIENCE,
          clockTolerance: CLOCK_TOLERANCE_S,
          requiredClaims: ["exp", "iss", "aud", "tid", "oid", "scp"],
        });
        if (payload.tid !== TENANT || payload.oid !== OID || payload.scp !== SCOPE) {
          refused++;
          return undefined;
        }
        accepted++;
        return { user: `${TENANT}.${OID}`, via: "demo-sign-in", name: DEMO_ACCOUNT.name };
      } catch {
        refused++;
        return undefined;
      }
    },
    describe: () => ({ demo: true, accepted, refused }),
    close: () => undefined,
  };

  const token = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== "POST") {
      res.setHeader("allow", "POST");
      return answer(res, 405, { error: "invalid_request", message: "POST only" });
    }
    const from = req.headers.origin;
    if (from !== undefined && from !== origin)
      return answer(res, 403, {
        error: "invalid_request",
        message: "The demo sign-in answers the add-in's own pages only",
      });
    if (!/^application\/json\b/i.test(req.headers["content-type"] ?? ""))
      return answer(res, 415, { error: "invalid_request", message: "JSON only" });
    const text = await readBody(req);
    if (text === undefined)
      return answer(res, 413, { error: "invalid_request", message: "request too long" });
    let asked: { client_id?: unknown; scope?: unknown } | undefined;
    try {
      asked = JSON.parse(text) as typeof asked;
    } catch {
      asked = undefined;
    }
    if (asked?.client_id !== CLIENT_ID || asked.scope !== scope)
      return answer(res, 400, {
        error: "invalid_client",
        message: `This demo issuer signs in the client ${CLIENT_ID} for the scope ${scope} only`,
      });
    answer(res, 200, {
      token_type: "Bearer",
      access_token: await mint(),
      expires_in: TOKEN_LIFE_S,
      account: DEMO_ACCOUNT,
    });
  };

  return {
    signInConfig: { clientId: CLIENT_ID, authority: issuer, scopes: [scope] },
    verifier,
    owns: (path) => path === DEMO_SIGN_IN_PATH || path.startsWith(`${DEMO_SIGN_IN_PATH}/`),
    handle(req, res) {
      const path = (req.url ?? "/").split("?")[0];
      if (path !== `${DEMO_SIGN_IN_PATH}/token`)
        return answer(res, 404, { error: "not_found", message: "The demo issuer has /token only" });
      token(req, res).catch(() => {
        if (!res.headersSent) answer(res, 500, { error: "server_error" });
        else res.destroy();
      });
    },
    mint,
  };
}
