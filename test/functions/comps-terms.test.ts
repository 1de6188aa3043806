/**
 * COMPS cell by cell as a user reads it: the columns it takes, what each term passes on to VALUE (partial,
 * chains, fills, maxage, annualize), the headers, the reason a ratio shows when a term has none, and a ratio's
 * two terms as of one day when their latest days differ.
 */
import * as fns from "../../src/functions/functions";
import { MAX_COMPS_CELLS } from "../../src/functions/impl/comps";
import { currentRuntime } from "../../src/runtime/runtime";
import type { FetchLike } from "../../src/client";
import { conflictingFetch } from "../property/conflicting-fetch";
import { NOW, excelError, inv, showTable, shown, startHarness, type Harness } from "./harness";

/** The runtime's clock and the service's (its day is published when this passes midnight). */
let clock = NOW;
let service = NOW;

/** uniswap's fees of 2026-11-19, sent twice with two values (the proxy of conflicts.test.ts). */
const CONFLICT = "uniswap|fees|2026-11-19";

/** A metric whose series the service no longer serves: its path is answered 404 (the simulator's own). */
let withdrawn: string | undefined;
const withdrawing =
  (fetch: FetchLike): FetchLike =>
  (url, init) =>
    fetch(
      withdrawn ? url.replace(`/v2/metrics/${withdrawn}?`, `/v2/metrics/${withdrawn}-gone?`) : url,
      init
    );

let h: Harness;
beforeAll(async () => {
  const conflicting = conflictingFetch((p, m, date) => `${p}|${m}|${date}` === CONFLICT);
  h = await startHarness(
    {
      now: () => clock,
      rateLimitPerMinute: 100_000,
      fetch: withdrawing(conflicting(globalThis.fetch.bind(globalThis))),
    },
    { now: () => service, duplicateRows: 0 }
  );
});
afterAll(() => h.close());
beforeEach(() => {
  clock = service = NOW;
  withdrawn = undefined;
  currentRuntime().engine.clear();
  h.sim.clearLog();
});

const DATE = "2024-06-30";
const comps = async (
  projects: unknown,
  columns: unknown,
  date: string | null,
  options: string | null
) =>
  showTable(
    (await fns.comps_(projects as never, columns as never, date, options, inv())) as unknown[][]
  );
const valueOf = (project: string, metric: string, date: string | null, options: string | null) =>
  shown(fns.value_(project, metric, date, options, inv()));

