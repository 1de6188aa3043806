/**
 * The plain Excel functions models wrap around CRYPTO results (`=SUM(CRYPTO.METRIC(…))`) give what Excel
 * gives, in the CLI (and so in the preview, which shares the sheet): ranges read as Excel reads them, errors
 * where Excel shows them, argument counts refused by name. Checked through the CLI against the fixture
 * functions (SERIES(n) spills 1..n; MIXED spills dates, numbers, text, TRUE/FALSE, an error and blanks).
 */
import { resolve } from "path";
import { evalJson, resetFixtureLog, runCli, BASE } from "../cli/harness";
import { parseFormula, printFormula } from "../../src/sheet/formula";
import { EXCEL_FUNCTION_NAMES } from "../../src/sheet/excel-functions";
import { PLAIN_FUNCTION_NAMES } from "../../src/sheet/plain-functions";
import { generateFunctionsMeta } from "../../src/tools/gen-functions-meta";
import * as fakeFunctions from "../fixtures/cli/functions";

beforeEach(resetFixtureLog);

async function one(formula: string): Promise<unknown> {
  const { results } = await evalJson(formula);
  return (results[0] as unknown[][])[0][0];
}

/** The whole result of a formula, cell by cell (dates as the CLI's JSON writes them). */
async function all(formula: string): Promise<unknown> {
  const { results } = await evalJson(formula);
  return results[0];
}

describe("Excel's everyday formulas, at the top of a formula or around CRYPTO calls", () => {
  // Each expected value is Excel's own answer for the same formula (its documented rules, worked by hand).
  it.each([
    ["=1e6", 1_000_000],
    ["=-2^2", 4],
    ["=2^3^2", 64],
    ["=SUM(1;2;3)", 6],
    ["=SUM(1,,2)", 3],
    ["=SUM(CRYPTO.SERIES(4)*2)", 20],
    ["=SUM(CRYPTO.SERIES(4))/1000000", 0.00001],
    ["=ROUND(2.675,2)", 2.68],
    ["=ROUND(-2.5,0)", -3],
    ["=ROUND(1234.5678,-2)", 1200],
    ["=ROUND(SUM(CRYPTO.SERIES(3))/7,3)", 0.857],
    ['=IF(SUM(CRYPTO.SERIES(4))>5,"big","small")', "big"],
    ['=IF(MAX(CRYPTO.SERIES(2))>=3,"big")', false],
    ['=IFERROR(1/0,"none")', "none"],
    ['=IFERROR(SUM(CRYPTO.SERIES(2)),"none")', 3],
    ['=TEXT(DATE(2024,3,31),"mmm yyyy")', "Mar 2024"],
    ['=TEXT(DATE(2024,3,31),"yyyy-mm-dd")', "2024-03-31"],
    // Every month and day code: 2024-03-05 was a Tuesday.
    ['=TEXT(DATE(2024,3,5),"m mm mmm mmmm")', "3 03 Mar March"],
    ['=TEXT(DATE(2024,3,5),"d dd ddd dddd")', "5 05 Tue Tuesday"],
    ['=TEXT(1234.5,"#,##0.00")', "1,234.50"],
    ['=TEXT(-1234.5,"#,##0;(#,##0)")', "(1,235)"],
    ['=TEXT(0.158,"0.0%")', "15.8%"],
    ['=TEXT(12345678,"$#,##0.0,,")', "$12.3"],
    ["=EOMONTH(DATE(2024,1,15),0)", 45322],
    ['="a"="A"', true],
    ['=1<"a"', true],
    ["=COUNT(CRYPTO.SERIES(4))<>4", false],
    ["=INDEX(CRYPTO.SERIES(4),ROWS(CRYPTO.SERIES(4)))", 4],
  ])("%s = %j", async (formula, expected) => {
    expect(await one(formula)).toEqual(expected);
  });

  it("computes an operator over a spill cell by cell, as a dynamic array", async () => {
    expect(await all("=CRYPTO.SERIES(3)/2")).toEqual([[0.5], [1], [1.5]]);
    expect(await all("=INDEX({1,2;3,4},,2)")).toEqual([[2], [4]]);
    expect(await all("=IF(CRYPTO.SERIES(3)>1,CRYPTO.SERIES(3),0)")).toEqual([[0], [2], [3]]);
    expect(await all("=ROUND(CRYPTO.SERIES(2)/3,2)")).toEqual([[0.33], [0.67]]);
  });

  it("shows #NAME? for a function it does not know, naming it as written", async () => {
    // A whole formula naming no function: the command line refuses it, naming it as written.
    const refused = await runCli(["eval", ...BASE, "--format", "json", "=ROUNDUP(1.5,0)"]);
    expect(refused.stderr).toMatch(/unknown function ROUNDUP/);
    expect(refused.stderr).not.toMatch(/CRYPTO\./);
    for (const [formula, name] of [
      ["=ROUNDUP(1.5,0)*2", "ROUNDUP"],
      ["=1+NoSuch(2)", "NoSuch"],
      ['=VLOOKUP("a",{1},1,FALSE)&""', "VLOOKUP"],
    ]) {
      const shown = await one(formula);
      expect({ formula, shown }).toEqual({
        formula,
        shown: {
          error: "#NAME?",
          message: expect.stringContaining(`unknown function ${name}`) as string,
        },
      });
      expect(JSON.stringify(shown)).not.toContain("CRYPTO.");
    }
    expect(fakeFunctions.callLog).toEqual([]);
  });

  it("reads a range or a spill only where there are cells, saying so elsewhere", async () => {
    expect(await one("=SUM(B2:B92)")).toEqual({
      error: "#REF!",
      message: expect.stringContaining("no cells to read B2:B92 from here") as string,
    });
    expect(await one("=INDEX(A1#,2,2)")).toMatchObject({ error: "#REF!" });
  });
});

