/**
 * The gateway's connections to Redis (ioredis) and whether Redis can be used right now. One Redis server (or a
 * managed Redis/Valkey endpoint), a Sentinel-watched primary, or a Redis Cluster: the same two connections either
 * way, one for commands (every multi-key script names keys of one hash slot: see keys.ts) and one subscribed to
 * release notices, shared by every service key's lane (one subscription per process, never one per lane).
 *
 * Commands never queue while Redis is away (no offline queue, no retries): they fail at once, and the gateway
 * serves from process memory meanwhile (failover-store.ts). ioredis keeps reconnecting in the background; when
 * the command connection is ready again and answers a PING, the link is up again.
 *
 * A closed connection is an outage at once. A command that fails on a live connection (slower than the time-out
 * on a busy machine, say) is not, by itself: that command's operation runs on process memory, and Redis is taken
 * as away only when PINGs fail too (VERIFY_PINGS in a row): a process that flaps to memory mid-run loses the
 * team's sharing for nothing.
 */
import { EventEmitter } from "node:events";
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from "ioredis";
import { REDIS_COMMAND_TIMEOUT_MS } from "../bounds";
import { repeat } from "../clock";
import type { Timers } from "../../client";
import { realTimers } from "../../client";

/** Where Redis is: one server, a Sentinel-watched primary, or a cluster's seed nodes. */
export type RedisTarget =
  | { kind: "single"; url: string }
  | { kind: "sentinel"; urls: string[]; name: string }
  | { kind: "cluster"; urls: string[] };

export type RedisClient = Redis | Cluster;

interface RedisLinkOptions {
  target: RedisTarget;
  /** Called when Redis becomes usable (true) or stops being (false), with why. */
  onChange?: (up: boolean, why: string) => void;
  /**
   * Called when Redis answered a command with an error of its own (a script it refused, a command it does not
   * take): no outage, a fault to fix, said in the log; the operation runs on process memory meanwhile.
   */
  onReplyError?: (message: string) => void;
  /** How often a down link is probed (ms). Default 1 s. */
  probeMs?: number;
  commandTimeoutMs?: number;
  timers?: Timers;
}

/** Checks a Redis URL: redis:// or rediss://, a host, a port if any. Throws why not. */
export function checkRedisUrl(url: string, flag = "--redis"): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`${flag} takes a URL such as redis://127.0.0.1:6379, got "${url}"`);
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:")
    throw new Error(`${flag} takes redis:// or rediss:// URLs, got ${parsed.protocol}`);
  if (!parsed.hostname) throw new Error(`${flag}: the URL names no host`);
  return parsed;
}

/**
 * The gateway's scripts whose first argument is their key count (they take any number of keys). ioredis's
 * auto-pipelining on a Cluster groups each command of a turn by its first argument taken as a key: these would
 * join the pipeline of whichever primary serves the slot of "12", beside commands on other slots, and the whole
 * pipeline would be refused ("All keys in the pipeline should belong to the same slots allocation group"), each
 * of its commands then run on process memory (locks that another process does not see: a fetch twice). They are
 * sent on their own; every other command names its key first and is grouped with its own primary's.
 */
export const KEY_COUNT_FIRST_SCRIPTS = [
  "cmLockMany",
  "cmHolders",
  "cmRenewMany",
  "cmReleaseMany",
] as const;

/** PINGs that must fail in a row, on a live connection, before Redis is taken as away. */
const VERIFY_PINGS = 3;

function credentials(url: URL): Pick<RedisOptions, "username" | "password" | "tls"> {
  return {
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(url.protocol === "rediss:" ? { tls: {} } : {}),
  };
}

export class RedisLink extends EventEmitter {
  readonly main: RedisClient;
  readonly sub: RedisClient;
  readonly cluster: boolean;
  private usable = false;
  private stopProbe: () => void;
  private closed = false;
  private verifying = false;
  private readonly channels = new Map<string, Set<(message: string) => void>>();

