/**
 * BREAKDOWN as a user reads it: the words of each #N/A, the figures and their dates, the shares and when they
 * are NM, the order of every project's rows, and the arguments refused before any request.
 */
import * as fns from "../../src/functions/functions";
import { MAX_IDS } from "../../src/functions/coerce-lists";
import { currentRuntime } from "../../src/runtime/runtime";
import { conflictingFetch } from "../property/conflicting-fetch";
import { dataset, excelError, inv, showTable, startHarness, type Harness } from "./harness";

/** Fees the service sends twice, with two values, on 2024-01-15 (the proxy of conflicts.test.ts). */
const CONFLICTS = new Set(["uniswap", "compound", "aave"].map((p) => `${p}|fees|2024-01-15`));

let h: Harness;
beforeAll(async () => {
  const fetch = conflictingFetch((p, m, date) => CONFLICTS.has(`${p}|${m}|${date}`));
  h = await startHarness(
    { rateLimitPerMinute: 100_000, fetch: fetch(globalThis.fetch.bind(globalThis)) },
    { duplicateRows: 0 }
  );
});
afterAll(() => h.close());
beforeEach(() => {
  currentRuntime().engine.clear();
  h.sim.clearLog();
});

const table = async (call: unknown): Promise<unknown[][]> => showTable((await call) as unknown[][]);
const breakdown = (
  metric: string,
  projects: string[] | null,
  start: string | null,
  end: string | null,
  options: string | null = null
) =>
  table(
    fns.breakdown_(metric, (projects?.map((p) => [p]) ?? null) as never, start, end, options, inv())
  );
const day = (project: string, metric: string, date: string): number =>
  dataset.daily(project, metric, { start: date, end: date })[0].value!;

describe("the words of a period", () => {
  it("names a period that starts a month but is not the whole month by its two days", async () => {
    const rows = await breakdown("revenue", ["aave", "blast"], "2024-02-01", "2024-02-10");
    expect(rows[2][3]).toBe(
      "#N/A: no blast revenue data in 2024-02-01..2024-02-10 (0 of 10 days; no value on 10 days from 2024-02-01)"
    );
  });

  it("names a single day by its date alone", async () => {
    const rows = await breakdown("revenue", ["aave", "blast"], "2024-02-10", "2024-02-10");
    expect(rows[2][3]).toBe(
      "#N/A: no blast revenue data in 2024-02-10 (0 of 1 days; no value on 2024-02-10)"
    );
  });

  it("dates a row without a figure by the period asked", async () => {
    const rows = await breakdown("revenue", ["aave", "blast", ""], "2024-02-01", "2024-02-10");
    expect(rows[2].slice(5)).toEqual(["2024-02-01", "2024-02-10"]);
    expect(rows[3]).toEqual([
      "",
      "",
      "revenue",
      "#N/A: no project given (the cell is empty)",
      "",
      "2024-02-01",
      "2024-02-10",
    ]);
  });

  it("says a partial period's reason without calling a live project archived", async () => {
    const rows = await breakdown("revenue", ["aave", "blast"], "2024-02-01", "2024-02-29");
    expect(rows[2][3]).toBe(
      "#N/A: February 2024 is not complete for blast revenue: 1 of 29 days (no value on 28 days from 2024-02-01; the first value is on 2024-02-29); partial=include shows it"
    );
  });
});

describe("a single day", () => {
  it("shows the day's value of a metric whose kind is not known, and NM shares since it does not add up", async () => {
    const rows = await breakdown("fees_cumulative", ["nova", "aave"], "2024-02-10", "2024-02-10");
    expect(rows[1][3]).toBeCloseTo(day("nova", "fees_cumulative", "2024-02-10"), 6);
    expect(rows[1][4]).toBe(
      "#N/A: NM: fees_cumulative figures do not add up into a total, so shares of it mean nothing"
    );
    expect(rows[2][3]).toBe('#N/A: metric "fees_cumulative" is not available for project "aave"');
  });

  it("asks for agg= over a period of a metric whose kind is not known", async () => {
    const error = await excelError(
      fns.breakdown_("fees_cumulative", [["nova"]], "2024-02-01", "2024-02-10", null, inv())
    );
    expect(error).toEqual({
      code: "#N/A",
      message:
        "the kind of fees_cumulative is not known: add agg=sum, avg or last (sum for an amount per day, avg for a rate or an average, last for a level or a running total)",
    });
  });
});

