/**
 * One figure per project, metric and period, whatever asks: each class of the audit that found figures that
 * looked right and were not, held by a test that states the rule, against the simulator's probe data
 * (nova, nova-network) and its readings.
 */
import * as fns from "../../src/functions/functions";
import { currentRuntime } from "../../src/runtime/runtime";
import { chainShares, sharesSum } from "../../src/simulator/data/shares";
import { dayNumber } from "../../src/client/data/days";
import { dataset, excelError, inv, show, showTable, startHarness, type Harness } from "./harness";

let h: Harness;
beforeAll(async () => {
  // Many requests in one file: the client's own 60 a minute would make it wait in real time.
  h = await startHarness({ rateLimitPerMinute: 100_000 }, { duplicateRows: 0 });
});
afterAll(() => h.close());
beforeEach(() => {
  currentRuntime().engine.clear();
  h.sim.clearLog();
  h.sim.setKnobs({ readings: undefined });
});

const table = async (call: unknown): Promise<unknown[][]> => showTable((await call) as unknown[][]);
const sum = (project: string, metric: string, start: string, end: string): number =>
  dataset.daily(project, metric, { start, end }).reduce((s, p) => s + (p.value ?? 0), 0);
const day = (project: string, metric: string, date: string): number =>
  dataset.daily(project, metric, { start: date, end: date })[0].value!;