describe("plain functions around CRYPTO results", () => {
  it.each([
    ["=SUM(CRYPTO.SERIES(4))", 10],
    ["=AVERAGE(CRYPTO.SERIES(4))", 2.5],
    ["=MIN(CRYPTO.SERIES(4))", 1],
    ["=MAX(CRYPTO.SERIES(4))", 4],
    ["=COUNT(CRYPTO.SERIES(4))", 4],
    ["=ROWS(CRYPTO.SERIES(4))", 4],
    ["=COLUMNS(CRYPTO.SERIES(4))", 1],
    ["=INDEX(CRYPTO.SERIES(4),3)", 3],
    ["=INDEX(CRYPTO.SERIES(4),3,1)", 3],
    ["=SUM(CRYPTO.SERIES(4),CRYPTO.SERIES(2),10)", 23],
    ["=SUM(CRYPTO.SERIES(4))/4", 2.5],
    ["=SUM(INDEX(CRYPTO.SERIES(4),0,1))", 10],
    ["=MAX(CRYPTO.SERIES(3))-MIN(CRYPTO.SERIES(3))", 2],
    // A value written as the argument itself counts when it reads as a number.
    ['=SUM(1,TRUE,"2")', 4],
    ["=SUM({1,2;3,4})", 10],
    ["=ROWS({1,2;3,4})", 2],
    ["=COLUMNS({1,2;3,4})", 2],
    ["=INDEX({1,2;3,4},2,1)", 3],
    // One row read with one position: the position is the column.
    ["=INDEX({10,20,30},2)", 20],
    ["=MIN({5;7},3)", 3],
    ["=AVERAGE(2,4)", 3],
  ])("%s = %d", async (formula, expected) => {
    expect(await one(formula)).toBe(expected);
  });

  it("reads a table as Excel reads a range: dates are serials, text, TRUE/FALSE and blanks are skipped", async () => {
    // MIXED's value column holds 1234.5, an error and -0.000123456789: the error is SUM's result.
    expect(await one("=SUM(INDEX(CRYPTO.MIXED(),0,2))")).toEqual({
      error: "#N/A",
      message: "no data for 2024-01-02",
    });
    // Its date column: three dates (45292..45294) under a text heading.
    expect(await one("=SUM(INDEX(CRYPTO.MIXED(),0,1))")).toBe(45292 + 45293 + 45294);
    expect(await one("=COUNT(INDEX(CRYPTO.MIXED(),0,1))")).toBe(3);
    // ROWS and COLUMNS count the table whatever it holds, its error included.
    expect(await one("=ROWS(CRYPTO.MIXED())")).toBe(4);
    expect(await one("=COLUMNS(CRYPTO.MIXED())")).toBe(4);
    // COUNT never fails: it counts the numbers and dates of the table (3 dates, 2 numbers).
    expect(await one("=COUNT(CRYPTO.MIXED())")).toBe(5);
    // The ok column holds TRUE, FALSE and "": none of them a number in a range.
    expect(await one("=SUM(INDEX(CRYPTO.MIXED(),0,4))")).toBe(0);
  });

  it("spills INDEX's whole row or column", async () => {
    const { results } = await evalJson("=INDEX(CRYPTO.SERIES(3),0,1)", "=INDEX({1,2;3,4},2,0)");
    expect(results).toEqual([[[1], [2], [3]], [[3, 4]]]);
  });

  it("shows Excel's errors: #DIV/0! for an average of nothing, #REF! outside the table, #VALUE! for text", async () => {
    expect(await one('=AVERAGE(INDEX({"a","b"},1,0))')).toEqual({
      error: "#DIV/0!",
      message: "AVERAGE of no numbers",
    });
    expect(await one('=MAX(INDEX({"a"},1))')).toBe(0);
    expect(await one("=INDEX(CRYPTO.SERIES(3),4)")).toEqual({
      error: "#REF!",
      message: "INDEX: row 4 is outside the table (3 rows)",
    });
    expect(await one('=SUM(1,"abc")')).toEqual({
      error: "#VALUE!",
      message: 'SUM needs numbers, got "abc"',
    });
    expect(await one("=INDEX({1,2;3,4},1,3)")).toEqual({
      error: "#REF!",
      message: "INDEX: column 3 is outside the table (2 columns)",
    });
    expect(await one("=INDEX(CRYPTO.SERIES(3),-1)")).toEqual({
      error: "#VALUE!",
      message: "INDEX's row_num must not be negative",
    });
  });

  it("gives a CRYPTO function INDEX's cell, or its column to lift over", async () => {
    const { results } = await evalJson(
      "=CRYPTO.DOUBLE(INDEX(CRYPTO.SERIES(3),2))",
      "=CRYPTO.DOUBLE(INDEX(CRYPTO.SERIES(3),0,1))"
    );
    expect(results).toEqual([[[4]], [[2], [4], [6]]]);
  });

  it("refuses a wrong argument count and an omitted argument before anything runs, naming the function", async () => {
    for (const [formula, message] of [
      ["=ROWS(1,2)", /ROWS takes 1 argument \(array\), got 2/],
      [
        "=INDEX(CRYPTO.SERIES(3))",
        /INDEX takes 2 to 3 arguments \(array, row_num, column_num\), got 1/,
      ],
      ["=SUM()", /SUM takes at least 1 argument and at most 255 \(number1, number2…\), got 0/],
    ] as const) {
      const outcome = await runCli(["eval", ...BASE, "--format", "json", formula]);
      expect({ formula, code: outcome.code, stderr: outcome.stderr }).toEqual({
        formula,
        code: 2,
        stderr: expect.stringMatching(message) as string,
      });
    }
    expect(fakeFunctions.callLog).toEqual([]);
  });

  it("prints back as written, so a formula read and printed reads the same", () => {
    for (const formula of [
      '=SUM(CRYPTO.METRIC("aave","fees","2024-01-01","2024-01-31","dates=0; headers=0"))',
      "=INDEX({1,2;3,4},2,1)",
      "=SUM(CRYPTO.SERIES(4))/4",
      '=CRYPTO.VALUE(INDEX(CRYPTO.PROJECTS(),2,1),"fees")',
    ])
      expect(printFormula(parseFormula(formula))).toBe(formula);
  });

  it("shares no name with a CRYPTO function, so an unprefixed name at a formula's root is never ambiguous", async () => {
    const json = await generateFunctionsMeta(
      resolve(__dirname, "../../src/functions/functions.ts")
    );
    const names = (
      JSON.parse(json) as { metadata: { functions: { name: string }[] } }
    ).metadata.functions.map((f) => f.name.toUpperCase());
    expect(names.length).toBeGreaterThan(10);
    expect(PLAIN_FUNCTION_NAMES.filter((name) => names.includes(name))).toEqual([]);
    // Nor with the date functions allowed inside arguments.
    expect(PLAIN_FUNCTION_NAMES.filter((name) => EXCEL_FUNCTION_NAMES.includes(name))).toEqual([]);
  }, 60_000);
});