  constructor(private readonly options: RedisLinkOptions) {
    super();
    const timeout = options.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS;
    const common: RedisOptions = {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: timeout,
      connectTimeout: 2_000,
      // Keep trying, at most every 2 s: the gateway rejoins as soon as Redis is back.
      retryStrategy: (times: number) => Math.min(200 * times, 2_000),
      enableReadyCheck: true,
      // Commands issued in the same turn of the event loop go in one round trip (many callers at once).
      enableAutoPipelining: true,
    };
    const target = options.target;
    this.cluster = target.kind === "cluster";
    const make = (name: string, offline: boolean): RedisClient => {
      if (target.kind === "single") {
        const url = checkRedisUrl(target.url);
        return new Redis(target.url, {
          ...common,
          ...credentials(url),
          connectionName: name,
          ...(offline
            ? { enableOfflineQueue: true, commandTimeout: undefined, enableAutoPipelining: false }
            : {}),
        });
      }
      const urls = target.urls.map((u) => checkRedisUrl(u));
      const nodes = urls.map((u) => ({ host: u.hostname, port: Number(u.port || 6379) }));
      if (target.kind === "sentinel")
        return new Redis({
          ...common,
          ...credentials(urls[0]),
          sentinels: nodes,
          name: target.name,
          // Told by the Sentinels (+switch-master) the moment they promote a replica, ioredis reconnects to
          // the new primary. Without it, the connection stays on the old primary, which takes writes until the
          // Sentinels demote it some 8 s later (and then drops them for the new primary's copy): a user's key
          // registered, a cache entry or a budget start written then, acknowledged and lost.
          failoverDetector: true,
          connectionName: name,
          ...(offline
            ? { enableOfflineQueue: true, commandTimeout: undefined, enableAutoPipelining: false }
            : {}),
        });
      const clusterOptions: ClusterOptions = {
        enableOfflineQueue: offline,
        enableAutoPipelining: !offline,
        autoPipeliningIgnoredCommands: [...KEY_COUNT_FIRST_SCRIPTS],
        enableReadyCheck: true,
        clusterRetryStrategy: (times: number) => Math.min(200 * times, 2_000),
        // A failover moves slots: commands follow the new primary after a short pause, within the time-out.
        retryDelayOnFailover: 100,
        retryDelayOnClusterDown: 100,
        retryDelayOnTryAgain: 100,
        maxRedirections: 8,
        slotsRefreshTimeout: 2_000,
        redisOptions: {
          ...credentials(urls[0]),
          connectTimeout: 2_000,
          commandTimeout: offline ? undefined : timeout,
          maxRetriesPerRequest: 0,
          connectionName: name,
        },
      };
      return new Cluster(nodes, clusterOptions);
    };
    this.main = make("cm-gateway", false);
    // The subscription is made once and replayed by ioredis after each reconnection.
    this.sub = make("cm-gateway-sub", true);
    for (const connection of [this.main, this.sub]) {
      // ioredis reports connection errors as events; without a listener they would be thrown.
      connection.on("error", () => undefined);
    }
    this.sub.on("message", (channel: string, message: string) => {
      for (const listener of [...(this.channels.get(channel) ?? [])]) listener(message);
    });
    this.main.on("ready", () => void this.check("connected"));
    this.main.on("close", () => this.down("the connection closed"));
    this.main.on("end", () => this.down("the connection ended"));
    this.stopProbe = repeat(options.timers ?? realTimers, options.probeMs ?? 1_000, () =>
      this.usable ? undefined : this.check("answering again")
    );
  }

  /** Whether Redis can be used right now. */
  get up(): boolean {
    return this.usable;
  }

  /** Listens to a channel (one subscription per channel for the whole process); returns how to stop. */
  subscribe(channel: string, listener: (message: string) => void): () => void {
    let set = this.channels.get(channel);
    if (!set) {
      this.channels.set(channel, (set = new Set()));
      void this.sub.subscribe(channel).catch(() => undefined);
    }
    set.add(listener);
    return () => {
      const listeners = this.channels.get(channel);
      listeners?.delete(listener);
      if (listeners && listeners.size === 0) {
        this.channels.delete(channel);
        if (!this.closed) void this.sub.unsubscribe(channel).catch(() => undefined);
      }
    };
  }

  /** Channels subscribed now (tests: one per process, whatever the number of lanes). */
  get subscriptions(): number {
    return this.channels.size;
  }

  /** Resolves once Redis is usable, or after `ms` (then the gateway starts on process memory). */
  async ready(ms: number): Promise<boolean> {
    if (this.usable) return true;
    const timers = this.options.timers ?? realTimers;
    return new Promise<boolean>((resolve) => {
      const timer = timers.setTimeout(() => {
        this.off("up", onUp);
        resolve(false);
      }, ms);
      const onUp = (): void => {
        timers.clearTimeout(timer);
        resolve(true);
      };
      this.once("up", onUp);
    });
  }

  /**
   * A command failed. On a closed connection, Redis is away until a probe answers; on a live one, it is away
   * only if PINGs fail too (see the module comment).
   */
  failed(error: unknown): void {
    const why = error instanceof Error ? error.message : String(error);
    // Redis answered, with an error: a cluster moving slots says so and is transient; anything else is a fault.
    if (
      (error as { name?: unknown }).name === "ReplyError" &&
      !/^(CLUSTERDOWN|TRYAGAIN|LOADING|MASTERDOWN|READONLY|MOVED|ASK)\b/.test(why)
    )
      this.options.onReplyError?.(why.slice(0, 300));
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

  /** Redis's own memory settings: used memory, its maxmemory (0: unbounded) and its eviction policy. */
  async memory(): Promise<{ used: number; max: number; policy: string } | undefined> {
    try {
      const text = await (
        this.cluster ? (this.main as Cluster).nodes("master")[0] : (this.main as Redis)
      ).info("memory");
      const field = (name: string): string =>
        new RegExp(`^${name}:(.*)$`, "m").exec(text)?.[1]?.trim() ?? "";
      return {
        used: Number(field("used_memory")) || 0,
        max: Number(field("maxmemory")) || 0,
        policy: field("maxmemory_policy"),
      };
    } catch {
      return undefined;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopProbe();
    this.usable = false;
    this.channels.clear();
    await Promise.allSettled(
      [this.main, this.sub].map(async (c) => {
        try {
          await c.quit();
          // QUIT ends the connection but not, on a Sentinel target, the failover detector's subscriptions to
          // the Sentinels (ioredis keeps those reconnecting): disconnect() ends them too.
          if (this.options.target.kind === "sentinel") c.disconnect();
        } catch {
          c.disconnect();
        }
      })
    );
  }
}
