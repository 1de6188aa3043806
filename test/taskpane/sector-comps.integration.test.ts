/**
 * The comps formula a sector inserts, run as Excel would enter it (the sheet model the CLI and the preview
 * share) through the real functions against the simulator over loopback: one row per project of the sector,
 * each cell what VALUE gives for it.
 */
import { resolve } from "path";
import { installCliHost } from "../../src/cli/host";
import { evaluateFormula } from "../../src/sheet/evaluate";
import { pageRegistry } from "../../src/functions/page-registry";
import type { Registry } from "../../src/sheet/registry";
import type { Grid } from "../../src/sheet/cells";
import { configureRuntime, type Runtime } from "../../src/runtime/runtime";
import { DEMO_API_KEY, startSimulator, type RunningSimulator } from "../../src/simulator";
import {
  COMPS_MAX_PROJECTS,
  SECTOR_COMPS_COLUMNS,
  sectorComps,
} from "../../src/taskpane/model/sector-comps";
import { generateFunctionsMeta } from "../../src/tools/gen-functions-meta";

installCliHost();
const NOW = Date.UTC(2026, 10, 20, 12);
let sim: RunningSimulator;
let runtime: Runtime;
let registry: Registry;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, now: () => NOW, rateLimit: null });
  runtime = configureRuntime({
    baseUrl: sim.url,
    apiKey: DEMO_API_KEY,
    now: () => NOW,
    engine: { windowMs: 5 },
  });
  const meta = JSON.parse(
    await generateFunctionsMeta(resolve(__dirname, "../../src/functions/functions.ts"))
  ) as { metadata: unknown };
  registry = pageRegistry(meta.metadata);
}, 60_000);
afterAll(() => sim.close());

async function grid(formula: string): Promise<Grid> {
  const result = await evaluateFormula(formula, registry);
  if (result.kind !== "result") throw new Error(result.message);
  return result.grid;
}

const number = (cell: Grid[number][number]): number => {
  if (cell.kind !== "number") throw new Error(`expected a number, got ${JSON.stringify(cell)}`);
  return cell.value;
};

test("the lending sector's comps spills a row per project under the column labels, P/S = market cap / revenue TTM", async () => {
  const { data: sector } = await runtime.client.getMarketSector("lending");
  const ids = sector.projects.map((p) => p.projectId);
  expect(ids.length).toBeGreaterThan(1);
  const comps = sectorComps(ids, SECTOR_COMPS_COLUMNS);
  if (comps.kind !== "formula") throw new Error("expected one formula");
  const panel = await grid(comps.formula);

  // The headers in finance words (the formula keeps the columns' ids).
  expect(panel[0].map((c) => (c.kind === "string" ? c.value : c.kind))).toEqual([
    "Project",
    "Fully diluted market cap",
    "Revenue (TTM)",
    "Fees (TTM)",
    "P/S (TTM)",
  ]);
  expect(panel.slice(1).map((row) => (row[0].kind === "string" ? row[0].value : ""))).toEqual(
    sector.projects.map((p) => p.name)
  );
  // Each cell is the VALUE of the same reading; the ratio is the quotient of its row's two readings.
  const row = panel[1];
  const id = ids[0];
  expect(row.map((c) => c.kind)).toEqual(["string", "number", "number", "number", "number"]);
  const [cap] = await grid(`=CRYPTO.VALUE("${id}","market_cap_fully_diluted")`);
  const [revenue] = await grid(`=CRYPTO.VALUE("${id}","revenue",,"window=ttm")`);
  const [fees] = await grid(`=CRYPTO.VALUE("${id}","fees",,"window=ttm")`);
  expect(number(row[1])).toBe(number(cap[0]));
  expect(number(row[2])).toBe(number(revenue[0]));
  expect(number(row[3])).toBe(number(fees[0]));
  expect(number(row[4])).toBeCloseTo(number(cap[0]) / number(revenue[0]), 10);
});

test("COMPS reads as many projects as a sector's comps may hold, and says so past that", async () => {
  const many = Array.from({ length: COMPS_MAX_PROJECTS + 1 }, (_, i) => `p${i}`);
  const refused = await grid(`=CRYPTO.COMPS({${many.map((id) => `"${id}"`).join(";")}},"revenue")`);
  expect(refused[0][0]).toMatchObject({
    kind: "error",
    code: "#VALUE!",
    message: expect.stringMatching(/more than 500 ids/) as unknown,
  });
});
