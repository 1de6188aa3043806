/**
 * STATEMENT's figures checked by the rule of every figure (engine/figures.ts): a statement's figure is the
 * service's, but whether it stands for its whole period is read from the line's daily series, as any other
 * function's figure is. A period of a line is whole when every one of its days has a value; a launch quarter
 * (ethena's Q1 2024 has 42 of its 91 days), a quarter still running, or one with days without a value is
 * not, and a day the service sent twice with different values makes the figure a #N/A in every mode.
 *
 * - values=value: the service's figure where whole; where not, a #N/A saying "N of M days" (partial=exclude)
 *   or the figure (partial=include); a figure the service left empty is a #N/A saying so.
 * - values=pop: the service's change, where the period and the previous one are whole and the previous
 *   figure is above 0 (a change over a loss is "NM"); an empty change is a #N/A, never a blank.
 * - values=yoy: the change on the same period a year earlier, by the same checks.
 * A line without a daily series of its own (a line only the statement has) cannot be checked: its figures are
 * shown as sent, and Diagnostics says so.
 */
import type { FinancialStatementRow } from "../../client";
import { dayNumber, periodStart } from "../../client";
import { periodLabel, windowOf, type PeriodWindow } from "../../engine/completeness";
import type { StatementGranularity } from "../../engine/engine";
import {
  judge,
  windowFigure,
  type Judged,
  type SeriesDays,
  type WindowFigure,
} from "../../engine/figures";
import { baseStart, growthOf, type Growth } from "../../engine/growth";
import { DEFAULT_VARIANT } from "../../engine/series-types";
import type { FnContext } from "../context";
import { FunctionError, type Cell } from "../result";
import { horizonFor, pointsOf } from "./latest";
import { lineKey, type StatementLine } from "./statement-lines";

/** Line key -> the line's days from the first period checked on; undefined: no daily series to check. */
export type LineDays = Map<string, SeriesDays | undefined>;

/** The daily series of the lines, from `from` to the latest data: one planned read for them all. */
export async function readLineDays(
  ctx: FnContext,
  projectId: string,
  lines: readonly StatementLine[],
  from: number
): Promise<LineDays> {
  const out: LineDays = new Map();
  await Promise.all(
    lines.map(async (line) => {
      const base = { projectId, metricId: line.metricId, variant: DEFAULT_VARIANT };
      const label = `${projectId} ${line.metricId}`;
      try {
        const points = await pointsOf(ctx, base, label, from, Infinity);
        const horizon = await horizonFor(ctx, base, label, points, from, Infinity);
        out.set(lineKey(line), { points, horizon });
      } catch (error) {
        // The service has no daily series for this line: its figures cannot be checked.
        if (error instanceof FunctionError && error.code === "na") {
          out.set(lineKey(line), undefined);
          ctx.trace.warnings.add(
            `${label}: no daily series to check the statement's figures against; shown as the service sent them`
          );
          return;
        }
        throw error;
      }
    })
  );
  return out;
}

/** The coverage of one line's period: its figure of days (undefined: the line cannot be checked). */
export function lineFigure(
  days: LineDays,
  line: StatementLine,
  w: Pick<PeriodWindow, "start" | "end">
): WindowFigure | undefined {
  const d = days.get(lineKey(line));
  return d && windowFigure(d, w.start, w.end, "none", "sum");
}

/** The rule applied to a line's period: undefined when it cannot be checked (shown as sent). */
export function lineJudged(
  ctx: FnContext,
  projectId: string,
  days: LineDays,
  line: StatementLine,
  w: PeriodWindow,
  include: boolean
): Judged | undefined {
  const f = lineFigure(days, line, w);
  return (
    f &&
    judge(f, include, {
      label: periodLabel(w),
      subject: `${projectId} ${line.metricId}`,
      today: ctx.today,
    })
  );
}

/** What the figure cells need to know of the statement. */
export interface StatementContext {
  ctx: FnContext;
  projectId: string;
  granularity: StatementGranularity;
  days: LineDays;
  include: boolean;
}

/** Line key -> period start -> the service's row. */
export type RowIndex = Map<string, Map<number, FinancialStatementRow>>;

export function rowIndex(
  rows: readonly FinancialStatementRow[],
  granularity: StatementGranularity
): RowIndex {
  const out: RowIndex = new Map();
  for (const r of rows) {
    const key = lineKey(r);
    let byStart = out.get(key);
    if (!byStart) out.set(key, (byStart = new Map<number, FinancialStatementRow>()));
    byStart.set(periodStart(dayNumber(r.date), granularity), r);
  }
  return out;
}

/** The service's figure of a line's period, by the rule. */
export function valueCell(
  s: StatementContext,
  row: FinancialStatementRow,
  line: StatementLine,
  w: PeriodWindow
): Cell {
  const judged = lineJudged(s.ctx, s.projectId, s.days, line, w, s.include);
  if (judged && "reason" in judged) return { error: "na", message: judged.reason };
  if (row.value === null)
    return {
      error: "na",
      message: `the service sent no ${line.metricId} figure for ${periodLabel(w)}`,
    };
  return row.value;
}

/**
 * A change (the service's pop, or the yoy computed here) where both periods are whole and the base above 0;
 * otherwise why not.
 */
export function changeCell(
  s: StatementContext,
  index: RowIndex,
  row: FinancialStatementRow,
  line: StatementLine,
  w: PeriodWindow,
  growth: Growth
): Cell {
  const what = `no ${growth} change for ${s.projectId} ${line.metricId} ${periodLabel(w)}`;
  const current = lineJudged(s.ctx, s.projectId, s.days, line, w, false);
  if (current && "reason" in current) return { error: "na", message: `${what}: ${current.reason}` };
  const bs = baseStart(w.start, s.granularity, growth);
  const bw = windowOf(bs, s.granularity);
  const base = lineJudged(s.ctx, s.projectId, s.days, line, bw, false);
  if (base && "reason" in base)
    return { error: "na", message: `${what}: its base: ${base.reason}` };
  const baseRow = index.get(lineKey(line))?.get(bs);
  if (growth === "pop" && row.popChange === null)
    return { error: "na", message: `${what}: the service sent no change` };
  const g = growthOf(row.value, baseRow?.value);
  if (!("value" in g)) return { error: "na", message: `${what}: ${g.missing}` };
  // pop is the service's own change (its figure); yoy is computed here.
  return { percent: growth === "pop" ? row.popChange! : g.value };
}
