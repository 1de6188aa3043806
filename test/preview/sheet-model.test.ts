import { errorCell, type Grid } from "../../src/sheet/cells";
import { addressOf, columnName, positionKey, SheetModel } from "../../src/preview/sheet-model";

const num = (value: number) => ({ kind: "number" as const, value });
const grid = (rows: number, columns: number): Grid =>
  Array.from({ length: rows }, (_, r) =>
    Array.from({ length: columns }, (_, c) => num(r * 10 + c))
  );

test("addresses read like Excel's", () => {
  expect([0, 25, 26, 27, 701, 702].map(columnName)).toEqual(["A", "Z", "AA", "AB", "ZZ", "AAA"]);
  expect(addressOf({ row: 9, column: 2 })).toBe("C10");
});

test("a result spills down and right from its formula's cell", () => {
  const sheet = new SheetModel();
  const entry = sheet.set({ row: 1, column: 1 }, ' =CRYPTO.METRIC("aave","fees") ')!;
  expect(entry.formula).toBe('=CRYPTO.METRIC("aave","fees")');
  expect(sheet.layout().get(positionKey({ row: 1, column: 1 }))?.cell).toBe("pending");
  sheet.resolve(entry, { kind: "done", grid: grid(3, 2) });
  const shown = sheet.layout();
  expect(shown.get("1:1")).toEqual({ cell: num(0), origin: { row: 1, column: 1 }, spilled: false });
  expect(shown.get("3:2")).toEqual({ cell: num(21), origin: { row: 1, column: 1 }, spilled: true });
  expect(shown.size).toBe(6);
});

test("a spill over another formula's cell is #SPILL!, naming the cell in the way; the earlier formula keeps its spill", () => {
  const sheet = new SheetModel();
  const first = sheet.set({ row: 2, column: 0 }, "=A()")!;
  const second = sheet.set({ row: 0, column: 0 }, "=B()")!;
  sheet.resolve(first, { kind: "done", grid: grid(2, 2) });
  sheet.resolve(second, { kind: "done", grid: grid(4, 1) });
  const shown = sheet.layout();
  expect(shown.get("0:0")?.cell).toEqual(
    errorCell("#SPILL!", "the result needs 4×1 cells from A1, but A3 is not empty")
  );
  expect(shown.get("3:1")?.cell).toEqual(num(11));
});

test("a refused formula shows #ERROR with the reason; results of a replaced formula are dropped", () => {
  const sheet = new SheetModel();
  const old = sheet.set({ row: 0, column: 0 }, "=OLD()")!;
  sheet.set({ row: 0, column: 0 }, "=NEW(")!;
  expect(sheet.resolve(old, { kind: "done", grid: grid(1, 1) })).toBe(false);
  sheet.resolve(sheet.entryAt({ row: 0, column: 0 })!, {
    kind: "refused",
    message: "expected ')'",
  });
  expect(sheet.layout().get("0:0")?.cell).toEqual(errorCell("#ERROR", "expected ')'"));
  expect(sheet.set({ row: 0, column: 0 }, "  ")).toBeUndefined();
  expect(sheet.all()).toEqual([]);
});

test("the drawn area grows to hold every result, with a margin", () => {
  const sheet = new SheetModel(5, 3);
  expect(sheet.extent()).toEqual({ rows: 5, columns: 3 });
  const e = sheet.set({ row: 10, column: 4 }, "=X()")!;
  sheet.resolve(e, { kind: "done", grid: grid(20, 6) });
  expect(sheet.extent()).toEqual({ rows: 32, columns: 11 });
});
