/** Growth (values=pop|yoy) in METRIC, VALUE and STATEMENT, through real HTTP against the simulator. */
import * as fns from "../../src/functions/functions";
import {
  excelError,
  expectedDaily,
  inv,
  show,
  showTable,
  startHarness,
  type Harness,
} from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const sum = (start: string, end: string, project = "aave", metric = "revenue") =>
  expectedDaily(project, metric, start, end).reduce((s, p) => s + (p.value ?? 0), 0);

const Q = {
  "2023Q1": ["2023-01-01", "2023-03-31"],
  "2023Q4": ["2023-10-01", "2023-12-31"],
  "2024Q1": ["2024-01-01", "2024-03-31"],
  "2024Q2": ["2024-04-01", "2024-06-30"],
} as const;
const q = (k: keyof typeof Q, project?: string) => sum(Q[k][0], Q[k][1], project);

describe("values=pop|yoy", () => {
  it("VALUE gives a quarter's change on the previous quarter and on the same quarter a year earlier", async () => {
    const pop = await fns.value_(
      "aave",
      "revenue",
      "2024-02-15",
      "period=quarter; values=pop",
      inv()
    );
    const yoy = await fns.value_(
      "aave",
      "revenue",
      "2024-02-15",
      "period=quarter; values=yoy",
      inv()
    );
    // A ratio (0.15 is +15 %), formatted as a percentage where the host formats numbers.
    expect(pop).toMatchObject({ type: "Double", numberFormat: "0.0%" });
    expect(show(pop)).toBeCloseTo(q("2024Q1") / q("2023Q4") - 1, 8);
    expect(show(yoy)).toBeCloseTo(q("2024Q1") / q("2023Q1") - 1, 8);
  });

  it("METRIC spills the same ratios per period, the first shown period compared with one before the start", async () => {
    const table = showTable(
      await fns.metric_(
        [["aave"]],
        [["revenue"]],
        "2024-01-01",
        "2024-06-30",
        "period=quarter; values=pop",
        inv()
      )
    );
    expect(table[0]).toEqual(["Period end", "revenue"]);
    expect(table[1][0]).toBe("2024-03-31");
    expect(table[1][1] as number).toBeCloseTo(q("2024Q1") / q("2023Q4") - 1, 8);
    expect(table[2][1] as number).toBeCloseTo(q("2024Q2") / q("2024Q1") - 1, 8);
    const yoy = showTable(
      await fns.metric_(
        [["aave"]],
        [["revenue"]],
        "2024-01-01",
        "2024-03-31",
        "period=quarter; values=yoy",
        inv()
      )
    );
    expect(yoy[1][1] as number).toBeCloseTo(q("2024Q1") / q("2023Q1") - 1, 8);
    // The same figure as VALUE gives.
    expect(yoy[1][1]).toBe(
      show(await fns.value_("aave", "revenue", "2024-03-31", "period=quarter; values=yoy", inv()))
    );
  });

  it("is #N/A where the base is a launch quarter (a part of a quarter) or there is no base", async () => {
    // Ethena launched on 2024-02-19: Q1 2024 is not a whole quarter, so Q2's pop change has no base.
    const e = await excelError(
      fns.value_("ethena", "revenue", "2024-05-15", "period=quarter; values=pop", inv())
    );
    expect(e.code).toBe("#N/A");
    expect(e.message).toMatch(
      /its base: Q1 2024 is not complete for ethena revenue: 42 of 91 days/
    );
    const table = await fns.metric_(
      [["ethena"]],
      [["revenue"]],
      null,
      "2024-09-30",
      "period=quarter; values=pop",
      inv()
    );
    const rows = showTable(table).slice(1);
    // Q1 2024, the launch quarter, is not whole: the table starts with Q2 2024.
    expect(rows[0][0]).toBe("2024-06-30");
    const cells = rows.map((r) => r[1]);
    expect(cells[0]).toMatch(/^#N\/A: .*its base: Q1 2024 is not complete/); // Q2's base is the launch quarter
    expect(cells[1] as number).toBeCloseTo(
      sum("2024-07-01", "2024-09-30", "ethena") / sum("2024-04-01", "2024-06-30", "ethena") - 1,
      8
    );
  });

  it("refuses growth without a period, and coverage outside STATEMENT", async () => {
    const e = await excelError(fns.value_("aave", "revenue", "2024-03-31", "values=yoy", inv()));
    expect(e).toMatchObject({ code: "#VALUE!" });
    expect(e.message).toMatch(/a day is no period: use period=week, month, quarter or year/);
    const m = await excelError(
      fns.metric_([["aave"]], [["revenue"]], "2024-01-01", "2024-03-31", "values=coverage", inv())
    );
    expect(m.message).toMatch(
      /values=coverage" does not apply to METRIC; it takes values=value\|pop\|yoy/
    );
  });

  it("STATEMENT values=yoy compares each quarter with the same quarter a year earlier", async () => {
    const table = showTable(await fns.statement_("aave", "quarter", "1y", "values=yoy", inv()));
    const header = table[0];
    const revenue = table.find((r) => r[1] === "Revenue")!;
    expect(revenue).toBeDefined();
    const plain = showTable(await fns.statement_("aave", "quarter", "2y", null, inv()));
    const plainHeader = plain[0];
    const plainRevenue = plain.find((r) => r[1] === "Revenue")!;
    // Every shown quarter has its base (the statement is read a year further back for them).
    for (let i = 2; i < header.length; i++) {
      const at = plainHeader.indexOf(header[i]);
      const base = plainRevenue[at - 4] as number;
      expect(revenue[i] as number).toBeCloseTo((plainRevenue[at] as number) / base - 1, 8);
    }
    expect(show(revenue[2])).toEqual(expect.any(Number));
  });
});
