/**
 * Usage per person: for each user and UTC day, requests answered, cache hits, and upstream requests their
 * requests cost. Counted in this process at once (and in /metrics), and added to a Redis hash per day shared by
 * every process (`cm:gw:1:usage:YYYY-MM-DD`, field `USER|counter`, kept 40 days). While Redis is away the
 * increments wait in memory and are added when it answers again: a Redis outage loses no count.
 */
import type { RedisLink } from "./store/redis-link";

export const USAGE_COUNTERS = ["requests", "hits", "upstream"] as const;
export type UsageCounter = (typeof USAGE_COUNTERS)[number];
export type UsageCounts = Record<UsageCounter, number>;

/** Days a day's counters are kept in Redis: a month's report, with room. */
const KEEP_DAYS = 40;
const PREFIX = "cm:gw:1:usage:";

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
            pipeline.hincrby(`${PREFIX}${day}`, field, n);
          }
          for (const day of days) pipeline.expire(`${PREFIX}${day}`, KEEP_DAYS * 86_400);
          try {
            const results = await pipeline.exec();
            if (!results || results.some(([error]) => error)) throw new Error("not counted");
          } catch {
            // Back in the queue (an increment not applied is applied later; one applied twice would count
            // double, so a pipeline that failed midway may count a few twice: the lesser harm than losing).
            for (const [key, n] of batch) this.pending.set(key, (this.pending.get(key) ?? 0) + n);
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
  async day(day: string): Promise<Record<string, UsageCounts>> {
    const link = this.options.link;
    const out: Record<string, UsageCounts> = {};
    const add = (user: string, counter: string, n: number): void => {
      if (!(USAGE_COUNTERS as readonly string[]).includes(counter)) return;
      out[user] ??= zero();
      out[user][counter as UsageCounter] += n;
    };
    if (link?.up) {
      await this.flush();
      const fields = await link.main.hgetall(`${PREFIX}${day}`);
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
    }
    for (const [user, counts] of this.local.get(day) ?? new Map<string, UsageCounts>())
      for (const counter of USAGE_COUNTERS) add(user, counter, counts[counter]);
    return out;
  }

  close(): Promise<void> {
    return this.flush();
  }
}
