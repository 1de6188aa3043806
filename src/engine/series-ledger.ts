/**
 * The series cache's side of the restatement ledger (src/engine/ledger): a series as the ledger names it, and
 * (series-compare.ts) what one answer for a range changes of what the cache held, with when each value the
 * cache keeps was first seen. The series store calls it as it writes an answer; the ledger records the changes.
 */
import type { SeriesRef } from "./ledger";
import type { SeriesQuery, SeriesVariant } from "./series-types";

/**
 * The options that change what the service returns, as one text: "" for the service's defaults, otherwise
 * what differs, in a fixed order ("chains=base,ethereum; bridged=false"). Lists are sorted, as the series key
 * sorts them: one series, one text.
 */
export function filterText(v: SeriesVariant): string {
  const parts: string[] = [];
  const list = (name: string, ids: readonly string[]) => {
    if (ids.length > 0) parts.push(`${name}=${[...ids].sort().join(",")}`);
  };
  list("chains", v.chains);
  list("products", v.products);
  list("sectors", v.sectors);
  if (!v.bridged) parts.push("bridged=false");
  if (v.breakdown) parts.push(`breakdown=${v.breakdown}`);
  return parts.join("; ");
}

export function seriesRefOf(
  q: Pick<SeriesQuery, "projectId" | "productId" | "metricId" | "variant">
): SeriesRef {
  return {
    projectId: q.projectId,
    productId: q.productId ?? "",
    metricId: q.metricId,
    filter: filterText(q.variant),
  };
}

export { answerChanges, type AnswerOutcome, type HeldSnapshot } from "./series-compare";
