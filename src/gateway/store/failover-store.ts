/**
 * Redis while it answers, process memory while it does not. A failing command marks the link down and the same
 * operation runs on the memory store; once a probe answers again (redis-link.ts) operations go back to Redis,
 * without a restart. Answers written during the outage stay in this process's memory; locks taken in memory
 * only keep this process from fetching a need twice (the other processes do the same on their side), which is
 * why the rate budget shrinks to a conservative share meanwhile (see ledger.ts).
 */
import type { MemoryStore } from "./memory-store";
import type { RedisLink } from "./redis-link";
import type { RedisStore } from "./redis-store";
import type { LockHolder, Store, Stored } from "./store";

export class FailoverStore implements Store {
  constructor(
    private readonly redis: RedisStore,
    private readonly memory: MemoryStore,
    private readonly link: RedisLink
  ) {}

  get name(): string {
    return this.link.up ? "redis" : "memory (Redis unreachable)";
  }

  private async use<T>(op: (store: Store) => Promise<T>): Promise<T> {
    if (this.link.up) {
      try {
        return await op(this.redis);
      } catch (error) {
        this.link.failed(error);
      }
    }
    return op(this.memory);
  }

  /**
   * Redis's value, or this process's own when Redis has none (an answer written while it was away: its revision
   * read as 0, since Redis holds none, so that writing it to Redis is a first write there).
   */
  async read(keys: readonly string[]): Promise<Array<Stored | undefined>> {
    const shared = await this.use((s) => s.read(keys));
    if (!shared.some((v) => v === undefined)) return shared;
    const own = await this.memory.read(keys);
    const up = this.link.up;
    return shared.map((v, i) => {
      const mine = own[i];
      return v ?? (mine && up ? { rev: 0, text: mine.text } : mine);
    });
  }

  async writeIf(key: string, rev: number, text: string, ttlMs: number): Promise<boolean> {
    if (this.link.up) {
      try {
        return await this.redis.writeIf(key, rev, text, ttlMs);
      } catch (error) {
        this.link.failed(error);
      }
    }
    // In memory the revision is memory's own: the text read may have come from Redis.
    const [current] = await this.memory.read([key]);
    return this.memory.writeIf(key, current?.rev ?? 0, text, ttlMs);
  }

  lock(
    keys: readonly string[],
    value: string,
    ttlMs: number
  ): Promise<{ taken: Set<string>; held: Map<string, LockHolder[]> }> {
    return this.use((s) => s.lock(keys, value, ttlMs));
  }

  holders(keys: readonly string[]): Promise<LockHolder[][]> {
    return this.use((s) => s.holders(keys));
  }

  renew(keys: readonly string[], value: string, ttlMs: number): Promise<void> {
    return this.use((s) => s.renew(keys, value, ttlMs));
  }

  /** Both: a lock may have been taken in memory before Redis came back. */
  async release(keys: readonly string[], value: string): Promise<void> {
    await this.memory.release(keys, value);
    await this.use(async (s) => {
      if (s !== this.memory) await s.release(keys, value);
    });
  }

  markFailed(key: string, failure: string, ttlMs: number): Promise<void> {
    return this.use((s) => s.markFailed(key, failure, ttlMs));
  }

  failure(key: string): Promise<string | undefined> {
    return this.use((s) => s.failure(key));
  }

  onReleased(listener: (keys: readonly string[]) => void): () => void {
    const stops = [this.redis.onReleased(listener), this.memory.onReleased(listener)];
    return () => stops.forEach((stop) => stop());
  }

  async close(): Promise<void> {
    await Promise.all([this.redis.close(), this.memory.close()]);
  }
}
