/**
 * The builder offers, for each function, exactly the option values that function takes: every offered
 * value is run through the real function (over HTTP against the simulator) and must not be refused, and
 * every value of the option that is not offered must be refused. Checking the option parser alone let
 * METRIC's builder offer values=coverage, which METRIC then refused.
 */
import * as fns from "../../src/functions/functions";
import { OPTION_CHOICES, type OptionKey } from "../../src/functions/options";
import { FUNCTION_SPECS, optionChoices } from "../../src/taskpane/model/function-specs";
import { excelError, inv, startHarness, type Harness } from "../functions/harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/**
 * One call of each function that has options, on real ids, with the options text given. The metric is
 * one the option suits (fill=previous carries a level forward; the functions refuse it on a flow).
 */
const CALLS: Record<string, (options: string, metric?: string) => Promise<unknown>> = {
  // A warm VALUE or ASOF returns its value, not a promise: Promise.resolve takes either.
  VALUE: (o, m = "fees") => Promise.resolve(fns.value_("aave", m, "2024-03-31", o, inv())),
  ASOF: (o, m = "fees") => Promise.resolve(fns.asof_("aave", m, "2024-03-31", o, inv())),
  COMPS: (o, m = "fees") => fns.comps_([["aave"], ["uniswap"]], [[m]], "2024-03-31", o, inv()),
  METRIC: (o, m = "fees") => fns.metric_([["aave"]], [[m]], "2024-01-01", "2024-06-30", o, inv()),
  PRODUCT_METRIC: (o, m = "fees") =>
    fns.product_metric_("aave", "aave-v3", [[m]], "2024-01-01", "2024-06-30", o, inv()),
  STATEMENT: (o) => fns.statement_("aave", "quarter", "1y", o, inv()),
  PROJECTS: (o) => fns.projects_(o, inv()),
  BREAKDOWN: (o, m = "fees") =>
    fns.breakdown_(m, [["aave"], ["uniswap"]], "2024-01-01", "2024-03-31", o, inv()),
  AGGREGATION: (o, m = "fees") => fns.aggregation_("aave", m, "sum_30d", o, inv()),
  AGGREGATIONS: (o, m = "fees") => fns.aggregations_([["aave"]], [[m]], o, inv()),
};
const metricFor = (key: OptionKey, value: string): string | undefined =>
  key === "fill" && value === "previous" ? "tvl" : undefined;

/** A list option's value as the builder's pickers write it: real ids. */
const LIST_VALUES: Partial<Record<OptionKey, string>> = {
  chains: "ethereum",
  sectors: "lending",
};

/**
 * Growth compares periods: where the function has a period option, the builder's user sets one with it
 * (the function says so otherwise); STATEMENT's periods are its granularity.
 */
const optionsText = (keys: readonly OptionKey[], key: OptionKey, value: string): string =>
  key === "values" && (value === "pop" || value === "yoy") && keys.includes("period")
    ? `${key}=${value}; period=quarter`
    : `${key}=${value}`;

const refusal = async (call: Promise<unknown>): Promise<string | undefined> => {
  try {
    await call;
    return undefined;
  } catch (error) {
    const e = error as { code?: string; message?: string };
    // #N/A is a figure the data lacks, not a refused option.
    return e.code === "#VALUE!" ? e.message : undefined;
  }
};

const withOptions = FUNCTION_SPECS.flatMap((spec) =>
  spec.params
    .filter((p) => p.kind === "options")
    .map((p) => ({ fn: spec.name, keys: p.optionKeys ?? [] }))
);

test("every function whose builder has options has a call here", () => {
  expect(withOptions.map((x) => x.fn).filter((fn) => !CALLS[fn])).toEqual([]);
});

test.each(withOptions)("$fn takes every option value its builder offers", async ({ fn, keys }) => {
  const refused: string[] = [];
  for (const key of keys) {
    const values =
      key === "bridged"
        ? ["false"]
        : LIST_VALUES[key] !== undefined
          ? [LIST_VALUES[key]]
          : (optionChoices(fn, key) ?? []);
    expect([key, values.length > 0]).toEqual([key, true]);
    for (const value of values) {
      const why = await refusal(CALLS[fn](optionsText(keys, key, value), metricFor(key, value)));
      if (why !== undefined) refused.push(`${key}=${value}: ${why}`);
    }
  }
  expect(refused).toEqual([]);
});

test.each(withOptions)(
  "$fn refuses every value of its options that its builder does not offer",
  async ({ fn, keys }) => {
    const taken: string[] = [];
    for (const key of keys) {
      const offered = optionChoices(fn, key) ?? [];
      for (const value of (OPTION_CHOICES[key] ?? []).filter((v) => !offered.includes(v))) {
        const why = await refusal(CALLS[fn](optionsText(keys, key, value), metricFor(key, value)));
        if (why === undefined) taken.push(`${key}=${value}`);
      }
    }
    expect(taken).toEqual([]);
  }
);

test("METRIC's builder does not offer values=coverage, and METRIC says why it refuses it", async () => {
  expect(optionChoices("METRIC", "values")).toEqual(["value", "pop", "yoy"]);
  expect(optionChoices("STATEMENT", "values")).toContain("coverage");
  expect(optionChoices("PRODUCT_METRIC", "breakdown")).toEqual(["chain"]);
  const e = await excelError(CALLS.METRIC("values=coverage"));
  expect(e).toEqual({
    code: "#VALUE!",
    message: expect.stringMatching(
      /values=coverage" does not apply to METRIC; it takes values=value\|pop\|yoy/
    ) as unknown,
  });
});
