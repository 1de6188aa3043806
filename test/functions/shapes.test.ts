/**
 * Stable shapes, complete periods and checked filters in the table functions: every input position keeps its
 * column (or row) whatever it holds, incomplete periods say so instead of passing as whole, and a filter
 * that does not fit reads as a reason, never as "no data".
 */
import * as fns from "../../src/functions/functions";
import { excelError, expectedDaily, inv, showTable, startHarness, type Harness } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

async function metric(...args: unknown[]): Promise<unknown[][]> {
  const [project, metricIds, start, end, options] = args;
  return showTable(
    (await fns.metric_(
      project as never,
      metricIds as never,
      start,
      end,
      options,
      inv()
    )) as unknown[][]
  );
}

const sum = (points: Array<{ value: number | null }>) =>
  points.reduce((s, p) => s + (p.value ?? 0), 0);

describe("METRIC keeps a column per input position", () => {
  it("gives an empty position a column of #N/A and repeats a repeated id", async () => {
    const rows = await metric(
      [["aave"], [""], ["uniswap"], ["aave"]],
      [["fees"]],
      "2024-01-01",
      "2024-01-02",
      null
    );
    expect(rows[0]).toEqual(["Date", "aave", "", "uniswap", "aave"]);
    for (const row of rows.slice(1)) {
      expect(row[2]).toBe("#N/A: no project given (the cell is empty)");
      expect(row[4]).toBe(row[1]);
      expect(typeof row[3]).toBe("number");
    }
  });

  it("keeps unknown and unavailable projects as columns with their reason", async () => {
    const rows = await metric(
      [["aave", "nope", "bitcoin"]],
      [["tvl"]],
      "2024-01-01",
      "2024-01-01",
      null
    );
    expect(rows[0]).toEqual(["Date", "aave", "nope", "bitcoin"]);
    expect(rows[1][2]).toMatch(/^#N\/A: unknown project "nope"/);
    expect(rows[1][3]).toBe('#N/A: metric "tvl" is not available for project "bitcoin"');
  });
});

describe("METRIC and complete periods", () => {
  it("leaves out the periods still running or cut by the range, whatever the end date says; partial=include shows them", async () => {
    // Today is 2026-11-20: November is not whole, whether the end is left out, today or a day in it.
    for (const end of [null, "2026-11-20", "2026-11-10", "2026-12-31"]) {
      const rows = await metric([["aave"]], [["revenue"]], "2026-09-01", end, "period=month");
      // Each row dated by its period's end.
      expect(rows.slice(1).map((r) => r[0])).toEqual(["2026-09-30", "2026-10-31"]);
    }
    const cut = await metric(
      [["aave"]],
      [["revenue"]],
      "2026-09-01",
      "2026-11-10",
      "period=month; partial=include"
    );
    // A period cut by the end date is dated by the last day it covers.
    expect(cut.slice(1).map((r) => r[0])).toEqual(["2026-09-30", "2026-10-31", "2026-11-10"]);
    expect(cut[3][1]).toBeCloseTo(
      sum(expectedDaily("aave", "revenue", "2026-11-01", "2026-11-10")),
      2
    );
    const shown = await metric(
      [["aave"]],
      [["revenue"]],
      "2026-09-01",
      null,
      "period=month; partial=include"
    );
    // The month still running is dated by the last day its data reaches (today), not by a day to come.
    expect(shown.slice(1).map((r) => r[0])).toEqual(["2026-09-30", "2026-10-31", "2026-11-20"]);
  });

  it("marks a period whole for one column and not for another in that column only", async () => {
    // Weeks: aave's data reaches today (2026-11-20), sushiswap's stops on 2026-11-15.
    const rows = await metric(
      [["aave"], ["sushiswap"]],
      [["fees"]],
      "2026-11-02",
      "2026-11-15",
      "period=week"
    );
    expect(rows.slice(1).map((r) => r[0])).toEqual(["2026-11-08", "2026-11-15"]);
    expect(typeof rows[2][1]).toBe("number");
    expect(typeof rows[2][2]).toBe("number");
    const lagging = await metric(
      [["aave"], ["sushiswap"]],
      [["fees"]],
      "2026-10-26",
      "2026-11-15",
      "period=week; partial=include"
    );
    expect(lagging.at(-1)![0]).toBe("2026-11-15");
    const weekly = await metric(
      [["aave"], ["sushiswap"]],
      [["fees"]],
      "2026-10-05",
      null,
      "period=week"
    );
    // The week of 11-09 is whole for aave, not for sushiswap (its data stops on Sunday 11-15... whole),
    // the week of 11-16 is whole for neither: left out.
    expect(weekly.at(-1)![0]).toBe("2026-11-15");
  });

  it("says why a table is empty when its only period is incomplete", async () => {
    expect(
      await excelError(
        fns.metric_(
          [["sushiswap"]],
          [["revenue"]],
          "2026-11-01",
          "2026-11-20",
          "period=month",
          inv()
        )
      )
    ).toEqual({
      code: "#N/A",
      // Of the month's 30 days, not of the 20 the range holds: the end date does not make it whole.
      message:
        "November 2026 is not complete for sushiswap revenue: 15 of 30 days (the data goes up to 2026-11-15); partial=include shows it",
    });
  });
});

describe("filters", () => {
  it("calls a typo in a chain a #VALUE! with a suggestion, not an empty table", async () => {
    for (const call of [
      fns.metric_([["aave"]], [["fees"]], "2024-01-01", "2024-01-03", "chains=etherium", inv()),
      fns.value_("aave", "fees", "2024-01-01", "chains=etherium", inv()),
    ])
      expect(await excelError(call)).toEqual({
        code: "#VALUE!",
        message: 'unknown chain "etherium" for aave; did you mean "ethereum"?',
      });
  });

  it("suggests a product of the project for a typo", async () => {
    expect(
      await excelError(
        fns.metric_(
          [["makerdao"]],
          [["revenue"]],
          "2024-01-01",
          "2024-01-03",
          "products=sparks",
          inv()
        )
      )
    ).toEqual({
      code: "#VALUE!",
      message: 'unknown product "sparks" for makerdao; did you mean "spark"?',
    });
  });

  it("checks sectors against the catalogue, and names the project a sector filter excludes", async () => {
    expect(
      await excelError(fns.value_("aave", "fees", "2024-01-01", "sectors=lendng", inv()))
    ).toEqual({ code: "#VALUE!", message: 'unknown sector "lendng"; did you mean "lending"?' });
    const rows = await metric(
      [["aave"], ["uniswap"]],
      [["fees"]],
      "2024-01-01",
      "2024-01-01",
      "sectors=lending"
    );
    expect(typeof rows[1][1]).toBe("number");
    expect(rows[1][2]).toMatch(/^#N\/A: uniswap is not in sector "lending"; its sectors: /);
  });

  it("names a real chain a project is not on", async () => {
    const error = await excelError(
      fns.value_("bitcoin", "fees", "2024-01-01", "chains=solana", inv())
    );
    expect(error.code).toBe("#N/A");
    expect(error.message).toMatch(/^bitcoin is not on chain "solana"; its chains: /);
  });
});

describe("AGGREGATIONS and BREAKDOWN keep input order and every position", () => {
  it("BREAKDOWN lists projects in input order, with archived, empty and repeated positions as rows", async () => {
    const rows = showTable(
      (await fns.breakdown_(
        "fees",
        [["uniswap"], ["anchor-protocol"], [""], ["aave"], ["uniswap"]],
        null,
        null,
        null,
        inv()
      )) as unknown[][]
    );
    const id = rows[0].indexOf("project_id");
    const value = rows[0].indexOf("value");
    expect(rows.slice(1).map((r) => r[id])).toEqual([
      "uniswap",
      "anchor-protocol",
      "",
      "aave",
      "uniswap",
    ]);
    expect(rows[2][value]).toMatch(
      /^#N\/A: no anchor-protocol fees data in 2026-10-22\.\.2026-11-20 \(0 of 30 days; .*\); anchor-protocol is archived$/
    );
    expect(rows[3][value]).toBe("#N/A: no project given (the cell is empty)");
    expect(rows[5][value]).toBe(rows[1][value]);
  });

  it("AGGREGATIONS keeps each listed project's rows in input order, an archived one's figures as its reason", async () => {
    const rows = showTable(
      (await fns.aggregations_(
        [["uniswap"], ["anchor-protocol"], ["aave"]],
        [["fees"]],
        null,
        inv()
      )) as unknown[][]
    );
    const id = rows[0].indexOf("project_id");
    const value = rows[0].indexOf("value");
    const order = [...new Set(rows.slice(1).map((r) => r[id]))];
    expect(order).toEqual(["uniswap", "anchor-protocol", "aave"]);
    const anchor = rows.filter((r) => r[id] === "anchor-protocol");
    expect(anchor.length).toBeGreaterThan(0);
    for (const r of anchor) expect(r[value]).toMatch(/^#N\/A: anchor-protocol is archived/);
  });
});
