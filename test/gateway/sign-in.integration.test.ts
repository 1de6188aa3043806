/**
 * Sign-in with Microsoft 365, without Microsoft: a local OIDC issuer made here (its own RSA key, metadata and
 * JWKS on loopback) mints access tokens, and two real gateway processes sharing a real Redis check them.
 * - The token matrix: valid, expired, wrong audience, wrong tenant, tampered, unknown kid, alg none, HS256 with
 *   the public key as secret, wrong scope: only the valid one is served; the rest get 401 and cost no upstream
 *   request. Personal access tokens from the tokens file keep working beside sign-in.
 * - Per-user keys: a signed-in user registers their own service key (PUT /gateway/v1/me/key) on one process and
 *   is served with it on the other; it is stored encrypted in Redis (the key's text is nowhere in Redis), never
 *   returned (not by the API, the log or /metrics), and has its own budget; answers are not shared across keys.
 * - Usage per person: requests, cache hits and upstream requests per user and day, across both processes, for
 *   administrators only; the figures of this run are printed.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { writeFileSync, chmodSync } from "node:fs";
import { join } from "node:path";
import { Redis } from "ioredis";
import { startSimulator, type RunningSimulator } from "../../src/simulator";
import {
  gatewayFiles,
  startGatewayProcess,
  type GatewayFiles,
  type GatewayProcess,
} from "./support/gateway-process";
import { startRedis, type RedisServer } from "./support/redis";
import {
  hmacWithPublicKey,
  signingKey,
  startLocalIssuer,
  tampered,
  unsigned,
  type LocalIssuer,
} from "./support/oidc-issuer";

const TEAM_KEY = "cm_team_key_SECRET_71b0c";
const ALICE_KEY = "cm_alice_own_key_SECRET_d41e9";
const ADMIN_TOKEN = "tok_admin_SECRET_3391";
const SCRIPT_TOKEN = "tok_script_SECRET_a7c2";
const TENANT = "6f0c6a1e-1d7c-4bd2-9b53-0f4c2b8e7a11";
const OTHER_TENANT = "0b6f5c2d-8a5e-4f7b-9c1d-2e3f4a5b6c7d";
const AUDIENCE = "api://cm-gateway-test";
const ALICE = "11111111-1111-4111-8111-111111111111";
const BOB = "22222222-2222-4222-8222-222222222222";

const sha = (text: string): string => createHash("sha256").update(text).digest("hex");

/** In front of the simulator: records which service key each upstream request carried (by name). */
interface KeyRecorder {
  url: string;
  seen: string[];
  close(): Promise<void>;
}
function recordKeys(target: string, names: Record<string, string>): Promise<KeyRecorder> {
  const byHash = new Map(Object.entries(names).map(([name, key]) => [sha(`Bearer ${key}`), name]));
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(byHash.get(sha(req.headers.authorization ?? "")) ?? "unknown");
    const forwarded = httpRequest(
      `${target}${req.url ?? "/"}`,
      { headers: { authorization: req.headers.authorization ?? "", accept: "application/json" } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      }
    );
    forwarded.on("error", () => res.writeHead(502).end());
    forwarded.end();
  });
  return new Promise((done) =>
    server.listen(0, "127.0.0.1", () =>
      done({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        seen,
        close: () => new Promise<void>((closed) => server.close(() => closed())),
      })
    )
  );
}

let simulator: RunningSimulator;
let recorder: KeyRecorder;
let redis: RedisServer;
let issuer: LocalIssuer;
let files: GatewayFiles;
let gw1: GatewayProcess;
let gw2: GatewayProcess;

async function call(
  url: string,
  token: string | undefined,
  init: { method?: string; body?: unknown } = {}
): Promise<{ status: number; text: string; json: () => Record<string, unknown> }> {
  const response = await fetch(url, {
    method: init.method ?? "GET",
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(init.body !== undefined ? { "content-type": "application/json" } : {}),
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, rateLimit: null, apiKeys: [TEAM_KEY, ALICE_KEY] });
  recorder = await recordKeys(simulator.url, { team: TEAM_KEY, alice: ALICE_KEY });
  redis = await startRedis();
  issuer = await startLocalIssuer();
  files = gatewayFiles(TEAM_KEY, { admin: ADMIN_TOKEN, script: SCRIPT_TOKEN });
  const kekFile = join(files.dir, "kek");
  writeFileSync(kekFile, `${randomBytes(32).toString("base64")}\n`);
  chmodSync(kekFile, 0o600);
  const args = [
    "--entra-tenants",
    TENANT,
    "--entra-audience",
    AUDIENCE,
    "--entra-jwks-url",
    issuer.jwksUrl,
    "--entra-issuer",
    issuer.issuerTemplate,
    "--user-key-kek-file",
    kekFile,
    "--admins",
    "admin",
  ];
  const options = { serviceUrl: recorder.url, files, redisUrl: redis.url, args };
  [gw1, gw2] = await Promise.all([startGatewayProcess(options), startGatewayProcess(options)]);
}, 60_000);

