/**
 * What the three series operations (§4.3 project metrics, §4.7 product metrics, §4.11 metric by id) share: the
 * reading of their query, and the sending of their rows day by day. Each handler says only how a day's rows
 * of one project or product are made.
 *
 * The query is read in one order for all three (lists first, in the table's order, then the closed values,
 * then the dates), each parameter through the Query, which reads a name the operation does not take (under
 * the readings, client/interface.ts) as absent: §4.11 has no order_direction, §4.7 no product_ids.
 */
import {
  AGGREGATE_BY,
  ORDER_DIRECTIONS,
  type AggregateBy,
  type OrderDirection,
} from "../../client";
import type { MetricDef } from "../data/metrics-catalog";
import type { HandlerContext } from "./context";
import type { DateRange } from "./params";
import { Repeats } from "./repeats";
import { Errors, resolveChains, resolveList, resolveMetrics, resolveSectors } from "./selection";
import { envelope, FAR_FUTURE_DAY, type Envelope, type WireValue } from "./wire";

export type Row = Record<string, WireValue>;

/** A series request's parameters, resolved against the catalogue (unknown ids: NOT_FOUND entries). */
interface SeriesQuery {
  readonly errors: Errors;
  /** metric_ids' known metrics; undefined when not sent (and likewise for each list). */
  readonly metrics: MetricDef[] | undefined;
  readonly chains: string[] | undefined;
  readonly products: string[] | undefined;
  readonly sectors: string[] | undefined;
  readonly aggregateBy: AggregateBy | undefined;
  readonly direction: OrderDirection;
  readonly bridged: boolean;
  readonly range: DateRange;
}

/**
 * The query of a series operation. `errors` may already hold entries (§4.11's projects come first);
 * `isProduct` says which product_ids are known.
 */
export function readSeriesQuery(
  ctx: HandlerContext,
  isProduct: (id: string) => boolean,
  errors = new Errors()
): SeriesQuery {
  const { query } = ctx;
  const metrics = resolveMetrics(ctx, errors);
  const chains = resolveChains(ctx, errors);
  const products = resolveList(ctx, errors, "product_ids", isProduct);
  const sectors = resolveSectors(ctx, errors);
  const aggregateBy = query.oneOf("aggregate_by", AGGREGATE_BY);
  // The interface's defaults (§4.3, §4.7, §4.11): newest first, bridged assets counted.
  const direction = query.oneOf("order_direction", ORDER_DIRECTIONS) ?? "desc";
  const bridged = query.boolean("assets_bridged", true);
  const range = query.dateRange();
  return { errors, metrics, chains, products, sectors, aggregateBy, direction, bridged, range };
}

/** A value scaled to a slice (a share of its project's): NaN without a share, integers kept whole. */
export function scaled(value: number, factor: number, integer: boolean | undefined): number {
  const v = factor > 0 ? value * factor : NaN;
  return integer && factor !== 1 ? Math.round(v) : v;
}

/** The rows of one project or product over its days. */
export interface SeriesPart {
  /** Its repeats' key (Repeats.keyOf). */
  readonly key: number;
  readonly from: number;
  readonly to: number;
  /** The rows of day `d`, dated `date` (d itself, or a day after any the service can have). */
  rows(d: number, date: number): Row[];
}

/**
 * The answer of a series operation: day by day in the direction asked, each day the parts in their order;
 * some days' rows sent more than once (knob duplicateRows, repeats.ts); with the futureRows reading "far",
 * each part's last day once more, dated after any day the service can have.
 */
export function seriesEnvelope(
  ctx: HandlerContext,
  parts: readonly SeriesPart[],
  ask: Pick<SeriesQuery, "direction" | "errors">
): Envelope {
  const repeats = new Repeats(ctx.knobs.duplicateRows);
  const lo = parts.reduce((a, p) => Math.min(a, p.from), Infinity);
  const hi = parts.reduce((a, p) => Math.max(a, p.to), -Infinity);
  const asc = ask.direction === "asc";
  let rows: Row[] = [];
  for (let d = asc ? lo : hi; d >= lo && d <= hi; d += asc ? 1 : -1) {
    for (const part of parts) {
      if (d < part.from || d > part.to) continue;
      const copies = repeats.copies(part.key, d);
      for (const row of part.rows(d, d))
        for (let c = 0; c < copies; c++) rows.push(c === 0 ? row : { ...row });
    }
  }
  if (ctx.knobs.readings.futureRows === "far") {
    const future = parts.flatMap((part) => part.rows(part.to, FAR_FUTURE_DAY));
    rows = asc ? rows.concat(future) : future.concat(rows);
  }
  return envelope(rows, ask.errors.entries);
}
