import { FormulaSyntaxError } from "../../src/sheet/errors";
import { parseFormula, printFormula } from "../../src/sheet/formula";

function syntaxError(text: string): FormulaSyntaxError {
  try {
    parseFormula(text);
  } catch (error) {
    if (error instanceof FormulaSyntaxError) return error;
    throw error;
  }
  throw new Error(`expected ${text} to be rejected`);
}

describe("parseFormula", () => {
  it("reads a call written as in Excel", () => {
    expect(
      parseFormula('=CRYPTO.METRIC("aave","revenue","2024-01-01","2024-03-31","order=desc")')
    ).toEqual({
      name: "METRIC",
      args: [
        { kind: "string", value: "aave" },
        { kind: "string", value: "revenue" },
        { kind: "string", value: "2024-01-01" },
        { kind: "string", value: "2024-03-31" },
        { kind: "string", value: "order=desc" },
      ],
    });
  });

  it("makes the leading = and the CRYPTO. prefix optional, in any case", () => {
    const expected = { name: "value", args: [{ kind: "string", value: "aave" }] };
    expect(parseFormula('value("aave")')).toEqual(expected);
    expect(parseFormula('=crypto.value("aave")')).toEqual(expected);
    expect(parseFormula('Crypto.value("aave")')).toEqual(expected);
  });

  it("strips the prefix once only, keeping dotted names", () => {
    expect(parseFormula("=CRYPTO.CRYPTO.X()").name).toBe("CRYPTO.X");
    expect(parseFormula("=OTHER.X()").name).toBe("OTHER.X");
  });

  it("reads doubled quotes inside text as one quote", () => {
    expect(parseFormula('f("say ""hi""", "")').args).toEqual([
      { kind: "string", value: 'say "hi"' },
      { kind: "string", value: "" },
    ]);
  });

  it("reads numbers with signs, decimals and exponents", () => {
    expect(
      parseFormula("f(1, -2.5, +3, .5, 5., 1e3, -1.5E-2, - 4)").args.map(
        (a) => a.kind === "number" && a.value
      )
    ).toEqual([1, -2.5, 3, 0.5, 5, 1000, -0.015, -4]);
  });

  it("has no negative zero", () => {
    expect(parseFormula("f(-0)").args).toEqual([{ kind: "number", value: 0 }]);
    expect(Object.is((parseFormula("f(-0)").args[0] as { value: number }).value, -0)).toBe(false);
  });

  it("reads TRUE and FALSE in any case", () => {
    expect(parseFormula("f(TRUE, false, True)").args).toEqual([
      { kind: "boolean", value: true },
      { kind: "boolean", value: false },
      { kind: "boolean", value: true },
    ]);
  });

  it("keeps omitted arguments in their place, trailing ones included", () => {
    expect(parseFormula('f("a",,"b",)').args.map((a) => a.kind)).toEqual([
      "string",
      "omitted",
      "string",
      "omitted",
    ]);
    expect(parseFormula("f()").args).toEqual([]);
    expect(parseFormula("f( )").args).toEqual([]);
    expect(parseFormula("f(,)").args).toEqual([{ kind: "omitted" }, { kind: "omitted" }]);
  });

  it("reads array constants: commas separate columns, semicolons rows", () => {
    expect(parseFormula('f({"a","b"})').args).toEqual([
      {
        kind: "array",
        rows: [
          [
            { kind: "string", value: "a" },
            { kind: "string", value: "b" },
          ],
        ],
      },
    ]);
    expect(parseFormula('f({"a";"b"})').args).toEqual([
      { kind: "array", rows: [[{ kind: "string", value: "a" }], [{ kind: "string", value: "b" }]] },
    ]);
    expect(parseFormula('f({1,-2;TRUE,"x"})').args).toEqual([
      {
        kind: "array",
        rows: [
          [
            { kind: "number", value: 1 },
            { kind: "number", value: -2 },
          ],
          [
            { kind: "boolean", value: true },
            { kind: "string", value: "x" },
          ],
        ],
      },
    ]);
  });

  it("tolerates whitespace everywhere between tokens", () => {
    expect(parseFormula('  = CRYPTO.f ( { 1 , 2 ; 3 , 4 } ,\t"x" )  ')).toEqual(
      parseFormula('=CRYPTO.f({1,2;3,4},"x")')
    );
  });
});

describe("parseFormula errors", () => {
  it.each([
    ['=CRYPTO.VALUE("aave"))', "unexpected ')' after the closing ')' at column 22"],
    [
      '=CRYPTO.VALUE("aave"',
      "unexpected end of formula (expected ')' to close the argument list) at column 21",
    ],
    ['=VALUE("aave)', "unterminated text (missing closing '\"') at column 8"],
    ["=VALUE(aave)", "unexpected name 'aave' (text needs double quotes) at column 8"],
    ["=VALUE(A1)", "unexpected name 'A1' (text needs double quotes) at column 8"],
    [
      "=VALUE(NOW())",
      "unexpected name 'NOW' (nested function calls are not supported) at column 8",
    ],
    ["=VALUE(1+2)", "unexpected '+' (expected ')' to close the argument list) at column 9"],
    ['=VALUE(-"x")', "unexpected text \"x\" (expected a number after '-') at column 9"],
    ["=VALUE(1e)", "malformed number '1e' at column 8"],
    ["=VALUE(1.2.3)", "malformed number '1.2.3' at column 8"],
    ["=VALUE(1e999)", "number out of range '1e999' at column 8"],
    ["=VALUE({1,2;3})", "array constant rows have different lengths at column 8"],
    ["=VALUE({})", "unexpected '}' (expected a value) at column 9"],
    ["=VALUE({1,,2})", "unexpected ',' (expected a value) at column 11"],
    ["=VALUE({{1}})", "unexpected '{' (expected a value) at column 9"],
    [
      "=VALUE(\u201caave\u201d)",
      "unexpected character '\u201c' (text needs straight double quotes) at column 8",
    ],
    ["=VALUE('aave')", "unexpected character ''' (text needs double quotes) at column 8"],
    ["=VALUE(1;2)", "unexpected ';' (expected ')' to close the argument list) at column 9"],
    ["", "empty formula at column 1"],
    ["   ", "empty formula at column 1"],
    ["=", "unexpected end of formula (expected a function name) at column 2"],
    ["==VALUE()", "unexpected '=' (expected a function name) at column 2"],
    ['"x"', 'unexpected text "x" (expected a function name) at column 1'],
    ["=CRYPTO.()", "expected a function name after 'CRYPTO.' at column 9"],
    ["=VALUE", "unexpected end of formula (expected '(' after the function name) at column 7"],
    ["=VALUE()\u0000", "unexpected character U+0000 at column 9"],
  ])("rejects %j: %s", (text, message) => {
    const error = syntaxError(text);
    expect(error.message).toBe(message);
    expect(error.kind).toBe("syntax");
  });

  it("reports the column of the offending token", () => {
    const error = syntaxError('=CRYPTO.METRIC("aave",)"');
    expect(error.column).toBe(24);
  });
});

describe("printFormula", () => {
  it("prints the canonical form", () => {
    expect(printFormula(parseFormula('metric( "a""b" ,, -1.5,TRUE, {1;2} )'))).toBe(
      '=CRYPTO.metric("a""b",,-1.5,TRUE,{1;2})'
    );
  });
});
