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
    // Without the prefix the name is kept as written, for the #NAME? of a name that is no add-in function.
    expect(parseFormula('value("aave")')).toEqual({ ...expected, written: "value" });
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
      "unexpected end of formula (expected ')' to close CRYPTO.VALUE() at column 21",
    ],
    ['=VALUE("aave)', "unterminated text (missing closing '\"') at column 8"],
    ["=VALUE(aave)", "unexpected name 'aave' (text needs double quotes) at column 8"],
    [
      "=A1:",
      "unexpected end of formula (expected the range's other corner, as in B2:B92) at column 5",
    ],
    [
      "=SUM(A1:B)",
      "unexpected name 'B' (expected the range's other corner, as in B2:B92) at column 9",
    ],
    [
      "=SUM(A1:ZZZ999)",
      "the range A1:ZZZ999 holds 18,259,722 cells; at most 100,000 are read at column 6",
    ],
    ["=A1.[Revenue TTM", "unterminated field name (missing ']') at column 4"],
    ["=A1.[]", "empty field name '[]' at column 4"],
    ["=A1.", "expected a field name after '.' at column 4"],
    [
      "=FIELDVALUE(A1)",
      "unexpected ')' (expected ',' between FIELDVALUE's value and field_name) at column 15",
    ],
    [
      "=VALUE({A1})",
      "unexpected reference 'A1' (array constants hold only text, numbers, TRUE and FALSE) at column 9",
    ],
    ["=VALUE(DATE(2024,1))", "DATE takes 3 arguments (year, month, day), got 2 at column 8"],
    ["=VALUE(TODAY(1))", "TODAY takes no arguments, got 1 at column 8"],
    ["=VALUE(YEAR())", "YEAR takes 1 argument (serial_number), got 0 at column 8"],
    ["=VALUE(DATE(2024,,1))", "unexpected ',' (an argument of DATE is missing) at column 18"],
    [
      "=VALUE(DATE(2024,1,1)",
      "unexpected end of formula (expected ')' to close VALUE() at column 22",
    ],
    ["=VALUE((1+2)", "unexpected end of formula (expected ')' to close VALUE() at column 13"],
    ["=VALUE((1+2,3)", "unexpected ',' (expected ')' to close the parenthesis) at column 12"],
    ["=VALUE(1+)", "unexpected ')' (expected a value) at column 10"],
    ["=VALUE(1+{1})", "unexpected '{' (an array constant must be a whole argument) at column 10"],
    ["=VALUE({1}+1)", "unexpected '+' (expected ')' to close VALUE() at column 11"],
    [
      "=VALUE({TODAY()})",
      "unexpected name 'TODAY' (array constants hold only text, numbers, TRUE and FALSE) at column 9",
    ],
    ["=VALUE(1 2)", "unexpected number 2 (expected ')' to close VALUE() at column 10"],
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
    ["", "empty formula at column 1"],
    ["   ", "empty formula at column 1"],
    ["=", "empty formula at column 2"],
    ["==VALUE()", "unexpected '=' (expected a value) at column 2"],
    ["=CRYPTO.()", "expected a function name after 'CRYPTO.' at column 9"],
    ["=VALUE", "unexpected name 'VALUE' (text needs double quotes) at column 2"],
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

describe("parseFormula: expressions inside arguments", () => {
  it("reads Excel's date functions and arithmetic as an expression, names in any case", () => {
    expect(parseFormula("f(today()-365, Date(2024,3,31))").args).toEqual([
      {
        kind: "expression",
        expression: {
          kind: "binary",
          op: "-",
          left: { kind: "call", name: "TODAY", args: [] },
          right: { kind: "number", value: 365 },
        },
      },
      {
        kind: "expression",
        expression: {
          kind: "call",
          name: "DATE",
          args: [
            { kind: "number", value: 2024 },
            { kind: "number", value: 3 },
            { kind: "number", value: 31 },
          ],
        },
      },
    ]);
  });

  it("follows Excel's precedence: & below + and -, below * and /, below a sign; left to right", () => {
    const [arg] = parseFormula('f("a"&1+2*-3)').args;
    expect(arg).toEqual({
      kind: "expression",
      expression: {
        kind: "binary",
        op: "&",
        left: { kind: "string", value: "a" },
        right: {
          kind: "binary",
          op: "+",
          left: { kind: "number", value: 1 },
          right: {
            kind: "binary",
            op: "*",
            left: { kind: "number", value: 2 },
            right: { kind: "unary", op: "-", operand: { kind: "number", value: 3 } },
          },
        },
      },
    });
    const [chain] = parseFormula("f(1-2-3)").args;
    expect(chain).toMatchObject({
      expression: { op: "-", left: { op: "-" }, right: { kind: "number", value: 3 } },
    });
  });

  it("keeps constants constant: a signed number is a number, a parenthesised one an expression", () => {
    expect(parseFormula("f(-1, +2, -(1), --1)").args.map((a) => a.kind)).toEqual([
      "number",
      "number",
      "expression",
      "expression",
    ]);
  });

  it("nests the date functions and parentheses", () => {
    const [arg] = parseFormula("f(EOMONTH(EDATE(DATE(2024,1,31),(1+1)*3),-1))").args;
    expect(arg.kind).toBe("expression");
  });
});

