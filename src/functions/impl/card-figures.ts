/**
 * The card's figures, each by the rule of the formula a user would write for it, so a card and its cells
 * never disagree:
 * - a metric's latest value: `VALUE(project, metric)`;
 * - `Revenue TTM` / `Fees TTM`: `VALUE(project, "revenue", , "window=ttm")`;
 * - a quarter of a statement line: `VALUE(project, line, <quarter end>, "period=quarter")`.
 * They read through the engine, so run after the card batch's prefetch they are answered from the cache.
 * A figure the data cannot give is a reason (a #N/A in the card); a failure of the service is thrown, so the
 * whole card fails and keeps its previous value (stale-if-error), as every other function does.
 */
import { isCryptometricsError } from "../../client";
import { formatDay, periodEnd, periodStart } from "../../client";
import type { FnContext } from "../context";
import { ratioOf, horizonOf, DEFAULT_VARIANT } from "../../engine";
import { FunctionError } from "../result";
import { asOf, datedValueOn, value } from "./value";
import { userMessage } from "../messages";
import { isMissing, type Figure, type Quarter } from "./card-model";
import { latestRead } from "./latest";
import { run } from "./reads";
import { STANDARD_STATEMENT } from "./statement-lines";

/** The statement lines the card's Financials shows: the standard statement's, in its order (rows=standard). */
export const STATEMENT_LINES: readonly { section: string; metricId: string }[] = STANDARD_STATEMENT;

/** A data answer ("no data", "not available") becomes the figure's reason; a service failure is thrown. */
function missingFigure(error: unknown): Figure {
  if (error instanceof FunctionError && error.code === "na") return { missing: error.message };
  if (isCryptometricsError(error) && error.kind === "not-found")
    return { missing: userMessage(error.message) };
  throw error;
}

/** A figure computed as a cell computes it: a number, else no value; a data answer its reason (missingFigure). */
async function figureOf(compute: () => Promise<unknown>): Promise<Figure> {
  try {
    const result = await compute();
    if (typeof result === "number") return { value: result };
    return { missing: "no value" };
  } catch (error) {
    return missingFigure(error);
  }
}

/**
 * `VALUE(project, metric)` with `ASOF(project, metric)` as its note: the latest value by the same rules (none
 * for an archived project, the day of the series' last value).
 */
export async function latestFigure(
  ctx: FnContext,
  projectId: string,
  metricId: string
): Promise<Figure> {
  const figure = await figureOf(() => value(ctx, projectId, metricId, null, null));
  if (isMissing(figure)) return figure;
  const dated = await asOf(ctx, projectId, metricId, null, null);
  const note = SERVICE_RATIOS[metricId];
  return { ...figure, asOf: dated.date, ...(note ? { note } : {}) };
}

/**
 * The service's own ratios, which the card's P/S and P/F (computed here, on TTM) sit beside: each says which
 * it is, so two different P/F figures on one card never go unexplained.
 */
const SERVICE_RATIOS: Readonly<Record<string, string>> = {
  pf_fully_diluted:
    "the service's own P/F, on annualised fees of the last 30 days (the card's P/F is on fees TTM)",
  ps_fully_diluted:
    "the service's own P/S, on annualised revenue of the last 30 days (the card's P/S is on revenue TTM)",
};

export function ttmFigure(ctx: FnContext, projectId: string, metricId: string): Promise<Figure> {
  return figureOf(() => value(ctx, projectId, metricId, null, "window=ttm"));
}

/** A figure read as VALUE reads it, with its day. */
async function datedFigure(
  ctx: FnContext,
  projectId: string,
  metricId: string,
  day: number | undefined,
  options: string | null
): Promise<Figure> {
  try {
    const dated = await datedValueOn(ctx, projectId, metricId, day, options);
    return { value: dated.value, asOf: dated.asOf };
  } catch (error) {
    return missingFigure(error);
  }
}

/**
 * Fully diluted market cap over a metric's TTM (P/S on revenue, P/F on fees), both as of one day: when the
 * latest cap and the latest TTM end on different days, the later one is read again as of the earlier day,
 * so a ratio never divides one day's cap by another day's revenue. `what`: "revenue TTM".
 */
export async function ratioFigure(
  ctx: FnContext,
  projectId: string,
  metricId: string,
  what: string
): Promise<Figure> {
  const cap = "market_cap_fully_diluted";
  let [top, bottom] = await Promise.all([
    datedFigure(ctx, projectId, cap, undefined, null),
    datedFigure(ctx, projectId, metricId, undefined, "window=ttm"),
  ]);
  if (isMissing(top)) return { missing: `no market cap: ${top.missing}` };
  if (isMissing(bottom)) return { missing: `no ${what}: ${bottom.missing}` };
  if (top.asOf !== bottom.asOf) {
    if (top.asOf! > bottom.asOf!) top = await datedFigure(ctx, projectId, cap, bottom.asOf, null);
    else bottom = await datedFigure(ctx, projectId, metricId, top.asOf, "window=ttm");
    if (isMissing(top)) return { missing: `no market cap: ${top.missing}` };
    if (isMissing(bottom)) return { missing: `no ${what}: ${bottom.missing}` };
  }
  const ratio = ratioOf(top.value, bottom.value, what);
  if ("missing" in ratio) return { missing: ratio.missing };
  return {
    value: ratio.value,
    asOf: Math.min(top.asOf!, bottom.asOf!),
    note: `fully diluted market cap ÷ ${what}, both as of that day; computed here`,
  };
}

export function quarterFigure(
  ctx: FnContext,
  projectId: string,
  metricId: string,
  quarter: Quarter
): Promise<Figure> {
  return figureOf(() => value(ctx, projectId, metricId, formatDay(quarter.end), "period=quarter"));
}

function quarterOf(day: number): Quarter {
  const start = periodStart(day, "quarter");
  const text = formatDay(start);
  return {
    label: `Q${Math.ceil(Number(text.slice(5, 7)) / 3)} ${text.slice(0, 4)}`,
    start,
    end: periodEnd(day, "quarter"),
  };
}

/** The `count` quarters ending on or before `horizon`, oldest first. */
function quartersUpTo(horizon: number, count: number): Quarter[] {
  const last = quarterOf(horizon);
  const quarters: Quarter[] = [];
  let q = last.end <= horizon ? last : quarterOf(last.start - 1);
  while (quarters.length < count) {
    quarters.unshift(q);
    q = quarterOf(q.start - 1);
  }
  return quarters;
}

/**
 * The last four complete quarters of a project's statement: complete as VALUE's `partial=exclude` has it,
 * up to the horizon (min(today, the latest day with data)) of the card's anchor series, so a project whose
 * data stopped shows its last four quarters with data, not four empty ones.
 */
export async function lastCompleteQuarters(
  ctx: FnContext,
  projectId: string,
  anchor: string
): Promise<Quarter[] | { missing: string }> {
  const base = { projectId, metricId: anchor, variant: DEFAULT_VARIANT };
  const latest = await run(latestRead(ctx, base, `${projectId} ${anchor}`));
  if (latest === undefined) return { missing: `no ${anchor} data for ${projectId}` };
  return quartersUpTo(horizonOf(ctx.today, latest.day), 4);
}
