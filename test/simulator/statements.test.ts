import type { RunningSimulator } from "../../src/simulator";
import { date, expectClose, get, getList, num, start, sum, type Row } from "./helpers";

let sim: RunningSimulator;
beforeAll(async () => {
  // Sums over raw rows need every row once; repeated rows have their own tests (repeats.test.ts).
  sim = await start({ duplicateRows: 0 });
});
afterAll(() => sim.close());

/** Daily values of a project's metrics, oldest first. */
async function daily(project: string, metrics: string, range = ""): Promise<Row[]> {
  return (
    await getList(
      sim,
      `/v2/projects/${project}/metrics?metric_ids=${metrics}&order_direction=asc${range}`
    )
  ).data;
}

const statement = async (project: string, query = ""): Promise<Row[]> =>
  (await getList(sim, `/v2/projects/${project}/financial-statement${query}`)).data;

const inRange = (rows: Row[], from: string, to: string) =>
  rows.filter((r) => date(r) >= from && date(r) <= to);

describe("GET /v2/projects/{id}/financial-statement", () => {
  it("defaults to quarters over the last year, oldest first, income statement before key metrics", async () => {
    const rows = await statement("aave");
    expect([...new Set(rows.map((r) => r.timestamp_label_heading))]).toEqual([
      "Q2 '24",
      "Q3 '24",
      "Q4 '24",
      "Q1 '25",
      "Q2 '25",
    ]);
    expect(rows.every((r) => r.timestamp_granularity === "quarter")).toBe(true);
    const first = rows.filter((r) => r.timestamp_label_heading === "Q2 '24");
    expect(first.map((r) => [r.section, r.metric_id])).toEqual([
      ["Income statement", "fees"],
      ["Income statement", "fees_supply_side"],
      ["Income statement", "revenue"],
      ["Income statement", "token_incentives"],
      ["Income statement", "expenses"],
      ["Income statement", "earnings"],
      ["Key metrics", "tvl"],
      ["Key metrics", "active_loans"],
      ["Key metrics", "user_dau"],
      ["Key metrics", "user_mau"],
      ["Key metrics", "market_cap_fully_diluted"],
      ["Key metrics", "tokenholders"],
    ]);
    expect(first[0]).toMatchObject({
      timestamp: "2024-04-01T00:00:00+02:00",
      timestamp_label_subheading: "Apr 1 – Jun 30, 2024",
      project_name: "Aave",
      definition: expect.any(String),
    });
  });

  it("sums a quarter's daily flows: quarterly revenue equals the sum of its daily revenue", async () => {
    const rows = await statement("aave");
    const days = await daily("aave", "fees,revenue,earnings", "&start=2024-04-01");
    for (const [heading, from, to] of [
      ["Q3 '24", "2024-07-01", "2024-09-30"],
      ["Q4 '24", "2024-10-01", "2024-12-31"],
      ["Q1 '25", "2025-01-01", "2025-03-31"],
      ["Q2 '25", "2025-04-01", "2025-06-15"],
    ]) {
      const quarter = inRange(days, from, to);
      for (const metric of ["fees", "revenue", "earnings"]) {
        const row = rows.find(
          (r) => r.timestamp_label_heading === heading && r.metric_id === metric
        );
        expectClose(num(row?.value), sum(quarter.map((d) => num(d[metric]))), 1e-12);
      }
    }
  });

  it("takes a level's last value and a user count's mean over the period", async () => {
    const rows = await statement("aave");
    const quarter = await daily("aave", "tvl,user_dau", "&start=2025-01-01&end=2025-03-31");
    const tvl = quarter.map((d) => num(d.tvl)).filter((v) => v !== null);
    const users = quarter.map((d) => num(d.user_dau)).filter((v): v is number => v !== null);
    const q1 = (metric: string) =>
      num(
        rows.find((r) => r.timestamp_label_heading === "Q1 '25" && r.metric_id === metric)?.value
      );
    expectClose(q1("tvl"), tvl[tvl.length - 1]);
    expectClose(q1("user_dau"), sum(users) / users.length);
  });

  it("agrees with the daily series for weeks, months and years too", async () => {
    const days = await daily("uniswap", "fees,tvl", "&start=2023-01-01");
    const check = async (query: string, heading: string, from: string, to: string) => {
      const rows = await statement("uniswap", query);
      const fees = rows.find(
        (r) => r.timestamp_label_heading === heading && r.metric_id === "fees"
      );
      expect(fees).toBeDefined();
      expectClose(num(fees?.value), sum(inRange(days, from, to).map((d) => num(d.fees))), 1e-12);
    };
    await check("?timestamp_granularity=week&interval=1m", "W23 '25", "2025-06-02", "2025-06-08");
    await check("?timestamp_granularity=month&interval=1y", "Feb '25", "2025-02-01", "2025-02-28");
    await check("?timestamp_granularity=year&interval=2y", "2024", "2024-01-01", "2024-12-31");
  });

  it("labels weeks, months and years", async () => {
    const label = async (query: string, timestamp: string) => {
      const row = (await statement("aave", query)).find((r) => r.timestamp === timestamp);
      return [row?.timestamp_label_heading, row?.timestamp_label_subheading];
    };
    expect(
      await label("?timestamp_granularity=week&interval=1y", "2024-12-30T00:00:00+02:00")
    ).toEqual(["W01 '25", "Dec 30, 2024 – Jan 5, 2025"]);
    expect(
      await label("?timestamp_granularity=month&interval=1y", "2025-02-01T00:00:00+02:00")
    ).toEqual(["Feb '25", "Feb 1 – Feb 28, 2025"]);
    expect(
      await label("?timestamp_granularity=year&interval=5y", "2024-01-01T00:00:00+02:00")
    ).toEqual(["2024", "Jan 1 – Dec 31, 2024"]);
  });

  it("answers every granularity and interval with periods counted back from today", async () => {
    const periods: Record<string, number> = {};
    for (const granularity of ["year", "quarter", "month", "week"]) {
      for (const interval of ["1m", "1y", "2y", "3y", "5y", "max"]) {
        const rows = await statement(
          "aave",
          `?timestamp_granularity=${granularity}&interval=${interval}`
        );
        expect(rows.every((r) => r.timestamp_granularity === granularity)).toBe(true);
        periods[`${granularity}/${interval}`] = new Set(rows.map((r) => r.timestamp)).size;
      }
    }
    expect(periods["month/1m"]).toBe(2); // May 16 - Jun 15 overlaps May and June
    expect(periods["month/1y"]).toBe(13);
    expect(periods["quarter/2y"]).toBe(9);
    expect(periods["year/5y"]).toBe(6);
    expect(periods["year/max"]).toBe(6); // Aave launched in January 2020
    expect(periods["week/1m"]).toBeGreaterThanOrEqual(5);
    expect(periods["quarter/3y"]).toBeGreaterThan(periods["quarter/2y"]);
  });

  it("computes pop_change as value / previous period's value - 1, null for the first period", async () => {
    const rows = await statement("aave", "?timestamp_granularity=year&interval=max");
    const fees = rows.filter((r) => r.metric_id === "fees");
    expect(fees[0].pop_change).toBeNull();
    for (let i = 1; i < fees.length; i++) {
      expectClose(
        num(fees[i].pop_change),
        (num(fees[i].value) as number) / (num(fees[i - 1].value) as number) - 1
      );
    }
  });

  it("sends an archived project's statement up to its archive date, and nothing for recent intervals", async () => {
    const rows = await statement("anchor-protocol", "?interval=max");
    expect(rows[rows.length - 1].timestamp_label_heading).toBe("Q2 '22");
    expect(await statement("anchor-protocol", "?interval=1y")).toEqual([]);
  });

  it("answers 404 for an unknown project", async () => {
    expect((await get(sim, "/v2/projects/nope/financial-statement")).status).toBe(404);
  });
});
