import { parseFormula } from "../../src/sheet/formula";
import {
  build,
  emptyState,
  startingState,
  optionsText,
  withValue,
  type BuilderState,
  type ParamValue,
} from "../../src/taskpane/model/formula-builder";

const ids = (...values: string[]): ParamValue => ({ kind: "ids", ids: values });
const revenueColumn: ParamValue = {
  kind: "columns",
  rows: [{ term: { metric: "revenue", window: "" } }],
};

function state(fn: string, values: Record<string, ParamValue>): BuilderState {
  return Object.entries(values).reduce((s, [k, v]) => withValue(s, k, v), emptyState(fn));
}

test("VALUE with a project and a metric is the reference's two-argument call", () => {
  expect(build(state("VALUE", { project: ids("aave"), metric: ids("revenue") }))).toEqual({
    ok: true,
    name: "VALUE",
    args: [
      { kind: "string", value: "aave" },
      { kind: "string", value: "revenue" },
      { kind: "omitted" },
      { kind: "omitted" },
    ],
    formula: '=CRYPTO.VALUE("aave","revenue")',
  });
});

test("dates: fixed as text, rolling as TODAY()-N, a missing middle date left empty", () => {
  const s = state("METRIC", {
    project: ids("aave", "uniswap"),
    metric: ids("fees"),
    start: { kind: "date", value: { mode: "rolling", days: 90 } },
    options: {
      kind: "options",
      options: { period: "month", agg: "sum", order: "asc", bridged: "false" },
    },
  });
  expect(build(s)).toMatchObject({
    ok: true,
    formula:
      '=CRYPTO.METRIC("aave,uniswap","fees",TODAY()-90,,"period=month; agg=sum; bridged=false")',
  });
  const fixed = withValue(s, "end", { kind: "date", value: { mode: "fixed", date: "2024-12-31" } });
  expect(build(fixed)).toMatchObject({
    formula:
      '=CRYPTO.METRIC("aave,uniswap","fees",TODAY()-90,"2024-12-31","period=month; agg=sum; bridged=false")',
  });
});

test("text from anywhere is escaped, so the formula parses back to the same values", () => {
  const result = build(
    state("PROJECT", { project: ids(`odd "id"`), field: { kind: "choice", value: "name" } })
  );
  if (!result.ok) throw new Error(result.problems.join());
  expect(result.formula).toBe('=CRYPTO.PROJECT("odd ""id""","name")');
  expect(parseFormula(result.formula).args).toEqual([
    { kind: "string", value: `odd "id"` },
    { kind: "string", value: "name" },
  ]);
});

test("options: defaults left out, lists joined, in the function's key order", () => {
  expect(
    optionsText(["order", "headers", "chains"], {
      chains: ["base", "arbitrum"],
      order: "desc",
      headers: "1",
    })
  ).toBe("order=desc; chains=base,arbitrum");
  expect(optionsText(["order"], { order: "asc" })).toBe("");
  expect(
    build(
      state("STATEMENT", {
        project: ids("aave"),
        options: { kind: "options", options: { values: "value" } },
      })
    )
  ).toMatchObject({ formula: '=CRYPTO.STATEMENT("aave")' });
});

test("what is missing (guidance) or wrong (an error) is said instead of a formula, each apart", () => {
  // Nothing chosen yet is nothing wrong: guidance, not an error shown before any input.
  expect(build(emptyState("VALUE"))).toEqual({
    ok: false,
    problems: [],
    missing: ["Choose project.", "Choose metric."],
  });
  expect(
    build(state("METRIC", { project: ids("aave", "uniswap"), metric: ids("fees", "revenue") }))
  ).toEqual({
    ok: false,
    problems: ["METRIC takes several projects with one metric, or several metrics of one project."],
    missing: [],
  });
  expect(
    build(
      state("METRIC", {
        project: ids("aave"),
        metric: ids("fees"),
        start: { kind: "date", value: { mode: "fixed", date: "2024-02-01" } },
        end: { kind: "date", value: { mode: "fixed", date: "2024-01-01" } },
      })
    )
  ).toEqual({ ok: false, problems: ["Start is after end."], missing: [] });
  expect(
    build(
      state("VALUE", {
        project: ids("aave"),
        metric: ids("fees"),
        date: { kind: "date", value: { mode: "fixed", date: "" } },
      })
    )
  ).toEqual({
    ok: false,
    problems: [],
    missing: ["Date: pick a date."],
  });
  expect(
    build(
      state("VALUE", {
        project: ids("aave"),
        metric: ids("fees"),
        date: { kind: "date", value: { mode: "fixed", date: "2024-13-45" } },
      })
    )
  ).toEqual({ ok: false, problems: ["Date: pick a date."], missing: [] });
  expect(build(emptyState("NOPE"))).toEqual({
    ok: false,
    problems: ["Unknown function NOPE."],
    missing: [],
  });
});

test("functions without parameters, and optional-only ones, build as they are", () => {
  expect(build(emptyState("SECTORS"))).toMatchObject({ ok: true, formula: "=CRYPTO.SECTORS()" });
  expect(build(emptyState("AGGREGATIONS"))).toMatchObject({
    ok: true,
    formula: "=CRYPTO.AGGREGATIONS()",
  });
});

test("the builder starts a series a year back (TODAY()-365), never at the service's first day", () => {
  const metric = withValue(
    withValue(startingState("METRIC"), "project", { kind: "ids", ids: ["aave"] }),
    "metric",
    { kind: "ids", ids: ["fees"] }
  );
  expect(build(metric)).toMatchObject({
    ok: true,
    formula: '=CRYPTO.METRIC("aave","fees",TODAY()-365)',
  });
  expect(startingState("PRODUCT_METRIC").values.start).toEqual({
    kind: "date",
    value: { mode: "rolling", days: 365 },
  });
  // Functions without a start date start empty.
  expect(startingState("VALUE")).toEqual(emptyState("VALUE"));
});

test("many projects stay a comma list while it fits Excel's 255-character text, then become a column of texts", () => {
  // 21 ids of 11 characters: 21 × 12 − 1 = 251 characters in one text.
  const fits = Array.from({ length: 21 }, (_, i) => `project-${String(i).padStart(3, "0")}`);
  const fitting = build(state("COMPS", { projects: ids(...fits), columns: revenueColumn }));
  if (!fitting.ok) throw new Error("expected a formula");
  expect(fitting.formula).toBe(`=CRYPTO.COMPS("${fits.join(",")}","revenue")`);

  const many = [...fits, "project-021"];
  const built = build(state("COMPS", { projects: ids(...many), columns: revenueColumn }));
  if (!built.ok) throw new Error("expected a formula");
  expect(built.formula).toBe(`=CRYPTO.COMPS({${many.map((id) => `"${id}"`).join(";")}},"revenue")`);
  // Every text in it is under the limit, and it reads back as the same ids in order.
  expect(parseFormula(built.formula).args[0]).toEqual({
    kind: "array",
    rows: many.map((value) => [{ kind: "string", value }]),
  });
});
