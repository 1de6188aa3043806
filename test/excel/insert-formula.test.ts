import { OfficeMockObject } from "office-addin-mock";
import { insertFormula } from "../../src/excel/insert-formula";
import type { ExcelRun } from "../../src/excel/run";

function runOn(context: OfficeMockObject): ExcelRun {
  return (batch) => batch(context as unknown as Excel.RequestContext);
}

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
