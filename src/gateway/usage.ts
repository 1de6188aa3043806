/**
 * Usage per person: for each user and UTC day, requests answered, cache hits, and upstream requests their
 * requests cost. Counted in this process at once (and in /metrics), and added to a Redis hash per day shared by
 * every process (`cm:gw:2:{usage}:YYYY-MM-DD`, field `USER|counter`, kept 40 days). While Redis is away the
 * increments wait in memory (at most MAX_PENDING_FIELDS of them) and are added when it answers again, and the
 * listing is this process's own counts. Users are keys of maps and null-prototype records only: a user named
 * `constructor` or `__proto__` is a user like any other.
 */
import { usageKey } from "./store/keys";
import type { RedisLink } from "./store/redis-link";

const USAGE_COUNTERS = ["requests", "hits", "upstream"] as const;
type UsageCounter = (typeof USAGE_COUNTERS)[number];
type UsageCounts = Record<UsageCounter, number>;

/** Days a day's counters are kept in Redis: a month's report, with room. */
const KEEP_DAYS = 40;
/** Increments waiting for Redis: a day of a large team's users × counters; more are dropped (counted locally). */
const MAX_PENDING_FIELDS = 30_000;

export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function zero(): UsageCounts {
  return { requests: 0, hits: 0, upstream: 0 };
}

export class Usage {
  /** day -> user -> counts, this process's (the whole truth without Redis). */
  private readonly local = new Map<string, Map<string, UsageCounts>>();
  /** Increments not yet in Redis: `day\nuser|counter` -> n. */
  private pending = new Map<string, number>();
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly options: {
      link?: RedisLink;
      now?: () => number;
      /** Called for each increment (prom-client counter). */
      onCount?: (user: string, counter: UsageCounter, n: number) => void;
    } = {}
  ) {}

  private get now(): number {
    return (this.options.now ?? Date.now)();
  }

  count(user: string, counter: UsageCounter, n = 1): void {
    if (n <= 0) return;
    const day = dayOf(this.now);
    let users = this.local.get(day);
    if (!users) {
      users = new Map();
      this.local.set(day, users);
      // Only today's and yesterday's counters stay in memory; Redis keeps the history.
      for (const old of [...this.local.keys()].sort().slice(0, -2)) this.local.delete(old);
    }
    const counts = users.get(user) ?? zero();
    counts[counter] += n;
    users.set(user, counts);
    this.options.onCount?.(user, counter, n);
    if (this.options.link) {
      const field = `${day}\n${user}|${counter}`;
      if (this.pending.has(field) || this.pending.size < MAX_PENDING_FIELDS)
        this.pending.set(field, (this.pending.get(field) ?? 0) + n);
      void this.flush();
    }
  }

  /** Adds what is pending to Redis (one pipeline); kept for later when Redis is away. */
  flush(): Promise<void> {
    const link = this.options.link;
    if (!link || !link.up || this.pending.size === 0) return this.flushing ?? Promise.resolve();
    this.flushing ??= (async () => {
      try {
        while (this.pending.size > 0 && link.up) {
          const batch = this.pending;
          this.pending = new Map();
          const pipeline = link.main.pipeline();
          const days = new Set<string>();
          for (const [key, n] of batch) {
            const [day, field] = key.split("\n");
            days.add(day);
            pipeline.hincrby(usageKey(day), field, n);
          }
          for (const day of days) pipeline.expire(usageKey(day), KEEP_DAYS * 86_400);
          try {
            const results = await pipeline.exec();
            if (!results || results.some(([error]) => error)) throw new Error("not counted");
          } catch {
            // Back in the queue (an increment not applied is applied later; one applied twice would count
            // double, so a pipeline that failed midway may count a few twice: the lesser harm than losing).
            for (const [key, n] of batch)
              if (this.pending.has(key) || this.pending.size < MAX_PENDING_FIELDS)
                this.pending.set(key, (this.pending.get(key) ?? 0) + n);
            return;
          }
        }
      } finally {
        this.flushing = undefined;
      }
    })();
    return this.flushing;
  }

  /** Everyone's counts for `day` (YYYY-MM-DD): from Redis when shared (this process's pending added), else local. */
  async day(day: string): Promise<Map<string, UsageCounts>> {
    const link = this.options.link;
    const out = new Map<string, UsageCounts>();
    const add = (user: string, counter: string, n: number): void => {
      if (!(USAGE_COUNTERS as readonly string[]).includes(counter)) return;
      let counts = out.get(user);
      if (!counts) out.set(user, (counts = zero()));
      counts[counter as UsageCounter] += n;
    };
    if (link?.up) {
      try {
        await this.flush();
        const fields = await link.main.hgetall(usageKey(day));
        for (const [field, value] of Object.entries(fields)) {
          const cut = field.lastIndexOf("|");
          add(field.slice(0, cut), field.slice(cut + 1), Number(value) || 0);
        }
        for (const [key, n] of this.pending) {
          const [d, field] = key.split("\n");
          const cut = field.lastIndexOf("|");
          if (d === day) add(field.slice(0, cut), field.slice(cut + 1), n);
        }
        return out;
      } catch (error) {
        // Redis failed on the way: this process's own counts, as while it is away.
        link.failed(error);
        out.clear();
      }
    }
    for (const [user, counts] of this.local.get(day) ?? new Map<string, UsageCounts>())
      for (const counter of USAGE_COUNTERS) add(user, counter, counts[counter]);
    return out;
  }

  close(): Promise<void> {
    return this.flush();
  }
}
