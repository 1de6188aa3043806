/** The comps table a sector inserts: its formula, its columns, and what happens past Excel's limits. */
import { parseFormula } from "../../src/sheet/formula";
import {
  COMPS_MAX_PROJECTS,
  compsColumnsFor,
  EXCEL_MAX_FORMULA_LENGTH,
  SECTOR_COMPS_COLUMNS,
  sectorComps,
} from "../../src/taskpane/model/sector-comps";

const COLUMNS =
  "market_cap_fully_diluted,revenue:ttm,fees:ttm,market_cap_fully_diluted/revenue:ttm";
const ids = (n: number, width: number): string[] =>
  Array.from({ length: n }, (_, i) => `p${String(i).padStart(width - 1, "0")}`);

test("a sector's comps is one COMPS formula: its ids as a column constant, the default columns, latest data", () => {
  const comps = sectorComps(["aave", "compound-v3", "morpho"], SECTOR_COMPS_COLUMNS);
  expect(comps).toMatchObject({ kind: "formula", projects: 3 });
  if (comps.kind !== "formula") throw new Error("expected a formula");
  expect(comps.formula).toBe(`=CRYPTO.COMPS({"aave";"compound-v3";"morpho"},"${COLUMNS}")`);
  // Read back as Excel (and the CLI's sheet model) reads it: one column of ids, one text of columns.
  expect(parseFormula(comps.formula)).toEqual({
    name: "COMPS",
    args: [
      {
        kind: "array",
        rows: ["aave", "compound-v3", "morpho"].map((value) => [{ kind: "string", value }]),
      },
      { kind: "string", value: COLUMNS },
    ],
  });
});

test("an id with a quote stays one text in the formula", () => {
  const comps = sectorComps(['we"ird'], SECTOR_COMPS_COLUMNS);
  if (comps.kind !== "formula") throw new Error("expected a formula");
  expect(comps.formula).toContain(`{"we""ird"}`);
  expect(parseFormula(comps.formula).args[0]).toEqual({
    kind: "array",
    rows: [[{ kind: "string", value: 'we"ird' }]],
  });
});

test("columns whose metrics the service does not list are left out, a ratio with either of its metrics", () => {
  const noFees = compsColumnsFor((id) => id !== "fees");
  expect(noFees.map((c) => c.column)).toEqual([
    "market_cap_fully_diluted",
    "revenue:ttm",
    "market_cap_fully_diluted/revenue:ttm",
  ]);
  const noMarketCap = compsColumnsFor((id) => id !== "market_cap_fully_diluted");
  expect(noMarketCap.map((c) => c.column)).toEqual(["revenue:ttm", "fees:ttm"]);
  expect(() =>
    sectorComps(
      ["aave"],
      compsColumnsFor(() => false)
    )
  ).toThrow(/none of the metrics a comps table needs/);
});

test("the largest formula that fits Excel's 8,192 characters is a formula; one id more puts the ids in the sheet", () => {
  // Each id of 20 characters costs 23 in the constant ("…" and a separator).
  let n = 1;
  while (sectorComps(ids(n + 1, 20), SECTOR_COMPS_COLUMNS).kind === "formula") n += 1;
  const fits = sectorComps(ids(n, 20), SECTOR_COMPS_COLUMNS);
  if (fits.kind !== "formula") throw new Error("expected a formula");
  expect(fits.formula.length).toBeLessThanOrEqual(EXCEL_MAX_FORMULA_LENGTH);
  expect(fits.formula.length).toBeGreaterThan(EXCEL_MAX_FORMULA_LENGTH - 23);
  expect(n).toBeLessThan(COMPS_MAX_PROJECTS);

  const big = sectorComps(ids(n + 1, 20), SECTOR_COMPS_COLUMNS);
  if (big.kind !== "grid") throw new Error("expected a grid");
  const cells = big.plan.cells;
  expect(cells).toHaveLength(n + 2);
  expect(cells[0]).toEqual([
    "project_id",
    { formula: `=CRYPTO.COMPS(R[1]C[-1]:R[${n + 1}]C[-1],"${COLUMNS}")` },
  ]);
  // Each id beside the row COMPS gives it: COMPS's header row is the heading's row.
  expect(cells.slice(1).map((row) => row[0])).toEqual(ids(n + 1, 20));
  expect(cells.slice(1).every((row) => row[1] === null)).toBe(true);
});

test("an id longer than Excel's 255-character text limit puts the ids in the sheet", () => {
  const long = "x".repeat(256);
  expect(sectorComps(["aave", long], SECTOR_COMPS_COLUMNS).kind).toBe("grid");
  expect(sectorComps(["aave", "x".repeat(255)], SECTOR_COMPS_COLUMNS).kind).toBe("formula");
});

test("a sector with no projects, or more than COMPS reads, is refused in plain words", () => {
  expect(() => sectorComps([], SECTOR_COMPS_COLUMNS)).toThrow(/lists no projects/);
  expect(sectorComps(ids(COMPS_MAX_PROJECTS, 4), SECTOR_COMPS_COLUMNS).projects).toBe(500);
  expect(() => sectorComps(ids(COMPS_MAX_PROJECTS + 1, 4), SECTOR_COMPS_COLUMNS)).toThrow(
    "This sector has 501 projects; a comps table takes at most 500. Build one for fewer projects in the formula builder."
  );
});
