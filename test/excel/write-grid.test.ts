import { insertGrid } from "../../src/excel/write-grid";
import { comparisonGrid } from "../../src/taskpane/model/comparison-grid";
import { WorkbookError } from "../../src/excel/port";
import { formatOf, mock, rangeMock, runOn, type Mock } from "./office-mocks";

function workbook(existing: unknown[][]) {
  const pieces: { at: number[]; range: Mock }[] = [];
  const resized: number[][] = [];
  const context = mock({
    workbook: {
      active: {
        // The target sits in the context's object tree so that context.sync() loads it, as in Excel.
        target: {
          address: "Sheet1!B2:E5",
          formulas: existing,
          numberFormat: [[]],
          format: {
            autofitColumns(this: Record<string, unknown>) {
              this.autofitted = true;
            },
          },
          getCell(row: number, column: number) {
            return {
              getResizedRange(rows: number, columns: number) {
                const range = rangeMock();
                pieces.push({ at: [row, column, rows + 1, columns + 1], range });
                return range;
              },
            };
          },
        },
        getResizedRange(this: { target: unknown }, rows: number, columns: number) {
          resized.push([rows, columns]);
          return this.target;
        },
      },
      getActiveCell(this: { active: unknown }) {
        return this.active;
      },
    },
  });
  const target = ((context.workbook as Mock).active as Mock).target as Mock;
  return { context, target, pieces, resized };
}

const plan = comparisonGrid({
  projects: [
    { id: "aave", name: "Aave" },
    { id: "uniswap", name: "Uniswap" },
  ],
  metrics: [
    { id: "fees", name: "Fees" },
    { id: "price", name: "Price" },
  ],
});
const empty = () => Array.from({ length: 4 }, () => Array<string>(4).fill(""));

test("writes the grid at the active cell in R1C1, with its header and number formats", async () => {
  const wb = workbook(empty());
  const result = await insertGrid(runOn(wb.context), plan);
  expect(result).toEqual({ address: "Sheet1!B2:E5" });
  expect(wb.resized).toEqual([[3, 3]]);
  expect(wb.target.formulasR1C1).toEqual([
    ["Latest values", "", "Fees", "Price"],
    ["project_id", "name", "fees", "price"],
    ["aave", "Aave", "=CRYPTO.VALUE(RC[-2],R[-1]C)", "=CRYPTO.VALUE(RC[-3],R[-1]C)"],
    ["uniswap", "Uniswap", "=CRYPTO.VALUE(RC[-2],R[-2]C)", "=CRYPTO.VALUE(RC[-3],R[-2]C)"],
  ]);
  const header = wb.pieces.find((p) => p.at.join() === "1,0,1,4")!;
  expect(formatOf(header.range).bold).toBe(true);
  const price = wb.pieces.find((p) => p.at.join() === "2,3,2,1")!;
  expect(price.range.numberFormat).toEqual([["#,##0.00##"], ["#,##0.00##"]]);
  expect((wb.target.format as unknown as { autofitted?: boolean }).autofitted).toBe(true);
});

test("refuses to write over cells in use, naming the range, and writes nothing", async () => {
  const used = empty();
  used[2][1] = "=SUM(A1:A3)";
  const wb = workbook(used);
  const attempt = insertGrid(runOn(wb.context), plan);
  await expect(attempt).rejects.toThrow(WorkbookError);
  await expect(attempt).rejects.toThrow(/Sheet1!B2:E5 is not empty \(1 cell in use\)/);
  expect(wb.target.formulasR1C1).toBeUndefined();
});
