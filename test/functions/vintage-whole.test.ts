/**
 * vintage= on the functions that show the service's whole answers — STATEMENT, AGGREGATION, AGGREGATIONS —
 * against the simulator restating days after it first served them. Neither a statement nor an aggregate is kept
 * in the record: each figure as known then is rebuilt from the daily series as known then. The oracle is the
 * simulator's own dataset (the values as generated) and the restatement's factor.
 */
import * as fns from "../../src/functions/functions";
import { currentRuntime } from "../../src/runtime/runtime";
import { excelError, expectedDaily, inv, show, startHarness, TODAY, type Harness } from "./harness";

const FACTOR = 1.25;
/** The first run: the 20th, 10:00 UTC. The refresh that finds the restatements: the 22nd, 09:00 UTC. */
const FIRST = Date.UTC(2026, 10, 20, 10);
const REFRESH = Date.UTC(2026, 10, 22, 9);

let now = FIRST;
let h: Harness;
beforeAll(async () => {
  h = await startHarness(
    { now: () => now },
    {
      now: () => now,
      today: TODAY,
      restatements: {
        mode: "served",
        days: [
          { projectId: "aave", metricId: "fees", day: "2026-08-15", factor: FACTOR },
          { projectId: "uniswap", metricId: "fees", day: "2026-11-10", factor: FACTOR },
        ],
      },
    }
  );
});
afterAll(() => h.close());

const sum = (projectId: string, metricId: string, from: string, to: string): number =>
  expectedDaily(projectId, metricId, from, to).reduce((s, p) => s + p.value!, 0);
const day = (projectId: string, metricId: string, d: string): number =>
  expectedDaily(projectId, metricId, d, d)[0].value!;

async function refresh(at: number): Promise<void> {
  now = at;
  currentRuntime().engine.refresh();
}

type Rows = unknown[][];
const statement = async (project: string, options: string | null): Promise<Rows> =>
  ((await fns.statement_(project, "quarter", "1y", options, inv())) as Rows).map((r) =>
    r.map(show)
  );
/** A statement's cell by line and period heading. */
const cell = (table: Rows, metric: string, period: string): unknown =>
  table.find((r) => r[1] === metric)![table[0].indexOf(period)];
const aggregates = async (options: string | null): Promise<Map<string, unknown>> => {
  const t = (await fns.aggregations_([["uniswap"]], [["fees"], ["tvl"]], options, inv())) as Rows;
  const [m, n, v] = ["metric_id", "metric_aggregation_name", "value"].map((c) => t[0].indexOf(c));
  return new Map(t.slice(1).map((r) => [`${String(r[m])} ${String(r[n])}`, show(r[v])]));
};

const q3 = sum("aave", "fees", "2026-07-01", "2026-09-30");
const restatedQ3 = q3 + day("aave", "fees", "2026-08-15") * (FACTOR - 1);
/** uniswap's fees over the 30 days to the latest (the 20th), as generated. */
const sum30 = sum("uniswap", "fees", "2026-10-22", TODAY);
const restatedSum30 = sum30 + day("uniswap", "fees", "2026-11-10") * (FACTOR - 1);

beforeAll(async () => {
  // The first run sees the days as generated (one answer each); the refresh two days later sees them restated.
  expect(cell(await statement("aave", null), "Fees", "Q3 '26")).toBeCloseTo(q3, 4);
  expect(await fns.aggregation_("uniswap", "fees", "sum_30d", null, inv())).toBeCloseTo(sum30, 4);
  await refresh(REFRESH);
  expect(await fns.value_("uniswap", "fees", "2026-11-10", null, inv())).toBeCloseTo(
    day("uniswap", "fees", "2026-11-10") * FACTOR,
    6
  );
});

