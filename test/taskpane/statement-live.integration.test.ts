/**
 * The live statement sheet lays formats around spills it has not seen yet: they must land exactly on what
 * the STATEMENT formulas then spill. Checked against the real functions and the simulator over loopback.
 */
import { resolve } from "path";
import { installCliHost } from "../../src/cli/host";
import { evaluateFormula } from "../../src/sheet/evaluate";
import { pageRegistry } from "../../src/functions/page-registry";
import { configureRuntime } from "../../src/runtime/runtime";
import { DEMO_API_KEY, startSimulator, type RunningSimulator } from "../../src/simulator";
import { statementGrid } from "../../src/functions/statement-grids";
import {
  CHANGES_OPTIONS,
  statementSheet,
  VALUE_FORMAT,
  VALUES_OPTIONS,
  CHANGE_FORMAT,
} from "../../src/taskpane/model/statement-layout";
import { generateFunctionsMeta } from "../../src/tools/gen-functions-meta";

installCliHost();
const NOW = Date.UTC(2026, 10, 20, 12);
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, now: () => NOW, rateLimit: null });
}, 30_000);
afterAll(() => sim.close());

test.each([
  ["aave", "quarter", "1y"],
  ["uniswap", "month", "1y"],
  ["ethereum", "year", "max"],
] as const)(
  "formats cover the spills of %s's %s statement over %s exactly",
  async (projectId, granularity, interval) => {
    const runtime = configureRuntime({
      baseUrl: sim.url,
      apiKey: DEMO_API_KEY,
      now: () => NOW,
      engine: { windowMs: 5 },
    });
    const meta = JSON.parse(
      await generateFunctionsMeta(resolve(__dirname, "../../src/functions/functions.ts"))
    ) as { metadata: unknown };
    const registry = pageRegistry(meta.metadata);
    const plan = statementSheet({
      projectId,
      projectName: projectId,
      granularity,
      interval,
      values: await statementGrid(runtime, projectId, granularity, interval, VALUES_OPTIONS),
      changes: await statementGrid(runtime, projectId, granularity, interval, CHANGES_OPTIONS),
      mode: "live",
      asOf: "now",
      simulated: true,
    });
    const formulas = plan.blocks.filter((b) => typeof b.cells[0][0] === "object");
    expect(formulas).toHaveLength(2);
    for (const [block, numberFormat, headerRows] of [
      [formulas[0], VALUE_FORMAT, 2],
      [formulas[1], CHANGE_FORMAT, 1],
    ] as const) {
      const formula = (block.cells[0][0] as { formula: string }).formula;
      const result = await evaluateFormula(formula, registry);
      if (result.kind !== "result") throw new Error(result.message);
      const grid = result.grid;
      expect(grid[0][0].kind).not.toBe("error");
      const [row] = block.at;
      const figures = plan.formats.find((f) => f.format.numberFormat === numberFormat)!.area;
      expect(figures).toEqual({
        row: row + headerRows,
        column: 2,
        rows: grid.length - headerRows,
        columns: grid[0].length - 2,
      });
      const headings = plan.formats.find(
        (f) => f.area.row === row && f.format.bold && f.area.column === 0
      )!.area;
      expect(headings).toEqual({ row, column: 0, rows: headerRows, columns: grid[0].length });
    }
  },
  60_000
);
