/**
 * What the restatement ledger speaks of (README.md beside this file): a series as the service keys it, one
 * figure of it (a series' day, in one breakdown member), and one recorded change of that figure.
 */

/**
 * One series as the service answers it: a project (or a product of it), a metric, and the options that change
 * what the service returns (chains, products, sectors, bridged assets, breakdown) written as one canonical
 * text, "" for the service's defaults. Two answers for the same SeriesRef and day are the same figure.
 */
export interface SeriesRef {
  projectId: string;
  /** "" for a project's own series. */
  productId: string;
  metricId: string;
  /** The options that change the answer, canonical ("chains=base,ethereum; bridged=false"); "" none. */
  filter: string;
}

/** One figure: a day of a series, in one breakdown member ("" when the series is not broken down). */
export interface CellRef {
  series: SeriesRef;
  dim: string;
  /** Days since 1970-01-01 (UTC), as the client counts them. */
  day: number;
}

/**
 * A value of a figure as the service sent it: a number, or null for a day sent without a value (or no longer
 * sent: a day the service dropped from a range it answered again).
 */
export type FigureValue = number | null;

/** One restatement: the value held before, the value that replaced it, and when each was first seen. */
export interface Change extends CellRef {
  before: FigureValue;
  after: FigureValue;
  /** When `before` was first seen (ms since epoch): since then, until seenAt, the figure showed `before`. */
  beforeSeenAt: number;
  /** When `after` was first seen: when the change was recorded. */
  seenAt: number;
  /**
   * The request that brought `after`, as the engine describes it ("GET /v2/metrics/fees for 3 projects,
   * 2024-01-01 → 2024-03-31"): the operation, ids and range, never a key or a token.
   */
  request: string;
}

/** The key of a series in maps: unambiguous whatever its ids contain. */
export function seriesId(s: SeriesRef): string {
  return JSON.stringify([s.projectId, s.productId, s.metricId, s.filter]);
}

/** The key of a figure in maps. */
export function cellId(c: CellRef): string {
  return `${seriesId(c.series)}${JSON.stringify([c.dim, c.day])}`;
}

/** Whether two values are the same figure: exact (any difference the service makes is a change). */
export function sameValue(a: FigureValue, b: FigureValue): boolean {
  // Service values are finite numbers or null (no NaN): equality is ===, and 0 and -0 are one figure.
  return a === b;
}
