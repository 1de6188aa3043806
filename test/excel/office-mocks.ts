/**
 * Excel at the host boundary, built with office-addin-mock: objects whose data properties must be loaded and
 * synced before they are read (as in Excel), with just the methods the modules under test call.
 */
import { OfficeMockObject } from "office-addin-mock";
import type { ExcelRun } from "../../src/excel/office-host";

export type Mock = OfficeMockObject & Record<string, unknown>;

export function mock(data: Record<string, unknown>): Mock {
  return new OfficeMockObject(data);
}

export function runOn(context: OfficeMockObject): ExcelRun {
  return (batch) => batch(context as unknown as Excel.RequestContext);
}

/** A range with the formatting members the modules set. */
export function rangeMock(data: Record<string, unknown> = {}): Mock {
  return mock({
    address: "Sheet1!A1",
    numberFormat: [[]],
    format: {
      font: { bold: false, italic: false, size: 11 },
      horizontalAlignment: "General",
      columnWidth: 48,
      autofitColumns() {
        (this as unknown as { autofitted: boolean }).autofitted = true;
      },
    },
    ...data,
  });
}

/** A Range's format as the module left it (plain values once assigned). */
export function formatOf(range: Mock): {
  bold: unknown;
  italic: unknown;
  size: unknown;
  align: unknown;
} {
  const format = range.format as { font: Record<string, unknown>; horizontalAlignment: unknown };
  return {
    bold: format.font.bold,
    italic: format.font.italic,
    size: format.font.size,
    align: format.horizontalAlignment,
  };
}
