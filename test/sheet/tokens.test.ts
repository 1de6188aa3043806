import { FormulaSyntaxError } from "../../src/sheet/errors";
import { describeToken, tokenize, type Token } from "../../src/sheet/tokens";

/** The message of the syntax error a text raises, or a failed expectation when it tokenizes. */
function refusal(text: string): string {
  try {
    tokenize(text);
  } catch (error) {
    expect(error).toBeInstanceOf(FormulaSyntaxError);
    return (error as Error).message;
  }
  throw new Error(`tokenize accepted ${JSON.stringify(text)}`);
}

describe("the formula tokenizer", () => {
  it("reads a number that starts with its decimal point", () => {
    expect(tokenize(".25")[0]).toEqual({ kind: "number", value: 0.25, text: ".25", column: 1 });
    expect(tokenize("1.5e-3")[0]).toMatchObject({ value: 0.0015 });
  });

  it("reads references of one to three column letters, and not four", () => {
    expect(tokenize("AB12")[0]).toMatchObject({ kind: "reference", address: "AB12" });
    expect(tokenize("xfd1")[0]).toMatchObject({ kind: "reference", address: "XFD1" });
    expect(tokenize("ABCD1")[0]).toMatchObject({ kind: "name", text: "ABCD1" });
  });

  it("takes a name followed by '(' (spaces allowed) as a function, even one shaped like a cell", () => {
    expect(tokenize("LOG10 (1)")[0]).toMatchObject({ kind: "name", text: "LOG10" });
    // A '(' further on does not make the reference a function name.
    expect(tokenize("A1+F(1)")[0]).toMatchObject({ kind: "reference", address: "A1" });
    // A reference with fields stays a reference whatever follows (the parser then refuses the call).
    expect(tokenize("A1.Symbol(1)")[0]).toMatchObject({ kind: "reference", fields: ["Symbol"] });
  });

  it("reads bracketed fields trimmed, one after another", () => {
    expect(tokenize("A1.[ Revenue TTM ].[Currency]")[0]).toEqual({
      kind: "reference",
      address: "A1",
      fields: ["Revenue TTM", "Currency"],
      text: "A1.[ Revenue TTM ].[Currency]",
      column: 1,
    });
  });

  it("shows an invisible character by its code point, in capitals", () => {
    expect(refusal("=VALUE(\u001f)")).toBe("unexpected character U+001F at column 8");
    expect(refusal("=VALUE(\u007f)")).toBe("unexpected character U+007F at column 8");
  });

  it("hints at what a pasted character meant", () => {
    expect(refusal("=VALUE(\u201daave\u201d)")).toBe(
      "unexpected character '\u201d' (text needs straight double quotes) at column 8"
    );
    expect(refusal("=VALUE(Sheet1!A1)")).toBe(
      "unexpected character '!' (sheet references are not supported: write the value itself) at column 14"
    );
  });
});

describe("tokens in error messages", () => {
  const text = (value: string): Token => ({ kind: "string", value, column: 1 });

  it("shows text up to 20 characters whole, and longer text cut with an ellipsis", () => {
    expect(describeToken(text("a".repeat(20)))).toBe(`text "${"a".repeat(20)}"`);
    expect(describeToken(text(`${"a".repeat(20)}b`))).toBe(`text "${"a".repeat(20)}…"`);
  });

  it("shows names and references up to 30 characters whole, and longer ones cut", () => {
    const long = `${"N".repeat(30)}X`;
    expect(describeToken({ kind: "name", text: "N".repeat(30), column: 1 })).toBe(
      `name '${"N".repeat(30)}'`
    );
    expect(describeToken({ kind: "name", text: long, column: 1 })).toBe(
      `name '${"N".repeat(30)}…'`
    );
    const reference = (t: string): Token => ({
      kind: "reference",
      address: "A1",
      fields: [],
      text: t,
      column: 1,
    });
    expect(describeToken(reference(`A1.${"f".repeat(27)}`))).toBe(
      `reference 'A1.${"f".repeat(27)}'`
    );
    expect(describeToken(reference(`A1.${"f".repeat(28)}`))).toBe(
      `reference 'A1.${"f".repeat(27)}…'`
    );
  });
});
