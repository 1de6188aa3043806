/**
 * The command line under hostile formulas, with the real functions, engine and client against the
 * simulator (virtual time). Complements test/sheet/formula.property.test.ts (the parser alone) and
 * test/cli/run.test.ts (arbitrary short text, fake functions): here the formulas are real CRYPTO calls with
 * arbitrary literal arguments, and those calls with one character inserted, dropped or replaced. Whatever
 * the text: exit 0, 1 or 2; a malformed formula is a usage error (exit 2) of one line; never a stack trace,
 * never an "internal error"; a formula that runs prints JSON.
 */
import fc from "fast-check";
import { resolve } from "path";
import { FormulaSyntaxError } from "../../src/sheet/errors";
import {
  parseFormula,
  printFormula,
  type Argument,
  type FormulaCall,
  type Scalar,
} from "../../src/sheet/formula";
import { defaultDeps, run } from "../../src/cli/main";
import { createRegistry, type Registry } from "../../src/sheet/registry";
import * as functions from "../../src/functions/functions";
import { DEMO_API_KEY } from "../../src/simulator";
import { openLab, type Lab } from "../harness/faults/lab";
import { generateFunctionsMeta } from "../../src/tools/gen-functions-meta";
import { SIGNATURES } from "./arbitraries";

let lab: Lab;
let registry: Registry;
beforeAll(async () => {
  lab = await openLab();
  const meta: unknown = JSON.parse(
    await generateFunctionsMeta(resolve(__dirname, "../../src/functions/functions.ts"))
  );
  registry = createRegistry(meta, functions);
});
afterAll(() => lab.close());

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(formula: string): Promise<Outcome> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await lab.drive(
    run(
      ["eval", "--format", "json", "--", formula],
      { CRYPTOMETRICS_BASE_URL: lab.sim.url, CRYPTOMETRICS_API_KEY: DEMO_API_KEY },
      { stdout: (t) => void stdout.push(t), stderr: (t) => void stderr.push(t) },
      // The lab's runtime (simulator, virtual time) stands in for the one the CLI would configure.
      { ...defaultDeps, loadRegistry: () => registry, configureRuntime: () => undefined }
    )
  );
  return { code, stdout: stdout.join(""), stderr: stderr.join("") };
}

/** What every outcome must look like, whatever the formula. */
function expectClean(outcome: Outcome): void {
  expect([0, 1, 2]).toContain(outcome.code);
  expect(outcome.stderr).not.toMatch(/\n\s+at /);
  expect(outcome.stderr).not.toMatch(/internal error/);
  expect(outcome.stderr.split("\n").filter(Boolean).length).toBeLessThanOrEqual(1);
  if (outcome.code === 2) {
    expect(outcome.stdout).toBe("");
    expect(outcome.stderr).toMatch(/^cryptometrics: .+\n$/);
  } else {
    expect(() => JSON.parse(outcome.stdout) as unknown).not.toThrow();
  }
}

const text = fc.oneof(
  fc.constantFrom("aave", "fees", "2025-01-31", "order=desc", "lending", "sum_30d", "aave-v3", ""),
  fc.string({ unit: "binary", maxLength: 16 }),
  fc.constantFrom('"quoted"', "<b>x</b>", "é🙂", "a;b", "{1,2}")
);
const scalar: fc.Arbitrary<Scalar> = fc.oneof(
  text.map((value) => ({ kind: "string" as const, value })),
  fc
    .oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer({ min: -1e7, max: 3e6 }))
    .map((value) => ({ kind: "number" as const, value: Object.is(value, -0) ? 0 : value })),
  fc.boolean().map((value) => ({ kind: "boolean" as const, value }))
);
const argument: fc.Arbitrary<Argument> = fc.oneof(
  { arbitrary: scalar, weight: 4 },
  {
    arbitrary: fc
      .integer({ min: 1, max: 3 })
      .chain((w) =>
        fc.array(fc.array(scalar, { minLength: w, maxLength: w }), { minLength: 1, maxLength: 3 })
      )
      .map((rows) => ({ kind: "array" as const, rows })),
    weight: 1,
  },
  { arbitrary: fc.constant({ kind: "omitted" as const }), weight: 1 }
);

/** A call of a real function, with about its number of arguments (sometimes one too few or too many). */
const realCall: fc.Arbitrary<FormulaCall> = fc
  .constantFrom(...Object.keys(SIGNATURES))
  .chain((name) =>
    fc
      .integer({
        min: Math.max(0, SIGNATURES[name as keyof typeof SIGNATURES].length - 1),
        max: SIGNATURES[name as keyof typeof SIGNATURES].length + 1,
      })
      .chain((n) => fc.array(argument, { minLength: n, maxLength: n }))
      .map((args) => ({ name, args }))
  )
  // "f()" is a call without arguments: a lone omitted argument cannot be written.
  .filter(({ args }) => !(args.length === 1 && args[0].kind === "omitted"));

const noise = fc.constantFrom(
  "(",
  ")",
  ",",
  ";",
  "{",
  "}",
  '"',
  "=",
  ".",
  "-",
  "e",
  " ",
  "\n",
  "\u0000",
  "A1",
  "+",
  "CRYPTO."
);

/** A real call's text with one character inserted, dropped or replaced. */
const mutated: fc.Arbitrary<string> = fc
  .tuple(realCall.map(printFormula), fc.nat(), noise, fc.constantFrom("insert", "drop", "replace"))
  .map(([formula, at, piece, how]) => {
    const i = at % (formula.length + 1);
    if (how === "insert") return formula.slice(0, i) + piece + formula.slice(i);
    if (how === "drop") return formula.slice(0, i) + formula.slice(i + 1);
    return formula.slice(0, i) + piece + formula.slice(i + 1);
  });

function parses(formula: string): boolean {
  try {
    parseFormula(formula);
    return true;
  } catch (error) {
    if (!(error instanceof FormulaSyntaxError)) throw error;
    return false;
  }
}

describe("the CLI with the real functions, whatever the formula", () => {
  it("evaluates real calls with arbitrary arguments to JSON, or refuses a wrong argument count as a usage error", async () => {
    const codes = [0, 0, 0];
    const valid: FormulaCall = {
      name: "VALUE",
      args: [
        { kind: "string", value: "aave" },
        { kind: "string", value: "fees" },
      ],
    };
    await fc.assert(
      fc.asyncProperty(realCall, async (call) => {
        const outcome = await cli(printFormula(call));
        expectClean(outcome);
        codes[outcome.code]++;
        if (outcome.code === 2)
          expect(outcome.stderr).toMatch(/(too many arguments|missing required argument)/);
      }),
      { numRuns: 120, examples: [[valid]] }
    );
    // Values, formula errors and usage errors were all among the outcomes.
    expect(codes.every((n) => n > 0)).toBe(true);
  });

  it("gives a one-line usage error (exit 2) for every malformed formula, and never a stack trace", async () => {
    let malformed = 0;
    await fc.assert(
      fc.asyncProperty(mutated, async (formula) => {
        const outcome = await cli(formula);
        expectClean(outcome);
        if (!parses(formula)) {
          malformed++;
          expect(outcome.code).toBe(2);
          expect(outcome.stderr).toMatch(/^cryptometrics: formula 1: .* at column \d+\n$/);
        }
      }),
      { numRuns: 200 }
    );
    expect(malformed).toBeGreaterThan(20);
  });
});
