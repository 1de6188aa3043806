import type { RunningSimulator } from "../../src/simulator";
import { expectClose, get, getList, num, start, sum } from "./helpers";

let sim: RunningSimulator;
let full: RunningSimulator;
beforeAll(async () => {
  // Sums over raw rows need every row once; repeated rows have their own tests (repeats.test.ts).
  sim = await start({ duplicateRows: 0 });
  // The rows with every member the simulator can send (breakdownRows=full, breakdownProjects=all).
  full = await start({
    duplicateRows: 0,
    readings: { breakdownRows: "full", breakdownProjects: "all" },
  });
});
afterAll(() => Promise.all([sim.close(), full.close()]));

describe("GET /v2/metrics-breakdown/{metric_id} under the default readings", () => {
  it("names projects by name only: no id, no share, no dates", async () => {
    const { data } = await getList(sim, "/v2/metrics-breakdown/fees?project_ids=aave,uniswap");
    expect(data.map((r) => Object.keys(r).sort())).toEqual([
      ["metric_id", "project_name", "value"],
      ["metric_id", "project_name", "value"],
    ]);
    expect(data.map((r) => r.project_name)).toEqual(["Uniswap", "Aave"]);
  });

  it("takes only the listed projects: `all` is an unknown id and no project_ids a 400", async () => {
    expect((await get(sim, "/v2/metrics-breakdown/fees")).status).toBe(400);
    const { data, errors } = await getList(sim, "/v2/metrics-breakdown/fees?project_ids=all");
    expect(data).toEqual([]);
    expect(errors).toEqual([{ code: "NOT_FOUND", field: "project_ids", value: "all" }]);
  });

  it("takes its dates as start_date/end_date only, or start/end, or both, as the breakdownDates reading says", async () => {
    const dated =
      "/v2/metrics-breakdown/fees?project_ids=aave&start_date=2025-01-01&end_date=2025-01-31";
    const plain = "/v2/metrics-breakdown/fees?project_ids=aave&start=2025-01-01&end=2025-01-31";
    expect((await get(sim, dated)).status).toBe(200);
    expect((await get(sim, plain)).status).toBe(400);
    sim.setKnobs({ readings: { breakdownDates: "start" } });
    expect((await get(sim, dated)).status).toBe(400);
    const a = await getList(sim, plain);
    sim.setKnobs({ readings: { breakdownDates: "both" } });
    expect((await getList(sim, dated)).data).toEqual(a.data);
    expect((await getList(sim, plain)).data).toEqual(a.data);
    sim.setKnobs({ readings: { breakdownDates: undefined } });
  });
});

describe("GET /v2/metrics-breakdown/{metric_id} with every member (breakdownRows=full)", () => {
  it("summarises the last 30 days per project, largest first, with shares adding up to 1", async () => {
    const { data, errors } = await getList(
      full,
      "/v2/metrics-breakdown/fees?project_ids=aave,uniswap,compound"
    );
    expect(errors).toBeUndefined();
    expect(data.map((r) => r.project_id)).toEqual(["uniswap", "aave", "compound"]);
    expect(data[0]).toEqual({
      project_id: "uniswap",
      project_name: "Uniswap",
      metric_id: "fees",
      value: expect.anything(),
      share: expect.any(Number),
      start_date: "2025-05-17",
      end_date: "2025-06-15",
    });
    expectClose(sum(data.map((r) => r.share as number)), 1);
    const daily = (
      await getList(sim, "/v2/metrics/fees?project_ids=aave&start=2025-05-17&end=2025-06-15")
    ).data;
    expectClose(num(data[1].value), sum(daily.map((r) => num(r.value))));
  });

  it("takes a level's last value over the range given by start_date and end_date", async () => {
    const { data } = await getList(
      full,
      "/v2/metrics-breakdown/tvl?project_ids=aave&start_date=2025-01-01&end_date=2025-01-31"
    );
    const last = (
      await getList(sim, "/v2/metrics/tvl?project_ids=aave&start=2025-01-31&end=2025-01-31")
    ).data;
    expect(data[0]).toMatchObject({ start_date: "2025-01-01", end_date: "2025-01-31" });
    expectClose(num(data[0].value), num(last[0].value));
  });

  it("covers every project with the metric under breakdownProjects=all and reports bad ids", async () => {
    expect((await getList(full, "/v2/metrics-breakdown/fees")).data.length).toBeGreaterThanOrEqual(
      40
    );
    const { data, errors } = await getList(
      full,
      "/v2/metrics-breakdown/tvl?project_ids=aave,bitcoin,ghost"
    );
    // Bitcoin has no TVL: absent, with no entry (the interface names only NOT_FOUND entries here).
    expect(data.map((r) => r.project_id)).toEqual(["aave"]);
    expect(errors).toEqual([{ code: "NOT_FOUND", field: "project_ids", value: "ghost" }]);
    const rich = await start({ reportUnavailable: true, readings: { breakdownRows: "full" } });
    try {
      expect(
        (await getList(rich, "/v2/metrics-breakdown/tvl?project_ids=aave,bitcoin,ghost")).errors
      ).toEqual([
        { code: "METRIC_NOT_AVAILABLE", project_id: "bitcoin", metric_id: "tvl" },
        { code: "NOT_FOUND", field: "project_ids", value: "ghost" },
      ]);
    } finally {
      await rich.close();
    }
  });

  it("answers 404 for an unknown metric", async () => {
    expect((await get(sim, "/v2/metrics-breakdown/vibes")).status).toBe(404);
  });
});
