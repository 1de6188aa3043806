/**
 * The gateway's hostile lab: what the red team had, as real processes. A service (the simulator, behind a small
 * proxy that records which key each request carried and lets an attack script a refusal, a redirect or an echo),
 * a real redis-server, gateway processes started from a build (`node …/gateway/main.js FLAGS`: the current build,
 * or an older one for the "before" figures), a local OpenID issuer for signed-in users, and the tokens and keys a
 * team has. Attackers hold valid tokens: every attack here is made with one.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync, writeFileSync, chmodSync } from "node:fs";
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Redis } from "ioredis";
import { startSimulator, type RunningSimulator } from "../../../src/simulator";
import {
  gatewayFiles,
  startGatewayProcess,
  startRedis,
  type GatewayFiles,
  type GatewayProcess,
  type RedisServer,
} from "../../../src/tools/bench/gateway-processes";
import { startLocalIssuer, type LocalIssuer } from "../../gateway/support/oidc-issuer";

/** The team's key: 40 characters, a known prefix as real keys have ("cm_team_"), then 32 random ones. */
export const TEAM_KEY = `cm_team_${randomBytes(16).toString("hex")}`;
/** Alice's own key (a personal plan): the same shape. */
export const ALICE_KEY = `cm_alic_${randomBytes(16).toString("hex")}`;
/** The first characters an attacker knows: the keys' documented prefix, 7 characters. */
export const KNOWN_PREFIX = 7;
const TENANT = "6f0c6a1e-1d7c-4bd2-9b53-0f4c2b8e7a11";
const AUDIENCE = "api://cm-gateway-lab";

/** Personal tokens: a name each (`admin` is an administrator; `constructor` is a name like any other). */
export const TOKENS = {
  alice: "tok_alice_lab_b81c2d",
  bob: "tok_bob_lab_3c9e41",
  carol: "tok_carol_lab_7d0a55",
  dave: "tok_dave_lab_52fe18",
  admin: "tok_admin_lab_9a4d77",
  constructor: "tok_constructor_lab_0c1b",
} as const;

type TokenName = keyof typeof TOKENS;

interface ProxyHook {
  /** An answer of the attack's own for this request, or undefined to let the simulator answer. */
  (
    req: IncomingMessage,
    url: URL
  ): { status: number; headers?: Record<string, string>; body: string } | undefined;
}

/** In front of the simulator: who each request was (by key), and an attack's scripted answers. */
export interface Service {
  url: string;
  seen: Array<{ path: string; query: string; key: string; at: number; status: number }>;
  /** When each key's last request arrived (Date.now()), kept across clear(): how long since a key was used. */
  lastAt: Record<string, number>;
  hook: ProxyHook | undefined;
  clear(): void;
  close(): Promise<void>;
}

