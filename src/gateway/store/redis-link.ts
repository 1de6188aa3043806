/**
 * The gateway's connections to Redis (ioredis) and whether Redis can be used right now. Three connections: one
 * for commands, one subscribed to release notices, one for the rate budget's transactions (WATCH holds a whole
 * connection). Commands never queue while Redis is away (enableOfflineQueue off, no retries): they fail at
 * once, and the gateway serves from process memory meanwhile (failover-store.ts). ioredis keeps reconnecting in
 * the background; when the command connection is ready again and answers a PING, the link is up again.
 */
import { EventEmitter } from "node:events";
import { Redis, type RedisOptions } from "ioredis";

export interface RedisLinkOptions {
  /** redis://[:password@]host:port[/db] or rediss://… */
  url: string;
  /** Called when Redis becomes usable (true) or stops being (false), with why. */
  onChange?: (up: boolean, why: string) => void;
  /** How often a down link is probed (ms). Default 1 s. */
  probeMs?: number;
  /** A command that takes longer fails (ms): a hung Redis must not hang requests. Default 1 s. */
  commandTimeoutMs?: number;
}

/** Checks a --redis value: redis:// or rediss://, a host, a port if any. Throws why not. */
export function checkRedisUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`--redis takes a URL such as redis://127.0.0.1:6379, got "${url}"`);
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:")
    throw new Error(`--redis takes a redis:// or rediss:// URL, got ${parsed.protocol}`);
  if (!parsed.hostname) throw new Error("--redis: the URL names no host");
  return parsed;
}

export class RedisLink extends EventEmitter {
  readonly main: Redis;
  readonly sub: Redis;
  readonly ledger: Redis;
  private usable = false;
  private probe: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: RedisLinkOptions) {
    super();
    checkRedisUrl(options.url);
    const common: RedisOptions = {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 1_000,
      connectTimeout: 2_000,
      // Keep trying, at most every 2 s: the gateway rejoins as soon as Redis is back.
      retryStrategy: (times: number) => Math.min(200 * times, 2_000),
      enableReadyCheck: true,
      lazyConnect: false,
    };
    this.main = new Redis(options.url, { ...common, connectionName: "cm-gateway" });
    // The subscription is made once and replayed by ioredis after each reconnection.
    this.sub = new Redis(options.url, {
      ...common,
      enableOfflineQueue: true,
      commandTimeout: undefined,
      connectionName: "cm-gateway-sub",
    });
    this.ledger = new Redis(options.url, { ...common, connectionName: "cm-gateway-budget" });
    for (const connection of [this.main, this.sub, this.ledger]) {
      // ioredis reports connection errors as events; without a listener they would be thrown.
      connection.on("error", () => undefined);
    }
    this.main.on("ready", () => void this.check("connected"));
    this.main.on("close", () => this.down("the connection closed"));
    this.probe = setInterval(() => {
      if (!this.usable) void this.check("answering again");
    }, options.probeMs ?? 1_000);
    this.probe.unref();
  }

  /** Whether Redis can be used right now. */
  get up(): boolean {
    return this.usable;
  }

  /** Resolves once Redis is usable, or after `ms` (then the gateway starts on process memory). */
  async ready(ms: number): Promise<boolean> {
    if (this.usable) return true;
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.off("up", onUp);
        resolve(false);
      }, ms);
      const onUp = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      this.once("up", onUp);
    });
  }

  /** A command failed: Redis is taken as away until a probe answers. */
  failed(error: unknown): void {
    this.down(error instanceof Error ? error.message : String(error));
  }

  private async check(why: string): Promise<void> {
    if (this.closed || this.usable || this.main.status !== "ready") return;
    try {
      await this.main.ping();
    } catch {
      return;
    }
    if (this.usable || this.closed) return;
    this.usable = true;
    this.options.onChange?.(true, why);
    this.emit("up");
  }

  private down(why: string): void {
    if (!this.usable || this.closed) return;
    this.usable = false;
    this.options.onChange?.(false, why);
    this.emit("down");
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.probe) clearInterval(this.probe);
    this.usable = false;
    await Promise.allSettled(
      [this.main, this.sub, this.ledger].map(async (c) => {
        try {
          await c.quit();
        } catch {
          c.disconnect();
        }
      })
    );
  }
}
