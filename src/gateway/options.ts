/**
 * Flags and environment of `npm run gateway` (and of `node dist/node/gateway/main.js`): each flag has an
 * environment variable, the flag winning. Pure: argv and env in, options or a usage error out.
 */
import { statSync } from "node:fs";
import { parseArgs } from "node:util";
import { parseBaseUrl } from "../client";
import { scaledRetryPolicy, type RetryPolicy } from "../client";
import { DEFAULT_PROCESSES } from "./bounds";
import { checkRedisUrl, type RedisTarget } from "./store/redis-link";
import { parseKek, readKekFile } from "./auth/user-keys";
import { readKeyFile } from "./key-file";

export const USAGE = `Usage: npm run gateway -- [options]      (or: node dist/node/gateway/main.js [options])
  --port N                 port to listen on; 0 picks a free one      [GATEWAY_PORT, default 8080]
  --host H                 address to listen on                        [GATEWAY_HOST, default 127.0.0.1]
  --service-url URL        the metrics service (https://…)             [GATEWAY_SERVICE_URL, required]
  --service-key-file FILE  file holding the service's API key          [GATEWAY_SERVICE_KEY_FILE, required]
  --tokens-file FILE       callers' tokens: NAME SHA256-HEX per line   [GATEWAY_TOKENS_FILE, required]
  --redis URL              redis://HOST:PORT shared by every process   [GATEWAY_REDIS_URL; omitted: in-process]
  --redis-cluster URLS     a Redis Cluster's nodes (some of them)      [GATEWAY_REDIS_CLUSTER, comma-separated]
  --redis-sentinel URLS    Sentinels watching the primary              [GATEWAY_REDIS_SENTINEL, comma-separated]
  --redis-sentinel-name N  the primary's name for the Sentinels        [GATEWAY_REDIS_SENTINEL_NAME, default mymaster]
  --processes N            gateway processes the team runs             [GATEWAY_PROCESSES, default 4]
                           (each takes 1/N of the budget while it cannot use Redis)
  --rate-limit N           upstream requests per minute per key        [GATEWAY_RATE_LIMIT, default 60]
  --log-level LEVEL        fatal, error, warn, info, debug or silent   [GATEWAY_LOG_LEVEL, default info]
  --admins NAMES           token names that may read everyone's usage  [GATEWAY_ADMINS, comma-separated]
  --metrics-readers NAMES  token names that may read per-person metrics [GATEWAY_METRICS_READERS, comma-separated]
Sign-in with Microsoft 365 (Entra ID access tokens; see src/gateway/SIGN-IN.md):
  --entra-tenants IDS      tenant ids whose users may sign in          [GATEWAY_ENTRA_TENANTS, comma-separated]
  --entra-audience AUD     the gateway API's app id URI and/or app id  [GATEWAY_ENTRA_AUDIENCE, comma-separated]
  --entra-scope NAME       delegated scope required                    [GATEWAY_ENTRA_SCOPE, default access_as_user]
  --entra-addin-client-id ID  the add-in's app (client) id, published to it  [GATEWAY_ENTRA_ADDIN_CLIENT_ID]
  --entra-admin-role NAME  app role of administrators                  [GATEWAY_ENTRA_ADMIN_ROLE, default Gateway.Admin]
  --entra-jwks-url URL     the issuer's signing keys                   [GATEWAY_ENTRA_JWKS_URL, default Microsoft's]
  --entra-issuer TEMPLATE  the issuer, {tenantid} for the tenant       [GATEWAY_ENTRA_ISSUER, default Microsoft's v2.0]
Per-user service keys (signed-in users register their own; encrypted at rest):
  --user-key-kek-file FILE 32-byte key-encryption key (base64 or hex)  [GATEWAY_USER_KEY_KEK_FILE, or GATEWAY_USER_KEY_KEK]
  --user-keys MODE         optional (team key otherwise) or required   [GATEWAY_USER_KEYS, default optional]
  --share-answers-across-keys  serve answers fetched with one key to callers of another  [GATEWAY_SHARE_ANSWERS_ACROSS_KEYS=1; default off]
  --no-daily-refresh       do not ask the team's requests of the last days again each night at 01:00 UTC  [GATEWAY_DAILY_REFRESH=0; default on]
  --help

A token's line in the tokens file:  alice  $(printf '%s' "$TOKEN" | sha256sum | cut -d' ' -f1)
The gateway prints "Gateway listening on http://HOST:PORT" when ready; its log goes to stderr.`;

