/**
 * Property-based tests over every custom function's arguments, through the real functions, engine and
 * client against the simulator (loopback HTTP, virtual time). Whatever Excel passes:
 *  - the result is a single value or a rectangular matrix of values and in-cell errors, or the call fails
 *    with a CustomFunctions.Error of kind #VALUE! or #N/A that has a message; nothing else is thrown;
 *  - the call settles: nothing can leave the cell on #BUSY!;
 *  - an argument invalid on its face is refused (#VALUE!) before any request is sent.
 */
import fc from "fast-check";
import { propertyRuns } from "../support/property-runs";
import { resolve } from "path";
import { idList } from "../../src/functions/coerce-lists";
import { isEntity, validateEntity } from "../../src/sheet/entity";
import { HostFunctionError } from "../../src/sheet/host";
import { StuckError } from "../harness/faults/driver";
import { openLab, type Lab } from "../harness/faults/lab";
import { callFormula, FUNCTIONS, type FunctionName } from "../harness/faults/workbook";
import { generateFunctionsMeta } from "../../src/tools/gen-functions-meta";
import {
  argumentFor,
  EXAMPLES,
  faceInvalid,
  OPTION_KEYS,
  SIGNATURES,
  type Param,
} from "./arbitraries";

let lab: Lab;
beforeAll(async () => {
  lab = await openLab();
});
afterAll(() => lab.close());

/** One Excel cell value: what a host can display (a card only if Excel would take it). */
function isCellValue(v: unknown): boolean {
  if (isEntity(v)) return validateEntity(v).length === 0;
  if (typeof v === "number") return Number.isFinite(v);
  if (typeof v === "string" || typeof v === "boolean") return true;
  if (typeof v === "object" && v !== null && (v as { type?: unknown }).type === "Double") {
    const rich = v as { basicValue?: unknown; numberFormat?: unknown };
    return (
      typeof rich.basicValue === "number" &&
      Number.isFinite(rich.basicValue) &&
      typeof rich.numberFormat === "string"
    );
  }
  return false;
}

function isExcelError(e: unknown): e is HostFunctionError {
  return (
    e instanceof HostFunctionError &&
    (e.code === "#VALUE!" || e.code === "#N/A") &&
    e.message.trim().length > 0 &&
    e.message.length <= 250
  );
}

/** Why an outcome is not something Excel can show, or undefined when it is. */
function problem(outcome: { value: unknown } | { error: unknown }): string | undefined {
  if ("error" in outcome) {
    if (outcome.error instanceof StuckError) return `never settles: ${outcome.error.message}`;
    return isExcelError(outcome.error) ? undefined : `threw ${String(outcome.error)}`;
  }
  const v = outcome.value;
  if (!Array.isArray(v)) return isCellValue(v) ? undefined : `returned ${JSON.stringify(v)}`;
  if (v.length === 0) return "returned an empty matrix";
  const width = Array.isArray(v[0]) ? v[0].length : -1;
  for (const row of v) {
    if (!Array.isArray(row) || row.length !== width || width === 0)
      return "a matrix that is not rectangular";
    for (const cell of row)
      if (!isCellValue(cell) && !isExcelError(cell)) return `a matrix cell ${JSON.stringify(cell)}`;
  }
  return undefined;
}

let cell = 0;
async function call(name: FunctionName, args: readonly unknown[]) {
  const work = callFormula(
    { address: `P!A${++cell}`, name, args },
    {
      address: `P!A${cell}`,
      functionName: name,
    }
  );
  try {
    return { value: await lab.drive(work, { virtualMs: 3 * 130_000 }) };
  } catch (error) {
    return { error };
  }
}

const names = Object.keys(SIGNATURES) as FunctionName[];

function listsNothing(value: unknown): boolean {
  try {
    return idList(value, "ids").length === 0;
  } catch {
    return false;
  }
}

/**
 * AGGREGATIONS over every project and every metric at once. Left out of the random runs: that one request
 * makes the simulator build the whole history of every series of every project (25 to 65 s on a
 * crowded machine), and a run that outlives the test's time keeps sending requests into the next tests.
 * Its code path is that of every project with listed metrics, which the runs keep.
 */
function everythingAtOnce(name: FunctionName, args: readonly unknown[]): boolean {
  return name === "AGGREGATIONS" && listsNothing(args[0]) && listsNothing(args[1]);
}

