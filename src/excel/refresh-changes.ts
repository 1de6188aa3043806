/**
 * What the last Refresh all found, whoever ran it (the ribbon's Refresh button or the taskpane): the
 * restatements the runtime's ledger records from the moment it starts (src/engine/ledger). Excel recalculates
 * custom functions after its calculate request returns, so the changes arrive while the formulas settle, after
 * the command itself has completed; the record follows the ledger until the next Refresh all.
 *
 * One instance per page, as the refresh log: the taskpane bundle depends on the commands bundle, so the
 * ribbon's command and the taskpane's Refresh view share it. A ribbon refresh that finds changes is told to
 * whoever listens with tellChanges (the command shows the taskpane, which opens its Refresh view on the list).
 */
import type { Change } from "../engine";

/** The ledger as a refresh listens to it: every batch of changes recorded, as recorded. */
export interface ChangeFeed {
  subscribe(listener: (changes: readonly Change[]) => void): () => void;
}

export type RefreshSource = "ribbon" | "taskpane";

/**
 * Changes kept by value: the Refresh view names the newest 20 and CHANGES lists them all from the ledger, so
 * a refresh finding a refill of every figure of a big model (136 days × 1,000 cells) keeps only this many (a
 * change is about 200 bytes: 1 MB), the newest; the count and the projects and metrics cover them all.
 */
export const MAX_KEPT_CHANGES = 5_000;

export interface FoundChanges {
  /** When the Refresh all started (ms). */
  since: number;
  source: RefreshSource;
  /** Every change recorded since, counted. */
  count: number;
  /** The latest MAX_KEPT_CHANGES of them, as recorded. */
  kept: readonly Change[];
  /** Every project and metric that changed (for a CHANGES formula), in the order first seen. */
  projects: readonly string[];
  metrics: readonly string[];
}

/** FoundChanges as it is collected. */
type Collected = FoundChanges & { kept: Change[]; projects: string[]; metrics: string[] };

export class RefreshChanges {
  private found?: Collected;
  private stop?: () => void;
  private readonly listeners = new Set<(found: FoundChanges) => void>();

  /** The last Refresh all's, undefined before any. */
  get last(): FoundChanges | undefined {
    return this.found;
  }

  /** A Refresh all starts: what the ledger records from now on is its (the previous one's list closes). */
  start(feed: ChangeFeed, since: number, source: RefreshSource): void {
    this.stop?.();
    const found: Collected = { since, source, count: 0, kept: [], projects: [], metrics: [] };
    this.found = found;
    this.stop = feed.subscribe((changes) => {
      if (changes.length === 0) return;
      for (const c of changes) {
        found.count += 1;
        found.kept.push(c);
        if (!found.projects.includes(c.series.projectId)) found.projects.push(c.series.projectId);
        if (!found.metrics.includes(c.series.metricId)) found.metrics.push(c.series.metricId);
      }
      if (found.kept.length > MAX_KEPT_CHANGES)
        found.kept.splice(0, found.kept.length - MAX_KEPT_CHANGES);
      this.notify();
    });
    this.notify();
  }

  /** Called with the last Refresh all's changes when one starts and whenever it finds more. */
  subscribe(listener: (found: FoundChanges) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    const found = this.found;
    if (found) for (const l of [...this.listeners]) l(found);
  }
}

export const refreshChanges = new RefreshChanges();

/**
 * Calls `tell` once for each Refresh all from `source` that finds a change, when it finds its first: the
 * ribbon's refresh has no view of its own, so the taskpane is shown on its list. A refresh that finds
 * nothing tells nothing. Returns the unsubscribe.
 */
export function tellChanges(
  changes: RefreshChanges,
  source: RefreshSource,
  tell: (found: FoundChanges) => void
): () => void {
  let told: FoundChanges | undefined;
  return changes.subscribe((found) => {
    if (found.source !== source || found.count === 0 || told === found) return;
    told = found;
    tell(found);
  });
}
