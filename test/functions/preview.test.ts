/**
 * Excel's formula value preview (invocation.isInValuePreview), through the sheet's host shim over the real
 * functions and the simulator on loopback: every function previews from what is held (the value Enter will
 * show) or shows the placeholder, sends no request and records nothing in the diagnostics. Without the flag
 * nothing changes.
 */
import { generateFunctionsMeta } from "../../src/tools/gen-functions-meta";
import * as fns from "../../src/functions/functions";
import { PREVIEW_PLACEHOLDER, SCALAR_RESULTS } from "../../src/functions/preview";
import { currentRuntime, sharedDiagnostics } from "../../src/runtime/runtime";
import { bindFormula } from "../../src/sheet/bind";
import type { Grid } from "../../src/sheet/cells";
import { parseFormula } from "../../src/sheet/formula";
import { recalculate } from "../../src/sheet/recalculate";
import { createRegistry, type Registry } from "../../src/sheet/registry";
import { inv, startHarness, type Harness } from "./harness";

/** One formula per function, each with data on the simulator; a new function must add its own here. */
const ONE_PER_FUNCTION: Readonly<Record<string, string>> = {
  VALUE: '=CRYPTO.VALUE("aave","revenue","2024-03-31")',
  ASOF: '=CRYPTO.ASOF("aave","tvl","2024-03-31")',
  COMPS: '=CRYPTO.COMPS("aave,uniswap","revenue:ttm, fees:30d","2024-03-31")',
  METRIC: '=CRYPTO.METRIC("aave","fees,revenue","2024-01-01","2024-01-10")',
  STATEMENT: '=CRYPTO.STATEMENT("aave","year","max","layout=long")',
  PROJECTS: '=CRYPTO.PROJECTS("sectors=lending")',
  PROJECT: '=CRYPTO.PROJECT("aave")',
  PRODUCT: '=CRYPTO.PRODUCT("aave","aave-v3")',
  PRODUCT_METRIC: '=CRYPTO.PRODUCT_METRIC("aave","aave-v3","fees","2024-01-01","2024-01-05")',
  METRICS: '=CRYPTO.METRICS("aave")',
  SECTORS: "=CRYPTO.SECTORS()",
  SECTOR: '=CRYPTO.SECTOR("lending")',
  AGGREGATION: '=CRYPTO.AGGREGATION("aave","revenue","ath")',
  AGGREGATIONS: '=CRYPTO.AGGREGATIONS("aave,uniswap","fees")',
  BREAKDOWN: '=CRYPTO.BREAKDOWN("fees","aave,uniswap,gmx","2024-01-01","2024-03-31")',
  CHANGES: '=CRYPTO.CHANGES("aave","fees,revenue","2026-11-01")',
};
const FORMULAS = Object.values(ONE_PER_FUNCTION);

let h: Harness;
let registry: Registry;
let scalarFunctions: string[];

beforeAll(async () => {
  h = await startHarness();
  const meta = JSON.parse(
    await generateFunctionsMeta(require.resolve("../../src/functions/functions.ts"))
  ) as { metadata: { functions: Array<{ name: string; result?: { dimensionality?: string } }> } };
  registry = createRegistry(meta, fns);
  scalarFunctions = meta.metadata.functions
    .filter((f) => (f.result?.dimensionality ?? "scalar") === "scalar")
    .map((f) => f.name);
}, 120_000);
afterAll(() => h.close());

/** The formulas as one recalculation through the host shim, in cells Preview!A1…; previews when asked. */
function evaluate(formulas: readonly string[], preview: boolean): Promise<Grid[]> {
  const bound = formulas.map((text, i) => ({
    ...bindFormula(parseFormula(text), registry, i + 1),
    address: `Preview!A${i + 1}`,
  }));
  return recalculate(bound, undefined, { preview }).results;
}

const PLACEHOLDER_GRID: Grid = [[{ kind: "string", value: PREVIEW_PLACEHOLDER }]];

/** What the diagnostics hold, to compare before and after previews (a preview records nothing). */
function diagnosticsState(): string {
  const d = sharedDiagnostics();
  const { usage: _usage, ...rest } = d.export();
  return JSON.stringify({ ...rest, retained: d.retained() });
}

function coldCache(): void {
  currentRuntime().engine.clear();
  h.sim.clearLog();
}

