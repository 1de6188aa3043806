/**
 * A local OpenID Connect issuer, as Microsoft's identity platform publishes one: its own RSA signing key, its
 * metadata (/{tenant}/v2.0/.well-known/openid-configuration) and its keys (/discovery/v2.0/keys) on loopback,
 * and tokens minted like Entra's v2.0 access tokens (iss per tenant, tid, oid, scp, roles). Tests point the
 * gateway's --entra-jwks-url and --entra-issuer at it, and mint good and bad tokens.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  jwk: JWK;
}

export async function signingKey(kid = randomUUID()): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid, use: "sig", alg: "RS256" };
  return { kid, privateKey, publicKey, jwk };
}

export interface MintOptions {
  tenant: string;
  oid?: string;
  audience?: string;
  scope?: string;
  roles?: string[];
  name?: string;
  /** The sign-in name (`preferred_username`, a UPN such as alice@firm.com). */
  upn?: string;
  /** Seconds from now the token expires (negative: already expired). Default 3600. */
  expiresIn?: number;
  /** Another key (e.g. one the issuer never published). Default the published one. */
  key?: SigningKey;
  /** An issuer other than this tenant's. */
  issuer?: string;
}

export interface LocalIssuer {
  /** http://127.0.0.1:PORT */
  url: string;
  jwksUrl: string;
  /** The gateway's --entra-issuer. */
  issuerTemplate: string;
  issuerOf(tenant: string): string;
  key: SigningKey;
  /** Publishes another key beside the first (rotation). */
  publish(key: SigningKey): void;
  /** How many times the keys were fetched. */
  jwksFetches(): number;
  mint(options: MintOptions): Promise<string>;
  close(): Promise<void>;
}

export async function startLocalIssuer(): Promise<LocalIssuer> {
  const key = await signingKey();
  const published: JWK[] = [key.jwk];
  let fetches = 0;
  let base = "";
  const issuerOf = (tenant: string): string => `${base}/${tenant}/v2.0`;
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/discovery/v2.0/keys") {
      fetches++;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ keys: published }));
      return;
    }
    const meta = /^\/([^/]+)\/v2\.0\/\.well-known\/openid-configuration$/.exec(path);
    if (meta) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          issuer: issuerOf(meta[1]),
          jwks_uri: `${base}/discovery/v2.0/keys`,
          id_token_signing_alg_values_supported: ["RS256"],
          token_endpoint: `${base}/${meta[1]}/oauth2/v2.0/token`,
          authorization_endpoint: `${base}/${meta[1]}/oauth2/v2.0/authorize`,
        })
      );
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    jwksUrl: `${base}/discovery/v2.0/keys`,
    issuerTemplate: `${base}/{tenantid}/v2.0`,
    issuerOf,
    key,
    publish: (k) => published.push(k.jwk),
    jwksFetches: () => fetches,
    async mint(o) {
      const signer = o.key ?? key;
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({
        tid: o.tenant,
        oid: o.oid ?? randomUUID(),
        scp: o.scope ?? "access_as_user",
        ver: "2.0",
        ...(o.roles ? { roles: o.roles } : {}),
        ...(o.name ? { name: o.name } : {}),
        ...(o.upn ? { preferred_username: o.upn } : {}),
      })
        .setProtectedHeader({ alg: "RS256", typ: "JWT", kid: signer.kid })
        .setIssuer(o.issuer ?? issuerOf(o.tenant))
        .setAudience(o.audience ?? "api://cm-gateway-test")
        .setIssuedAt(now - 60)
        .setNotBefore(now - 60)
        .setExpirationTime(now + (o.expiresIn ?? 3600))
        .sign(signer.privateKey);
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString("base64url");

/** The same claims with `alg: none` and no signature. */
export function unsigned(token: string): string {
  const [, payload] = token.split(".");
  return `${b64({ alg: "none", typ: "JWT" })}.${payload}.`;
}

/** The same claims signed HS256 with the issuer's PUBLIC key (PEM) as the secret: the algorithm-confusion attack. */
export async function hmacWithPublicKey(token: string, key: SigningKey): Promise<string> {
  const payload = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString()) as Record<
    string,
    unknown
  >;
  const secret = new TextEncoder().encode(await exportSPKI(key.publicKey));
  return new SignJWT(payload)
    .setProtectedHeader({ alg: "HS256", typ: "JWT", kid: key.kid })
    .sign(secret);
}

/** One character of the payload changed (the signature kept). */
export function tampered(token: string): string {
  const [header, payload, signature] = token.split(".");
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<
    string,
    unknown
  >;
  claims.oid = "00000000-0000-4000-8000-000000000001";
  return `${header}.${b64(claims)}.${signature}`;
}