export class GatewayOptionError extends Error {}

interface GatewayOptions {
  port: number;
  host: string;
  serviceUrl: string;
  serviceKey: string;
  /** Empty when sign-in alone lets callers in. */
  tokensFile: string;
  redis?: RedisTarget;
  /** How many processes the team runs (their share of the budget without Redis). */
  processes: number;
  admins: string[];
  metricsReaders: string[];
  entra?: {
    tenants: string[];
    audience: string[];
    scope?: string;
    adminRole?: string;
    /** The add-in's client id: the gateway tells the add-in how to sign in. */
    addinClientId?: string;
    jwksUrl?: string;
    issuerTemplate?: string;
  };
  /** The key-encryption key of per-user keys (never printed). */
  userKeyKek?: Buffer;
  requireUserKeys: boolean;
  shareAnswersAcrossKeys: boolean;
  /** The team's requests of the last days asked again each night (team-refresh.ts). */
  dailyRefresh: boolean;
  rateLimit: number;
  logLevel: string;
  /** The rate window (a minute; shorter under CRYPTOMETRICS_TIME_SCALE, for benchmarks and tests). */
  windowMs: number;
  retry?: Partial<RetryPolicy>;
  openMs?: number;
  /** Notes for the log (e.g. a key file others can read). */
  notes: string[];
  help: boolean;
}

type Env = Readonly<Record<string, string | undefined>>;

const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

function integer(name: string, text: string, min: number, max: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < min || n > max)
    throw new GatewayOptionError(
      `${name} takes a whole number from ${min} to ${max}, got "${text}"`
    );
  return n;
}

/** The service key from its file: one line, no spaces; the file should be readable by its owner only. */
function readServiceKey(file: string, notes: string[]): string {
  const text = readKeyFile(
    file,
    4,
    (why) => new GatewayOptionError(`--service-key-file ${file} cannot be read: ${why}`)
  );
  const key = text.trim();
  // eslint-disable-next-line no-control-regex
  if (key === "" || /[\s\u0000-\u001f\u007f]/.test(key))
    throw new GatewayOptionError(
      `--service-key-file ${file} must hold the key alone, on one line (it is empty or has spaces)`
    );
  try {
    if (process.platform !== "win32" && (statSync(file).mode & 0o077) !== 0)
      notes.push(`the service key file ${file} can be read by other users: chmod 600 it`);
  } catch {
    // Checked above; a race here changes nothing.
  }
  return key;
}