describe("shares", () => {
  const shareOf = async (
    metric: string,
    options: string | null = null,
    projects = ["aave", "uniswap"]
  ) => {
    const rows = await breakdown(metric, projects, "2024-02-01", "2024-02-29", options);
    return rows.slice(1).map((r) => r[4]);
  };
  const NM = (metric: string, how = "") =>
    `#N/A: NM: ${metric} figures${how} do not add up into a total, so shares of it mean nothing`;

  it("adds up flows, levels, counts and daily users: shares that sum to 1", async () => {
    for (const metric of ["fees", "tvl", "tokenholders", "user_dau"]) {
      const shares = (await shareOf(metric, null, ["aave", "compound"])) as number[];
      expect(shares.every((s) => typeof s === "number" && s > 0)).toBe(true);
      expect(shares[0] + shares[1]).toBeCloseTo(1, 12);
    }
  });

  it("is NM for prices and multiples, whose figures do not add up", async () => {
    expect(await shareOf("price")).toEqual([NM("price"), NM("price")]);
    expect(await shareOf("ps_fully_diluted")).toEqual([
      NM("ps_fully_diluted"),
      NM("ps_fully_diluted"),
    ]);
  });

  it("is NM for a flow rolled up with agg=min or agg=max", async () => {
    for (const agg of ["min", "max"])
      expect(await shareOf("fees", `agg=${agg}`)).toEqual([
        NM("fees", ` rolled up with agg=${agg}`),
        NM("fees", ` rolled up with agg=${agg}`),
      ]);
  });

  it("adds up a metric of unknown kind rolled up by sum, last or first, and not by avg", async () => {
    for (const agg of ["sum", "last", "first"]) {
      const rows = await breakdown(
        "fees_cumulative",
        ["nova"],
        "2024-02-01",
        "2024-02-29",
        `agg=${agg}`
      );
      expect(rows[1][4]).toBe(1);
    }
    const averaged = await breakdown(
      "fees_cumulative",
      ["nova"],
      "2024-02-01",
      "2024-02-29",
      "agg=avg"
    );
    expect(averaged[1][4]).toBe(NM("fees_cumulative"));
  });

  it("leaves out of the total a project with no data at all, and gives it no share", async () => {
    const rows = await breakdown("fees", ["aave", "anchor-protocol"], "2024-02-01", "2024-02-29");
    expect(rows[1][4]).toBe(1);
    expect(rows[2][3]).toMatch(/; anchor-protocol is archived$/);
    expect(rows[2][4]).toBe("");
  });

  // opensea made no code commit on 2024-05-05.
  it("gives a project whose figure is 0 a share of 0, not an NM", async () => {
    const rows = await breakdown(
      "code_commits",
      ["ethereum", "opensea"],
      "2024-05-05",
      "2024-05-05"
    );
    expect(rows[2][3]).toBe(0);
    expect(rows[1][4]).toBe(1);
    expect(rows[2][4]).toBe(0);
  });

  it("is NM when the total is 0", async () => {
    const rows = await breakdown("code_commits", ["opensea"], "2024-05-05", "2024-05-05");
    expect(rows[1][3]).toBe(0);
    expect(rows[1][4]).toBe("#N/A: NM: the total code_commits is 0");
  });
});