describe("STATEMENT with vintage=", () => {
  it("gives each figure as first served, where today the statement no longer foots", async () => {
    // Today the service's statement (not restated) no longer agrees with its restated days: no figure.
    expect(cell(await statement("aave", null), "Fees", "Q3 '26")).toBe(
      `#N/A: the service's aave fees for Q3 2026 is 145,230,110.4, but its daily series give ${restatedQ3.toLocaleString("en-US", { maximumFractionDigits: 2 })} (2026-07-01..2026-09-30): no figure rather than either`
    );
    const then = await statement("aave", "vintage=2026-11-20");
    expect(cell(then, "Fees", "Q3 '26")).toBeCloseTo(q3, 4);
    // A line the restatement did not touch is the same figure then and now.
    expect(cell(then, "Revenue", "Q2 '26")).toBe(
      cell(await statement("aave", null), "Revenue", "Q2 '26")
    );
    // As of the refresh, the days say the restated figure and the statement says neither it nor today's.
    expect(cell(await statement("aave", "vintage=2026-11-22"), "Fees", "Q3 '26")).toMatch(
      /^#N\/A: the service's aave fees for Q3 2026 is 145,230,110.4, but its daily series give .* now and .* as of 2026-11-22: it is not the rule of its days, so it cannot be rebuilt as of 2026-11-22$/
    );
  });

  it("is #N/A, saying when it was first seen, before anything of it was seen", async () => {
    expect(
      await excelError(fns.statement_("aave", "quarter", "1y", "vintage=2026-11-19", inv()))
    ).toEqual({
      code: "#N/A",
      message:
        "not known on 2026-11-19: first seen 2026-11-20 (aave fees, 2026-10-01 and 49 more days); no figure for Q4 2026",
    });
  });

  it("leaves out the quarter still running then, and shows it as known then with partial=include", async () => {
    const then = await statement("aave", "vintage=2026-11-20; partial=include; headers=2");
    expect(then[1]).toContain("Q4 '26");
    expect(then[0][then[1].indexOf("Q4 '26")]).toBe("Oct 1 – Nov 20, 2026 (51 of 92 days)");
    expect(cell(then.slice(1), "Fees", "Q4 '26")).toBeCloseTo(
      sum("aave", "fees", "2026-10-01", TODAY),
      4
    );
    expect((await statement("aave", "vintage=2026-11-20"))[0]).not.toContain("Q4 '26");
  });

  it("computes changes from the two figures as known then", async () => {
    const q2 = sum("aave", "fees", "2026-04-01", "2026-06-30");
    const change = cell(
      await statement("aave", "vintage=2026-11-20; values=pop"),
      "Fees",
      "Q3 '26"
    );
    expect(change).toBeCloseTo(q3 / q2 - 1, 9);
  });

  it("is the statement itself as known right now", async () => {
    const plain = await statement("uniswap", "partial=include; values=pop");
    const at = new Date(now).toISOString().replace(".000Z", "Z");
    expect(await statement("uniswap", `partial=include; values=pop; vintage=${at}`)).toEqual(plain);
  });

  it("asks nothing more than the same statement without it", async () => {
    await statement("aave", null);
    h.sim.clearLog();
    await statement("aave", "vintage=2026-11-20");
    await statement("aave", "vintage=2026-11-22T08:00:00Z");
    await excelError(fns.statement_("aave", "quarter", "1y", "vintage=2026-11-19", inv()));
    expect(h.requests()).toEqual([]);
  });
});