export function parseGatewayOptions(argv: readonly string[], env: Env): GatewayOptions {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: [...argv],
      options: {
        port: { type: "string" },
        host: { type: "string" },
        "service-url": { type: "string" },
        "service-key-file": { type: "string" },
        "tokens-file": { type: "string" },
        redis: { type: "string" },
        "redis-cluster": { type: "string" },
        "redis-sentinel": { type: "string" },
        "redis-sentinel-name": { type: "string" },
        processes: { type: "string" },
        "rate-limit": { type: "string" },
        "log-level": { type: "string" },
        admins: { type: "string" },
        "metrics-readers": { type: "string" },
        "entra-tenants": { type: "string" },
        "entra-audience": { type: "string" },
        "entra-scope": { type: "string" },
        "entra-admin-role": { type: "string" },
        "entra-addin-client-id": { type: "string" },
        "entra-jwks-url": { type: "string" },
        "entra-issuer": { type: "string" },
        "user-key-kek-file": { type: "string" },
        "user-keys": { type: "string" },
        "share-answers-across-keys": { type: "boolean" },
        "no-daily-refresh": { type: "boolean" },
        help: { type: "boolean", default: false },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new GatewayOptionError((error as Error).message);
  }
  const pick = (flag: string, variable: string): string | undefined => {
    const v = values[flag];
    return typeof v === "string" ? v : env[variable] || undefined;
  };
  const notes: string[] = [];
  if (values.help === true)
    return {
      help: true,
      port: 0,
      host: "",
      serviceUrl: "",
      serviceKey: "",
      tokensFile: "",
      processes: DEFAULT_PROCESSES,
      admins: [],
      metricsReaders: [],
      requireUserKeys: false,
      shareAnswersAcrossKeys: false,
      dailyRefresh: true,
      rateLimit: 60,
      logLevel: "info",
      windowMs: 60_000,
      notes,
    };

  const port = integer("--port", pick("port", "GATEWAY_PORT") ?? "8080", 0, 65_535);
  const host = pick("host", "GATEWAY_HOST") ?? "127.0.0.1";
  const serviceUrl = pick("service-url", "GATEWAY_SERVICE_URL");
  if (!serviceUrl)
    throw new GatewayOptionError("--service-url is required: the metrics service's base URL");
  try {
    parseBaseUrl(serviceUrl);
  } catch (error) {
    throw new GatewayOptionError(`--service-url: ${(error as Error).message}`);
  }
  const keyFile = pick("service-key-file", "GATEWAY_SERVICE_KEY_FILE");
  if (!keyFile)
    throw new GatewayOptionError(
      "--service-key-file is required: the file holding the service's API key (never the key itself on the command line)"
    );
  const list = (text: string | undefined): string[] =>
    (text ?? "")
      .split(",")
      .map((t) => t.trim())
      .filter((t) => t !== "");
  const tenants = list(pick("entra-tenants", "GATEWAY_ENTRA_TENANTS"));
  const audience = list(pick("entra-audience", "GATEWAY_ENTRA_AUDIENCE"));
  if (tenants.length > 0 !== audience.length > 0)
    throw new GatewayOptionError(
      "sign-in needs both --entra-tenants (who may sign in) and --entra-audience (the gateway API's app id URI or app id)"
    );
  for (const t of tenants)
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(t))
      throw new GatewayOptionError(
        `--entra-tenants takes tenant ids (GUIDs, Entra ID > Overview > Tenant ID), got "${t}"`
      );
  const keysUrl = pick("entra-jwks-url", "GATEWAY_ENTRA_JWKS_URL");
  const issuerTemplate = pick("entra-issuer", "GATEWAY_ENTRA_ISSUER");
  if (keysUrl) {
    try {
      parseBaseUrl(keysUrl);
    } catch (error) {
      throw new GatewayOptionError(`--entra-jwks-url: ${(error as Error).message}`);
    }
  }
  if (issuerTemplate !== undefined && !issuerTemplate.includes("{tenantid}"))
    throw new GatewayOptionError(
      `--entra-issuer is a template holding {tenantid}, such as https://login.microsoftonline.com/{tenantid}/v2.0; got "${issuerTemplate}"`
    );
  const entraScope = pick("entra-scope", "GATEWAY_ENTRA_SCOPE");
  const entraAdminRole = pick("entra-admin-role", "GATEWAY_ENTRA_ADMIN_ROLE");
  const addinClientId = pick("entra-addin-client-id", "GATEWAY_ENTRA_ADDIN_CLIENT_ID");
  const entra =
    tenants.length > 0
      ? {
          tenants,
          audience,
          ...(entraScope ? { scope: entraScope } : {}),
          ...(entraAdminRole ? { adminRole: entraAdminRole } : {}),
          ...(addinClientId ? { addinClientId } : {}),
          ...(keysUrl ? { jwksUrl: keysUrl } : {}),
          ...(issuerTemplate ? { issuerTemplate } : {}),
        }
      : undefined;
  const tokensFile = pick("tokens-file", "GATEWAY_TOKENS_FILE") ?? "";
  if (!tokensFile && !entra)
    throw new GatewayOptionError(
      "--tokens-file is required unless sign-in is set up (--entra-tenants, --entra-audience): without either no caller could be let in (NAME SHA256-HEX per line)"
    );
  const kekFile = pick("user-key-kek-file", "GATEWAY_USER_KEY_KEK_FILE");
  const kekText = env.GATEWAY_USER_KEY_KEK;
  let userKeyKek: Buffer | undefined;
  try {
    userKeyKek = kekFile
      ? readKekFile(kekFile)
      : kekText
        ? parseKek(kekText, "GATEWAY_USER_KEY_KEK")
        : undefined;
  } catch (error) {
    throw new GatewayOptionError((error as Error).message);
  }
  const userKeysMode = pick("user-keys", "GATEWAY_USER_KEYS") ?? "optional";
  if (userKeysMode !== "optional" && userKeysMode !== "required")
    throw new GatewayOptionError(`--user-keys takes optional or required, got "${userKeysMode}"`);
  if (userKeysMode === "required" && !userKeyKek)
    throw new GatewayOptionError(
      "--user-keys required needs a key-encryption key (--user-key-kek-file or GATEWAY_USER_KEY_KEK)"
    );
  if (userKeyKek && !entra)
    throw new GatewayOptionError(
      "per-user keys are registered by signed-in users: set up sign-in (--entra-tenants, --entra-audience) too"
    );
  const shareAnswersAcrossKeys =
    values["share-answers-across-keys"] === true ||
    env.GATEWAY_SHARE_ANSWERS_ACROSS_KEYS === "1" ||
    env.GATEWAY_SHARE_ANSWERS_ACROSS_KEYS === "true";
  const dailyRefresh = !(
    values["no-daily-refresh"] === true ||
    env.GATEWAY_DAILY_REFRESH === "0" ||
    env.GATEWAY_DAILY_REFRESH === "false"
  );
  const redis = redisTargetOf(
    pick("redis", "GATEWAY_REDIS_URL"),
    pick("redis-cluster", "GATEWAY_REDIS_CLUSTER"),
    pick("redis-sentinel", "GATEWAY_REDIS_SENTINEL"),
    pick("redis-sentinel-name", "GATEWAY_REDIS_SENTINEL_NAME")
  );
  const processes = integer(
    "--processes",
    pick("processes", "GATEWAY_PROCESSES") ?? String(DEFAULT_PROCESSES),
    1,
    1_000
  );
  const rateLimit = integer(
    "--rate-limit",
    pick("rate-limit", "GATEWAY_RATE_LIMIT") ?? "60",
    1,
    100_000
  );
  const logLevel = pick("log-level", "GATEWAY_LOG_LEVEL") ?? "info";
  if (!LEVELS.includes(logLevel))
    throw new GatewayOptionError(
      `--log-level takes one of ${LEVELS.join(", ")}, got "${logLevel}"`
    );
  // Development only, as for the CLI: the service's minute runs this many times faster (a simulator's too).
  const scaleText = env.CRYPTOMETRICS_TIME_SCALE;
  const scale = scaleText ? Number(scaleText) : 1;
  if (!(scale >= 1 && Number.isFinite(scale)))
    throw new GatewayOptionError(
      `CRYPTOMETRICS_TIME_SCALE must be a number of at least 1, got "${scaleText}"`
    );
  const serviceKey = readServiceKey(keyFile, notes);
  return {
    help: false,
    port,
    host,
    serviceUrl,
    serviceKey,
    tokensFile,
    admins: list(pick("admins", "GATEWAY_ADMINS")),
    metricsReaders: list(pick("metrics-readers", "GATEWAY_METRICS_READERS")),
    processes,
    ...(entra ? { entra } : {}),
    ...(userKeyKek ? { userKeyKek } : {}),
    requireUserKeys: userKeysMode === "required",
    shareAnswersAcrossKeys,
    dailyRefresh,
    ...(redis ? { redis } : {}),
    rateLimit,
    logLevel,
    windowMs: 60_000 / scale,
    ...(scale > 1 ? { retry: scaledRetryPolicy(scale), openMs: 120_000 / scale } : {}),
    notes,
  };
}

