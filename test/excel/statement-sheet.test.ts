import { createSheet } from "../../src/excel/statement-sheet";
import type { SheetPlan } from "../../src/excel/port";
import { formatOf, mock, rangeMock, runOn, type Mock } from "./office-mocks";

interface Made {
  at: [number, number, number, number];
  range: Mock;
}

function workbookWith(existing: string[]) {
  const made: Made[] = [];
  const added: string[] = [];
  const frozen: unknown[] = [];
  let activated = 0;
  const sheet = mock({
    getRangeByIndexes(row: number, column: number, rows: number, columns: number) {
      const range = rangeMock();
      made.push({ at: [row, column, rows, columns], range });
      return range;
    },
    freezePanes: {
      freezeAt(range: unknown) {
        frozen.push(["at", made.find((m) => m.range === range)?.at]);
      },
      freezeRows(n: number) {
        frozen.push(["rows", n]);
      },
      freezeColumns(n: number) {
        frozen.push(["columns", n]);
      },
    },
    activate() {
      activated += 1;
    },
  });
  const context = mock({
    workbook: {
      worksheets: {
        add(name: string) {
          added.push(name);
          return sheet;
        },
      },
    },
  });
  // office-addin-mock cannot load "items/name" from a plain array: the collection is pre-loaded here.
  const worksheets = (context.workbook as Mock).worksheets as Mock;
  worksheets.items = existing.map((name) => ({ name }));
  worksheets.load = () => worksheets;
  return { context, made, added, frozen, activated: () => activated };
}

const plan: SheetPlan = {
  name: "Aave",
  blocks: [
    { at: [0, 0], cells: [["Aave — financial statement"], ["=looks like a formula"]] },
    { at: [3, 0], cells: [[{ formula: '=CRYPTO.STATEMENT("aave","quarter","1y","headers=2")' }]] },
  ],
  formats: [
    { area: { row: 0, column: 0, rows: 1, columns: 1 }, format: { bold: true, size: 14 } },
    { area: { row: 5, column: 2, rows: 3, columns: 4 }, format: { numberFormat: "#,##0" } },
    { area: { row: 3, column: 2, rows: 2, columns: 4 }, format: { align: "right", italic: true } },
  ],
  freeze: { rows: 5, columns: 2 },
  columnWidths: { 0: 130 },
};

test("adds a sheet under a unique name, writes blocks, formats, freezes the header and shows it", async () => {
  const wb = workbookWith(["Sheet1", "aave"]);
  const result = await createSheet(runOn(wb.context), plan);
  expect(result).toEqual({ sheetName: "Aave (2)" });
  expect(wb.added).toEqual(["Aave (2)"]);

  const block = (r: number, c: number) =>
    wb.made.find((m) => m.at[0] === r && m.at[1] === c)?.range;
  // Text from the service is kept as text even when it looks like a formula; our formulas are formulas.
  expect(block(0, 0)?.formulas).toEqual([
    ["Aave — financial statement"],
    ["'=looks like a formula"],
  ]);
  expect(wb.made.find((m) => m.at.join() === "3,0,1,1")?.range.formulas).toEqual([
    ['=CRYPTO.STATEMENT("aave","quarter","1y","headers=2")'],
  ]);

  const title = wb.made.find((m) => m.at.join() === "0,0,1,1" && formatOf(m.range).bold === true);
  expect(formatOf(title!.range)).toMatchObject({ bold: true, size: 14 });
  const numbers = wb.made.find((m) => m.at.join() === "5,2,3,4")!.range;
  expect(numbers.numberFormat).toEqual(Array(3).fill(Array(4).fill("#,##0")));
  const headings = formatOf(wb.made.find((m) => m.at.join() === "3,2,2,4")!.range);
  expect(headings).toMatchObject({ align: "Right", italic: true });
  expect(headings.bold).not.toBe(true);
  const width = wb.made.find(
    (m) => m.at.join() === "0,0,1,1" && (m.range.format as Mock).columnWidth === 130
  );
  expect(width).toBeDefined();
  expect(wb.frozen).toEqual([["at", [0, 0, 5, 2]]]);
  expect(wb.activated()).toBe(1);
});

test("freezes rows only, or columns only, when the plan says so", async () => {
  const rowsOnly = workbookWith([]);
  await createSheet(runOn(rowsOnly.context), { ...plan, freeze: { rows: 4, columns: 0 } });
  expect(rowsOnly.frozen).toEqual([["rows", 4]]);
  const columnsOnly = workbookWith([]);
  await createSheet(runOn(columnsOnly.context), { ...plan, freeze: { rows: 0, columns: 1 } });
  expect(columnsOnly.frozen).toEqual([["columns", 1]]);
});

test("a project name Excel refuses as a sheet name is made valid", async () => {
  const wb = workbookWith(["Sheet1"]);
  const result = await createSheet(runOn(wb.context), {
    ...plan,
    name: `Tick & Tock "Perps" <beta> 'v2'`,
  });
  expect(result.sheetName).toBe(`Tick & Tock "Perps" <beta> 'v2`);
});
