/**
 * VALUE and ASOF answered synchronously when everything they read is already here: both catalogues cached and
 * every series the reading needs held fresh by the engine. A warm recalculation then costs no promise, timer
 * or abort signal per cell: the async chain (value, datedValue, dayValue, pointsOf, engine.series), thousands
 * of them in flight at once, was most of a warm cell's time and garbage.
 *
 * Covered: a day's value (filled, or explained, by the rule, with its horizon and first day with data read
 * from what is held) and the latest value (with maxage=), without filters, window=, period= or values=.
 * Anything else, and any series (or first day) not held fresh, is NOT_CACHED: the caller runs the async path
 * (value.ts) afresh. The argument checks, the reading (value.ts's plainValue) and its #N/A messages are
 * value.ts's own code, run over the cache's reads (latest.ts, cacheReads) instead of the service's, so a cell
 * answered here shows what the async path shows, with the same diagnostics.
 */
import type { Cell, DateCell } from "../result";
import { NOT_CACHED, type FnContext, type NotCached } from "../context";
import { cacheReads } from "./latest";
import { resolvedNow } from "./resolve";
import {
  asked,
  hasFilters,
  isPlain,
  plainValue,
  readingOf,
  valueCell,
  type Asked,
  type Dated,
} from "./value";

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
    isPlain(a) &&
    // Under vintage= the ledger is read, never without waiting.
    a.options.vintage === undefined &&
    // The filters are checked against the catalogue first (an await): the async path's.
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
  // value.ts's own reading, over the cache instead of the service.
  return plainValue(cacheReads(ctx), readingOf(ctx, a, project, metric), project, metric, a.date);
}
