/**
 * Freeze's lineage sheet: a worksheet "Lineage" (made on the first freeze, then added to) with a row for each
 * project and metric of each frozen range: when it was frozen, the range, its formula, the vintage its values
 * were known at, the service or team gateway that answered, and
 * the service's definition and source of the metric (src/functions/lineage.ts). Whoever receives the frozen
 * workbook can tell what every figure is and, with a key, compute it again as it was.
 *
 * Everything is written as values, every text made inert first (a formula or a definition from the service
 * starting with "=" stays text), and each text cut to Excel's cell limit.
 */
import { inertText } from "../sheet/safe-text";
import type { Lineage } from "../functions/lineage";

const LINEAGE_SHEET = "Lineage";

export const LINEAGE_HEADERS = [
  "Frozen",
  "Range",
  "Formula",
  "Vintage",
  "Service",
  "Via",
  "Project",
  "Product",
  "Metric",
  "Definition",
  "Metric source",
  "Note",
] as const;

/** Excel holds at most 32,767 characters in a cell. */
const MAX_CELL_CHARS = 32_767;

function text(value: string | undefined): string {
  if (value === undefined) return "";
  const cut = value.length > MAX_CELL_CHARS ? `${value.slice(0, MAX_CELL_CHARS - 1)}…` : value;
  return inertText(cut);
}

/** The rows one freeze adds: a row per project and metric of each range, one for a range naming none. */
function lineageRows(lineage: readonly Lineage[], frozenAt: string): string[][] {
  const rows: string[][] = [];
  for (const l of lineage) {
    const head = [frozenAt, l.range, l.formula, l.vintage, l.service, l.via];
    const metrics = l.metrics.length > 0 ? l.metrics : [undefined];
    for (const m of metrics)
      rows.push(
        [
          ...head,
          m?.projectId,
          m?.productId,
          m?.metricId,
          m?.definition,
          m?.source,
          [l.note, m ? m.problem : "no project or metric could be read from its arguments"]
            .filter(Boolean)
            .join("; "),
        ].map(text)
      );
  }
  return rows;
}

/**
 * Adds the rows below what the lineage sheet holds (making it, with its header, when the workbook has none).
 * Returns the sheet's name. Runs inside the caller's Excel.run (after the freeze itself has synced).
 */
export async function writeLineage(
  context: Excel.RequestContext,
  lineage: readonly Lineage[],
  frozenAt: string
): Promise<string> {
  let sheet = context.workbook.worksheets.getItemOrNullObject(LINEAGE_SHEET);
  await context.sync();
  const rows = lineageRows(lineage, frozenAt);
  let first: number;
  if (sheet.isNullObject) {
    sheet = context.workbook.worksheets.add(LINEAGE_SHEET);
    const header = sheet.getRangeByIndexes(0, 0, 1, LINEAGE_HEADERS.length);
    header.values = [[...LINEAGE_HEADERS]];
    header.format.font.bold = true;
    sheet.freezePanes.freezeRows(1);
    first = 1;
  } else {
    const used = sheet.getUsedRangeOrNullObject(true);
    used.load(["rowIndex", "rowCount"]);
    await context.sync();
    first = used.isNullObject ? 0 : used.rowIndex + used.rowCount;
  }
  if (rows.length > 0) {
    const range = sheet.getRangeByIndexes(first, 0, rows.length, LINEAGE_HEADERS.length);
    // Text format first: a vintage or an id that looks like a number or a date stays as written.
    range.numberFormat = rows.map((r) => r.map(() => "@"));
    range.values = rows;
  }
  await context.sync();
  return LINEAGE_SHEET;
}