afterAll(async () => {
  await Promise.all([gw1?.stop(), gw2?.stop()]);
  await recorder?.close();
  await issuer?.close();
  await simulator?.close();
  await redis?.stop();
});

describe("the token matrix, against two gateway processes", () => {
  it("serves the valid token only; every forged, stale or foreign one gets 401 and costs no request", async () => {
    const valid = await issuer.mint({ tenant: TENANT, oid: ALICE, name: "Alice Analyst" });
    const stranger = await signingKey();
    const cases: Array<[string, string]> = [
      ["valid", valid],
      ["expired", await issuer.mint({ tenant: TENANT, oid: ALICE, expiresIn: -600 })],
      ["wrong audience", await issuer.mint({ tenant: TENANT, audience: "api://someone-else" })],
      ["wrong tenant", await issuer.mint({ tenant: OTHER_TENANT })],
      [
        "tenant claim unlike issuer",
        await issuer.mint({ tenant: OTHER_TENANT, issuer: issuer.issuerOf(TENANT) }),
      ],
      ["tampered", tampered(valid)],
      ["unknown kid", await issuer.mint({ tenant: TENANT, key: stranger })],
      ["alg none", unsigned(valid)],
      ["HS256 with the public key as secret", await hmacWithPublicKey(valid, issuer.key)],
      ["wrong scope", await issuer.mint({ tenant: TENANT, scope: "User.Read" })],
    ];
    const before = recorder.seen.length;
    const results: Array<[string, number, number]> = [];
    for (const [name, token] of cases) {
      const a = await call(`${gw1.url}/v2/metrics`, token);
      const b = await call(`${gw2.url}/v2/metrics`, token);
      results.push([name, a.status, b.status]);
    }
    process.stdout.write(
      `token matrix (gateway 1, gateway 2):\n${results.map(([n, a, b]) => `  ${n.padEnd(38)} ${a} ${b}`).join("\n")}\n`
    );
    expect(results).toEqual(
      cases.map(([name]) => (name === "valid" ? [name, 200, 200] : [name, 401, 401]))
    );
    // The two processes shared one fetch of the catalogue; the refused tokens cost nothing.
    expect(recorder.seen.length - before).toBe(1);
    // The log says why, never what the token was.
    expect(gw1.errors()).toContain('"refused":"expired"');
    expect(gw1.errors()).toContain('"refused":"claim aud"');
    for (const [, token] of cases) {
      expect(gw1.errors()).not.toContain(token.split(".")[2] || token);
    }
  });

  it("keeps personal access tokens from the tokens file working beside sign-in", async () => {
    expect((await call(`${gw1.url}/v2/metrics`, SCRIPT_TOKEN)).status).toBe(200);
    expect((await call(`${gw2.url}/v2/metrics`, "tok_unknown")).status).toBe(401);
  });

  it("says who is signed in, from the token, to that user", async () => {
    const token = await issuer.mint({ tenant: TENANT, oid: BOB, name: "Bob Budget" });
    const me = (await call(`${gw2.url}/gateway/v1/me`, token)).json();
    expect(me).toMatchObject({
      user: `${TENANT}.${BOB}`,
      name: "Bob Budget",
      via: "entra",
      admin: false,
      ownKey: { accepted: true, required: false, registered: false },
      budget: { limit: 60, key: "team" },
    });
  });
});

