/**
 * A statement as its STATEMENT formulas spill it, for the taskpane's statement sheet: the same function,
 * the same engine and cache, so the sheet's layout (and its static values) are exactly what the formulas
 * show — the same complete periods, the same standard rows.
 */
import { dayOfInstant } from "../client";
import type { StatementGranularity } from "../engine";
import type { StatementInterval } from "../client";
import type { Runtime } from "../runtime/runtime";
import { CallTrace, type FnContext } from "./context";
import { statement } from "./impl/statement";
import {
  isDateCell,
  isEntityCell,
  isErrorCell,
  isPercentCell,
  type Cell,
  type Table,
} from "./result";

export type Grid = Array<Array<string | number | null>>;

function plainCell(cell: Cell): string | number | null {
  if (cell === null || isDateCell(cell) || isErrorCell(cell) || isEntityCell(cell)) return null;
  if (isPercentCell(cell)) return cell.percent;
  return typeof cell === "boolean" ? String(cell) : cell;
}

function plainGrid(table: Table): Grid {
  return table.map((row) => row.map(plainCell));
}

/** The spill of STATEMENT(projectId, granularity, interval, options). */
export async function statementGrid(
  runtime: Runtime,
  projectId: string,
  granularity: StatementGranularity,
  interval: StatementInterval,
  options: string
): Promise<Grid> {
  const ctx: FnContext = {
    runtime,
    engine: runtime.engine,
    trace: new CallTrace(),
    today: dayOfInstant(runtime.now()),
  };
  return plainGrid(await statement(ctx, projectId, granularity, interval, options));
}
