/**
 * The gateway's connections to Redis (ioredis) and whether Redis can be used right now. Three connections: one
 * for commands, one subscribed to release notices, one for the rate budget's transactions (WATCH holds a whole
 * connection). Commands never queue while Redis is away (enableOfflineQueue off, no retries): they fail at
 * once, and the gateway serves from process memory meanwhile (failover-store.ts). ioredis keeps reconnecting in
 * the background; when the command connection is ready again and answers a PING, the link is up again.
 *
 * A closed connection is an outage at once. A command that fails on a live connection (slower than the
 * time-out on a busy machine, say) is not, by itself: that command's operation runs on process memory, and
 * Redis is taken as away only when PINGs fail too (VERIFY_PINGS in a row): a process that flaps to memory
 * mid-run loses the team's sharing (its needs fetched again on its own) for nothing.
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

/** PINGs that must fail in a row, on a live connection, before Redis is taken as away (each under the time-out). */
const VERIFY_PINGS = 3;

export class RedisLink extends EventEmitter {
  readonly main: Redis;
  readonly sub: Redis;
  readonly ledger: Redis;
  private usable = false;
  private probe: NodeJS.Timeout | undefined;
  private closed = false;
  /** A check of a live connection after a failed command is under way (see failed). */
  private verifying = false;

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

  /**
   * A command failed. On a closed connection, Redis is away until a probe answers; on a live one, it is away
   * only if PINGs fail too (see the module comment): one slow command does not cost the team its sharing.
   */
  failed(error: unknown): void {
    const why = error instanceof Error ? error.message : String(error);
    if (this.main.status !== "ready") return this.down(why);
    if (this.verifying || !this.usable) return;
    this.verifying = true;
    void this.verify(why).finally(() => (this.verifying = false));
  }

  private async verify(why: string): Promise<void> {
    for (let i = 0; i < VERIFY_PINGS; i++) {
      if (this.closed || !this.usable) return;
      try {
        await this.main.ping();
        return;
      } catch {
        // Another try; the time-out is the command time-out.
      }
    }
    this.down(`${why} (and ${VERIFY_PINGS} PINGs in a row failed)`);
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