describe("every project, when none is listed", () => {
  it("lists the projects with data largest first, then those whose period is not whole by id, and leaves out the rest", async () => {
    const rows = await breakdown("fees", null, "2025-01-15", "2025-12-31");
    const ids = rows.slice(1).map((r) => r[0]);
    // fantom's data stops in January, monad's starts in November: each is #N/A, listed last; anchor-protocol
    // (archived in 2022) has no day in the period and no row.
    expect(ids.slice(-2)).toEqual(["fantom", "monad"]);
    expect(ids).not.toContain("anchor-protocol");
    expect(rows.at(-2)![3]).toBe(
      "#N/A: 2025-01-15..2025-12-31 is not complete for fantom fees: 17 of 351 days (the data goes up to 2025-01-31); partial=include shows it"
    );
    const values = rows.slice(1, -2).map((r) => r[3] as number);
    expect(values.length).toBeGreaterThan(30);
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeLessThan(values[i - 1]);
    expect(rows[1][4]).toBe("#N/A: no share: the total lacks fantom, whose figure is #N/A");
  });

  it("lists a project whose only day was sent with two values, as #N/A by id after the figures, and gives no shares", async () => {
    const rows = await breakdown("fees", null, "2024-01-15", "2024-01-15");
    expect(rows.slice(-3).map((r) => [r[0], r[3]])).toEqual(
      ["aave", "compound", "uniswap"].map((p) => [
        p,
        `#N/A: the service sent ${p} fees for 2024-01-15 twice with different values; no figure for that day`,
      ])
    );
    expect(typeof rows.at(-4)![3]).toBe("number");
    expect(rows[1][4]).toBe("#N/A: no share: the total lacks aave, whose figure is #N/A");
    // Listed, it is its row, and the total lacks it.
    const listed = await breakdown("fees", ["solana", "aave"], "2024-01-15", "2024-01-15");
    expect(listed[1][4]).toBe("#N/A: no share: the total lacks aave, whose figure is #N/A");
  });

  it("leaves out the projects that do not have the metric", async () => {
    const rows = await breakdown("fees_cumulative", null, "2024-02-01", "2024-02-29", "agg=last");
    expect(rows.map((r) => r[0])).toEqual(["project_id", "nova"]);
    expect(rows[1][4]).toBe(1);
  });

  it("is #N/A naming the period when no project has data in it", async () => {
    const cases: [string | null, string | null, string | null, string][] = [
      ["2008-01-01", "2008-01-31", null, "2008-01-01 to 2008-01-31"],
      [null, "2008-01-31", null, "2008-01-02 to 2008-01-31"],
      ["2008-01-05", null, "vintage=2008-02-01", "2008-01-05 to 2008-02-01"],
      [null, null, "vintage=2008-01-01", "the last 30 days (2007-12-03 to 2008-01-01)"],
    ];
    for (const [start, end, options, period] of cases)
      expect(
        await excelError(fns.breakdown_("fees", null as never, start, end, options, inv()))
      ).toEqual({ code: "#N/A", message: `no fees breakdown for ${period}` });
  });
});

describe("arguments refused before any request", () => {
  it("names the function, the argument and the bound in each refusal", async () => {
    const refusals: [unknown[], string][] = [
      [
        ["fees", [["aave"]], null, null, "bogus=1"],
        'unknown option "bogus"; BREAKDOWN takes partial, agg, fill, bridged, vintage',
      ],
      [["", [["aave"]], null, null, null], "metric is missing"],
      [["fees", [[true]], null, null, null], "projects must be text, got true"],
      [
        ["fees", [["aave"]], "x", null, null],
        'start "x" is not a date: use a date cell or text like "2024-01-31"',
      ],
      [
        ["fees", [["aave"]], null, "x", null],
        'end "x" is not a date: use a date cell or text like "2024-01-31"',
      ],
      // As many ids as a formula takes, and an empty cell: one position too many.
      [
        ["fees", [...Array.from({ length: MAX_IDS }, () => ["aave"]), [""]], null, null, null],
        `projects lists more than ${MAX_IDS} ids; at most ${MAX_IDS} fit in one formula`,
      ],
    ];
    for (const [args, message] of refusals) {
      const [metric, projects, start, end, options] = args;
      expect(
        await excelError(fns.breakdown_(metric, projects as never, start, end, options, inv()))
      ).toEqual({ code: "#VALUE!", message });
    }
    expect(h.requests()).toEqual([]);
  });
});

describe("a failing service", () => {
  it("fails the whole BREAKDOWN, as every function does, rather than showing the failure as a project's row", async () => {
    // The catalogues are read (and kept) first: only the daily series fail.
    await breakdown("revenue", ["aave"], "2024-02-01", "2024-02-29");
    h.sim.setKnobs({ fraction5xx: 1 });
    try {
      const error = await excelError(
        fns.breakdown_("fees", [["aave"]], "2024-02-01", "2024-02-29", null, inv())
      );
      expect(error.code).toBe("#N/A");
      expect(error.message).toMatch(/^The service could not be reached: .*HTTP 5\d\d/);
    } finally {
      h.sim.setKnobs({ fraction5xx: 0 });
    }
  });
});
