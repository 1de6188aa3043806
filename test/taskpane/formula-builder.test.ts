import { parseFormula } from "../../src/sheet/formula";
import {
  build,
  emptyState,
  startingState,
  optionsText,
  remember,
  switchFunction,
  withValue,
  type BuilderState,
  type Remembered,
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

describe("summing a series' values", () => {
  const series = state("METRIC", {
    project: ids("aave"),
    metric: ids("revenue"),
    start: { kind: "date", value: { mode: "fixed", date: "2024-01-01" } },
    end: { kind: "date", value: { mode: "fixed", date: "2024-03-31" } },
  });

  test("wraps the call in SUM with headers=0; dates=0, beside the options chosen", () => {
    expect(build({ ...series, sum: true })).toMatchObject({
      ok: true,
      sum: true,
      formula:
        '=SUM(CRYPTO.METRIC("aave","revenue","2024-01-01","2024-03-31","headers=0; dates=0"))',
    });
    const monthly = withValue({ ...series, sum: true }, "options", {
      kind: "options",
      options: { period: "month", agg: "sum", headers: "2" },
    });
    // The headers chosen give way: a sum has no header row.
    expect(build(monthly)).toMatchObject({
      formula:
        '=SUM(CRYPTO.METRIC("aave","revenue","2024-01-01","2024-03-31","period=month; agg=sum; headers=0; dates=0"))',
    });
    // The formula parses back, as Excel and the preview sheet read it.
    const result = build(monthly);
    expect(result.ok && parseFormula(result.formula).builtin).toEqual({ name: "EXPRESSION" });
  });

  test("refuses to add up changes, and is not offered for a function without a series", () => {
    const growth = withValue({ ...series, sum: true }, "options", {
      kind: "options",
      options: { values: "yoy" },
    });
    expect(build(growth)).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/changes \(values=yoy\) do not add up/)],
    });
    const value = state("VALUE", { project: ids("aave"), metric: ids("revenue") });
    expect(build({ ...value, sum: true })).toMatchObject({
      formula: '=CRYPTO.VALUE("aave","revenue")',
    });
  });
});

describe("switching the function keeps what was chosen", () => {
  const through = (start: BuilderState, ...fns: string[]): BuilderState =>
    fns.reduce<{ state: BuilderState; memory: Remembered }>(
      ({ state, memory }, fn) => {
        const remembered = remember(memory, state);
        return { state: switchFunction(remembered, fn), memory: remembered };
      },
      { state: start, memory: {} }
    ).state;

  test("the project, metric and dates stay; a list keeps its first id where one is taken", () => {
    const metric = state("METRIC", {
      project: ids("aave", "uniswap"),
      metric: ids("revenue"),
      start: { kind: "date", value: { mode: "fixed", date: "2024-01-01" } },
      options: { kind: "options", options: { period: "month" } },
    });
    const value = through({ ...metric, sum: true }, "VALUE");
    expect(value.values).toEqual({ project: ids("aave"), metric: ids("revenue") });
    expect(value.sum).toBeUndefined();
    expect(through(metric, "STATEMENT").values).toEqual({ project: ids("aave") });
    // AGGREGATIONS names its parameter "projects": the same projects.
    expect(through(metric, "AGGREGATIONS").values).toMatchObject({
      projects: ids("aave", "uniswap"),
      metrics: ids("revenue"),
    });
  });

  test("nothing is forgotten by way of a function that does not take it, as arrowing through the list goes", () => {
    const value = state("VALUE", { project: ids("aave"), metric: ids("fees") });
    // VALUE → ASOF → COMPS (no metric) → METRIC: the metric is still fees; the sum comes back with METRIC.
    expect(through(value, "ASOF", "COMPS", "METRIC").values).toMatchObject({
      project: ids("aave"),
      metric: ids("fees"),
      start: { kind: "date", value: { mode: "rolling", days: 365 } },
    });
    const summed = { ...state("METRIC", { project: ids("aave"), metric: ids("fees") }), sum: true };
    expect(through(summed, "VALUE", "PRODUCT_METRIC").sum).toBe(true);
    // A choice cleared on the way is cleared.
    const cleared = withValue(value, "project", ids());
    expect(through(cleared, "METRIC").values.project).toBeUndefined();
  });

  test("a function that takes no project starts as it always did", () => {
    const metric = state("METRIC", { project: ids("aave"), metric: ids("revenue") });
    expect(through(metric, "SECTORS")).toEqual(startingState("SECTORS"));
  });
});
