/** A change in words, as the taskpane's Refresh view and the CLI's `eval --refresh` list it. */
import { formatDay } from "../../client";
import type { Change, FigureValue } from "./types";

const number = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

function valueText(v: FigureValue): string {
  return v === null ? "no value" : number.format(v);
}

/** "aave fees 2024-02-15: 1,030,419.38 → 1,288,024.23" (a product or a filter named beside it). */
export function changeText(c: Change): string {
  const product = c.series.productId ? ` (product ${c.series.productId})` : "";
  const notes = [c.series.filter, c.dim && `member ${c.dim}`].filter(Boolean).join("; ");
  const metric = notes ? `${c.series.metricId} (${notes})` : c.series.metricId;
  return `${c.series.projectId}${product} ${metric} ${formatDay(c.day)}: ${valueText(c.before)} → ${valueText(c.after)}`;
}

/** The newest first, at most `max`. */
export function newestChanges(changes: readonly Change[], max: number): Change[] {
  return [...changes].sort((a, b) => b.seenAt - a.seenAt).slice(0, max);
}