describe("per-user keys", () => {
  it("registers Alice's key on one process, serves her with it on the other, keeps it encrypted and never returns it", async () => {
    const alice = await issuer.mint({ tenant: TENANT, oid: ALICE, name: "Alice Analyst" });
    const bob = await issuer.mint({ tenant: TENANT, oid: BOB });
    // A personal access token names no identity: it cannot register a key.
    expect(
      (
        await call(`${gw1.url}/gateway/v1/me/key`, SCRIPT_TOKEN, {
          method: "PUT",
          body: { key: "x1234" },
        })
      ).status
    ).toBe(403);
    expect(
      (
        await call(`${gw1.url}/gateway/v1/me/key`, alice, {
          method: "PUT",
          body: { key: "has space" },
        })
      ).status
    ).toBe(400);
    const put = await call(`${gw1.url}/gateway/v1/me/key`, alice, {
      method: "PUT",
      body: { key: ALICE_KEY },
    });
    expect(put.status).toBe(200);
    expect(put.json()).toMatchObject({ ownKey: { registered: true, last4: ALICE_KEY.slice(-4) } });
    expect(put.text).not.toContain(ALICE_KEY);

    // Encrypted at rest: Redis holds no trace of the key's text, nor of its last four characters.
    const client = new Redis(redis.url);
    try {
      const keys = await client.keys("cm:gw:2:{user-keys}:k:*");
      expect(keys).toHaveLength(1);
      expect(keys[0]).not.toContain(ALICE);
      const stored = (await client.get(keys[0])) ?? "";
      expect(stored).not.toContain(ALICE_KEY);
      expect(stored).not.toContain(Buffer.from(ALICE_KEY).toString("base64"));
      expect(stored).not.toContain(ALICE_KEY.slice(-4));
      expect(Object.keys(JSON.parse(stored) as object).sort()).toEqual(["data", "iv", "tag", "v"]);
    } finally {
      client.disconnect();
    }

    // Real time: the other gateway is a process of its own, whose one-second trust no fake clock here reaches.
    await new Promise((r) => setTimeout(r, 1_100)); // what the other process read of her stays a second at most
    // Alice on the other process: her own key, her own cache (the team's catalogue is not hers to reuse).
    const seenBefore = recorder.seen.length;
    const ask = "/v2/projects/aave/metrics?metric_ids=revenue&start=2024-01-01&end=2024-01-31";
    expect((await call(`${gw2.url}${ask}`, alice)).status).toBe(200);
    expect((await call(`${gw2.url}/v2/metrics`, alice)).status).toBe(200);
    expect(recorder.seen.slice(seenBefore)).toEqual(["alice", "alice"]);
    // Bob, with no key of his own, is served with the team's key; Alice's answer is not shared with him.
    expect((await call(`${gw1.url}${ask}`, bob)).status).toBe(200);
    expect(recorder.seen.slice(seenBefore)).toEqual(["alice", "alice", "team"]);

    // One budget per key: Alice's counts her two requests, the team's its own.
    const meAlice = (await call(`${gw2.url}/gateway/v1/me`, alice)).json();
    expect(meAlice).toMatchObject({ ownKey: { registered: true, last4: ALICE_KEY.slice(-4) } });
    expect(meAlice.budget).toMatchObject({ key: "own", used: 2 });
    expect(JSON.stringify(meAlice)).not.toContain(ALICE_KEY);
    const meBob = (await call(`${gw1.url}/gateway/v1/me`, bob)).json();
    expect(meBob.budget).toMatchObject({ key: "team" });

    // Forgotten: the team's key serves her again (keys are optional on this gateway).
    expect((await call(`${gw1.url}/gateway/v1/me/key`, alice, { method: "DELETE" })).status).toBe(
      200
    );
    await new Promise((r) => setTimeout(r, 1_100)); // the other process trusts what it read for a second
    const ask2 = "/v2/projects/uniswap/metrics?metric_ids=fees&start=2024-02-01&end=2024-02-29";
    expect((await call(`${gw2.url}${ask2}`, alice)).status).toBe(200);
    expect(recorder.seen.at(-1)).toBe("team");

    for (const gw of [gw1, gw2]) {
      expect(gw.errors()).not.toContain(ALICE_KEY);
      expect(gw.errors()).not.toContain(TEAM_KEY);
    }
    const metrics = await call(`${gw1.url}/metrics`, ADMIN_TOKEN);
    expect(metrics.text).not.toContain(ALICE_KEY);
  }, 30_000);
});

describe("usage per person", () => {
  it("counts requests, cache hits and upstream requests per user across processes, for administrators only", async () => {
    const carolOid = randomUUID();
    const carol = await issuer.mint({ tenant: TENANT, oid: carolOid });
    const ask = "/v2/projects/aave/metrics?metric_ids=fees&start=2024-03-01&end=2024-03-31";
    expect((await call(`${gw1.url}${ask}`, carol)).status).toBe(200); // fetched
    expect((await call(`${gw2.url}${ask}`, carol)).status).toBe(200); // hit, the other process
    expect((await call(`${gw1.url}${ask}`, carol)).status).toBe(200); // hit

    const nonAdmin = await call(`${gw1.url}/gateway/v1/usage`, carol);
    expect(nonAdmin.status).toBe(403);
    const adminByRole = await issuer.mint({ tenant: TENANT, roles: ["Gateway.Admin"] });
    const byRole = await call(`${gw2.url}/gateway/v1/usage`, adminByRole);
    expect(byRole.status).toBe(200);
    const report = await call(`${gw1.url}/gateway/v1/usage`, ADMIN_TOKEN);
    expect(report.status).toBe(200);
    const { day, users } = report.json() as {
      day: string;
      users: Record<string, { requests: number; hits: number; upstream: number }>;
    };
    process.stdout.write(
      `usage recorded on ${day} (requests, cache hits, upstream requests):\n${Object.entries(users)
        .map(([u, c]) => `  ${u.padEnd(74)} ${c.requests} ${c.hits} ${c.upstream}`)
        .join("\n")}\n`
    );
    expect(users[`${TENANT}.${carolOid}`]).toEqual({ requests: 3, hits: 2, upstream: 1 });
    expect(users[`${TENANT}.${ALICE}`]?.requests).toBeGreaterThanOrEqual(4);
    expect(users[`${TENANT}.${ALICE}`]?.upstream).toBeGreaterThanOrEqual(3);
    expect(users.script).toMatchObject({ requests: 1 });

    const metrics = await call(`${gw1.url}/metrics`, ADMIN_TOKEN);
    expect(metrics.text).toMatch(
      new RegExp(
        `cryptometrics_gateway_user_usage_total\\{user="${TENANT}\\.${carolOid}",counter="requests"\\} 2`
      )
    );
  });
});
