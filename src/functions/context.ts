/** What an implementation gets: the shared runtime, the call's trace for diagnostics, cancellation, today. */
import type { Engine, Loaded, SeriesAnswer, Vintage } from "../engine";
import type { Runtime } from "../runtime/runtime";
import { messageOf } from "../client";

/**
 * What served one call, for its diagnostics record. The collections most cells leave empty (warnings, as-of
 * days) are made on first use: a warm recalculation keeps thousands of traces until their records are read.
 */
export class CallTrace {
  readonly requests = new Set<string>();
  stale?: { fetchedAt: number; reason: string };
  /** The oldest answer read back from the cache saved on this computer, if any served the cell. */
  restored?: { fetchedAt: number };
  readonly definitions: Record<string, string> = {};
  private warningSet?: Set<string>;
  private asOfMap?: Map<string, number>;

  get warnings(): Set<string> {
    return (this.warningSet ??= new Set());
  }

  /** Day of each latest value shown, by series label ("aave tvl"): what a "latest" figure is as of. */
  get asOf(): Map<string, number> {
    return (this.asOfMap ??= new Map());
  }

  noteAsOf(label: string, day: number): void {
    this.asOf.set(label, day);
  }

  noteSeries(label: string, answer: SeriesAnswer): void {
    // Loops, not forEach callbacks: every warm cell notes a series, and most have no warning.
    for (const r of answer.servedBy) this.requests.add(r);
    for (const w of answer.warnings) this.warnings.add(`${label}: ${w}`);
    if (answer.stale) this.stale = answer.stale;
    if (answer.restored) this.noteRestored(answer.restored.fetchedAt);
  }

  noteLoaded(description: string, loaded: Loaded<unknown>): void {
    this.requests.add(
      loaded.restored
        ? `${description} (saved on this computer)`
        : loaded.cached
          ? `${description} (cached)`
          : description
    );
    if (loaded.restored) this.noteRestored(loaded.restored.fetchedAt);
    if (loaded.stale) {
      const e = loaded.stale.error;
      this.stale = {
        fetchedAt: loaded.stale.fetchedAt,
        reason: messageOf(e),
      };
    }
  }

  private noteRestored(fetchedAt: number): void {
    if (!this.restored || fetchedAt < this.restored.fetchedAt) this.restored = { fetchedAt };
  }
}

/**
 * What an implementation that answers without waiting returns when it cannot: something it needs is not
 * cached, or the call is not one it covers. The edge then runs the async implementation afresh.
 */
export const NOT_CACHED: unique symbol = Symbol("not cached");
export type NotCached = typeof NOT_CACHED;

export interface FnContext {
  runtime: Runtime;
  engine: Engine;
  trace: CallTrace;
  /** Aborted when Excel cancels the cell (cancelable functions only). Made on first read: read it late. */
  readonly signal?: AbortSignal;
  /** Today's day number (UTC) by the runtime's clock (under vintage=, the vintage's day). */
  today: number;
  /** Set under vintage= (impl/vintage.ts): every series is read as it was known at this instant. */
  readonly vintage?: Vintage;
}

/** Catalogue access with the trace noted, so the diagnostics can say what served a cell. */
export async function traced<T>(
  ctx: FnContext,
  description: string,
  load: Promise<Loaded<T>>
): Promise<T> {
  const loaded = await load;
  ctx.trace.noteLoaded(description, loaded);
  return loaded.value;
}
