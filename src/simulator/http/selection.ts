/**
 * Resolving the id lists of a request against the catalogue: known ids go on, unknown ones become one
 * NOT_FOUND entry each, with `field` naming the parameter (partial success, §7).
 */
import type { MetricDef } from "../data/metrics-catalog";
import { findMetric } from "../data/metrics-catalog";
import { CHAIN_IDS, SECTOR_IDS } from "../data/sectors-chains";
import type { HandlerContext } from "./context";
import type { DateRange } from "./params";
import { notFoundEntry, unavailableEntry, type ErrorEntry } from "./wire";

export class Errors {
  readonly entries: ErrorEntry[] = [];

  notFound(field: string, value: string): void {
    this.entries.push(notFoundEntry(field, value));
  }

  unavailable(projectId: string, metricId: string): void {
    this.entries.push(unavailableEntry(projectId, metricId));
  }
}

/** Known ids of a list parameter, in request order; undefined when the parameter is absent. */
export function resolveList(
  ctx: HandlerContext,
  errors: Errors,
  field: string,
  isKnown: (id: string) => boolean
): string[] | undefined {
  const ids = ctx.query.list(field);
  if (ids === undefined) return undefined;
  const known: string[] = [];
  for (const id of ids) {
    if (isKnown(id)) known.push(id);
    else errors.notFound(field, id);
  }
  return known;
}

export function resolveMetrics(ctx: HandlerContext, errors: Errors): MetricDef[] | undefined {
  const ids = resolveList(ctx, errors, "metric_ids", (id) => findMetric(id) !== undefined);
  return ids?.map((id) => findMetric(id)).filter((m): m is MetricDef => m !== undefined);
}

export function resolveChains(ctx: HandlerContext, errors: Errors): string[] | undefined {
  return resolveList(ctx, errors, "chain_ids", (id) => CHAIN_IDS.has(id));
}

export function resolveSectors(ctx: HandlerContext, errors: Errors): string[] | undefined {
  return resolveList(ctx, errors, "market_sector_ids", (id) => SECTOR_IDS.has(id));
}

/** The requested range clipped to [first, last] of the data; from > to means "nothing". */
export function clip(range: DateRange, first: number, last: number): { from: number; to: number } {
  return { from: Math.max(range.start ?? first, first), to: Math.min(range.end ?? last, last) };
}
