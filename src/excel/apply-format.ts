/** A FormatRule applied to the range it covers: fonts, alignment and number formats in one place. */
import type { Area, CellFormat } from "./port";

// String values of Excel.HorizontalAlignment: the enum object exists only inside Office.
const ALIGN: Record<NonNullable<CellFormat["align"]>, "Left" | "Right" | "Center"> = {
  left: "Left",
  right: "Right",
  center: "Center",
};

export function applyFormat(range: Excel.Range, area: Area, format: CellFormat): void {
  if (format.bold !== undefined) range.format.font.bold = format.bold;
  if (format.italic !== undefined) range.format.font.italic = format.italic;
  if (format.size !== undefined) range.format.font.size = format.size;
  if (format.align !== undefined) range.format.horizontalAlignment = ALIGN[format.align];
  if (format.numberFormat !== undefined) {
    // Range.numberFormat takes one entry per cell.
    range.numberFormat = Array.from({ length: area.rows }, () =>
      Array<string>(area.columns).fill(format.numberFormat as string)
    );
  }
}

/** The cells of `area`, counted from `origin` (the block's top-left cell). */
export function areaRange(origin: Excel.Range, area: Area): Excel.Range {
  return origin.getCell(area.row, area.column).getResizedRange(area.rows - 1, area.columns - 1);
}
