import fc from "fast-check";
import { FormulaSyntaxError } from "../../src/sheet/errors";
import { EXCEL_FUNCTIONS } from "../../src/sheet/excel-functions";
import { computeArguments } from "../../src/sheet/expressions";
import {
  Argument,
  Expression,
  FormulaCall,
  parseFormula,
  printFormula,
  Scalar,
} from "../../src/sheet/formula";

/** Whatever the text, parsing ends in a call or in the parser's own error, never in another exception. */
function parsesOrRejectsCleanly(text: string): boolean {
  try {
    parseFormula(text);
    return true;
  } catch (error) {
    return error instanceof FormulaSyntaxError && /at column \d+$/.test(error.message);
  }
}

const formulaAlphabet = fc.constantFrom(
  "=",
  "(",
  ")",
  ",",
  ";",
  "{",
  "}",
  '"',
  '""',
  "-",
  "+",
  ".",
  "e",
  "E",
  "1",
  "0",
  "9",
  "CRYPTO.",
  "METRIC",
  "TRUE",
  "false",
  "a",
  "_",
  " ",
  "\t",
  "\n",
  "'",
  "\u201c",
  "\u00e9",
  "\u0000",
  "&",
  "*",
  "/",
  "DATE",
  "TODAY",
  "A1",
  "SUM"
);

// Text full of the characters that matter to the grammar, and text of any code points at all.
const text = fc.oneof(
  fc.string({
    unit: fc.constantFrom('"', ",", ";", "(", ")", "{", "}", " ", "a", "\n"),
    maxLength: 12,
  }),
  fc.string({ unit: "binary", maxLength: 12 })
);

const scalar: fc.Arbitrary<Scalar> = fc.oneof(
  text.map((value) => ({ kind: "string" as const, value })),
  fc
    .double({ noNaN: true, noDefaultInfinity: true })
    .map((value) => ({ kind: "number" as const, value: value === 0 ? 0 : value })),
  fc
    .integer({ min: -1e6, max: 1e6 })
    .map((value) => ({ kind: "number" as const, value: value === 0 ? 0 : value })),
  fc.boolean().map((value) => ({ kind: "boolean" as const, value }))
);

const array: fc.Arbitrary<Argument> = fc
  .integer({ min: 1, max: 3 })
  .chain((width) =>
    fc.array(fc.array(scalar, { minLength: width, maxLength: width }), {
      minLength: 1,
      maxLength: 3,
    })
  )
  .map((rows) => ({ kind: "array" as const, rows }));

const argument: fc.Arbitrary<Argument> = fc.oneof(
  scalar,
  array,
  fc.constant({ kind: "omitted" as const })
);

const call: fc.Arbitrary<FormulaCall> = fc
  .record({
    name: fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.]{0,12}$/),
    args: fc.array(argument, { maxLength: 6 }),
  })
  // "f()" is a call without arguments, as in Excel: a lone omitted argument cannot be written.
  .filter(({ args }) => !(args.length === 1 && args[0].kind === "omitted"));

/** Any expression tree, including ones the parser would never build (no groups where precedence needs them). */
const { expression } = fc.letrec<{ expression: Expression }>((tie) => ({
  expression: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    scalar,
    fc.record({
      kind: fc.constant("unary" as const),
      op: fc.constantFrom("+" as const, "-" as const),
      operand: tie("expression"),
    }),
    fc.record({
      kind: fc.constant("binary" as const),
      op: fc.constantFrom("+" as const, "-" as const, "*" as const, "/" as const, "&" as const),
      left: tie("expression"),
      right: tie("expression"),
    }),
    fc.record({ kind: fc.constant("group" as const), inner: tie("expression") }),
    fc.constantFrom(...Object.keys(EXCEL_FUNCTIONS)).chain((name) =>
      fc
        .array(tie("expression"), {
          minLength: EXCEL_FUNCTIONS[name].parameters.length,
          maxLength: EXCEL_FUNCTIONS[name].parameters.length,
        })
        .map((args) => ({ kind: "call" as const, name, args }))
    )
  ),
}));

const CLOCK = { now: Date.UTC(2024, 2, 31, 12), utcOffsetMinutes: 0 };

describe("formula parser properties", () => {
  it("never throws anything but FormulaSyntaxError on arbitrary text", () => {
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 60 }), parsesOrRejectsCleanly), {
      numRuns: 2000,
    });
  });

  it("never throws anything but FormulaSyntaxError on formula-like noise", () => {
    fc.assert(
      fc.property(fc.string({ unit: formulaAlphabet, maxLength: 40 }), parsesOrRejectsCleanly),
      { numRuns: 3000 }
    );
  });

  it("never throws anything but FormulaSyntaxError on valid formulas with one character changed", () => {
    const mutated = fc
      .tuple(
        call.map(printFormula),
        fc.nat(),
        fc.string({ unit: formulaAlphabet, maxLength: 1 }),
        fc.boolean()
      )
      .map(([text, at, insert, replace]) => {
        const i = at % (text.length + 1);
        return text.slice(0, i) + insert + text.slice(replace ? i + 1 : i);
      });
    fc.assert(fc.property(mutated, parsesOrRejectsCleanly), { numRuns: 2000 });
  });

  it("prints any expression so that it reads back with the same meaning, in a canonical text", () => {
    fc.assert(
      fc.property(expression, (tree) => {
        const ast: FormulaCall = { name: "F", args: [{ kind: "expression", expression: tree }] };
        const text = printFormula(ast);
        const parsed = parseFormula(text);
        // Canonical after one reading ("+0" reads as the number 0, printed "0").
        const canonical = printFormula(parsed);
        expect(printFormula(parseFormula(canonical))).toBe(canonical);
        expect(computeArguments(parsed.args, CLOCK)).toEqual(computeArguments(ast.args, CLOCK));
      }),
      { numRuns: 1000 }
    );
  });

  it("reads back every call it prints", () => {
    fc.assert(
      fc.property(call, (ast) => {
        expect(parseFormula(printFormula(ast))).toEqual(ast);
      }),
      { numRuns: 1000 }
    );
  });
});
