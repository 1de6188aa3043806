/**
 * Which fill a metric admits, so filling never invents a figure:
 * - `previous` carries a value forward: right for a level (TVL on a missing day is the last TVL known), wrong
 *   for a flow (a missing day's revenue is not yesterday's revenue) and for a daily user count;
 * - `zero` counts a missing day as 0: right for a flow (no fees recorded), wrong for a level (a missing TVL
 *   day is not an empty protocol) and for a user count (it drags the average down).
 * Neither ever fills a day past the series' latest data or today (series-ops fills up to a bound the
 * callers take from completeness.ts): those days are not indexed yet, not gaps.
 */
import type { Fill } from "./series-ops";
import { metricKind } from "./metric-kinds";

/** Why `fill` does not apply to the metric (the #VALUE! message), or undefined when it does. */
export function fillRefusal(fill: Fill, metricId: string): string | undefined {
  if (fill === "none") return undefined;
  const kind = metricKind(metricId);
  if (fill === "previous" && kind === "flow")
    return `fill=previous carries a level forward (tvl, price, market cap); ${metricId} is a flow summed over days, so carrying it forward would invent ${metricId} on days without data; use fill=zero (a missing day counts 0) or fill=none`;
  if (fill === "previous" && kind === "users")
    return `fill=previous carries a level forward (tvl, price, market cap); ${metricId} is a daily user count, so carrying it forward would invent users; use fill=none`;
  if (fill === "zero" && kind === "level")
    return `fill=zero counts a missing day of a flow as 0; ${metricId} is a level, and a missing day is not a zero ${metricId}; use fill=previous (the last value known) or fill=none`;
  if (fill === "zero" && kind === "users")
    return `fill=zero counts a missing day of a flow as 0; ${metricId} is a daily user count, and a missing day is not zero users; use fill=none`;
  return undefined;
}
