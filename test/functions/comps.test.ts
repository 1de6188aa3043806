/** COMPS: a projects × columns panel in one call, through real HTTP against the simulator. */
import * as fns from "../../src/functions/functions";
import { excelError, inv, show, showTable, shown, startHarness, type Harness } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const DATE = "2024-03-31";

const valueOf = (project: string, metric: string, options: string | null): Promise<unknown> =>
  shown(fns.value_(project, metric, DATE, options, inv()));

describe("CRYPTO.COMPS", () => {
  it("gives one row per project in input order, each cell exactly what VALUE gives", async () => {
    const table = showTable(
      await fns.comps_(
        [["uniswap"], ["AAVE"], ["Lido Finance"]],
        [
          ["revenue:ttm, fees:30d"],
          ["market_cap_fully_diluted"],
          ["market_cap_fully_diluted/revenue:ttm"],
        ],
        DATE,
        null,
        inv()
      )
    );
    // Headers in a finance user's words: names from the catalogue, windows as analysts write them, the
    // ratio by its name.
    expect(table[0]).toEqual([
      "Project",
      "Revenue (TTM)",
      "Fees (30d)",
      "Fully diluted market cap",
      "P/S (TTM)",
    ]);
    expect(table.map((r) => r[0])).toEqual(["Project", "Uniswap", "Aave", "Lido Finance"]);
    for (const [i, id] of ["uniswap", "aave", "lido-finance"].entries()) {
      const row = table[i + 1];
      expect(row[1]).toEqual(await valueOf(id, "revenue", "window=ttm"));
      expect(row[2]).toEqual(await valueOf(id, "fees", "window=30d"));
      expect(row[3]).toEqual(await valueOf(id, "market_cap_fully_diluted", null));
      if (typeof row[1] === "number" && typeof row[3] === "number")
        expect(row[4]).toBeCloseTo(row[3] / row[1], 8);
    }
  });

  it("keeps the rest of the panel where a cell cannot be computed, saying why", async () => {
    const table = showTable(
      await fns.comps_(
        [["aave"], ["nosuchproject"], ["ethena"]],
        [["revenue:ttm, fees"]],
        "2024-06-30",
        null,
        inv()
      )
    );
    expect(typeof table[1][1]).toBe("number");
    expect(table[2][1]).toMatch(/^#N\/A: .*nosuchproject/);
    expect(table[2][2]).toMatch(/^#N\/A/);
    // Ethena launched in February 2024: no TTM yet, but its fees on the day are there.
    expect(table[3][1]).toMatch(
      /^#N\/A: .*is not complete for ethena revenue: \d+ of 366 days \(no value on \d+ days from 2023-07-01; the first value is on 2024-02-19\)/
    );
    expect(typeof table[3][2]).toBe("number");
  });

  it("takes headers=0 (numbers only) and headers=2 (project ids after the names)", async () => {
    const bare = showTable(
      await fns.comps_([["aave,uniswap"]], [["fees"]], DATE, "headers=0", inv())
    );
    expect(bare).toHaveLength(2);
    expect(bare[0]).toHaveLength(1);
    expect(typeof bare[0][0]).toBe("number");
    const ids = showTable(await fns.comps_([["aave"]], [["fees"]], DATE, "headers=2", inv()));
    expect(ids[0]).toEqual(["Project", "Id", "Fees"]);
    expect(ids[1].slice(0, 2)).toEqual(["Aave", "aave"]);
  });

  it("adds an As of column with asof=1: the earliest day the row's figures are as of", async () => {
    const latest = showTable(
      await fns.comps_([["aave"], ["nosuchproject"]], [["fees, tvl"]], null, "asof=1", inv())
    );
    expect(latest[0]).toEqual(["Project", "As of", "Fees", "Total value locked"]);
    const fees = await fns.value_("aave", "fees", null, null, inv());
    expect(latest[1][2]).toEqual(show(fees));
    expect(typeof latest[1][1]).toBe("string");
    expect(latest[1][1]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // A row without a figure has no day: an empty cell.
    expect(latest[2][1]).toBe("");
    const dated = showTable(
      await fns.comps_([["aave"]], [["fees"]], DATE, "asof=1; headers=0", inv())
    );
    expect(dated).toEqual([[DATE, await valueOf("aave", "fees", null)]]);
  });

  it("gives each term the fill its metric admits, and refuses a fill no column admits", async () => {
    const table = showTable(
      await fns.comps_([["aave"]], [["fees:30d, tvl:30d"]], DATE, "fill=previous,zero", inv())
    );
    expect(table[1][1]).toEqual(await valueOf("aave", "fees", "window=30d; fill=zero"));
    expect(table[1][2]).toEqual(await valueOf("aave", "tvl", "window=30d; fill=previous"));
    const none = await excelError(fns.comps_([["aave"]], [["tvl"]], DATE, "fill=zero", inv()));
    expect(none.code).toBe("#VALUE!");
    expect(none.message).toMatch(
      /^fill=zero applies to no column of this panel \(fill=zero counts a missing day of a flow as 0; tvl is a level/
    );
    // A metric nobody knows takes no fill, and says so in its cell.
    const unknown = showTable(
      await fns.comps_([["aave"]], [["fees:30d, nosuchmetric:30d"]], DATE, "fill=zero", inv())
    );
    expect(unknown[1][1]).toEqual(await valueOf("aave", "fees", "window=30d; fill=zero"));
    expect(String(unknown[1][2])).toMatch(/^#N\/A/);
  });

  it("annualises the summed terms of a window with annualize=1, and only those", async () => {
    const table = showTable(
      await fns.comps_(
        [["aave"]],
        [["fees:30d, tvl:30d, market_cap_fully_diluted/fees:30d"]],
        DATE,
        "annualize=1",
        inv()
      )
    );
    expect(table[0]).toEqual([
      "Project",
      "Fees (30d annualised)",
      "Total value locked (30d)",
      expect.stringMatching(/30d annualised/) as unknown,
    ]);
    expect(table[1][1]).toEqual(await valueOf("aave", "fees", "window=30d; annualize=1"));
    expect(table[1][2]).toEqual(await valueOf("aave", "tvl", "window=30d"));
    const mcap = (await valueOf("aave", "market_cap_fully_diluted", null)) as number;
    expect(table[1][3]).toBeCloseTo(mcap / (table[1][1] as number), 6);
  });

  it("passes chains and agg on to each term as VALUE takes them", async () => {
    const table = showTable(
      await fns.comps_(
        [["aave"]],
        [["revenue:30d, tvl:30d"]],
        DATE,
        "chains=polygon; agg=max",
        inv()
      )
    );
    expect(table[1][1]).toEqual(
      await valueOf("aave", "revenue", "window=30d; chains=polygon; agg=max")
    );
    expect(table[1][2]).toEqual(
      await valueOf("aave", "tvl", "window=30d; chains=polygon; agg=max")
    );
  });

  it("refuses maxage beside a date, and a panel of more cells than it allows", async () => {
    const maxage = await excelError(fns.comps_([["aave"]], [["fees"]], DATE, "maxage=3d", inv()));
    expect(maxage.message).toBe(
      'option "maxage" applies to latest figures: leave the date out, or drop maxage'
    );
    const ids = Array.from({ length: 157 }, (_, i) => [`p${i}`]);
    const cols = [[Array.from({ length: 64 }, () => "fees").join(",")]];
    const big = await excelError(fns.comps_(ids, cols, DATE, null, inv()));
    expect(big.code).toBe("#VALUE!");
    expect(big.message).toBe("COMPS of 157 projects × 64 columns is more than 10000 cells");
  });

  it("refuses a malformed column before asking anything", async () => {
    const e = await excelError(fns.comps_([["aave"]], [["revenue:3w"]], DATE, null, inv()));
    expect(e.code).toBe("#VALUE!");
    expect(e.message).toMatch(/"3w" is not a window/);
    const twice = await excelError(fns.comps_([["aave"]], [["a/b/c"]], DATE, null, inv()));
    expect(twice.message).toMatch(/divides more than once/);
  });

  it("costs no more requests than the same cells as VALUE formulas (40 × 8)", async () => {
    const projects = [
      "aave",
      "uniswap",
      "lido-finance",
      "makerdao",
      "compound",
      "curve",
      "gmx",
      "dydx",
      "pancakeswap",
      "sushiswap",
    ];
    const columns = [
      "revenue:ttm",
      "fees:30d",
      "fees:90d",
      "market_cap_fully_diluted",
      "tvl",
      "market_cap_fully_diluted/revenue:ttm",
      "user_dau:30d",
      "revenue:ytd",
    ];
    const forty = [...projects, ...projects, ...projects, ...projects];
    // A cold engine for each side: a new simulator and a runtime configured afresh (empty caches).
    const cold = async (): Promise<void> => {
      h = await restart(h);
    };
    await cold();
    await fns.comps_([forty], [[columns.join(",")]], DATE, null, inv());
    const compsRequests = h.requests().length;
    await cold();
    await Promise.all(
      forty.flatMap((p) =>
        columns.map((c) => {
          const [a, b] = c.split("/");
          const one = (t: string) => {
            const [m, w] = t.split(":");
            return Promise.resolve(fns.value_(p, m, DATE, w ? `window=${w}` : null, inv())).catch(
              () => null
            );
          };
          return b ? Promise.all([one(a), one(b)]) : one(a);
        })
      )
    );
    const cellRequests = h.requests().length;
    expect(compsRequests).toBeGreaterThan(0);
    expect(compsRequests).toBeLessThanOrEqual(cellRequests);
  });
});

async function restart(old: Harness): Promise<Harness> {
  await old.close();
  return startHarness();
}
