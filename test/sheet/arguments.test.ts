import { coerce, prepareArguments } from "../../src/sheet/arguments";
import { computeArguments, type ConstantArgument } from "../../src/sheet/expressions";
import { parseFormula } from "../../src/sheet/formula";
import { ParameterMeta } from "../../src/sheet/registry";

const any = (name: string, extra: Partial<ParameterMeta> = {}): ParameterMeta => ({
  name,
  type: "any",
  ...extra,
});

/** The arguments of a formula once computed, as the recalculation hands them to prepareArguments. */
function constants(text: string): ConstantArgument[] {
  const computed = computeArguments(parseFormula(text).args, { now: 0, utcOffsetMinutes: 0 });
  if (!computed.ok) throw new Error(computed.error.message);
  return computed.args;
}

describe("preparing arguments as Excel passes them", () => {
  it("pads omitted and missing optional arguments with null", () => {
    const args = constants('f("a",,)');
    const prepared = prepareArguments(args, [
      any("a"),
      any("b", { optional: true }),
      any("c", { optional: true }),
      any("d", { optional: true }),
    ]);
    expect(prepared).toEqual([
      { kind: "fixed", value: "a" },
      { kind: "fixed", value: null },
      { kind: "fixed", value: null },
      { kind: "fixed", value: null },
    ]);
  });

  it("gives a matrix parameter a 2D array, whatever was written", () => {
    const matrix = any("range", { dimensionality: "matrix" });
    const shapes = ["f(1)", 'f({"a","b"})', 'f({"a";"b"})'].map(
      (text) => prepareArguments(constants(text), [matrix])[0]
    );
    expect(shapes).toEqual([
      { kind: "fixed", value: [[1]] },
      { kind: "fixed", value: [["a", "b"]] },
      { kind: "fixed", value: [["a"], ["b"]] },
    ]);
  });

  it("marks an array given to a scalar parameter for lifting", () => {
    const parameter = any("project");
    expect(prepareArguments(constants('f({"a";"b"})'), [parameter])).toEqual([
      { kind: "lifted", rows: [["a"], ["b"]], parameter },
    ]);
  });
});

describe("coercing scalars to the declared type", () => {
  const number = { name: "n", type: "number" };
  const text = { name: "t", type: "string" };
  const flag = { name: "b", type: "boolean" };

  it.each([
    [12, 12],
    [" 12.5 ", 12.5],
    ["1e3", 1000],
    [true, 1],
    [false, 0],
    ["2024-01-01", 45292],
    ["1900-03-01", 61],
  ])("reads %j as the number %d", (value, expected) => {
    expect(coerce(value, number, "CRYPTO.F")).toBe(expected);
  });

  it.each(["abc", "", "2024-02-30", "1900-01-01", "12abc"])(
    "refuses %j for a number with #VALUE!",
    (value) => {
      expect(coerce(value, number, "CRYPTO.F")).toEqual({
        kind: "error",
        code: "#VALUE!",
        message: "argument 'n' of CRYPTO.F must be a number",
      });
    }
  );

  it("writes numbers and booleans as text for a string parameter", () => {
    expect([coerce(12, text, "F"), coerce(true, text, "F"), coerce("x", text, "F")]).toEqual([
      "12",
      "TRUE",
      "x",
    ]);
  });

  it("reads booleans from numbers and TRUE/FALSE text, and refuses other text", () => {
    expect([
      coerce(0, flag, "F"),
      coerce(2, flag, "F"),
      coerce("true", flag, "F"),
      coerce("FALSE", flag, "F"),
    ]).toEqual([false, true, true, false]);
    expect(coerce("yes", flag, "F")).toMatchObject({ code: "#VALUE!" });
  });

  it("passes anything to an untyped (any) parameter and null through every type", () => {
    expect(coerce("x", { name: "a", type: "any" }, "F")).toBe("x");
    expect(coerce(null, number, "F")).toBeNull();
    expect(coerce(null, flag, "F")).toBeNull();
  });
});
