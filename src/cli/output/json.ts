/**
 * The `json` format, for programs: one array with one entry per formula, each a 2D array of cells.
 * Cells are numbers, strings, booleans, null (empty), "YYYY-MM-DD" strings for dates, and
 * {"error": "#N/A", "message": "..."} for errors, and a card (an entity value) as its Excel.EntityCellValue
 * JSON object, as Excel receives it.
 *
 * With --lineage, one object instead: `{"results": [...the same array...], "lineage": [...]}`, the lineage
 * row of results[i] at lineage[i] (src/cli/lineage.ts). An envelope behind a flag, so that programs parsing
 * the plain array go on reading what they read.
 */
import { Cell } from "../../sheet/cells";
import type { EntityJson } from "../../sheet/entity";
import type { FormattedResult } from "./cells-text";
import type { Lineage } from "../../functions/lineage";

export type JsonCell =
  number | string | boolean | null | { error: string; message: string } | EntityJson;

export function jsonCell(cell: Cell): JsonCell {
  switch (cell.kind) {
    case "number":
    case "string":
    case "boolean":
    case "date":
      return cell.value;
    case "empty":
      return null;
    case "error":
      return { error: cell.code, message: cell.message };
    case "entity":
      return cell.value;
  }
}

/**
 * The same text as JSON.stringify of the whole array (no spacing), one row at a time, so that a result of
 * 100,000 rows is never one string of hundreds of MB.
 */
export function* jsonChunks(
  results: readonly FormattedResult[],
  lineage?: readonly Lineage[]
): Generator<string> {
  if (lineage) yield '{"results":';
  yield "[";
  for (const [i, { grid }] of results.entries()) {
    yield i === 0 ? "[" : ",[";
    for (const [r, row] of grid.entries())
      yield (r === 0 ? "" : ",") + JSON.stringify(row.map(jsonCell));
    yield "]";
  }
  yield "]";
  if (lineage) {
    yield ',"lineage":[';
    for (const [i, row] of lineage.entries()) yield (i === 0 ? "" : ",") + JSON.stringify(row);
    yield "]}";
  }
  yield "\n";
}
