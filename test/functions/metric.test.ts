import * as fns from "../../src/functions/functions";
import { excelError, expectedDaily, inv, showTable, startHarness, type Harness } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

async function table(...args: unknown[]): Promise<unknown[][]> {
  const [project, metric, start, end, options] = args;
  return showTable(
    (await fns.metric_(
      project as never,
      metric as never,
      start,
      end,
      options,
      inv()
    )) as unknown[][]
  );
}

describe("CRYPTO.METRIC", () => {
  it("spills a Date column and one column per metric of one project, oldest first, with real dates", async () => {
    const rows = await table([["aave"]], [["fees", "revenue"]], "2024-01-01", "2024-01-03", null);
    const fees = expectedDaily("aave", "fees", "2024-01-01", "2024-01-03");
    const revenue = expectedDaily("aave", "revenue", "2024-01-01", "2024-01-03");
    expect(rows[0]).toEqual(["Date", "fees", "revenue"]);
    expect(rows.slice(1).map((r) => r[0])).toEqual(["2024-01-01", "2024-01-02", "2024-01-03"]);
    rows.slice(1).forEach((r, i) => {
      expect(r[1]).toBeCloseTo(fees[i].value!, 6);
      expect(r[2]).toBeCloseTo(revenue[i].value!, 6);
    });
    const raw = (await fns.metric_(
      [["aave"]],
      [["fees"]],
      "2024-01-01",
      "2024-01-01",
      null,
      inv()
    )) as unknown[][];
    expect(raw[1][0]).toEqual({ type: "Double", basicValue: 45292, numberFormat: "yyyy-mm-dd" });
  });

  it("takes several projects of one metric as a comma list or a range: one column per project", async () => {
    const fromList = await table([["aave, uniswap"]], [["fees"]], "2024-05-01", "2024-05-02", null);
    const fromRange = await table(
      [["aave"], ["uniswap"]],
      [["fees"]],
      "2024-05-01",
      "2024-05-02",
      null
    );
    expect(fromList).toEqual(fromRange);
    expect(fromList[0]).toEqual(["Date", "aave", "uniswap"]);
    expect(fromList[1][2]).toBeCloseTo(
      expectedDaily("uniswap", "fees", "2024-05-01", "2024-05-01")[0].value!,
      6
    );
  });

  it("refuses several projects AND several metrics with a message", async () => {
    const error = await excelError(
      fns.metric_([["aave", "uniswap"]], [["fees", "revenue"]], null, null, null, inv())
    );
    expect(error).toEqual({
      code: "#VALUE!",
      message: expect.stringContaining(
        "several projects of one metric, or several metrics of one project"
      ),
    });
  });

  it("orders newest first, drops or adds header rows as asked", async () => {
    const desc = await table([["aave"]], [["fees"]], "2024-01-01", "2024-01-03", "order=desc");
    expect(desc.slice(1).map((r) => r[0])).toEqual(["2024-01-03", "2024-01-02", "2024-01-01"]);
    const bare = await table([["aave"]], [["fees"]], "2024-01-01", "2024-01-03", "headers=0");
    expect(bare).toHaveLength(3);
    const named = await table(
      [["aave,lido-finance"]],
      [["fees"]],
      "2024-01-01",
      "2024-01-01",
      "HEADERS=2"
    );
    expect(named.slice(0, 2)).toEqual([
      ["", "Aave", "Lido Finance"],
      ["Date", "aave", "lido-finance"],
    ]);
  });

  it("rolls daily values up by period with each metric's own method, or the one asked", async () => {
    const monthly = await table(
      [["aave"]],
      [["revenue", "tvl"]],
      "2024-01-15",
      "2024-03-10",
      "period=month"
    );
    const feb = expectedDaily("aave", "revenue", "2024-02-01", "2024-02-29");
    const febTvl = expectedDaily("aave", "tvl", "2024-02-01", "2024-02-29");
    // January and March are cut by the range: a row stands for a whole month, so they are left out.
    expect(monthly.slice(1).map((r) => r[0])).toEqual(["2024-02-29"]);
    expect(monthly[1][1]).toBeCloseTo(
      feb.reduce((s, p) => s + p.value!, 0),
      2
    );
    expect(monthly[1][2]).toBeCloseTo(febTvl[febTvl.length - 1].value!, 4);
    // partial=include shows them, over the days in the range.
    const parts = await table(
      [["aave"]],
      [["revenue"]],
      "2024-01-15",
      "2024-03-10",
      "period=month; partial=include"
    );
    const jan = expectedDaily("aave", "revenue", "2024-01-15", "2024-01-31");
    expect(parts.slice(1).map((r) => r[0])).toEqual(["2024-01-31", "2024-02-29", "2024-03-10"]);
    expect(parts[1][1]).toBeCloseTo(
      jan.reduce((s, p) => s + p.value!, 0),
      2
    );
    const maxima = await table(
      [["aave"]],
      [["revenue"]],
      "2024-01-01",
      "2024-01-31",
      "period=month; agg=max"
    );
    expect(maxima[1][1]).toBeCloseTo(
      expectedDaily("aave", "revenue", "2024-01-01", "2024-01-31").reduce(
        (a, p) => Math.max(a, p.value!),
        -Infinity
      ),
      6
    );
  });

  it("gives every day of the range with fill, carrying a level's last value over gaps", async () => {
    const rows = await table(
      [["tick-and-tock"]],
      [["tvl"]],
      "2023-02-27",
      "2023-03-02",
      "fill=previous"
    );
    const carried = expectedDaily("tick-and-tock", "tvl", "2023-02-28", "2023-02-28")[0].value!;
    expect(rows.slice(1).map((r) => r[0])).toEqual([
      "2023-02-27",
      "2023-02-28",
      "2023-03-01",
      "2023-03-02",
    ]);
    expect(rows[3][1]).toBeCloseTo(carried, 6);
    expect(rows[4][1]).toBeCloseTo(carried, 6);
    const asIs = await table([["tick-and-tock"]], [["tvl"]], "2023-02-28", "2023-03-01", null);
    expect(asIs[2][1]).toBe(""); // a null from the service is an empty cell
  });

  it("breaks a project's metrics down by chain in long form", async () => {
    const rows = await table([["aave"]], [["fees"]], "2024-01-01", "2024-01-01", "breakdown=chain");
    expect(rows[0]).toEqual(["Date", "Chain", "fees"]);
    const chains = rows.slice(1).map((r) => r[1]);
    expect(chains).toEqual([...chains].sort());
    expect(chains).toContain("ethereum");
    const total = rows.slice(1).reduce((s, r) => s + (r[2] as number), 0);
    expect(total).toBeCloseTo(
      expectedDaily("aave", "fees", "2024-01-01", "2024-01-01")[0].value!,
      2
    );
  });

  it("keeps the valid columns when one project is unknown, filling its column with #N/A and the reason", async () => {
    const rows = await table(
      [["aave"], ["no-such-project"]],
      [["fees"]],
      "2024-01-01",
      "2024-01-02",
      null
    );
    expect(rows[0]).toEqual(["Date", "aave", "no-such-project"]);
    expect(typeof rows[1][1]).toBe("number");
    expect(rows[1][2]).toMatch(/^#N\/A: unknown project "no-such-project"/);
  });

  it("returns one #N/A when nothing valid is left", async () => {
    expect(
      await excelError(fns.metric_([["aave"]], [["fees"]], "2018-01-01", "2018-12-31", null, inv()))
    ).toEqual({
      code: "#N/A",
      message: "no data for fees between 2018-01-01 and 2018-12-31",
    });
    expect(
      (await excelError(fns.metric_([["nope"]], [["fees"]], null, null, null, inv()))).code
    ).toBe("#N/A");
  });

  it("refuses a start after the end", async () => {
    expect(
      await excelError(fns.metric_([["aave"]], [["fees"]], "2024-02-01", "2024-01-01", null, inv()))
    ).toEqual({
      code: "#VALUE!",
      message: "start 2024-02-01 is after end 2024-01-01",
    });
  });

  it("answers PRODUCT_METRIC from the product's own series", async () => {
    const rows = showTable(
      (await fns.product_metric_(
        "aave",
        "Aave V3",
        [["fees"]],
        "2024-01-01",
        "2024-01-02",
        null,
        inv()
      )) as unknown[][]
    );
    expect(rows[0]).toEqual(["Date", "fees"]);
    expect(rows).toHaveLength(3);
    const whole = expectedDaily("aave", "fees", "2024-01-01", "2024-01-01")[0].value!;
    expect(rows[1][1] as number).toBeLessThan(whole);
    const unknown = await excelError(
      fns.product_metric_("aave", "v9", [["fees"]], null, null, null, inv())
    );
    expect(unknown).toEqual({
      code: "#N/A",
      message: expect.stringContaining(
        'has no product "v9"; its products: "aave-v1", "aave-v2", "aave-v3"'
      ),
    });
  });
});
