import {
  comparisonFormula,
  comparisonGrid,
  numberFormatFor,
} from "../../src/taskpane/model/comparison-grid";

/** Resolves a relative R1C1 reference made at (row, column) to the grid cell it points at. */
function resolveRef(ref: string, row: number, column: number): [number, number] {
  const m = /^R(?:\[(-?\d+)\])?C(?:\[(-?\d+)\])?$/.exec(ref);
  if (!m) throw new Error(`not a relative R1C1 reference: ${ref}`);
  return [row + Number(m[1] ?? 0), column + Number(m[2] ?? 0)];
}

const plan = comparisonGrid({
  projects: [
    { id: "aave", name: "Aave" },
    { id: "uniswap", name: "Uniswap" },
    { id: "lido-finance", name: "Lido" },
  ],
  metrics: [
    { id: "fees", name: "Fees" },
    { id: "tvl", name: "Total value locked" },
  ],
  date: "2024-12-31",
});

test("every formula reads its project from its row's id cell and its metric from its column's id cell", () => {
  plan.cells.forEach((row, r) =>
    row.forEach((cell, c) => {
      if (typeof cell !== "object" || cell === null) return;
      const m = /^=CRYPTO\.VALUE\(([^,]+),([^,]+),"2024-12-31"\)$/.exec(cell.formula);
      expect(m).not.toBeNull();
      const [pr, pc] = resolveRef(m![1], r, c);
      const [mr, mc] = resolveRef(m![2], r, c);
      expect([plan.cells[pr][pc], plan.cells[mr][mc]]).toEqual([
        ["aave", "uniswap", "lido-finance"][r - 2],
        ["fees", "tvl"][c - 2],
      ]);
    })
  );
});

test("headers: names above ids, ids bold; a number format per metric column", () => {
  expect(plan.cells[0]).toEqual(["As of 2024-12-31", null, "Fees", "Total value locked"]);
  expect(plan.cells[1]).toEqual(["project_id", "name", "fees", "tvl"]);
  expect(plan.formats).toContainEqual({
    area: { row: 1, column: 0, rows: 1, columns: 4 },
    format: { bold: true },
  });
  expect(plan.formats).toContainEqual({
    area: { row: 2, column: 3, rows: 3, columns: 1 },
    format: { numberFormat: numberFormatFor("tvl") },
  });
  expect(numberFormatFor("price")).toBe("#,##0.00##");
  expect(numberFormatFor("fees")).toMatch(/^#,##0/);
});

test("latest values when no date is given; an empty choice is refused", () => {
  expect(comparisonFormula(2, 2)).toBe("=CRYPTO.VALUE(RC[-2],R[-1]C)");
  expect(() => comparisonGrid({ projects: [], metrics: [{ id: "fees", name: "Fees" }] })).toThrow(
    /at least one project/
  );
});