describe("parseFormula: nested calls, FIELDVALUE and dot access", () => {
  it("reads a CRYPTO call nested in an argument (the prefix is required there)", () => {
    const call = parseFormula('METRIC(CRYPTO.PROJECT("aave"),"revenue")');
    expect(call.args[0]).toEqual({
      kind: "expression",
      expression: {
        kind: "crypto",
        call: { name: "PROJECT", args: [{ kind: "string", value: "aave" }] },
      },
    });
  });

  it("reads FIELDVALUE at the root and inside arguments", () => {
    const root = parseFormula('=FIELDVALUE(CRYPTO.PROJECT("aave"),"Symbol")');
    expect(root.builtin).toEqual({ name: "FIELDVALUE", dot: false });
    expect(root.args[1]).toEqual({ kind: "string", value: "Symbol" });
    const inner = parseFormula('=VALUE(fieldvalue(B1,"Id"),"fees")');
    expect(inner.args[0]).toMatchObject({
      kind: "expression",
      expression: { kind: "field", value: { kind: "reference", address: "B1" } },
    });
  });

  it("reads dot access, plain or bracketed, chained, as fields of the reference", () => {
    const call = parseFormula("=a1.Financials.[Q1 2024]");
    expect(call.builtin).toEqual({ name: "FIELDVALUE", dot: true });
    expect(call.args).toEqual([
      {
        kind: "expression",
        expression: {
          kind: "field",
          dot: true,
          value: { kind: "reference", address: "A1" },
          field: { kind: "string", value: "Financials" },
        },
      },
      { kind: "string", value: "Q1 2024" },
    ]);
  });

  it("still reads a name followed by '(' as a function, even one that looks like a cell (LOG10)", () => {
    expect(parseFormula("=CRYPTO.VALUE(LOG10(1))").args[0]).toMatchObject({
      kind: "expression",
      expression: { kind: "unknown", name: "LOG10" },
    });
  });

  it.each([
    ['=FIELDVALUE(CRYPTO.PROJECT("aave"),"Symbol")'],
    ['=CRYPTO.METRIC(CRYPTO.PROJECT("aave"),"revenue","2024-03-01","2024-03-03")'],
    ["=A1.Symbol"],
    ["=A1.[Revenue TTM]"],
    ["=B2.Financials.[Q1 2024]"],
    ['=CRYPTO.VALUE(A1.Id&"","fees",DATE(2024,1,1))'],
  ])("prints back as written: %s", (text) => {
    expect(printFormula(parseFormula(text))).toBe(text);
  });
});

describe("printFormula", () => {
  it("prints the canonical form", () => {
    expect(printFormula(parseFormula('metric( "a""b" ,, -1.5,TRUE, {1;2} )'))).toBe(
      '=CRYPTO.metric("a""b",,-1.5,TRUE,{1;2})'
    );
  });

  it.each([
    ['=CRYPTO.METRIC("aave","fees",TODAY()-365,EOMONTH(TODAY(),-1),"period="&"month")'],
    ['=CRYPTO.F((1+2)*3,1-(2-3),1-2-3,-(1)*2,--1,"a"&(1&2),DATE(2024,1,1)+30/2)'],
  ])("prints expressions back as written: %s", (text) => {
    expect(printFormula(parseFormula(text))).toBe(text);
  });

  it("prints parentheses a hand-built expression needs", () => {
    const one = { kind: "number" as const, value: 1 };
    const sum = { kind: "binary" as const, op: "+" as const, left: one, right: one };
    expect(
      printFormula({
        name: "F",
        args: [
          {
            kind: "expression",
            expression: { kind: "binary", op: "*", left: sum, right: sum },
          },
        ],
      })
    ).toBe("=CRYPTO.F((1+1)*(1+1))");
  });
});