function argumentsOf(name: FunctionName): fc.Arbitrary<unknown[]> {
  return fc.tuple(...SIGNATURES[name].map((p: Param) => argumentFor(p)));
}

describe("every custom function, whatever Excel passes", () => {
  it("covers every function Excel registers, with its parameters", async () => {
    const meta = JSON.parse(
      await generateFunctionsMeta(resolve(__dirname, "../../src/functions/functions.ts"))
    ) as { metadata: { functions: Array<{ name: string; parameters: unknown[] }> } };
    const registered = Object.fromEntries(
      meta.metadata.functions.map((f) => [f.name, f.parameters.length])
    );
    const covered = Object.fromEntries(names.map((n) => [n, SIGNATURES[n].length]));
    expect(covered).toEqual(registered);
    for (const n of names) expect(FUNCTIONS[n].arity).toBe(SIGNATURES[n].length);
  });

  it("knows the option keys of every function that takes options", () => {
    const withOptions = names.filter((n) => SIGNATURES[n].some((p) => p.kind === "options"));
    expect(withOptions.filter((n) => OPTION_KEYS[n] === undefined)).toEqual([]);
  });

  it.each(names.map((n) => [n]))(
    "%s returns a value or a matrix, or fails with #VALUE!/#N/A and a message; it always settles",
    async (name) => {
      const seen = { value: 0, "#VALUE!": 0, "#N/A": 0 };
      await fc.assert(
        fc.asyncProperty(argumentsOf(name), async (args) => {
          fc.pre(!everythingAtOnce(name, args));
          const outcome = await call(name, args);
          expect(problem(outcome)).toBeUndefined();
          const code = "error" in outcome ? (outcome.error as HostFunctionError).code : "value";
          seen[code as keyof typeof seen]++;
        }),
        {
          numRuns: propertyRuns(60),
          // A call that works and one that is refused are always among the runs.
          examples: [[[...EXAMPLES[name]]], [SIGNATURES[name].map(() => true)]],
        }
      );
      // The success path was exercised as well as the refusals.
      expect(seen.value).toBeGreaterThan(0);
      if (SIGNATURES[name].length > 0) expect(seen["#VALUE!"]).toBeGreaterThan(0);
    }
  );

  it.each(names.filter((n) => SIGNATURES[n].length > 0).map((n) => [n]))(
    "%s refuses an argument invalid on its face with #VALUE!, before any request",
    async (name) => {
      const kinds = SIGNATURES[name];
      const args = fc
        .tuple(
          argumentsOf(name),
          fc
            .nat({ max: kinds.length - 1 })
            .chain((i) => fc.tuple(fc.constant(i), faceInvalid(kinds[i].kind, name)))
        )
        .map(([all, [i, bad]]) => all.map((a, j) => (j === i ? bad : a)));
      await fc.assert(
        fc.asyncProperty(args, async (argv) => {
          lab.runtime.engine.clear();
          const sent = lab.io.started();
          const outcome = await call(name, argv);
          expect(outcome).toMatchObject({ error: expect.any(HostFunctionError) });
          expect("error" in outcome && (outcome.error as HostFunctionError).code).toBe("#VALUE!");
          expect(problem(outcome)).toBeUndefined();
          expect(lab.io.started() - sent).toBe(0);
        }),
        { numRuns: propertyRuns(60) }
      );
    }
  );

  it.each(["METRIC", "PRODUCT_METRIC", "BREAKDOWN"] as const)(
    "%s refuses a start after its end before any request",
    async (name) => {
      const kinds = SIGNATURES[name];
      const startAt = kinds.findIndex((p) => p.kind === "date");
      const dates = fc
        .tuple(fc.integer({ min: 40_000, max: 46_000 }), fc.integer({ min: 1, max: 3_000 }))
        .map(([end, gap]) => [end + gap, end]);
      const args = fc
        .tuple(argumentsOf(name), dates)
        .map(([all, [start, end]]) =>
          all.map((a, j) => (j === startAt ? start : j === startAt + 1 ? end : a))
        );
      await fc.assert(
        fc.asyncProperty(args, async (argv) => {
          lab.runtime.engine.clear();
          const sent = lab.io.started();
          const outcome = await call(name, argv);
          expect("error" in outcome && (outcome.error as HostFunctionError).code).toBe("#VALUE!");
          expect(lab.io.started() - sent).toBe(0);
        }),
        { numRuns: propertyRuns(30) }
      );
    }
  );
});
