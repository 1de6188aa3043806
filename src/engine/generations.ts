/**
 * Freshness by generation, shared by the engine's two caches (keyed-cache.ts for whole answers,
 * series-store.ts for series): a Refresh starts a new generation, and an entry is fresh only while it belongs
 * to the current one and its own expiry has not passed. An entry read back from the saved cache belongs to
 * the current generation only if it was fetched since this session's last Refresh.
 */
export class Generations {
  private generation = 0;
  /** When this session last asked for everything afresh: saved answers from before are not fresh. */
  private refreshedAt = -Infinity;

  constructor(private readonly now: () => number) {}

  /** The generation of an entry fetched now. */
  get current(): number {
    return this.generation;
  }

  /** Everything held so far becomes stale. */
  refresh(): void {
    this.generation++;
    this.refreshedAt = this.now();
  }

  /** The generation of a saved entry fetched at `fetchedAt`: the previous one when a Refresh came since. */
  ofRestored(fetchedAt: number): number {
    return fetchedAt >= this.refreshedAt ? this.generation : this.generation - 1;
  }

  isFresh(entry: { readonly generation: number; readonly expiresAt: number }): boolean {
    return entry.generation === this.generation && this.now() < entry.expiresAt;
  }
}
