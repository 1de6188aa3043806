/** A change in words, as the taskpane's Refresh view and the CLI's `eval --refresh` list it. */
import { formatDay } from "../../client";
import type { Change, FigureValue } from "./types";

// Made on first use: a process's first Intl object costs about 14 ms (ICU's data), and a CLI run or a gateway
// that never describes a change should not pay it at start.
let number: Intl.NumberFormat | undefined;

function valueText(v: FigureValue): string {
  return v === null
    ? "no value"
    : (number ??= new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 })).format(v);
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