/** One of --redis, --redis-cluster, --redis-sentinel (at most one), checked. */
function redisTargetOf(
  single: string | undefined,
  cluster: string | undefined,
  sentinel: string | undefined,
  sentinelName: string | undefined
): RedisTarget | undefined {
  const given = [single, cluster, sentinel].filter((v) => v !== undefined);
  if (given.length > 1)
    throw new GatewayOptionError(
      "give one of --redis (one server), --redis-cluster (a cluster's nodes) or --redis-sentinel (Sentinels)"
    );
  const urls = (text: string, flag: string): string[] => {
    const list = text
      .split(",")
      .map((t) => t.trim())
      .filter((t) => t !== "");
    if (list.length === 0)
      throw new GatewayOptionError(`${flag} takes redis:// URLs, comma-separated`);
    for (const url of list) {
      try {
        checkRedisUrl(url, flag);
      } catch (error) {
        throw new GatewayOptionError((error as Error).message);
      }
    }
    return list;
  };
  if (single !== undefined) return { kind: "single", url: urls(single, "--redis")[0] };
  if (cluster !== undefined) return { kind: "cluster", urls: urls(cluster, "--redis-cluster") };
  if (sentinel !== undefined)
    return {
      kind: "sentinel",
      urls: urls(sentinel, "--redis-sentinel"),
      name: sentinelName ?? "mymaster",
    };
  return undefined;
}
