import * as fns from "../../src/functions/functions";
import {
  dataset,
  excelError,
  expectedDaily,
  inv,
  showTable,
  startHarness,
  type Harness,
} from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

async function table(
  project: unknown,
  granularity: unknown,
  interval: unknown,
  options: unknown
): Promise<unknown[][]> {
  return showTable(
    (await fns.statement_(project, granularity, interval, options, inv())) as unknown[][]
  );
}

describe("CRYPTO.STATEMENT", () => {
  it("pivots the statement like a real one: sections and metrics down, quarters across, oldest left", async () => {
    const rows = await table("aave", null, null, null);
    const expected = dataset.statement("aave", "quarter", "1y");
    const headings = [...new Map(expected.map((r) => [r.timestamp, r.heading])).entries()]
      .sort((a, b) => a[0].localeCompare(b[0]))
      .map(([, h]) => h);
    expect(rows[0]).toEqual(["Section", "Metric", ...headings]);
    const lines = [
      ...new Map(
        expected.map((r) => [`${r.section}|${r.metricId}`, [r.section, r.metricId]])
      ).values(),
    ];
    expect(rows.slice(1).map((r) => [r[0], r[1]])).toEqual(lines);
    const revenue = rows.find((r) => r[0] === "Income statement" && r[1] === "revenue")!;
    expect(revenue.slice(2).every((v) => typeof v === "number")).toBe(true);
  });

  it("agrees with the daily series: a quarter's revenue is the sum of its days", async () => {
    const rows = await table("aave", "quarter", "2y", null);
    const expected = dataset
      .statement("aave", "quarter", "2y")
      .find((r) => r.metricId === "revenue" && r.heading === rows[0][4])!;
    const start = expected.timestamp.slice(0, 10);
    const [y, m] = start.split("-").map(Number);
    const last = new Date(Date.UTC(y, m + 2, 0)).toISOString().slice(0, 10);
    const days = expectedDaily("aave", "revenue", start, last);
    const revenue = rows.find((r) => r[1] === "revenue")!;
    expect(revenue[4]).toBeCloseTo(
      days.reduce((s, p) => s + (p.value ?? 0), 0),
      0
    );
  });

  it("orders newest first, shows change ratios, adds subheadings, or goes long, as options say", async () => {
    const asc = await table("aave", "month", "1y", null);
    const desc = await table("aave", "month", "1y", "order=desc");
    expect(desc[0].slice(2)).toEqual([...asc[0].slice(2)].reverse());
    const pop = await table("aave", "quarter", "1y", "values=pop");
    const expected = dataset
      .statement("aave", "quarter", "1y")
      .filter((r) => r.metricId === "fees")
      .map((r) => r.popChange);
    expect(pop.find((r) => r[1] === "fees")!.slice(2)).toEqual(expected.map((v) => v ?? ""));
    const withRanges = await table("aave", "quarter", "1y", "headers=2");
    expect(withRanges[0][0]).toBe("Aave");
    expect(withRanges[1][0]).toBe("Section");
    const long = await table("aave", "year", "2y", "layout=long");
    expect(long[0]).toEqual(["Date", "Period", "Section", "Metric", "Value"]);
    expect(long[1][0]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it.each([
    [
      ["aave", "fortnight", null, null],
      "#VALUE!",
      'granularity "fortnight" is not one of year, quarter, month, week',
    ],
    [
      ["aave", null, "10y", null],
      "#VALUE!",
      'interval "10y" is not one of 1m, 1y, 2y, 3y, 5y, max',
    ],
    [
      ["aave", null, null, "period=month"],
      "#VALUE!",
      'option "period" does not apply to STATEMENT',
    ],
    [["nope", null, null, null], "#N/A", 'unknown project "nope"'],
  ])("refuses %j", async (args, code, message) => {
    const [project, granularity, interval, options] = args;
    const error = await excelError(fns.statement_(project, granularity, interval, options, inv()));
    expect(error.code).toBe(code);
    expect(error.message).toContain(message);
  });
});
