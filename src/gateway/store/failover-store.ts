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
import type { Store } from "./store";

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

  read(keys: readonly string[]): Promise<Array<string | undefined>> {
    return this.use((s) => s.read(keys));
  }

  write(key: string, value: string, ttlMs: number): Promise<void> {
    return this.use((s) => s.write(key, value, ttlMs));
  }

  lock(keys: readonly string[], owner: string, ttlMs: number): Promise<Set<string>> {
    return this.use((s) => s.lock(keys, owner, ttlMs));
  }

  renew(keys: readonly string[], owner: string, ttlMs: number): Promise<void> {
    return this.use((s) => s.renew(keys, owner, ttlMs));
  }

  /** Both: a lock may have been taken in memory before Redis came back. */
  async release(keys: readonly string[], owner: string): Promise<void> {
    await this.memory.release(keys, owner);
    await this.use(async (s) => {
      if (s !== this.memory) await s.release(keys, owner);
    });
  }

  markFailed(keys: readonly string[], message: string, ttlMs: number): Promise<void> {
    return this.use((s) => s.markFailed(keys, message, ttlMs));
  }

  failures(keys: readonly string[]): Promise<Array<string | undefined>> {
    return this.use((s) => s.failures(keys));
  }

  onReleased(listener: (keys: readonly string[]) => void): () => void {
    const stops = [this.redis.onReleased(listener), this.memory.onReleased(listener)];
    return () => stops.forEach((stop) => stop());
  }

  async close(): Promise<void> {
    await Promise.all([this.redis.close(), this.memory.close()]);
  }
}
