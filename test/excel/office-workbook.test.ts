/** office-workbook.ts: one formula at the active cell, the active cell's address, selection changes. */
import { OfficeMockObject } from "office-addin-mock";
import {
  activeCellAddress,
  insertFormula,
  onSelectionChanged,
} from "../../src/excel/office-workbook";
import { mock, runOn } from "./office-mocks";

test("writes the formula into the active cell and answers its address", async () => {
  const context = new OfficeMockObject({
    workbook: {
      cell: { address: "Sheet1!B2", formulas: [[""]] },
      getActiveCell(this: { cell: unknown }) {
        return this.cell;
      },
    },
  });
  const result = await insertFormula(runOn(context), '=CRYPTO.VALUE("aave","fees")');
  expect(result).toEqual({ address: "Sheet1!B2" });
  const workbook = context.workbook as unknown as { cell: { formulas: unknown } };
  expect(workbook.cell.formulas).toEqual([['=CRYPTO.VALUE("aave","fees")']]);
});

test("the active cell's address, loaded before it is read", async () => {
  const context = mock({
    workbook: {
      cell: { address: "Sheet2!C7" },
      getActiveCell(this: { cell: unknown }) {
        return this.cell;
      },
    },
  });
  expect(await activeCellAddress(runOn(context))).toBe("Sheet2!C7");
});

test("selection-change listeners are added and removed through the host's events", () => {
  const handlers = new Set<() => void>();
  const events = {
    add: (h: () => void) => handlers.add(h),
    remove: (h: () => void) => handlers.delete(h),
  };
  let heard = 0;
  const stop = onSelectionChanged(events, () => (heard += 1));
  handlers.forEach((h) => h());
  expect(heard).toBe(1);
  stop();
  expect(handlers.size).toBe(0);
});
