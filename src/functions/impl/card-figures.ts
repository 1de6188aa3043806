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
import { formatDay, periodEnd, periodStart } from "../../client/data/days";
import type { FnContext } from "../context";
import { FunctionError } from "../result";
import { value } from "./value";
import { isMissing, type Figure, type Quarter } from "./card-model";
import { DEFAULT_VARIANT } from "../../engine/series-types";
import { lastValueAtOrBefore } from "../../engine/series-ops";
import { LATEST_LOOKBACK_DAYS, fetchSeries, plainPoints } from "./series-common";

/** The statement lines the card's Financials shows, by section, in the service's order. */
export const STATEMENT_LINES: readonly { section: string; metricId: string }[] = [
  ...["fees", "fees_supply_side", "revenue", "token_incentives", "expenses", "earnings"].map(
    (metricId) => ({ section: "Income statement", metricId })
  ),
  ...[
    "tvl",
    "active_loans",
    "user_dau",
    "user_mau",
    "market_cap_fully_diluted",
    "tokenholders",
  ].map((metricId) => ({ section: "Key metrics", metricId })),
];

/** A data answer ("no data", "not available") becomes the figure's reason; a service failure is thrown. */
async function figureOf(compute: () => Promise<unknown>): Promise<Figure> {
  try {
    const result = await compute();
    if (typeof result === "number") return { value: result };
    return { missing: "no value" };
  } catch (error) {
    if (error instanceof FunctionError && error.code === "na") return { missing: error.message };
    if (isCryptometricsError(error) && error.kind === "not-found")
      return { missing: error.message };
    throw error;
  }
}

/**
 * The day of a series' latest value, read as VALUE reads it (the recent window, the whole history only for
 * a series with nothing recent): answered from what the card batch already fetched.
 */
async function latestDay(
  ctx: FnContext,
  projectId: string,
  metricId: string
): Promise<number | undefined> {
  const base = { projectId, metricId, variant: DEFAULT_VARIANT };
  const label = `${projectId} ${metricId}`;
  const lastIn = async (start: number): Promise<number | undefined> => {
    const answer = await fetchSeries(ctx, { ...base, start, end: Infinity }, label);
    return answer.issue ? undefined : lastValueAtOrBefore(plainPoints(answer), Infinity)?.day;
  };
  return (await lastIn(ctx.today - LATEST_LOOKBACK_DAYS)) ?? (await lastIn(-Infinity));
}

/** `VALUE(project, metric)`, with the day it is as of (the card shows it as the field's note). */
export async function latestFigure(
  ctx: FnContext,
  projectId: string,
  metricId: string
): Promise<Figure> {
  const figure = await figureOf(() => value(ctx, projectId, metricId, null, null));
  if (isMissing(figure)) return figure;
  const day = await latestDay(ctx, projectId, metricId);
  return day === undefined ? figure : { ...figure, asOf: day };
}

export async function ttmFigure(
  _ctx: FnContext,
  _projectId: string,
  _metricId: string
): Promise<Figure> {
  return { missing: "trailing twelve months are not computed yet" };
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
export function quartersUpTo(horizon: number, count: number): Quarter[] {
  const last = quarterOf(horizon);
  const quarters: Quarter[] = [];
  let q = last.end <= horizon ? last : quarterOf(last.start - 1);
  while (quarters.length < count) {
    quarters.unshift(q);
    q = quarterOf(q.start - 1);
  }
  return quarters;
}

/** The last four complete quarters of a project's statement. */
export async function lastCompleteQuarters(ctx: FnContext): Promise<Quarter[]> {
  return quartersUpTo(ctx.today - 1, 4);
}
