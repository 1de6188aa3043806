/**
 * Figures at the edges of the data, as a demanding analyst meets them: fills past the data or before a
 * launch, growth over a loss, launch periods, days without data inside periods, calendar windows, how the
 * end date is written, COMPS's as-of days and fills, and the words of the messages. Today is 2026-11-20.
 */
import * as fns from "../../src/functions/functions";
import { configureRuntime } from "../../src/runtime/runtime";
import { DEMO_API_KEY } from "../../src/simulator";
import {
  dataset,
  excelError,
  expectedDaily,
  inv,
  NOW,
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

const sum = (project: string, metric: string, start: string, end: string): number =>
  expectedDaily(project, metric, start, end).reduce((s, p) => s + (p.value ?? 0), 0);

async function table(call: Promise<unknown>): Promise<unknown[][]> {
  return showTable((await call) as unknown[][]);
}

describe("a fill never reaches past a series' last data day or before its first", () => {
  it("gives no value after today, nor after an archived project's last day, whatever the fill", async () => {
    const future = await excelError(
      fns.value_("aave", "tvl", "2026-12-31", "fill=previous", inv())
    );
    expect(future).toEqual({
      code: "#N/A",
      message:
        "no aave tvl value on 2026-12-31: 2026-12-31 is after the service's latest day, today 2026-11-20 (UTC); fill=previous never reaches past the data",
    });
    const archived = await excelError(
      fns.value_("multichain", "tvl", "2023-08-31", "fill=previous", inv())
    );
    expect(archived.message).toBe(
      "no multichain tvl value on 2023-08-31: the data goes up to 2023-07-14; fill=previous never reaches past the data"
    );
    const panel = await table(
      fns.comps_([["aave", "multichain"]], [["tvl"]], "2026-12-31", "fill=previous", inv())
    );
    expect(panel[1][1]).toMatch(/^#N\/A: .*after the service's latest day/);
    expect(panel[2][1]).toMatch(/^#N\/A: .*after the service's latest day/);
    // METRIC stops at the data too.
    const rows = await table(
      fns.metric_([["aave"]], [["tvl"]], "2026-11-18", "2026-11-30", "fill=previous", inv())
    );
    expect(rows.slice(1).map((r) => r[0])).toEqual(["2026-11-18", "2026-11-19", "2026-11-20"]);
  });

  it("gives no zero before a launch, and never suggests a fill for a day before it", async () => {
    const day = await excelError(fns.value_("aave", "fees", "2019-06-30", "fill=zero", inv()));
    expect(day.message).toBe(
      "no aave fees value on 2019-06-30: the data starts on 2020-01-08; no fill reaches before the data"
    );
    const quarter = await excelError(
      fns.value_("aave", "fees", "2019-06-30", "fill=zero; period=quarter", inv())
    );
    expect(quarter.message).toMatch(/^no aave fees data in Q2 2019 \(0 of 91 days/);
    // Without a fill, the day's own read decides: no claim it cannot check, and no fill suggested.
    const unfilled = await excelError(fns.value_("aave", "fees", "2019-06-30", null, inv()));
    expect(unfilled.message).toBe("no aave fees value on 2019-06-30");
    // The days before the launch are no rows, not zeros.
    const rows = await table(
      fns.metric_([["aave"]], [["fees"]], "2019-12-28", "2020-01-10", "fill=zero", inv())
    );
    expect(rows.slice(1).map((r) => r[0])).toEqual(["2020-01-08", "2020-01-09", "2020-01-10"]);
    expect(rows.slice(1).every((r) => typeof r[1] === "number" && r[1] > 0)).toBe(true);
    // A gap inside the data is still filled.
    expect(await fns.value_("tick-and-tock", "fees", "2023-03-05", "fill=zero", inv())).toBe(0);
    // A window's message hints the fill for days known to be inside the data, and only for those.
    const gap = await excelError(
      fns.value_("tick-and-tock", "fees", "2023-03-20", "window=30d", inv())
    );
    expect(gap.message).toContain('option "fill=zero" counts a missing day as 0');
    const launch = await excelError(
      fns.value_("aave", "fees", "2020-01-31", "period=month", inv())
    );
    expect(launch.message).toBe(
      "January 2020 is not complete for aave fees: 24 of 31 days (no value on 7 days from 2020-01-01; the first value is on 2020-01-08); partial=include shows it"
    );
  });
});

describe("growth over a base of 0 or less is NM, and compares whole periods", () => {
  it("refuses a change over a loss in METRIC, VALUE and STATEMENT", async () => {
    const rows = await table(
      fns.metric_(
        [["aave"]],
        [["earnings"]],
        "2025-07-01",
        "2026-09-30",
        "period=quarter; values=yoy",
        inv()
      )
    );
    // aave's earnings are a loss every quarter: no change over them means anything.
    expect(rows.slice(1).length).toBe(5);
    for (const r of rows.slice(1))
      expect(r[1]).toMatch(
        /^#N\/A: no yoy change for aave earnings Q\d 20\d\d: NM: the base period's value is negative/
      );
    const value = await excelError(
      fns.value_("aave", "earnings", "2026-09-30", "period=quarter; values=yoy", inv())
    );
    expect(value.message).toMatch(/NM: the base period's value is negative \(-[\d,]+\)/);
    const statement = await table(fns.statement_("aave", "quarter", "1y", "values=yoy", inv()));
    const earnings = statement.find((r) => r[1] === "Earnings")!;
    for (const c of earnings.slice(2)) expect(c).toMatch(/^#N\/A: .*NM: the base period's value/);
  });

  it("gives ethena's first profitable quarter no change on its launch quarter's loss", async () => {
    const statement = await table(fns.statement_("ethena", "quarter", "max", "values=yoy", inv()));
    const headings = statement[0];
    const q1 = headings.indexOf("Q1 '25");
    const earnings = statement.find((r) => r[1] === "Earnings")!;
    expect(earnings[q1]).toMatch(
      /^#N\/A: no yoy change for ethena earnings Q1 2025: its base: Q1 2024 is not complete/
    );
  });
});

describe("a launch period is not a whole period", () => {
  it("gives ethena's launch quarter as 42 of 91 days, not as Q1 2024", async () => {
    const refused = await excelError(
      fns.value_("ethena", "revenue", "2024-03-31", "period=quarter", inv())
    );
    expect(refused.message).toBe(
      "Q1 2024 is not complete for ethena revenue: 42 of 91 days (no value on 49 days from 2024-01-01; the first value is on 2024-02-19); partial=include shows it"
    );
    expect(
      await fns.value_("ethena", "revenue", "2024-03-31", "period=quarter; partial=include", inv())
    ).toBeCloseTo(sum("ethena", "revenue", "2024-02-19", "2024-03-31"), 2);
  });

  it("leaves the launch quarter out of the statement; partial=include heads it with its days", async () => {
    const statement = await table(fns.statement_("ethena", "quarter", "max", null, inv()));
    expect(statement[0][2]).toBe("Q2 '24");
    const included = await table(
      fns.statement_("ethena", "quarter", "max", "partial=include; headers=2", inv())
    );
    expect(included[1][2]).toBe("Q1 '24");
    expect(included[0][2]).toBe("Feb 19 – Mar 31, 2024 (42 of 91 days)");
  });

  it("leaves a leap-day launch's month out of a monthly table", async () => {
    const rows = await table(
      fns.metric_([["blast"]], [["fees"]], null, "2024-06-30", "period=month", inv())
    );
    // blast launched on 2024-02-29: February holds 1 of its 29 days. Rows are dated by their period's end.
    expect(rows[1][0]).toBe("2024-03-31");
    const feb = await excelError(fns.value_("blast", "fees", "2024-02-29", "period=month", inv()));
    expect(feb.message).toMatch(/^February 2024 is not complete for blast fees: 1 of 29 days/);
  });
});

describe("days without data are not zeros", () => {
  it("gives a month with an outage as N of M days, and no changes from it", async () => {
    const rows = await table(
      fns.metric_(
        [["tick-and-tock"]],
        [["revenue"]],
        "2023-01-01",
        "2023-04-30",
        "period=month",
        inv()
      )
    );
    const march = rows.find((r) => r[0] === "2023-03-31")!;
    expect(march[1]).toMatch(
      /^#N\/A: March 2023 is not complete for tick-and-tock revenue: 17 of 31 days \(no value on 14 days from 2023-03-01; the first value is on 2023-03-15\)/
    );
    const pop = await table(
      fns.metric_(
        [["tick-and-tock"]],
        [["revenue"]],
        "2023-01-01",
        "2023-04-30",
        "period=month; values=pop",
        inv()
      )
    );
    expect(pop.find((r) => r[0] === "2023-04-30")![1]).toMatch(
      /its base: March 2023 is not complete/
    );
  });

  it("gives a TTM holding days without a value as N of 365 days", async () => {
    // blast's data has a three-day indexing gap (2026-08-10..12).
    const ttm = await excelError(fns.value_("blast", "revenue", "2026-11-20", "window=ttm", inv()));
    expect(ttm.message).toBe(
      'ttm to 2026-11-20 (2025-11-21..2026-11-20) is not complete for blast revenue: 362 of 365 days (no value on 3 days from 2026-08-10); partial=include shows it; option "fill=zero" counts a missing day as 0'
    );
    // Older history has single null days (uniswap's revenue on 2023-03-08): a TTM over one is no TTM either.
    const days = expectedDaily("uniswap", "revenue", "2022-07-01", "2023-06-30");
    const missing = days.filter((p) => p.value === null).length;
    expect(missing).toBeGreaterThan(0);
    const old = await excelError(
      fns.value_("uniswap", "revenue", "2023-06-30", "window=ttm", inv())
    );
    expect(old.message).toContain(`${365 - missing} of 365 days`);
    // fill=zero counts them 0, by the user's choice.
    expect(
      await fns.value_("uniswap", "revenue", "2023-06-30", "window=ttm; fill=zero", inv())
    ).toBeCloseTo(sum("uniswap", "revenue", "2022-07-01", "2023-06-30"), 2);
  });
});

describe("windows ending on a month's last day cover whole calendar months", () => {
  it("makes 3m to a quarter's end the quarter, 1m to February's end February, ttm 365 days", async () => {
    expect(await fns.value_("aave", "revenue", "2024-06-30", "window=3m", inv())).toBeCloseTo(
      sum("aave", "revenue", "2024-04-01", "2024-06-30"),
      2
    );
    expect(await fns.value_("aave", "revenue", "2024-06-30", "window=3m", inv())).toBe(
      await fns.value_("aave", "revenue", "2024-06-30", "period=quarter", inv())
    );
    expect(await fns.value_("aave", "revenue", "2025-02-28", "window=1m", inv())).toBeCloseTo(
      sum("aave", "revenue", "2025-02-01", "2025-02-28"),
      2
    );
    expect(await fns.value_("aave", "revenue", "2025-02-28", "window=ttm", inv())).toBeCloseTo(
      sum("aave", "revenue", "2024-03-01", "2025-02-28"),
      2
    );
  });

  it("annualizes by 365 over the days the window covers: a leap year's 366 days scale down", async () => {
    const leap = sum("aave", "revenue", "2024-01-01", "2024-12-31");
    expect(
      await fns.value_("aave", "revenue", "2024-12-31", "window=ttm; annualize=1", inv())
    ).toBeCloseTo((leap * 365) / 366, 2);
    const month = sum("aave", "fees", "2025-02-01", "2025-02-28");
    expect(
      await fns.value_("aave", "fees", "2025-02-28", "window=1m; annualize=1", inv())
    ).toBeCloseTo((month * 365) / 28, 2);
  });
});

describe("whether a period shows never depends on how the end is written", () => {
  it("leaves the running year out whether the end is left out, today or the year's last day", async () => {
    const shown = async (end: unknown) =>
      (
        await table(
          fns.metric_([["uniswap"]], [["revenue"]], "2024-01-01", end, "period=year", inv())
        )
      )
        .slice(1)
        .map((r) => r[0]);
    const expected = ["2024-12-31", "2025-12-31"];
    expect(await shown(null)).toEqual(expected);
    expect(await shown("2026-11-20")).toEqual(expected);
    expect(await shown("2026-12-31")).toEqual(expected);
  });

  it("leaves out a month the start date cuts (TODAY()-365), not a 5-day month dated like a whole one", async () => {
    const rows = await table(
      fns.metric_([["uniswap"]], [["revenue"]], "2025-11-20", null, "period=month", inv())
    );
    expect(rows[1][0]).toBe("2025-12-31");
    expect(rows.at(-1)![0]).toBe("2026-10-31");
  });
});

describe("COMPS states its days and fills each column as its metric admits", () => {
  it("refuses a latest figure older than maxage, and shows each row's as-of day", async () => {
    const panel = await table(
      fns.comps_([["aave", "sushiswap"]], [["tvl"]], null, "maxage=3d; asof=1", inv())
    );
    expect(panel[0]).toEqual(["Project", "As of", "Total value locked"]);
    expect(panel[1][1]).toBe("2026-11-20");
    expect(typeof panel[1][2]).toBe("number");
    // sushiswap's data stops 5 days before today.
    expect(panel[2][1]).toBe("");
    expect(panel[2][2]).toMatch(
      /^#N\/A: the latest sushiswap tvl value is from 2026-11-15, 5 days before today \(maxage=3d\)/
    );
    const dated = await table(
      fns.comps_([["aave", "sushiswap"]], [["tvl"]], null, "asof=1", inv())
    );
    expect(dated.map((r) => r[1])).toEqual(["As of", "2026-11-20", "2026-11-15"]);
  });

  it("fills a TVL and revenue panel per column: fill=previous on the level, none on the flow", async () => {
    const panel = await table(
      fns.comps_([["tick-and-tock"]], [["tvl, revenue"]], "2023-03-05", "fill=previous", inv())
    );
    expect(panel[1][1]).toBeCloseTo(
      expectedDaily("tick-and-tock", "tvl", "2023-02-28", "2023-02-28")[0].value!,
      6
    );
    expect(panel[1][2]).toMatch(/^#N\/A: no tick-and-tock revenue value on 2023-03-05/);
    const both = await table(
      fns.comps_([["tick-and-tock"]], [["tvl, revenue"]], "2023-03-05", "fill=previous,zero", inv())
    );
    expect(both[1][2]).toBe(0);
    const pointless = await excelError(
      fns.comps_([["aave"]], [["tvl"]], "2024-03-01", "fill=zero", inv())
    );
    expect(pointless).toMatchObject({ code: "#VALUE!" });
    expect(pointless.message).toMatch(/^fill=zero applies to no column of this panel/);
  });
});

describe("messages say only true facts, in the user's words", () => {
  it("names the day the data goes up to, never a day it made up", async () => {
    const error = await excelError(fns.value_("aave", "fees", "2026-12-15", "fill=zero", inv()));
    expect(error.message).toBe(
      "no aave fees value on 2026-12-15: 2026-12-15 is after the service's latest day, today 2026-11-20 (UTC); fill=zero never reaches past the data"
    );
  });

  it("answers finance shorthand in a COMPS column with the ratio to write", async () => {
    const error = await excelError(fns.comps_([["aave"]], [["P/S"]], null, null, inv()));
    expect(error).toEqual({
      code: "#VALUE!",
      message:
        'COMPS column "P/S" is shorthand, not metrics: a ratio column divides two metrics; for P/S on trailing twelve months write "market_cap_fully_diluted/revenue:ttm"',
    });
  });

  it("gives STATEMENT's change a #N/A where the service sends it empty, never a blank", async () => {
    const emptied = (fetch: typeof globalThis.fetch): typeof globalThis.fetch =>
      (async (url: string, init?: RequestInit) => {
        const res = await fetch(url, init);
        if (!new URL(url).pathname.endsWith("/financial-statement")) return res;
        const body = (await res.json()) as { data: Array<Record<string, unknown>> };
        for (const row of body.data) if (row.metric_id === "fees") row.pop_change = null;
        return new Response(JSON.stringify(body), {
          status: res.status,
          headers: { "content-type": "application/json" },
        });
      }) as typeof globalThis.fetch;
    configureRuntime({
      baseUrl: h.sim.url,
      apiKey: DEMO_API_KEY,
      now: () => NOW,
      fetch: emptied(globalThis.fetch.bind(globalThis)),
      engine: { windowMs: 5 },
    });
    try {
      const rows = await table(fns.statement_("aave", "quarter", "1y", "values=pop", inv()));
      const fees = rows.find((r) => r[1] === "Fees")!;
      for (const c of fees.slice(2))
        expect(c).toMatch(
          /^#N\/A: no pop change for aave fees Q\d 20\d\d: the service sent no change$/
        );
      const revenue = rows.find((r) => r[1] === "Revenue")!;
      expect(revenue.slice(2).every((c) => typeof c === "number")).toBe(true);
    } finally {
      configureRuntime({
        baseUrl: h.sim.url,
        apiKey: DEMO_API_KEY,
        now: () => NOW,
        engine: { windowMs: 5 },
      });
    }
  });

  it("says options are separated by ';' when a comma joins two", async () => {
    const error = await excelError(
      fns.value_("aave", "fees", null, "period=month, agg=max", inv())
    );
    expect(error.message).toBe(
      'options are separated by ";", not ","; write "period=month; agg=max"'
    );
  });

  it("tells the card's P/F (on fees TTM) from the service's own P/F ratio", async () => {
    const result = (await fns.project_("aave", null, inv())) as unknown[][];
    const card = result[0][0] as Excel.EntityCellValue;
    const properties = card.properties ?? {};
    const note = (name: string) =>
      (properties[name] as { propertyMetadata?: { sublabel?: string } }).propertyMetadata?.sublabel;
    expect(note("P/F")).toMatch(
      /fully diluted market cap ÷ fees TTM, both as of that day; computed here/
    );
    const serviceName = dataset.metrics.find((m) => m.id === "pf_fully_diluted")!.name;
    expect(note(serviceName)).toMatch(
      /the service's own P\/F, on annualised fees of the last 30 days/
    );
    expect(show(properties["P/F"])).not.toBe(show(properties[serviceName]));
  });
});
