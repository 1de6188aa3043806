/**
 * The builder's table of functions against the function reference itself (the metadata generated from the
 * functions' JSDoc, i.e. functions.json) and against the options the functions accept.
 */
import { resolve } from "path";
import { parseOptions, type OptionKey } from "../../src/functions/options";
import { acceptedOptions } from "../../src/functions/function-options";
import {
  FUNCTION_SPECS,
  GRANULARITY_CHOICES,
  INTERVAL_CHOICES,
  LIST_OPTIONS,
  OPTION_DEFAULTS,
  optionChoices,
} from "../../src/taskpane/model/function-specs";
import { DEFAULT_OPTIONS } from "../../src/functions/options";
import { generateFunctionsMeta } from "../../src/tools/gen-functions-meta";

interface MetaFunction {
  name: string;
  parameters: { name: string; optional?: boolean }[];
}

let reference: MetaFunction[];

beforeAll(async () => {
  const json = JSON.parse(
    await generateFunctionsMeta(resolve(__dirname, "../../src/functions/functions.ts"))
  ) as { metadata: { functions: MetaFunction[] } };
  reference = json.metadata.functions;
}, 60_000);

test("the builder offers every function of the reference, with its parameters in order", () => {
  expect(FUNCTION_SPECS.map((s) => s.name).sort()).toEqual(reference.map((f) => f.name).sort());
  for (const spec of FUNCTION_SPECS) {
    const fn = reference.find((f) => f.name === spec.name)!;
    expect({ fn: spec.name, params: spec.params.map((p) => [p.name, p.optional]) }).toEqual({
      fn: spec.name,
      params: fn.parameters.map((p) => [p.name, p.optional === true]),
    });
  }
});

test("a function takes option keys exactly when the reference gives it an options parameter", () => {
  for (const fn of reference) {
    const hasOptions = fn.parameters.some((p) => p.name === "options");
    expect({ fn: fn.name, takesKeys: acceptedOptions(fn.name).length > 0 }).toEqual({
      fn: fn.name,
      takesKeys: hasOptions,
    });
  }
});

const ALLOWED: Record<string, readonly OptionKey[]> = {
  VALUE: acceptedOptions("VALUE"),
  ASOF: acceptedOptions("ASOF"),
  METRIC: acceptedOptions("METRIC"),
  PRODUCT_METRIC: acceptedOptions("PRODUCT_METRIC"),
  STATEMENT: acceptedOptions("STATEMENT"),
  PROJECTS: acceptedOptions("PROJECTS"),
  COMPS: acceptedOptions("COMPS"),
  BREAKDOWN: acceptedOptions("BREAKDOWN"),
};

test("every option the builder offers is one the function accepts, with every offered value", () => {
  for (const spec of FUNCTION_SPECS) {
    for (const param of spec.params.filter((p) => p.kind === "options")) {
      const allowed = ALLOWED[spec.name];
      expect({
        fn: spec.name,
        extra: param.optionKeys!.filter((k) => !allowed.includes(k)),
      }).toEqual({
        fn: spec.name,
        extra: [],
      });
      for (const key of param.optionKeys!) {
        const values = LIST_OPTIONS.includes(key) ? ["a,b"] : optionChoices(spec.name, key)!;
        for (const value of values) {
          expect(() => parseOptions(`${key}=${value}`, spec.name, allowed)).not.toThrow();
        }
      }
    }
  }
});

test("an option the builder leaves out as a default gives the same options as writing it", () => {
  const everyKey = Object.keys(DEFAULT_OPTIONS) as OptionKey[];
  const left = Object.entries(OPTION_DEFAULTS);
  expect(left.length).toBeGreaterThan(0);
  for (const [key, text] of left) {
    // What the functions read from "key=default" must be what they assume when the option is absent.
    expect([key, parseOptions(`${key}=${text}`, "F", everyKey)]).toEqual([
      key,
      parseOptions(null, "F", everyKey),
    ]);
  }
});

test("granularities and intervals are the service's closed sets", () => {
  expect(GRANULARITY_CHOICES).toEqual(["year", "quarter", "month", "week"]);
  expect(INTERVAL_CHOICES).toEqual(["1m", "1y", "2y", "3y", "5y", "max"]);
});
