/**
 * The parser's bounds (src/sheet/limits.ts): a formula too long, too deep or with too large an array
 * constant is refused with a syntax error naming the limit, never a stack overflow, and before what it
 * bounds is built. Formulas at the limits still parse, print back and compute.
 */
import { FormulaSyntaxError } from "../../src/sheet/errors";
import { computeArguments } from "../../src/sheet/expressions";
import { parseFormula, printFormula } from "../../src/sheet/formula";
import { MAX_ARRAY_ELEMENTS, MAX_FORMULA_DEPTH, MAX_FORMULA_LENGTH } from "../../src/sheet/limits";

function refusal(text: string): FormulaSyntaxError {
  try {
    parseFormula(text);
  } catch (error) {
    // A RangeError (the stack) or anything else fails here with its own message.
    if (error instanceof FormulaSyntaxError) return error;
    throw error;
  }
  throw new Error(`expected the formula of ${text.length} characters to be refused`);
}

const CLOCK = { now: Date.UTC(2024, 0, 15, 12), utcOffsetMinutes: 0 };

describe("depth", () => {
  it("refuses 2,000 nested parentheses with a syntax error at the first level too many", () => {
    const text = `VALUE("aave","fees",${"(".repeat(2_000)}"2024-01-15"${")".repeat(2_000)})`;
    const error = refusal(text);
    expect(error.message).toMatch(
      /^the formula is nested too deeply: at most 100 levels of parentheses, function calls, signs and operators at column \d+$/
    );
    // The argument is level 1, so the 100th parenthesis opens level 101: refused at its first token.
    expect(error.column).toBe('VALUE("aave","fees",'.length + MAX_FORMULA_DEPTH + 1);
  });

  it("refuses 4,000 operators in 8,035 characters (a tree as deep as the chain is long)", () => {
    const text = `VALUE("aave","fees","2024-01-15"${"&1".repeat(4_000)})`.slice(0, 8_035);
    expect(refusal(`${text.slice(0, text.lastIndexOf("&"))})`).message).toMatch(
      /nested too deeply/
    );
  });

  it("refuses 5,000 signs, a field read 200 times and 200 nested calls", () => {
    expect(refusal(`VALUE("aave","fees",${"-".repeat(5_000)}1)`).message).toMatch(/too deeply/);
    expect(refusal(`=A1${".x".repeat(200)}`).message).toMatch(/too deeply/);
    expect(
      refusal(`VALUE("aave","fees",${"YEAR(".repeat(200)}1${")".repeat(200)})`).message
    ).toMatch(/too deeply/);
  });

  it("reads, prints back and computes a formula exactly at the depth limit", () => {
    // The argument is one level, then 98 parentheses and a leaf: 100 levels.
    const inner = `${"(".repeat(MAX_FORMULA_DEPTH - 2)}1+1${")".repeat(MAX_FORMULA_DEPTH - 2)}`;
    const call = parseFormula(`VALUE("aave","fees",${inner})`);
    // (Printed with its CRYPTO. prefix, the call no longer carries the name as written without it.)
    expect(parseFormula(printFormula(call))).toEqual({ ...call, written: undefined });
    const computed = computeArguments(call.args, CLOCK);
    expect(computed).toEqual({
      ok: true,
      args: [
        { kind: "string", value: "aave" },
        { kind: "string", value: "fees" },
        { kind: "number", value: 2 },
      ],
    });
    expect(refusal(`VALUE("aave","fees",(${inner}))`).message).toMatch(/too deeply/);
  });

  it("reads an operator chain of 99 terms (Excel's models write a few)", () => {
    const chain = Array.from({ length: MAX_FORMULA_DEPTH - 1 }, () => '"a"').join("&");
    const call = parseFormula(`VALUE("aave",${chain})`);
    expect(computeArguments(call.args, CLOCK)).toMatchObject({
      ok: true,
      args: [
        { kind: "string", value: "aave" },
        { kind: "string", value: "a".repeat(99) },
      ],
    });
  });
});

describe("array constants", () => {
  const ids = (n: number): string => Array.from({ length: n }, (_, i) => `"p${i}"`).join(",");

  it(`reads an array constant of ${MAX_ARRAY_ELEMENTS.toLocaleString("en-US")} elements`, () => {
    const call = parseFormula(`VALUE({${ids(MAX_ARRAY_ELEMENTS)}},"fees")`);
    expect(call.args[0]).toMatchObject({ kind: "array" });
    const rows = (call.args[0] as { rows: unknown[][] }).rows;
    expect(rows[0]).toHaveLength(MAX_ARRAY_ELEMENTS);
  });

  it("refuses one element more, pointing at it: the rest is not read", () => {
    const text = `VALUE({${ids(MAX_ARRAY_ELEMENTS + 5)}},"fees")`;
    const error = refusal(text);
    expect(error.message).toMatch(/^an array constant holds at most 5,000 elements at column \d+$/);
    const column = `VALUE({${ids(MAX_ARRAY_ELEMENTS)},`.length + 1;
    expect(error.column).toBe(column);
  });

  it("counts the elements of every row together", () => {
    const row = ids(1_001);
    expect(refusal(`VALUE({${Array(5).fill(row).join(";")}},"fees")`).message).toMatch(
      /at most 5,000 elements/
    );
  });
});

describe("length", () => {
  it("refuses a formula longer than the limit before reading it (an unterminated text is not reported)", () => {
    const text = `VALUE("${"x".repeat(MAX_FORMULA_LENGTH)}`;
    const error = refusal(text);
    expect(error.message).toBe(
      `the formula is ${text.length.toLocaleString("en-US")} characters long; at most 100,000 are read at column 100001`
    );
  });

  it("reads a formula of exactly the limit", () => {
    const head = 'VALUE("aave","';
    const text = `${head}${"x".repeat(MAX_FORMULA_LENGTH - head.length - 2)}")`;
    expect(text).toHaveLength(MAX_FORMULA_LENGTH);
    expect(parseFormula(text).args).toHaveLength(2);
  });
});
