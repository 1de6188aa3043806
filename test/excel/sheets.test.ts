/** sheets.ts: worksheet names under Excel's rules, a block at the active cell, a new worksheet. */
import { comparisonGrid } from "../../src/taskpane/model/comparison-grid";
import { WorkbookError, type SheetPlan } from "../../src/excel/port";
import {
  createSheet,
  insertGrid,
  MAX_SHEET_NAME,
  sanitiseSheetName,
  uniqueSheetName,
} from "../../src/excel/sheets";
import { formatOf, mock, rangeMock, runOn, type Mock } from "./office-mocks";

describe("sheet names", () => {
  test("characters Excel forbids become spaces; apostrophes cannot open or close the name", () => {
    expect(sanitiseSheetName("a/b\\c?d*e[f]g:h")).toBe("a b c d e f g h");
    expect(sanitiseSheetName(`Tick & Tock "Perps" <beta> 'v2'`)).toBe(
      `Tick & Tock "Perps" <beta> 'v2`
    );
    expect(sanitiseSheetName("'quoted'")).toBe("quoted");
  });

  test("names are cut to 31 characters; empty or reserved names fall back", () => {
    expect(sanitiseSheetName("x".repeat(40))).toHaveLength(MAX_SHEET_NAME);
    expect(sanitiseSheetName("  ::  ")).toBe("Statement");
    expect(sanitiseSheetName("History")).toBe("Statement");
  });

  test("a taken name (ignoring case) gets the first free (n), still within 31 characters", () => {
    expect(uniqueSheetName("Aave", ["Sheet1"])).toBe("Aave");
    expect(uniqueSheetName("Aave", ["aave", "Aave (2)"])).toBe("Aave (3)");
    const long = "L".repeat(31);
    const second = uniqueSheetName(long, [long]);
    expect(second).toBe(`${"L".repeat(27)} (2)`);
    expect(second).toHaveLength(MAX_SHEET_NAME);
  });
});

describe("insertGrid: a block at the active cell", () => {
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
});

describe("createSheet: a new worksheet", () => {
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
      {
        at: [3, 0],
        cells: [[{ formula: '=CRYPTO.STATEMENT("aave","quarter","1y","headers=2")' }]],
      },
    ],
    formats: [
      { area: { row: 0, column: 0, rows: 1, columns: 1 }, format: { bold: true, size: 14 } },
      { area: { row: 5, column: 2, rows: 3, columns: 4 }, format: { numberFormat: "#,##0" } },
      {
        area: { row: 3, column: 2, rows: 2, columns: 4 },
        format: { align: "right", italic: true },
      },
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
});