describe("the columns and arguments COMPS takes", () => {
  it("takes its columns as one comma text, or as a range whose empty cells it skips", async () => {
    const header = ["Project", "Fees", "Total value locked"];
    expect((await comps([["aave"]], "fees, tvl", DATE, null))[0]).toEqual(header);
    expect((await comps([["aave"]], [["fees"], [""], ["tvl"]], DATE, null))[0]).toEqual(header);
  });

  it("refuses a panel without projects, a column that is not text and a date that is not a date, before any request", async () => {
    expect(await excelError(fns.comps_([[""]], [["fees"]], DATE, null, inv()))).toEqual({
      code: "#VALUE!",
      message: "projects is missing",
    });
    expect(await excelError(fns.comps_([["aave"]], [[true]] as never, DATE, null, inv()))).toEqual({
      code: "#VALUE!",
      message: "columns must be text, got true",
    });
    expect(await excelError(fns.comps_([["aave"]], [["fees"]], "x", null, inv()))).toEqual({
      code: "#VALUE!",
      message: 'date "x" is not a date: use a date cell or text like "2024-01-31"',
    });
    expect(h.requests()).toEqual([]);
  });

  it(`computes a panel of exactly ${MAX_COMPS_CELLS} cells`, async () => {
    // 50 columns (of at most 64) for 200 projects none of which is known: cells without a request each.
    const projects = Array.from({ length: MAX_COMPS_CELLS / 50 }, (_, i) => [`p${i}`]);
    const columns = [Array.from({ length: 50 }, () => "fees").join(",")];
    const table = await comps(projects, [columns], DATE, "headers=0");
    expect(table).toHaveLength(200);
    expect(table[199]).toHaveLength(50);
    expect(table[199][49]).toMatch(/^#N\/A: unknown project "p199"/);
  });
});

describe("each term is VALUE's, with the panel's options", () => {
  it("passes partial=include on: a window not yet whole shows the days there are", async () => {
    const table = await comps([["ethena"]], [["revenue:ttm"]], DATE, "partial=include");
    expect(typeof table[1][1]).toBe("number");
    expect(table[1][1]).toEqual(
      await valueOf("ethena", "revenue", DATE, "window=ttm; partial=include")
    );
  });

  it("passes every chain of a chain filter on", async () => {
    const table = await comps([["aave"]], [["revenue:30d"]], DATE, "chains=polygon,ethereum");
    const both = await valueOf("aave", "revenue", DATE, "window=30d; chains=polygon,ethereum");
    expect(typeof both).toBe("number");
    expect(table[1][1]).toEqual(both);
    expect(both).not.toEqual(await valueOf("aave", "revenue", DATE, "window=30d; chains=polygon"));
  });

  it("refuses a latest figure older than maxage, and shows one within it", async () => {
    // sushiswap's data stops 5 days before today.
    const table = await comps([["aave"], ["sushiswap"]], [["tvl"]], null, "maxage=3d");
    expect(table[1][1]).toEqual(await valueOf("aave", "tvl", null, null));
    expect(table[2][1]).toMatch(
      /^#N\/A: the latest sushiswap tvl value is from 2026-11-15, 5 days before today \(maxage=3d\)/
    );
    expect((await comps([["sushiswap"]], [["tvl"]], null, "maxage=7d"))[1][1]).toEqual(
      await valueOf("sushiswap", "tvl", null, null)
    );
  });
});

describe("fills", () => {
  it("takes fill=none beside another fill: a panel of flows is not refused for it", async () => {
    const table = await comps([["aave"]], [["fees:30d"]], DATE, "fill=zero,none");
    expect(table[1][1]).toEqual(await valueOf("aave", "fees", DATE, "window=30d; fill=zero"));
  });

  it("refuses a fill no column admits with the reason of the first metric it knows", async () => {
    const error = await excelError(
      fns.comps_([["aave"]], [["nosuchmetric, tvl"]], DATE, "fill=zero", inv())
    );
    expect(error.code).toBe("#VALUE!");
    expect(error.message).toMatch(
      /^fill=zero applies to no column of this panel \(fill=zero counts a missing day of a flow as 0; tvl is a level/
    );
  });

  it("refuses a fill for a panel of metrics nobody knows, with no reason of a metric", async () => {
    expect(
      await excelError(fns.comps_([["aave"]], [["nosuchmetric:30d"]], DATE, "fill=zero", inv()))
    ).toEqual({ code: "#VALUE!", message: "fill=zero applies to no column of this panel" });
  });

  it("gives a metric nobody knows no fill, even where agg= would admit one", async () => {
    const error = await excelError(
      fns.comps_([["aave"]], [["tvl, nosuchmetric:30d"]], DATE, "fill=zero; agg=sum", inv())
    );
    expect(error.code).toBe("#VALUE!");
    expect(error.message).toMatch(/^fill=zero applies to no column of this panel/);
  });
});

describe("headers say what a window is", () => {
  it("calls annualised only the windows of summed metrics, with annualize=1", async () => {
    const table = await comps(
      [["aave"]],
      [["fees, fees:30d, nosuchmetric:30d"]],
      DATE,
      "annualize=1; agg=sum"
    );
    expect(table[0]).toEqual(["Project", "Fees", "Fees (30d annualised)", "nosuchmetric (30d)"]);
    expect(table[1][1]).toEqual(await valueOf("aave", "fees", DATE, null));
  });

  it("calls a summed window by its days without annualize=1, whatever the fill", async () => {
    expect((await comps([["aave"]], [["fees:30d"]], DATE, "fill=zero"))[0]).toEqual([
      "Project",
      "Fees (30d)",
    ]);
  });
});

describe("ratios", () => {
  it("shows the reason of the term that has no figure, the numerator's first", async () => {
    const table = await comps(
      [["aave"]],
      [["nosuchmetric/othermetric, fees/othermetric"]],
      DATE,
      null
    );
    expect(table[1].slice(1)).toEqual([
      '#N/A: unknown metric "nosuchmetric"',
      '#N/A: unknown metric "othermetric"',
    ]);
  });

  it("reads the later term again as of the earlier day when the latest days differ, and dates the row by the earlier", async () => {
    // The session read the market cap at 00:05, before the service published 2026-11-20 (its latest is
    // then 2026-11-19, kept for half an hour); the service publishes, and fees are read ten minutes later.
    clock = Date.UTC(2026, 10, 20, 0, 5);
    service = Date.UTC(2026, 10, 19, 23, 0);
    const cap = (await fns.value_("aave", "market_cap_fully_diluted", null, null, inv())) as number;
    service = Date.UTC(2026, 10, 20, 1, 0);
    clock = Date.UTC(2026, 10, 20, 0, 15);
    const fees19 = (await fns.value_("aave", "fees", "2026-11-19", "window=30d", inv())) as number;
    const table = await comps(
      [["aave"]],
      [["fees:30d, market_cap_fully_diluted/fees:30d, fees:30d/market_cap_fully_diluted"]],
      null,
      "asof=1; maxage=2d"
    );
    expect(table[0]).toEqual([
      "Project",
      "As of",
      "Fees (30d)",
      "Fully diluted market cap / Fees (30d)",
      "Fees (30d) / Fully diluted market cap",
    ]);
    // The fees alone are today's; the ratios are as of 2026-11-19, the row's earliest day.
    expect(table[1][1]).toBe("2026-11-19");
    expect(table[1][2]).toEqual(await valueOf("aave", "fees", "2026-11-20", "window=30d"));
    expect(table[1][3]).toBeCloseTo(cap / fees19, 9);
    expect(table[1][4]).toBeCloseTo(fees19 / cap, 15);
  });
});

describe("a ratio whose term read again has no figure", () => {
  it("shows that term's reason", async () => {
    clock = Date.UTC(2026, 10, 20, 0, 5);
    service = Date.UTC(2026, 10, 19, 23, 0);
    await fns.value_("uniswap", "market_cap_fully_diluted", null, null, inv());
    service = Date.UTC(2026, 10, 20, 1, 0);
    clock = Date.UTC(2026, 10, 20, 0, 15);
    const table = await comps(
      [["uniswap"]],
      [["fees, market_cap_fully_diluted/fees, fees/market_cap_fully_diluted"]],
      null,
      null
    );
    // The fees of 2026-11-20 are there; as of 2026-11-19, the cap's day, they are a conflict.
    expect(typeof table[1][1]).toBe("number");
    const conflict =
      "#N/A: the service sent uniswap fees for 2026-11-19 twice with different values; no figure for that day";
    expect(table[1].slice(2)).toEqual([conflict, conflict]);
  });
});

describe("a ratio on a date", () => {
  it("divides the terms as of that date, a carried level's day kept, and dates the row by the older day", async () => {
    // tick-and-tock's TVL has no value after 2023-02-28 until after 2023-03-05 (edges.test.ts): carried.
    const table = await comps(
      [["tick-and-tock"]],
      [["revenue/tvl"]],
      "2023-03-05",
      "fill=previous,zero; asof=1"
    );
    expect(table[1][1]).toBe("2023-02-28");
    expect(table[1][2]).toBe(0);
  });
});

describe("a series the service does not find", () => {
  it("is its cells' #N/A saying so, and the rest of the panel stays", async () => {
    // The catalogues are read (and kept) first: only the fees series is withdrawn.
    await comps([["aave"]], [["revenue"]], DATE, null);
    withdrawn = "fees";
    const table = await comps([["aave"], ["uniswap"]], [["fees, tvl"]], DATE, null);
    const gone = "#N/A: fees data for aave, uniswap: not found (HTTP 404)";
    expect(table.slice(1).map((r) => r[1])).toEqual([gone, gone]);
    expect(table.slice(1).map((r) => typeof r[2])).toEqual(["number", "number"]);
  });
});

describe("a failing service", () => {
  it("fails the whole panel rather than showing the failure in a cell", async () => {
    // The catalogues are read (and kept) first: only the series fail.
    await comps([["aave"]], [["revenue"]], DATE, null);
    h.sim.setKnobs({ fraction5xx: 1 });
    try {
      const error = await excelError(fns.comps_([["aave"]], [["fees"]], DATE, null, inv()));
      expect(error.code).toBe("#N/A");
      expect(error.message).toMatch(/^The service could not be reached: .*HTTP 5\d\d/);
    } finally {
      h.sim.setKnobs({ fraction5xx: 0 });
    }
  });
});