describe("AGGREGATION and AGGREGATIONS with vintage=", () => {
  it("rebuild an aggregate from the days as known then, never the service's figure of today", async () => {
    const at = (vintage: string | null) =>
      fns.aggregation_("uniswap", "fees", "sum_30d", vintage && `vintage=${vintage}`, inv());
    // The service's own figure, today as on the first day (the simulator does not restate its aggregates).
    expect(await at(null)).toBeCloseTo(sum30, 4);
    expect(await at("2026-11-20")).toBeCloseTo(sum30, 4);
    expect(await at("2026-11-22T08:59:59Z")).toBeCloseTo(sum30, 4);
    expect(await at("2026-11-22")).toBeCloseTo(restatedSum30, 4);
  });

  it("are #N/A, saying when it was first seen, before anything of it was seen", async () => {
    expect(
      await excelError(fns.aggregation_("uniswap", "fees", "sum_30d", "vintage=2026-11-19", inv()))
    ).toEqual({
      code: "#N/A",
      message:
        "not known on 2026-11-19: first seen 2026-11-20 (uniswap fees, 2026-11-20); no sum_30d of fees for uniswap",
    });
  });

  it("are #N/A where a day of the window was not known then", async () => {
    // change_30d's 60 days reach before what the first run read: those days were first seen at the refresh.
    expect(
      (
        await excelError(
          fns.aggregation_("uniswap", "fees", "change_30d", "vintage=2026-11-21", inv())
        )
      ).message
    ).toBe(
      "not known on 2026-11-21: first seen 2026-11-22 (uniswap fees, 2026-09-22 and 23 more days); no figure for change_30d (2026-09-22..2026-11-20, as of 2026-11-21)"
    );
  });

  it("are #N/A for an aggregate whose name says no days to rebuild it from", async () => {
    expect(
      await excelError(fns.aggregation_("uniswap", "fees", "ath", "vintage=2026-11-22", inv()))
    ).toEqual({
      code: "#N/A",
      message:
        "ath of fees for uniswap cannot be known as of 2026-11-22: the service's aggregates are not kept, and its name says no window of days to rebuild it from (only latest, sum_Nd, avg_Nd, change_Nd and trend_Nd can be)",
    });
  });

  it("give the service's figures by its own formulas where no day changed, flows and levels", async () => {
    const today = await aggregates(null);
    const then = await aggregates("vintage=2026-11-22");
    expect([...then.keys()]).toEqual([...today.keys()]);
    for (const [key, value] of then) {
      if (/ (ath|atl)$/.test(key))
        expect(String(value)).toMatch(/^#N\/A: .* cannot be known as of 2026-11-22/);
      else if (/^fees (sum_30d|change_30d|trend_90d)$/.test(key)) continue;
      else
        expect({ key, value: value as number }).toEqual({
          key,
          value: expect.closeTo(today.get(key) as number, 6) as number,
        });
    }
    // The windows holding the restated day: the restated figure.
    expect(then.get("fees sum_30d")).toBeCloseTo(restatedSum30, 4);
    const previous30 = sum("uniswap", "fees", "2026-09-22", "2026-10-21");
    expect(then.get("fees change_30d")).toBeCloseTo(restatedSum30 / previous30 - 1, 9);
    expect(today.get("fees change_30d")).toBeCloseTo(sum30 / previous30 - 1, 9);
    // As of the first day the 30 days were known, as generated; what the first run did not read was not.
    const first = await aggregates("vintage=2026-11-20");
    expect(first.get("fees sum_30d")).toBeCloseTo(sum30, 4);
    expect(String(first.get("fees trend_90d"))).toMatch(
      /^#N\/A: not known on 2026-11-20: first seen 2026-11-22/
    );
  });

  it("ask nothing more than the same aggregates without it", async () => {
    await aggregates(null);
    h.sim.clearLog();
    await aggregates("vintage=2026-11-22");
    await fns.aggregation_("uniswap", "fees", "sum_30d", "vintage=2026-11-22", inv());
    expect(h.requests()).toEqual([]);
  });

  it("take vintage= alone, refused in words otherwise", async () => {
    expect(
      (await excelError(fns.aggregation_("uniswap", "fees", "sum_30d", "partial=include", inv())))
        .message
    ).toContain('option "partial" does not apply to AGGREGATION');
    expect(
      (await excelError(fns.aggregations_([["uniswap"]], [["fees"]], "vintage=2026-11-30", inv())))
        .message
    ).toContain("is after today");
  });
});

describe("STATEMENT with vintage= where the service recomputed its statement since", () => {
  it("gives the figure of the days as known then, as VALUE does", async () => {
    // A provider's fix of a block: first served counted twice, refilled at the next answer. The statement
    // (the service's, never doubled) foots with the days as refilled, so then it was the rule of the days then.
    h.sim.setKnobs({
      restatements: {
        mode: "refill",
        refill: { projectId: "gmx", metricIds: ["fees"], from: "2026-06-01", to: "2026-10-15" },
      },
    });
    await refresh(Date.UTC(2026, 10, 22, 12));
    const g = sum("gmx", "fees", "2026-07-01", "2026-09-30");
    expect(String(cell(await statement("gmx", null), "Fees", "Q3 '26"))).toMatch(
      /^#N\/A: the service's gmx fees for Q3 2026 is .*, but its daily series give /
    );
    await refresh(Date.UTC(2026, 10, 23, 9));
    expect(cell(await statement("gmx", null), "Fees", "Q3 '26")).toBeCloseTo(g, 4);
    const then = cell(await statement("gmx", "vintage=2026-11-22"), "Fees", "Q3 '26");
    expect(then).toBeCloseTo(2 * g, 4);
    expect(
      await fns.value_("gmx", "fees", "2026-09-30", "period=quarter; vintage=2026-11-22", inv())
    ).toBeCloseTo(then as number, 4);
  });
});
