/**
 * Flags and environment of `npm run gateway` (and of `node dist/node/gateway/main.js`): each flag has an
 * environment variable, the flag winning. Pure: argv and env in, options or a usage error out.
 */
import { readFileSync, statSync } from "node:fs";
import { parseArgs } from "node:util";
import { parseBaseUrl } from "../client";
import { scaledRetryPolicy, type RetryPolicy } from "../client";
import { checkRedisUrl } from "./store/redis-link";

export const USAGE = `Usage: npm run gateway -- [options]      (or: node dist/node/gateway/main.js [options])
  --port N                 port to listen on; 0 picks a free one      [GATEWAY_PORT, default 8080]
  --host H                 address to listen on                        [GATEWAY_HOST, default 127.0.0.1]
  --service-url URL        the metrics service (https://…)             [GATEWAY_SERVICE_URL, required]
  --service-key-file FILE  file holding the service's API key          [GATEWAY_SERVICE_KEY_FILE, required]
  --tokens-file FILE       callers' tokens: NAME SHA256-HEX per line   [GATEWAY_TOKENS_FILE, required]
  --redis URL              redis://HOST:PORT shared by every process   [GATEWAY_REDIS_URL; omitted: in-process]
  --rate-limit N           upstream requests per minute per key        [GATEWAY_RATE_LIMIT, default 60]
  --user-rate N            of which one user may start per minute      [GATEWAY_USER_RATE, default 3/4 of it]
  --log-level LEVEL        fatal, error, warn, info, debug or silent   [GATEWAY_LOG_LEVEL, default info]
  --help

A token's line in the tokens file:  alice  $(printf '%s' "$TOKEN" | sha256sum | cut -d' ' -f1)
The gateway prints "Gateway listening on http://HOST:PORT" when ready; its log goes to stderr.`;

export class GatewayOptionError extends Error {}

export interface GatewayOptions {
  port: number;
  host: string;
  serviceUrl: string;
  serviceKey: string;
  tokensFile: string;
  redisUrl?: string;
  rateLimit: number;
  userRate?: number;
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
export function readServiceKey(file: string, notes: string[]): string {
  let text: string;
  try {
    if (statSync(file).size > 4_096) throw new Error("it is over 4 KB: not a key file");
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const why =
      code === "ENOENT"
        ? "no such file"
        : code === "EACCES"
          ? "permission denied"
          : (error as Error).message;
    throw new GatewayOptionError(`--service-key-file ${file} cannot be read: ${why}`);
  }
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
        "rate-limit": { type: "string" },
        "user-rate": { type: "string" },
        "log-level": { type: "string" },
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
  const tokensFile = pick("tokens-file", "GATEWAY_TOKENS_FILE");
  if (!tokensFile)
    throw new GatewayOptionError(
      "--tokens-file is required: without it no caller could be let in (NAME SHA256-HEX per line)"
    );
  const redisUrl = pick("redis", "GATEWAY_REDIS_URL");
  if (redisUrl) {
    try {
      checkRedisUrl(redisUrl);
    } catch (error) {
      throw new GatewayOptionError((error as Error).message);
    }
  }
  const rateLimit = integer(
    "--rate-limit",
    pick("rate-limit", "GATEWAY_RATE_LIMIT") ?? "60",
    1,
    100_000
  );
  const userRateText = pick("user-rate", "GATEWAY_USER_RATE");
  const userRate =
    userRateText === undefined ? undefined : integer("--user-rate", userRateText, 1, rateLimit);
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
    ...(redisUrl ? { redisUrl } : {}),
    rateLimit,
    ...(userRate === undefined ? {} : { userRate }),
    logLevel,
    windowMs: 60_000 / scale,
    ...(scale > 1 ? { retry: scaledRetryPolicy(scale), openMs: 120_000 / scale } : {}),
    notes,
  };
}
