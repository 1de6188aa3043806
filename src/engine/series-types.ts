/** What a cell asks of a time series, and what it gets back. */
import type { Snapshot, SeriesIssue } from "./series-store";
import type { DayPoint } from "./figures/series-ops";
import type { SeenRuns } from "./ledger";

export type Breakdown = "chain" | "product_id";

/** Options that change what the service returns for a series; cells with equal variants batch together. */
export interface SeriesVariant {
  bridged: boolean;
  chains: readonly string[];
  products: readonly string[];
  sectors: readonly string[];
  breakdown?: Breakdown;
}

export const DEFAULT_VARIANT: SeriesVariant = {
  bridged: true,
  chains: [],
  products: [],
  sectors: [],
};

export interface SeriesQuery {
  projectId: string;
  /** A product of the project: the product metrics operation (§4.7) serves it. */
  productId?: string;
  metricId: string;
  /** Day numbers; -Infinity / +Infinity: the service's defaults (from launch / to the latest data). */
  start: number;
  end: number;
  variant: SeriesVariant;
}

export interface SeriesAnswer {
  /** Points within the asked range, per breakdown dimension ("" without breakdown), sorted by day. */
  dims: Map<string, DayPoint[]>;
  issue?: SeriesIssue;
  warnings: readonly string[];
  servedBy: readonly string[];
  /** Set when the answer is an earlier one, served because fetching afresh failed. */
  stale?: { fetchedAt: number; reason: string };
  /** Set when the values were read back from the cache saved on this computer (an earlier session). */
  restored?: { fetchedAt: number };
  /**
   * Read from a held snapshot: when it was fetched, and when each of its values was first seen (vintage=
   * reads them; an answer handed straight from a request has neither).
   */
  held?: { fetchedAt: number; seen?: ReadonlyMap<string, SeenRuns> };
}

export interface SeriesCallOptions {
  /** Excel's cancellation of the calling cell. */
  signal?: AbortSignal;
}

function sortedKey(ids: readonly string[]): string {
  return [...ids].sort().join(",");
}

/** Keys of variant objects already seen: most cells share one variant object (the default options). */
const variantKeys = new WeakMap<SeriesVariant, string>();

export function variantKey(v: SeriesVariant): string {
  let key = variantKeys.get(v);
  if (key === undefined) {
    key = computeVariantKey(v);
    variantKeys.set(v, key);
  }
  return key;
}

function computeVariantKey(v: SeriesVariant): string {
  return [
    v.bridged ? "b" : "n",
    sortedKey(v.chains),
    sortedKey(v.products),
    sortedKey(v.sectors),
    v.breakdown ?? "",
  ].join("|");
}

/** Made for every series read of every cell: concatenated, not an array joined (no garbage per call). */
export function seriesKey(q: SeriesQuery): string {
  return (
    (q.productId ? "product|" : "project|") +
    q.projectId +
    "|" +
    (q.productId ?? "") +
    "|" +
    q.metricId +
    "|" +
    variantKey(q.variant)
  );
}

export function answerFrom(
  snapshot: Snapshot,
  dims: Map<string, DayPoint[]>,
  stale?: SeriesAnswer["stale"]
): SeriesAnswer {
  // The lists are made once per snapshot version (commit() clears them): thousands of cells read them.
  const lists = (snapshot.lists ??= {
    warnings: [...snapshot.warnings],
    servedBy: [...snapshot.servedBy],
  });
  const answer: SeriesAnswer = {
    dims,
    issue: snapshot.issue,
    warnings: lists.warnings,
    servedBy: lists.servedBy,
    stale,
    held: (snapshot.held ??= {
      fetchedAt: snapshot.fetchedAt,
      ...(snapshot.seen ? { seen: snapshot.seen } : {}),
    }),
  };
  if (snapshot.restored) answer.restored = { fetchedAt: snapshot.fetchedAt };
  return answer;
}