describe("a metric's kind is known or asked", () => {
  it("shows a single day of a metric outside the table, and asks agg= for any period, window or fill", async () => {
    expect(await fns.value_("nova", "fees_cumulative", "2024-03-31", null, inv())).toBeCloseTo(
      day("nova", "fees_cumulative", "2024-03-31"),
      6
    );
    for (const options of [
      "period=quarter",
      "window=ttm",
      "fill=previous",
      "period=month; values=pop",
    ]) {
      const e = await excelError(
        fns.value_("nova", "fees_cumulative", "2024-03-31", options, inv())
      );
      expect({ options, e }).toEqual({
        options,
        e: {
          code: "#N/A",
          message: expect.stringMatching(
            /^the kind of fees_cumulative is not known: add agg=sum, avg or last/
          ) as unknown,
        },
      });
    }
    const column = await table(
      fns.metric_(
        [["nova"]],
        [["revenue", "fees_cumulative"]],
        "2024-01-01",
        "2024-03-31",
        "period=month",
        inv()
      )
    );
    expect(typeof column[1][1]).toBe("number");
    expect(column[1][2]).toMatch(/^#N\/A: the kind of fees_cumulative is not known/);
  });

  it("rolls up as agg= says, for any metric", async () => {
    // A running total: its quarter's figure is where it stood at the quarter's end.
    expect(
      await fns.value_("nova", "fees_cumulative", "2024-03-31", "period=quarter; agg=last", inv())
    ).toBeCloseTo(day("nova", "fees_cumulative", "2024-03-31"), 6);
    // A rate per year: its TTM figure is its mean, not 366 of its days added up.
    const days = dataset.daily("nova", "revenue_annualized", {
      start: "2024-04-01",
      end: "2025-03-31",
    });
    const mean = days.reduce((s, p) => s + p.value!, 0) / days.length;
    expect(
      await fns.value_("nova", "revenue_annualized", "2025-03-31", "window=ttm; agg=avg", inv())
    ).toBeCloseTo(mean, 4);
    // agg= wins over a known kind too.
    expect(
      await fns.value_("aave", "revenue", "2024-03-31", "period=quarter; agg=max", inv())
    ).toBeCloseTo(
      dataset
        .daily("aave", "revenue", { start: "2024-01-01", end: "2024-03-31" })
        .reduce((m, p) => Math.max(m, p.value!), -Infinity),
      6
    );
  });
});

describe("ratios over a loss are NM, and a multiple says what it divides", () => {
  it("refuses a P/E over a loss and heads a market cap over 30 days' revenue as that ratio", async () => {
    const panel = await table(
      fns.comps_(
        [["aave"]],
        [
          [
            "market_cap_fully_diluted/earnings:ttm, market_cap_fully_diluted/revenue, market_cap_fully_diluted/revenue:30d, market_cap_fully_diluted/revenue:ttm",
          ],
        ],
        "2025-12-31",
        null,
        inv()
      )
    );
    expect(panel[0]).toEqual([
      "Project",
      "P/E (TTM)",
      "Fully diluted market cap / Revenue",
      "Fully diluted market cap / Revenue (30d)",
      "P/S (TTM)",
    ]);
    expect(panel[1][1]).toMatch(/^#N\/A: NM: the divisor of .* is negative/);
    const annualised = await table(
      fns.comps_(
        [["aave"]],
        [["market_cap_fully_diluted/revenue:30d"]],
        "2025-12-31",
        "annualize=1",
        inv()
      )
    );
    expect(annualised[0][1]).toBe("P/S (30d annualised)");
    const cap = day("aave", "market_cap_fully_diluted", "2025-12-31");
    const revenue30 = sum("aave", "revenue", "2025-12-02", "2025-12-31");
    expect(annualised[1][1]).toBeCloseTo(cap / ((revenue30 * 365) / 30), 6);
    expect(panel[1][3]).toBeCloseTo(cap / revenue30, 6);
  });
});

describe("BREAKDOWN follows the rules of VALUE", () => {
  it("gives each project VALUE's figure of the period, and shares a third each when each has a third", async () => {
    // The service's breakdown rows sent twice change nothing: BREAKDOWN reads the daily series.
    h.sim.setKnobs({ readings: { breakdownRepeats: "twice" } });
    const rows = await table(
      fns.breakdown_(
        "revenue",
        [["aave"], ["uniswap"], ["compound"]],
        "2024-02-01",
        "2024-02-29",
        null,
        inv()
      )
    );
    const values = rows.slice(1).map((r) => r[3] as number);
    const shares = rows.slice(1).map((r) => r[4] as number);
    for (const [i, p] of ["aave", "uniswap", "compound"].entries()) {
      expect(values[i]).toBeCloseTo(sum(p, "revenue", "2024-02-01", "2024-02-29"), 4);
      expect(
        values[i] -
          ((await fns.value_(p, "revenue", "2024-02-29", "period=month", inv())) as number)
      ).toBeCloseTo(0, 6);
    }
    expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(h.requests().filter((p) => p.startsWith("/v2/metrics-breakdown/"))).toEqual([]);
  });

  it("is #N/A for a period a project does not cover whole, and then gives no shares", async () => {
    const rows = await table(
      fns.breakdown_("revenue", [["aave"], ["blast"]], "2024-02-01", "2024-02-29", null, inv())
    );
    expect(rows[2][3]).toMatch(
      /^#N\/A: February 2024 is not complete for blast revenue: 1 of 29 days/
    );
    expect(rows[1][4]).toBe("#N/A: no share: the total lacks blast, whose figure is #N/A");
    const included = await table(
      fns.breakdown_(
        "revenue",
        [["aave"], ["blast"]],
        "2024-02-01",
        "2024-02-29",
        "partial=include",
        inv()
      )
    );
    // Its dates are the days its figure covers.
    expect(included[2].slice(5)).toEqual(["2024-02-29", "2024-02-29"]);
    expect((included[1][4] as number) + (included[2][4] as number)).toBeCloseTo(1, 12);
  });

  it("gives NM shares where a figure is a loss", async () => {
    const rows = await table(
      fns.breakdown_("earnings", [["aave"], ["ethereum"]], "2025-10-01", "2025-12-31", null, inv())
    );
    expect(rows[1][3] as number).toBeLessThan(0);
    expect(rows[1][4]).toMatch(/^#N\/A: NM: aave's earnings is negative/);
    expect(rows[2][4]).toMatch(/^#N\/A: NM: /);
  });

  it("labels its rows with the days they cover when the service takes other date names and ignores these", async () => {
    h.sim.setKnobs({ readings: { breakdownDates: "start", unknownParams: "ignore" } });
    const rows = await table(
      fns.breakdown_("fees", [["aave"]], "2024-01-01", "2024-01-31", null, inv())
    );
    expect(rows[1][3]).toBeCloseTo(sum("aave", "fees", "2024-01-01", "2024-01-31"), 4);
    expect(rows[1].slice(5)).toEqual(["2024-01-01", "2024-01-31"]);
  });
});

describe("filters are kept", () => {
  const polygonShare = (d: string): number => {
    const p = dataset.project("aave")!;
    const t = chainShares(p.def, dataset.lastDay("aave"));
    return sharesSum(t, ["polygon"], dayNumber(d)) / sharesSum(t, p.chains, dayNumber(d));
  };

  it("drops rows of other chains when the service answers a chain filter with a row per chain", async () => {
    h.sim.setKnobs({ readings: { unaskedSplit: "every_chain" } });
    const expected = day("aave", "revenue", "2024-03-31") * polygonShare("2024-03-31");
    expect(await fns.value_("aave", "revenue", "2024-03-31", "chains=polygon", inv())).toBeCloseTo(
      expected,
      4
    );
    const byChain = await table(
      fns.metric_(
        [["aave"]],
        [["revenue"]],
        "2024-03-30",
        "2024-03-31",
        "breakdown=chain; chains=polygon",
        inv()
      )
    );
    expect(byChain.slice(1).map((r) => r[1])).toEqual(["polygon", "polygon"]);
    expect(byChain[2][2]).toBeCloseTo(expected, 4);
    const product = await table(
      fns.product_metric_(
        "aave",
        "aave-v3",
        [["fees"]],
        "2024-03-31",
        "2024-03-31",
        "chains=base",
        inv()
      )
    );
    h.sim.setKnobs({ readings: undefined });
    currentRuntime().engine.clear();
    const clean = await table(
      fns.product_metric_(
        "aave",
        "aave-v3",
        [["fees"]],
        "2024-03-31",
        "2024-03-31",
        "chains=base",
        inv()
      )
    );
    expect(product[1][1]).toBeCloseTo(clean[1][1] as number, 6);
  });

  it("matches filter values without case, and products by name", async () => {
    const exact = await fns.value_(
      "aave",
      "revenue",
      "2024-01-05",
      "chains=ethereum; products=aave-v3",
      inv()
    );
    expect(
      await fns.value_("aave", "revenue", "2024-01-05", "chains=ETHEREUM; products=Aave V3", inv())
    ).toBe(exact);
  });
});

describe("a value that is no number", () => {
  it("is #N/A naming what the service sent, never a missing day a fill fills", async () => {
    const sent = ["1,234.50", "$1,000", "(1000)", "12.5 USD", "true", "Infinity", "1e400"];
    for (const [i, text] of sent.entries()) {
      const date = `2024-01-${String(5 + i).padStart(2, "0")}`;
      const e = await excelError(fns.value_("nova", "revenue", date, "fill=zero", inv()));
      expect(e).toEqual({
        code: "#N/A",
        message: `the service sent "${text}" for nova revenue on ${date}, which is not a number; no figure for that day`,
      });
    }
    const month = await excelError(
      fns.value_("nova", "revenue", "2024-01-31", "period=month; fill=zero", inv())
    );
    expect(month.message).toMatch(
      /^the service sent "1,234.50" for nova revenue on 2024-01-05, which is not a number/
    );
    const rows = await table(
      fns.metric_([["nova"]], [["revenue"]], "2024-01-04", "2024-01-06", "fill=zero", inv())
    );
    expect(typeof rows[1][1]).toBe("number");
    expect(rows[2][1]).toMatch(/^#N\/A: the service sent "1,234.50"/);
  });
});

describe("STATEMENT's figures are its lines' daily series'", () => {
  it("refuses a line at odds with its days, a missing period, a period sent twice, and keeps the template's rows", async () => {
    const rows = await table(fns.statement_("nova-network", "quarter", "1y", null, inv()));
    const line = (name: string) => rows.find((r) => r[1] === name)!;
    const q = (heading: string) => rows[0].indexOf(heading);
    // "Income Statement" is the template's Income statement: no row at the bottom.
    expect(
      rows
        .filter((r) => String(r[0]).toLowerCase() === "income statement")
        .every((r) => r[0] === "Income statement")
    ).toBe(true);
    expect(line("Token incentives")[q("Q2 '26")]).toMatch(
      /^#N\/A: the service's nova-network token_incentives for Q2 2026 is 999, but its daily series give [\d,.]+ /
    );
    expect(line("Expenses")[q("Q1 '26")]).toBe(
      "#N/A: the service sent no expenses row for Q1 2026 (Jan 1 – Mar 31, 2026)"
    );
    expect(line("Fees")[q("Q3 '26")]).toBe(
      "#N/A: the service sent nova-network fees for Q3 2026 twice with different values; no figure for Q3 2026"
    );
    // tvl is dated by its quarters' ends, the other lines by their starts: one column per quarter.
    expect(new Set(rows[0]).size).toBe(rows[0].length);
    expect(line("Total value locked")[q("Q3 '26")]).toBeCloseTo(
      day("nova-network", "tvl", "2026-09-30"),
      4
    );
  });

  it("gives no change where either figure fails its check, saying which and why", async () => {
    const rows = await table(fns.statement_("nova-network", "quarter", "1y", "values=pop", inv()));
    const line = (name: string) => rows.find((r) => r[1] === name)!;
    const q = (heading: string) => rows[0].indexOf(heading);
    const odd =
      /the service's nova-network token_incentives for Q2 2026 is 999, but its daily series give [\d,.]+ \(2026-04-01\.\.2026-06-30\): no figure rather than either$/;
    // The period itself at odds with its days; the next one over a base at odds with its days.
    expect(line("Token incentives")[q("Q2 '26")]).toMatch(
      new RegExp(`^#N/A: no pop change for nova-network token_incentives Q2 2026: ${odd.source}`)
    );
    expect(line("Token incentives")[q("Q3 '26")]).toMatch(
      new RegExp(
        `^#N/A: no pop change for nova-network token_incentives Q3 2026: its base: ${odd.source}`
      )
    );
    // A period the service sent twice; a base period it did not send at all.
    expect(line("Fees")[q("Q3 '26")]).toBe(
      "#N/A: no pop change for nova-network fees Q3 2026: the service sent nova-network fees for Q3 2026 twice with different values; no figure for Q3 2026"
    );
    expect(line("Expenses")[q("Q2 '26")]).toBe(
      "#N/A: no pop change for nova-network expenses Q2 2026: the service sent no base period"
    );
    // Where both figures pass, the change is theirs.
    const revenue = line("Revenue");
    const values = await table(fns.statement_("nova-network", "quarter", "1y", null, inv()));
    const rev = values.find((r) => r[1] === "Revenue")!;
    expect(revenue[q("Q2 '26")]).toBeCloseTo(
      (rev[q("Q2 '26")] as number) / (rev[q("Q1 '26")] as number) - 1,
      6
    );
  });

  it("gives a year-on-year change over the same period a year before, NM over a loss", async () => {
    const yoy = await table(fns.statement_("aave", "quarter", "2y", "values=yoy", inv()));
    const values = await table(fns.statement_("aave", "quarter", "2y", null, inv()));
    const line = (rows: unknown[][], name: string) => rows.find((r) => r[1] === name)!;
    const last = yoy[0].length - 1;
    const fees = line(values, "Fees");
    expect(yoy[0][last]).toBe(values[0][last]);
    expect(line(yoy, "Fees")[last]).toBeCloseTo(
      (fees[last] as number) / (fees[last - 4] as number) - 1,
      6
    );
    expect(line(yoy, "Earnings")[last]).toMatch(
      /^#N\/A: no yoy change for aave earnings Q\d 20\d\d: NM: the base period's value is negative \(-[\d,]+\), so a change over it means nothing$/
    );
  });

  it("reads a week as the days its row declares, whatever the service's week convention", async () => {
    h.sim.setKnobs({ readings: { statementWeeks: "sunday" } });
    const weeks = await table(fns.statement_("aave", "week", "1m", "headers=2", inv()));
    // Sunday to Saturday weeks; the one still running (Nov 15 – Nov 21, 2026: 6 of 7 days) is left out.
    expect(
      weeks[0]
        .slice(2)
        .every((s) => /^[A-Z][a-z]{2} \d+ – [A-Z][a-z]{2} \d+, 2026$/.test(String(s)))
    ).toBe(true);
    expect(weeks[0]).not.toContain("Nov 15 – Nov 21, 2026");
    const fees = weeks.find((r) => r[1] === "Fees")!;
    const last = weeks[0].length - 1;
    expect(weeks[0][last]).toBe("Nov 8 – Nov 14, 2026");
    expect(fees[last]).toBeCloseTo(sum("aave", "fees", "2026-11-08", "2026-11-14"), 2);
  });
});

describe("names", () => {
  it("refuses a name two projects share and a ticker that is another's id, naming both", async () => {
    for (const text of ["Nova", "NOVA"]) {
      const e = await excelError(fns.value_(text, "fees", "2025-03-31", null, inv()));
      expect(e.code).toBe("#N/A");
      expect(e.message).toMatch(
        /fits 2 projects: "nova" \(Nova, NVX\), "nova-network" \(Nova, NOVA\); use the project id/
      );
    }
    expect(await fns.value_("nova", "fees", "2025-03-31", null, inv())).toBeCloseTo(
      day("nova", "fees", "2025-03-31"),
      6
    );
  });
});

describe("the date names a series operation takes", () => {
  it("asks with start_date/end_date once a service refuses start/end, and keeps them", async () => {
    h.sim.setKnobs({ readings: { dateNames: "usage" } });
    const first = await fns.value_("aave", "fees", "2024-01-15", null, inv());
    expect(first).toBeCloseTo(day("aave", "fees", "2024-01-15"), 6);
    await fns.value_("uniswap", "fees", "2024-01-16", null, inv());
    const queries = h.sim.requestLog.filter((r) => r.path.startsWith("/v2/metrics/"));
    expect(queries.map((r) => ("start" in r.query ? "start" : "start_date"))).toEqual([
      "start",
      "start_date",
      "start_date",
    ]);
  });

  it("drops the rows of a service that ignores the names it does not know, and asks with the others next", async () => {
    h.sim.setKnobs({ readings: { dateNames: "usage", unknownParams: "ignore" } });
    expect(await fns.value_("aave", "fees", "2024-03-31", "period=quarter", inv())).toBeCloseTo(
      sum("aave", "fees", "2024-01-01", "2024-03-31"),
      2
    );
    await fns.value_("uniswap", "fees", "2024-01-16", null, inv());
    const queries = h.sim.requestLog.filter((r) => r.path.startsWith("/v2/metrics/"));
    expect(queries.at(-1)?.query).toMatchObject({
      start_date: "2024-01-16",
      end_date: "2024-01-16",
    });
  });
});

describe("dates and days", () => {
  it("dates a window of carried values by the day they came from", async () => {
    // tick-and-tock's outage: its tvl is carried from 2023-02-28 across the days after.
    const asOf = await fns.asof_(
      "tick-and-tock",
      "tvl",
      "2023-03-10",
      "window=7d; fill=previous; agg=last",
      inv()
    );
    expect(show(asOf)).toBe(
      show(await fns.asof_("tick-and-tock", "tvl", "2023-03-10", "fill=previous", inv()))
    );
  });
});
