import type { RunningSimulator } from "../../src/simulator";
import { expectClose, get, getList, num, start, sum } from "./helpers";

let sim: RunningSimulator;
beforeAll(async () => {
  // Sums over raw rows need every row once; repeated rows have their own tests (repeats.test.ts). The
  // v1 answers are read in the {data} wrapper (v1Envelope=data); the bare default is checked below.
  sim = await start({ duplicateRows: 0, readings: { v1Envelope: "data", timestamps: "utc" } });
});
afterAll(() => sim.close());

describe("v1 (deprecated)", () => {
  it("answers a bare JSON list by default (§9 shows no shape)", async () => {
    const bare = await start();
    try {
      const projects = await get(bare, "/v1/projects");
      expect(Array.isArray(projects.body)).toBe(true);
      expect((projects.body as unknown[]).length).toBeGreaterThanOrEqual(40);
      const metrics = await get(bare, "/v1/projects/aave/metrics?interval=7d");
      expect((metrics.body as unknown[]).length).toBe(7);
    } finally {
      await bare.close();
    }
  });

  it("lists projects and says it is deprecated", async () => {
    const answer = await get(sim, "/v1/projects");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("deprecation")).toBe("true");
    expect(answer.headers.get("sunset")).toBe("Mon, 01 Aug 2022 00:00:00 GMT");
    const { data } = answer.body as { data: Record<string, unknown>[] };
    expect(data.length).toBeGreaterThanOrEqual(40);
    expect(data[0]).toEqual({
      project_id: "aave",
      name: "Aave",
      symbol: "AAVE",
      category: "lending",
      is_archived: false,
      url: "/v1/projects/aave/metrics",
    });
  });

  it("returns daily rows for an interval, newest first, with the same values as v2", async () => {
    const { data } = await getList(sim, "/v1/projects/aave/metrics?interval=7d");
    expect(data.map((r) => r.datetime)).toEqual(
      [15, 14, 13, 12, 11, 10, 9].map((d) => `2025-06-${String(d).padStart(2, "0")}T00:00:00.000Z`)
    );
    const v2 = (
      await getList(
        sim,
        "/v2/projects/aave/metrics?metric_ids=fees,market_cap_circulating&start=2025-06-09"
      )
    ).data;
    data.forEach((row, i) => {
      expectClose(num(row.fees), num(v2[i].fees));
      expectClose(num(row.market_cap), num(v2[i].market_cap_circulating));
    });
  });

  it("rolls up weekly and monthly: flows summed", async () => {
    const weekly = (
      await getList(sim, "/v1/projects/aave/metrics?interval=90d&data_granularity=weekly")
    ).data;
    const days = (
      await getList(
        sim,
        "/v2/projects/aave/metrics?metric_ids=fees&start=2025-06-02&end=2025-06-08"
      )
    ).data;
    const week = weekly.find((r) => r.datetime === "2025-06-02T00:00:00.000Z");
    expectClose(num(week?.fees), sum(days.map((r) => num(r.fees))));
    const monthly = (
      await getList(sim, "/v1/projects/aave/metrics?interval=365d&data_granularity=monthly")
    ).data;
    expect(monthly[0].datetime).toBe("2025-06-01T00:00:00.000Z");
    expect(monthly).toHaveLength(13);
  });

  it("defaults to the whole history, daily", async () => {
    const { data } = await getList(sim, "/v1/projects/anchor-protocol/metrics");
    expect(data[0].datetime).toBe("2022-05-13T00:00:00.000Z");
    expect(data[data.length - 1].datetime).toBe("2021-03-17T00:00:00.000Z");
  });
});
