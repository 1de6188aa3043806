/**
 * VALUE and ASOF answered synchronously when everything they read is already here: both catalogues cached and
 * every series the reading needs held fresh by the engine. A warm recalculation then costs no promise, timer
 * or abort signal per cell: the async chain (value, datedValue, dayValue, pointsOf, engine.series), thousands
 * of them in flight at once, was most of a warm cell's time and garbage.
 *
 * Covered: a day's value (filled, or explained, by the rule, with its horizon and first day with data read
 * from what is held) and the latest value (with maxage=), without filters, window=, period= or values=.
 * Anything else, and any series (or first day) not held fresh, is NOT_CACHED: the caller runs the async path
 * (value.ts) afresh. The argument checks, refusals and #N/A messages are value.ts's own steps, so a cell
 * answered here shows what the async path shows, with the same diagnostics.
 */
import type { Cell, DateCell } from "../result";
import { NOT_CACHED, type FnContext, type NotCached } from "../context";
import { cachedHorizon, cachedLatestPoint, cachedPoints } from "./cached-reads";
import { usesHistoryStarts } from "./series-days";
import { resolvedNow } from "./resolve";
import {
  asked,
  dayFrom,
  dayOutcome,
  foundOn,
  hasFilters,
  needsFirstData,
  unfilledDay,
  latestWithValue,
  readingOf,
  shownLatest,
  valueCell,
  type Asked,
  type Dated,
} from "./value";
import type { Reading } from "./latest";

export function cachedValue(
  ctx: FnContext,
  projectArg: unknown,
  metricArg: unknown,
  dateArg: unknown,
  optionsArg: unknown
): Cell | NotCached {
  const dated = cachedDated(ctx, "VALUE", projectArg, metricArg, dateArg, optionsArg);
  return dated === NOT_CACHED ? NOT_CACHED : valueCell(dated);
}

export function cachedAsOf(
  ctx: FnContext,
  projectArg: unknown,
  metricArg: unknown,
  dateArg: unknown,
  optionsArg: unknown
): DateCell | NotCached {
  const dated = cachedDated(ctx, "ASOF", projectArg, metricArg, dateArg, optionsArg);
  return dated === NOT_CACHED ? NOT_CACHED : { date: dated.asOf };
}

/** The readings answered here: one day or the latest day, of the whole series, as it is (no roll-up). */
function covered(a: Asked): boolean {
  return (
    a.options.period === "day" &&
    a.options.window === undefined &&
    a.growth === undefined &&
    // Under vintage= the ledger is read, never without waiting.
    a.options.vintage === undefined &&
    !hasFilters(a.options)
  );
}

function cachedDated(
  ctx: FnContext,
  functionName: string,
  projectArg: unknown,
  metricArg: unknown,
  dateArg: unknown,
  optionsArg: unknown
): Dated | NotCached {
  // The same checks, in the same order, as the async path: a bad argument fails the same way here.
  const a = asked(functionName, projectArg, metricArg, dateArg, optionsArg);
  if (!covered(a)) return NOT_CACHED;
  const resolved = resolvedNow(ctx, a.projectText, a.metricText);
  if (!resolved) return NOT_CACHED;
  const [project, metric] = resolved;
  const r = readingOf(ctx, a, project, metric);
  if (a.date !== undefined) return cachedDayValue(r, a.date);
  const latest = cachedLatestPoint(ctx, r.base, r.label);
  if (latest === NOT_CACHED) return NOT_CACHED;
  const { day, value } = latestWithValue(project, metric, latest);
  return shownLatest(r, { value, asOf: day });
}

/** value.ts's dayValue from the cache. */
function cachedDayValue(r: Reading, date: number): Dated | NotCached {
  const from = dayFrom(r, date);
  const points = cachedPoints(r.ctx, r.base, r.label, from, date);
  if (points === NOT_CACHED) return NOT_CACHED;
  const found = foundOn(points, date);
  if (found) return found;
  if (r.fill === "none") throw unfilledDay(r, date, points);
  const horizon = cachedHorizon(r.ctx, r.base, r.label, points, from, date);
  if (horizon === NOT_CACHED) return NOT_CACHED;
  let firstData: number | null | undefined;
  if (needsFirstData(points, date, horizon)) {
    const first = cachedFirstDataDay(r);
    if (first === NOT_CACHED) return NOT_CACHED;
    firstData = first;
  }
  return dayOutcome(r, date, points, horizon, firstData);
}

/** series-days.ts's firstDataDay from what is held: the engine's history starts, or the whole series. */
function cachedFirstDataDay(r: Reading): number | null | NotCached {
  const { ctx, base } = r;
  if (usesHistoryStarts(base)) {
    const known = ctx.engine.historyStartNow(base.metricId, base.projectId);
    return known === undefined ? NOT_CACHED : known;
  }
  const points = cachedPoints(ctx, base, r.label, -Infinity, Infinity);
  if (points === NOT_CACHED) return NOT_CACHED;
  return points.find((p) => p.value !== null || p.conflict)?.day ?? null;
}
