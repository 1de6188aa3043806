import { isWholeError, thrownToCell, toCell, toGrid, toLiftedCell } from "../../src/sheet/cells";
import { HostFunctionError } from "../../src/sheet/host";

describe("reading function results", () => {
  it("reads plain values as Excel does, with empty text as an empty cell", () => {
    expect([1.5, "aave", true, null, undefined, ""].map(toCell)).toEqual([
      { kind: "number", value: 1.5 },
      { kind: "string", value: "aave" },
      { kind: "boolean", value: true },
      { kind: "empty" },
      { kind: "empty" },
      { kind: "empty" },
    ]);
  });

  it("shows a formatted date number as its date and another formatted number as a number", () => {
    expect(toCell({ type: "Double", basicValue: 45292, numberFormat: "yyyy-mm-dd" })).toEqual({
      kind: "date",
      value: "2024-01-01",
      serial: 45292,
    });
    expect(
      toCell({ type: "FormattedNumber", basicValue: 45292, numberFormat: "m/d/yyyy" })
    ).toMatchObject({
      kind: "date",
      value: "2024-01-01",
    });
    // A percent format marks the number as a ratio the pages show as a percentage.
    expect(toCell({ type: "Double", basicValue: 0.25, numberFormat: "0.00%" })).toEqual({
      kind: "number",
      value: 0.25,
      percent: true,
    });
    // Out of Excel's date range: the number is all there is to show.
    expect(toCell({ type: "Double", basicValue: 0, numberFormat: "yyyy-mm-dd" })).toEqual({
      kind: "number",
      value: 0,
    });
  });

  it("keeps a CustomFunctions.Error's code and message, from any copy of the runtime", () => {
    expect(toCell(new HostFunctionError("#N/A", "no data"))).toEqual({
      kind: "error",
      code: "#N/A",
      message: "no data",
    });
    expect(toCell({ code: "#DIV/0!" })).toEqual({ kind: "error", code: "#DIV/0!", message: "" });
  });

  it("drops the message of codes that cannot carry one in Excel", () => {
    expect(toCell(new HostFunctionError("#NUM!", "not shown by Excel"))).toEqual({
      kind: "error",
      code: "#NUM!",
      message: "",
    });
  });

  it("turns what Excel cannot hold into error cells instead of failing", () => {
    expect(toCell(NaN)).toMatchObject({ kind: "error", code: "#NUM!" });
    expect(toCell(Infinity)).toMatchObject({ kind: "error", code: "#NUM!" });
    expect(toCell({ a: 1 })).toEqual({
      kind: "error",
      code: "#VALUE!",
      message: "unsupported cell value (an object)",
    });
    expect(toCell({ code: "#BUSY!" })).toMatchObject({ kind: "error", code: "#VALUE!" });
  });

  it("makes a single value a 1x1 grid and keeps a rectangular array as it is", () => {
    expect(toGrid(7)).toEqual([[{ kind: "number", value: 7 }]]);
    expect(
      toGrid([
        ["a", 1],
        [null, false],
      ])
    ).toEqual([
      [
        { kind: "string", value: "a" },
        { kind: "number", value: 1 },
      ],
      [{ kind: "empty" }, { kind: "boolean", value: false }],
    ]);
  });

  it.each([
    [[], "function returned an empty array"],
    [[[]], "function returned an array with empty rows"],
    [[1, 2], "function returned an array that is not 2D (rows of cells)"],
    [[[1], [1, 2]], "function returned rows of different lengths"],
  ])("answers a malformed array %j with #VALUE!", (value, message) => {
    expect(toGrid(value)).toEqual([[{ kind: "error", code: "#VALUE!", message }]]);
  });

  it("shows #VALUE! for an array inside a lifted call, but takes a 1x1 array as its value", () => {
    expect(toLiftedCell([[1], [2]])).toEqual({
      kind: "error",
      code: "#VALUE!",
      message: "array result in a lifted call",
    });
    expect(toLiftedCell([[5]])).toEqual({ kind: "number", value: 5 });
    expect(toLiftedCell(5)).toEqual({ kind: "number", value: 5 });
  });

  it("keeps an exception's own text out of the cell: Excel shows an unhandled one as #VALUE!", () => {
    expect(thrownToCell(new Error("secret-ish detail"), "CRYPTO.X")).toEqual({
      kind: "error",
      code: "#VALUE!",
      message: "unhandled error in CRYPTO.X",
    });
    expect(
      thrownToCell(new HostFunctionError("#N/A", "unknown project 'foo'"), "CRYPTO.X")
    ).toEqual({
      kind: "error",
      code: "#N/A",
      message: "unknown project 'foo'",
    });
  });

  it("calls a result a whole error only when it is a single error cell", () => {
    expect(isWholeError(toGrid(new HostFunctionError("#N/A")))).toBe(true);
    expect(isWholeError(toGrid([[new HostFunctionError("#N/A"), 1]]))).toBe(false);
    expect(isWholeError(toGrid(1))).toBe(false);
  });
});
