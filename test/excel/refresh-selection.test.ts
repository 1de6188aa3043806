import { recalculate } from "../../src/excel/refresh";
import { activeCellAddress, onSelectionChanged } from "../../src/excel/selection";
import { mock, runOn } from "./office-mocks";

function workbook() {
  const calls: string[] = [];
  const context = mock({
    workbook: {
      application: {
        calculate(type: string) {
          calls.push(`calculate ${type}`);
        },
      },
      getSelectedRange() {
        return { calculate: () => calls.push("selection.calculate") };
      },
      cell: { address: "Sheet2!C7" },
      getActiveCell(this: { cell: unknown }) {
        return this.cell;
      },
    },
  });
  return { context, calls };
}

test("Refresh all asks Excel for a full recalculation (non-volatile custom functions need one)", async () => {
  const wb = workbook();
  await recalculate(runOn(wb.context), "all");
  expect(wb.calls).toEqual(["calculate Full"]);
});

test("Refresh selection recalculates the selected range only", async () => {
  const wb = workbook();
  await recalculate(runOn(wb.context), "selection");
  expect(wb.calls).toEqual(["selection.calculate"]);
});

test("the active cell's address, loaded before it is read", async () => {
  expect(await activeCellAddress(runOn(workbook().context))).toBe("Sheet2!C7");
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
