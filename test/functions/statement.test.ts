import * as fns from "../../src/functions/functions";
import {
  dataset,
  excelError,
  expectedDaily,
  inv,
  show,
  showTable,
  startHarness,
  type Harness,
} from "./harness";
import { METRICS } from "../../src/simulator/data/metrics-catalog";

/** A metric's name in the service's catalogue (the simulator's own table: an oracle beside the function). */
function name(metricId: string): string {
  return METRICS.find((m) => m.id === metricId)?.name ?? metricId;
}

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
  it("pivots the statement like a real one: sections and metrics down, complete quarters across, oldest left", async () => {
    const rows = await table("aave", null, null, null);
    const expected = dataset.statement("aave", "quarter", "1y");
    const headings = [...new Map(expected.map((r) => [r.timestamp, r.heading])).entries()]
      .sort((a, b) => a[0].localeCompare(b[0]))
      .map(([, h]) => h);
    // Today is 2026-11-20: Q4 '26 has 51 of its 92 days and is left out.
    expect(headings[headings.length - 1]).toBe("Q4 '26");
    expect(rows[0]).toEqual(["Section", "Metric", ...headings.slice(0, -1)]);
    const lines = [
      ...new Map(
        expected.map((r) => [`${r.section}|${r.metricId}`, [r.section, name(r.metricId)]])
      ).values(),
    ];
    expect(rows.slice(1).map((r) => [r[0], r[1]])).toEqual(lines);
    const revenue = rows.find((r) => r[0] === "Income statement" && r[1] === "Revenue")!;
    expect(revenue.slice(2).every((v) => typeof v === "number")).toBe(true);
  });

  it("shows an incomplete period with partial=include, its heading stating the days covered", async () => {
    const rows = await table("aave", "quarter", "1y", "headers=2; partial=include");
    expect(rows[1][rows[1].length - 1]).toBe("Q4 '26");
    expect(rows[0][rows[0].length - 1]).toBe("Oct 1 – Nov 20, 2026 (51 of 92 days)");
    expect(rows[0][rows[0].length - 2]).toBe("Jul 1 – Sep 30, 2026");
    const fees = expectedDaily("aave", "fees", "2026-10-01", "2026-11-20");
    expect(rows.find((r) => r[1] === "Fees")!.at(-1)).toBeCloseTo(
      fees.reduce((s, p) => s + (p.value ?? 0), 0),
      0
    );
  });

  it("leaves the incomplete period out of period-on-period changes", async () => {
    const pop = await table("aave", "quarter", "1y", "values=pop");
    const expected = dataset
      .statement("aave", "quarter", "1y")
      .filter((r) => r.metricId === "fees")
      .map((r) => r.popChange);
    expect(pop.find((r) => r[1] === "Fees")!.slice(2)).toEqual(
      expected.slice(0, -1).map((v) => v ?? "")
    );
  });

  it("shows period-on-period changes as percentages where the host formats numbers", async () => {
    const raw = (await fns.statement_("aave", "quarter", "1y", "values=pop", inv())) as unknown[][];
    const fees = raw.find((r) => r[1] === "Fees")!;
    expect(fees[2]).toEqual({
      type: "Double",
      basicValue: expect.any(Number) as number,
      numberFormat: "0.0%",
    });
  });

  it("names every line as the catalogue does, in both layouts, and the name reads back as VALUE's metric", async () => {
    const wide = await table("aave", "quarter", "1y", null);
    const long = await table("aave", "year", "2y", "layout=long");
    const expectedNames = [
      ...new Set(dataset.statement("aave", "quarter", "1y").map((r) => name(r.metricId))),
    ];
    expect(wide.slice(1).map((r) => r[1])).toEqual(expect.arrayContaining(expectedNames));
    expect(new Set(long.slice(1).map((r) => r[3]))).toEqual(
      new Set(wide.slice(1).map((r) => r[1]))
    );
    expect(wide.slice(1).map((r) => r[1])).not.toContain("fees_supply_side");
    // A statement's line name is a metric a formula can name.
    const byName = show(await fns.value_("aave", "Supply-side fees", "2026-06-30", null, inv()));
    const byId = show(await fns.value_("aave", "fees_supply_side", "2026-06-30", null, inv()));
    expect(byName).toBe(byId);
    expect(typeof byId).toBe("number");
  });

  it("ends an archived project's statement with its last complete period", async () => {
    // anchor-protocol's data stops on 2022-05-13: May 2022 is incomplete.
    const rows = await table("anchor-protocol", "month", "max", "order=desc");
    expect(rows[0][2]).toBe("Apr '22");
    const included = await table(
      "anchor-protocol",
      "month",
      "max",
      "order=desc; partial=include; headers=2"
    );
    expect(included[1][2]).toBe("May '22");
    expect(included[0][2]).toBe("May 1 – May 13, 2022 (13 of 31 days)");
  });

  it("gives every project the same rows in the same order by default, the service's own with rows=service", async () => {
    const lines = async (project: string, options: string | null) =>
      (await table(project, "quarter", "1y", options))
        .slice(1)
        .map((r) => `${String(r[0])}|${String(r[1])}`);
    const maker = await lines("makerdao", null);
    expect(await lines("uniswap", null)).toEqual(maker);
    expect(await lines("bitcoin", null)).toEqual(maker);
    // Each line by its name in the service's catalogue, as a finance user reads a statement.
    expect(maker.slice(0, 3)).toEqual([
      "Income statement|Fees",
      "Income statement|Supply-side fees",
      "Income statement|Revenue",
    ]);
    // A line the project has not is there, empty.
    const bitcoin = await table("bitcoin", "quarter", "1y", null);
    expect(
      bitcoin
        .find((r) => r[1] === "Revenue")!
        .slice(2)
        .every((v) => v === "")
    ).toBe(true);
    // rows=service: MakerDAO has no supply-side fees, so its revenue is the service's second line.
    expect((await lines("makerdao", "rows=service"))[1]).toBe("Income statement|Revenue");
    expect(await lines("bitcoin", "rows=service")).not.toContain("Income statement|Revenue");
  });

  it("shows the days with data behind each figure with values=coverage", async () => {
    const rows = await table("tick-and-tock", "month", "max", "values=coverage; layout=long");
    // Periods are dated by their end, and the heading says so.
    expect(rows[0]).toEqual(["Period end", "Period", "Section", "Metric", "Days with data"]);
    // The outage of 2023-03-01..14 leaves 17 of March's 31 days with fees.
    const march = rows.find((r) => r[0] === "2023-03-31" && r[3] === "Fees")!;
    const days = expectedDaily("tick-and-tock", "fees", "2023-03-01", "2023-03-31");
    expect(march[4]).toBe(days.filter((p) => p.value !== null).length);
    expect(march[4]).toBeLessThanOrEqual(17);
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
    const revenue = rows.find((r) => r[1] === "Revenue")!;
    expect(revenue[4]).toBeCloseTo(
      days.reduce((s, p) => s + (p.value ?? 0), 0),
      0
    );
  });

  it("orders newest first, shows change ratios, adds subheadings, or goes long, as options say", async () => {
    const asc = await table("aave", "month", "1y", null);
    const desc = await table("aave", "month", "1y", "order=desc");
    expect(desc[0].slice(2)).toEqual([...asc[0].slice(2)].reverse());
    const withRanges = await table("aave", "quarter", "1y", "headers=2");
    expect(withRanges[0][0]).toBe("Aave");
    expect(withRanges[1][0]).toBe("Section");
    const long = await table("aave", "year", "2y", "layout=long");
    // Periods are dated by their end (dating=start: by their first day), and the heading says which.
    expect(long[0]).toEqual(["Period end", "Period", "Section", "Metric", "Value"]);
    expect(long[1][0]).toMatch(/^\d{4}-12-31$/);
    const started = await table("aave", "year", "2y", "layout=long; dating=start");
    expect(started[0][0]).toBe("Period start");
    expect(started[1][0]).toMatch(/^\d{4}-01-01$/);
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