async function startService(
  simulator: RunningSimulator,
  keys: Record<string, string>
): Promise<Service> {
  const byAuth = new Map(Object.entries(keys).map(([name, key]) => [`Bearer ${key}`, name]));
  const service: Service = {
    url: "",
    seen: [],
    lastAt: {},
    hook: undefined,
    clear: () => void (service.seen.length = 0),
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://service");
    const entry = {
      path: url.pathname,
      query: url.search,
      key: byAuth.get(req.headers.authorization ?? "") ?? "unknown",
      at: Date.now(),
      status: 0,
    };
    service.seen.push(entry);
    service.lastAt[entry.key] = entry.at;
    const own = service.hook?.(req, url);
    if (own) {
      entry.status = own.status;
      res
        .writeHead(own.status, { "content-type": "application/json", ...own.headers })
        .end(own.body);
      return;
    }
    const forwarded = httpRequest(
      `${simulator.url}${req.url ?? "/"}`,
      { headers: { authorization: req.headers.authorization ?? "", accept: "application/json" } },
      (answer) => {
        entry.status = answer.statusCode ?? 502;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      }
    );
    forwarded.on("error", () => res.writeHead(502).end());
    forwarded.end();
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  service.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return service;
}

export interface GatewaySet {
  processes: GatewayProcess[];
  url(i?: number): string;
  stop(): Promise<void>;
}

export interface LabOptions {
  /** The built gateway: …/dist/node/gateway/main.js (this build's, or an older one for the "before" figures). */
  main: string;
}

export interface GatewayLab {
  readonly options: LabOptions;
  readonly simulator: RunningSimulator;
  readonly service: Service;
  readonly redis: RedisServer;
  readonly issuer: LocalIssuer;
  readonly files: GatewayFiles;
  readonly kekFile: string;
  /**
   * Starts gateway processes (stopping those running, Redis emptied: each attack starts from nothing): on Redis
   * unless `redis` is false or a URL given. With `shared`, the set running is kept (Redis as it is) when it was
   * started `shared` with the same count and options too: for small attacks that each ask with paths, users
   * and hooks of their own and read no process-wide figure (memory, the log, the budget), so that a row costs
   * its requests, not two process starts.
   */
  gateways(
    count: number,
    options?: {
      args?: string[];
      env?: Record<string, string>;
      redis?: boolean | string;
      signIn?: boolean;
      shared?: boolean;
    }
  ): Promise<GatewaySet>;
  /** A sign-in token for a user of the lab's tenant. */
  signIn(oid: string, name?: string): Promise<string>;
  /** A fresh connection to the lab's Redis. */
  redisClient(): Redis;
  /** Empties Redis (FLUSHALL) and restarts it if it is stopped. */
  resetRedis(): Promise<void>;
  close(): Promise<void>;
}

export interface Answer {
  status: number;
  text: string;
  headers: Headers;
  ms: number;
}

/** One request with a bearer token (a token's name, a sign-in token, or nothing). */
export async function call(
  base: string,
  path: string,
  token?: string,
  init: { method?: string; body?: unknown; signal?: AbortSignal } = {}
): Promise<Answer> {
  const started = performance.now();
  const credential = token && token in TOKENS ? TOKENS[token as TokenName] : token;
  const response = await fetch(`${base}${path}`, {
    method: init.method ?? "GET",
    headers: {
      ...(credential ? { authorization: `Bearer ${credential}` } : {}),
      ...(init.body !== undefined ? { "content-type": "application/json" } : {}),
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    ...(init.signal ? { signal: init.signal } : {}),
  });
  const text = await response.text();
  return {
    status: response.status,
    text,
    headers: response.headers,
    ms: performance.now() - started,
  };
}

/**
 * One request on a connection of its own (never a pooled one kept from before), with a time-out: what a
 * newcomer meets while the server's connections are under attack.
 */
export function callFresh(
  base: string,
  path: string,
  token?: string,
  timeoutMs = 5_000
): Promise<number> {
  const credential = token && token in TOKENS ? TOKENS[token as TokenName] : token;
  return new Promise((resolve) => {
    const req = httpRequest(
      `${base}${path}`,
      {
        agent: false,
        headers: {
          connection: "close",
          ...(credential ? { authorization: `Bearer ${credential}` } : {}),
        },
        timeout: timeoutMs,
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      }
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", () => resolve(0));
    req.end();
  });
}

/** A process's resident memory, from /proc (Linux), in bytes. */
export function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    return kb * 1024;
  } catch {
    return 0;
  }
}

export function mb(bytes: number): string {
  return `${Math.round(bytes / 1_048_576)} MB`;
}

export async function openGatewayLab(options: LabOptions): Promise<GatewayLab> {
  const [simulator, redis, issuer] = await Promise.all([
    startSimulator({
      port: 0,
      rateLimit: null,
      apiKeys: [TEAM_KEY, ALICE_KEY],
      today: "2026-11-20",
    }),
    startRedis(),
    startLocalIssuer(),
  ]);
  const service = await startService(simulator, { team: TEAM_KEY, alice: ALICE_KEY });
  const files = gatewayFiles(TEAM_KEY, { ...TOKENS });
  const kekFile = join(files.dir, "kek");
  writeFileSync(kekFile, `${randomBytes(32).toString("base64")}\n`);
  chmodSync(kekFile, 0o600);
  let running: GatewaySet | undefined;
  /** The count and options of the running set when it was started `shared` (else undefined). */
  let sharedAs: string | undefined;
  const lab: GatewayLab = {
    options,
    simulator,
    service,
    redis,
    issuer,
    files,
    kekFile,
    async gateways(count, opts = {}) {
      const as = opts.shared ? JSON.stringify([count, { ...opts, shared: true }]) : undefined;
      if (running && as !== undefined && as === sharedAs) {
        service.clear();
        return running;
      }
      await running?.stop();
      await lab.resetRedis();
      service.clear();
      const redisUrl =
        opts.redis === false ? undefined : typeof opts.redis === "string" ? opts.redis : redis.url;
      const signIn =
        opts.signIn === false
          ? []
          : [
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
            ];
      const args = [...signIn, "--admins", "admin", ...(opts.args ?? [])];
      const processes = await Promise.all(
        Array.from({ length: count }, () =>
          startGatewayProcess({
            main: options.main,
            serviceUrl: service.url,
            files,
            ...(redisUrl ? { redisUrl } : {}),
            args,
            env: { GATEWAY_LOG_LEVEL: "warn", ...opts.env },
          })
        )
      );
      const set: GatewaySet = {
        processes,
        url: (i = 0) => processes[i % processes.length].url,
        stop: async () => {
          await Promise.all(processes.map((p) => p.stop("SIGKILL")));
          if (running === set) {
            running = undefined;
            sharedAs = undefined;
          }
        },
      };
      running = set;
      sharedAs = as;
      return set;
    },
    signIn: (oid, name) =>
      issuer.mint({ tenant: TENANT, oid, audience: AUDIENCE, ...(name ? { name } : {}) }),
    redisClient: () => new Redis(redis.url, { lazyConnect: false, maxRetriesPerRequest: 1 }),
    async resetRedis() {
      redis.signal("SIGCONT");
      await redis.start();
      const client = lab.redisClient();
      try {
        await client.flushall();
      } finally {
        client.disconnect();
      }
    },
    async close() {
      await running?.stop();
      redis.signal("SIGCONT");
      await Promise.allSettled([service.close(), simulator.close(), redis.stop(), issuer.close()]);
    },
  };
  return lab;
}

/** A signed-in user's object id, fresh for each attack (so attacks never share a person). */
export function newUser(): string {
  return randomUUID();
}