describe("formula value preview", () => {
  it("has a formula for every function Excel registers", () => {
    expect(Object.keys(ONE_PER_FUNCTION).sort()).toEqual(
      registry
        .list()
        .map((f) => f.meta.name)
        .sort()
    );
  });

  it("shows the placeholder for every function when nothing is held, with no request and no record", async () => {
    coldCache();
    const before = diagnosticsState();
    const previews = await evaluate(FORMULAS, true);
    expect(previews).toEqual(FORMULAS.map(() => PLACEHOLDER_GRID));
    // Nothing asked, nothing waiting: no batching window was opened either.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(h.requests()).toEqual([]);
    expect(currentRuntime().engine.stats()).toMatchObject({ waiting: 0, loading: 0 });
    expect(diagnosticsState()).toBe(before);
  });

  it("shows for every function what Enter shows once its answers are held, with no request and no record", async () => {
    coldCache();
    const entered = await evaluate(FORMULAS, false);
    for (const [i, grid] of entered.entries()) {
      expect({ formula: FORMULAS[i], grid }).not.toEqual({
        formula: FORMULAS[i],
        grid: PLACEHOLDER_GRID,
      });
      expect({ formula: FORMULAS[i], kind: grid[0][0].kind }).not.toEqual({
        formula: FORMULAS[i],
        kind: "error",
      });
    }
    h.sim.clearLog();
    const before = diagnosticsState();
    const previews = await evaluate(FORMULAS, true);
    for (const [i, grid] of previews.entries())
      expect({ formula: FORMULAS[i], grid }).toEqual({ formula: FORMULAS[i], grid: entered[i] });
    expect(h.requests()).toEqual([]);
    expect(diagnosticsState()).toBe(before);
  });

  it("shows the placeholder, not a partial table, when only part of a formula's answers is held", async () => {
    coldCache();
    await evaluate(['=CRYPTO.METRIC("aave","fees","2024-01-01","2024-01-10")'], false);
    h.sim.clearLog();
    const [grid] = await evaluate(
      ['=CRYPTO.METRIC("aave","fees,revenue","2024-01-01","2024-01-10")'],
      true
    );
    expect(grid).toEqual(PLACEHOLDER_GRID);
    expect(h.requests()).toEqual([]);
  });

  it("refuses a bad argument as Enter does, without a request or a record", async () => {
    coldCache();
    const formula = '=CRYPTO.VALUE("aave","revenue","2024-13-45")';
    const before = diagnosticsState();
    const [preview] = await evaluate([formula], true);
    expect(diagnosticsState()).toBe(before);
    const [entered] = await evaluate([formula], false);
    expect(preview).toEqual(entered);
    expect(preview[0][0]).toMatchObject({ kind: "error", code: "#VALUE!" });
    expect(h.requests()).toEqual([]);
  });

  it("answers an unknown project from the held catalogue as Enter does", async () => {
    coldCache();
    await evaluate(["=CRYPTO.SECTORS()", '=CRYPTO.VALUE("aave","fees","2024-01-02")'], false);
    h.sim.clearLog();
    const formula = '=CRYPTO.VALUE("aavee","fees","2024-01-02")';
    const [preview] = await evaluate([formula], true);
    expect(h.requests()).toEqual([]);
    const [entered] = await evaluate([formula], false);
    expect(preview).toEqual(entered);
    expect(preview[0][0]).toMatchObject({ kind: "error", code: "#N/A" });
  });

  it("changes nothing where the runtime has no flag, or says false", async () => {
    coldCache();
    const absent = await Promise.resolve(fns.value_("aave", "fees", 45292, null, inv()));
    expect(typeof absent).toBe("number"); // aave's fees on 2024-01-01, fetched
    expect(h.requests().length).toBeGreaterThan(0);
    coldCache();
    const no = {
      ...inv(),
      isInValuePreview: false,
    } as unknown as CustomFunctions.CancelableInvocation;
    expect(await Promise.resolve(fns.value_("aave", "fees", 45292, null, no))).toEqual(absent);
    expect(h.requests().length).toBeGreaterThan(0);
  });

  it("takes the flag as the string the runtime's type declares, too", async () => {
    coldCache();
    const typed = { ...inv(), isInValuePreview: "true" } as CustomFunctions.CancelableInvocation;
    expect(await Promise.resolve(fns.value_("aave", "fees", 45292, null, typed))).toBe(
      PREVIEW_PLACEHOLDER
    );
    expect(h.requests()).toEqual([]);
  });

  it("gives the placeholder the shape of each function's result", () => {
    expect([...SCALAR_RESULTS].sort()).toEqual([...scalarFunctions].sort());
  });
});
