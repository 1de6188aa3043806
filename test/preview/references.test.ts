import { errorCell } from "../../src/sheet/cells";
import { cellReader, coveredBy, dependents } from "../../src/preview/references";
import { positionKey, positionOf, SheetModel } from "../../src/preview/sheet-model";

const num = (value: number) => ({ kind: "number" as const, value });

test("addresses read back as positions, and nothing else does", () => {
  expect(positionOf("A1")).toEqual({ row: 0, column: 0 });
  expect(positionOf("ab12")).toEqual({ row: 11, column: 27 });
  expect(["", "A0", "1A", "A1.Symbol", "$A$1"].map(positionOf)).toEqual(Array(5).fill(undefined));
});

test("a reference reads what the cell shows: a value, a spilled cell, empty, #BUSY! while pending, #REF! for itself", () => {
  const sheet = new SheetModel();
  const spill = sheet.set({ row: 0, column: 0 }, "=A()")!;
  sheet.resolve(spill, { kind: "done", grid: [[num(1)], [num(2)]] });
  const pending = sheet.set({ row: 0, column: 2 }, "=B()")!;
  const reader = cellReader(sheet, { row: 5, column: 5 });
  const read = (address: string): unknown => reader({ kind: "cell", address })[0][0];
  expect(read("A1")).toEqual(num(1));
  expect(read("A2")).toEqual(num(2));
  expect(read("D9")).toEqual({ kind: "empty" });
  expect(read("C1")).toMatchObject({ kind: "error", code: "#BUSY!" });
  expect(cellReader(sheet, pending.at)({ kind: "cell", address: "C1" })).toEqual([
    [errorCell("#REF!", "circular reference: C1 reads itself")],
  ]);
  // A range reads each cell as shown; a spill the formula's whole result.
  expect(reader({ kind: "range", from: "A1", to: "A3" })).toEqual([
    [num(1)],
    [num(2)],
    [{ kind: "empty" }],
  ]);
  expect(reader({ kind: "spill", address: "A1" })).toEqual([[num(1)], [num(2)]]);
  expect(reader({ kind: "spill", address: "B7" })[0][0]).toMatchObject({ code: "#REF!" });
  expect(reader({ kind: "spill", address: "C1" })[0][0]).toMatchObject({ code: "#BUSY!" });
});

test("the formulas reading a changed cell are found once per change, spills included", () => {
  const sheet = new SheetModel();
  const card = sheet.set({ row: 0, column: 0 }, '=CRYPTO.PROJECT("aave")')!;
  sheet.resolve(card, { kind: "done", grid: [[num(1)], [num(2)]] });
  const symbol = sheet.set({ row: 0, column: 1 }, "=A1.Symbol")!;
  const second = sheet.set({ row: 1, column: 1 }, '=CRYPTO.VALUE(A2,"fees")')!;
  sheet.set({ row: 2, column: 1 }, '=CRYPTO.VALUE("aave","fees")');
  sheet.set({ row: 3, column: 1 }, "=A1.[broken");
  const changed = coveredBy(sheet, card.at);
  expect([...changed].sort()).toEqual(["0:0", "1:0"]);
  expect(dependents(sheet, changed, new Set())).toEqual([symbol, second]);
  expect(dependents(sheet, changed, new Set([positionKey(symbol.at)]))).toEqual([second]);
});

test("a formula computed again keeps its place among the spills; the old evaluation is ignored", () => {
  const sheet = new SheetModel();
  const entry = sheet.set({ row: 0, column: 0 }, "=A1.Symbol")!;
  const again = sheet.restart(entry)!;
  expect(again.seq).toBe(entry.seq);
  expect(sheet.resolve(entry, { kind: "done", grid: [[num(1)]] })).toBe(false);
  expect(sheet.resolve(again, { kind: "done", grid: [[num(2)]] })).toBe(true);
  expect(sheet.restart(entry)).toBeUndefined();
});
