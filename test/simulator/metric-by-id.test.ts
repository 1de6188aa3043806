import type { RunningSimulator } from "../../src/simulator";
import { date, expectClose, get, getList, num, start, sum, TODAY } from "./helpers";

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await start();
});
afterAll(() => sim.close());

describe("GET /v2/metrics/{metric_id}", () => {
  it("returns long rows per project and day, newest first, then by project id", async () => {
    const { data, errors } = await getList(
      sim,
      "/v2/metrics/fees?project_ids=uniswap,aave&start=2025-06-14"
    );
    expect(errors).toBeUndefined();
    expect(data.map((r) => [date(r), r.project_id])).toEqual([
      ["2025-06-15", "aave"],
      ["2025-06-15", "uniswap"],
      ["2025-06-14", "aave"],
      ["2025-06-14", "uniswap"],
    ]);
    expect(data[0]).toEqual({
      timestamp: "2025-06-15T00:00:00+02:00",
      project_id: "aave",
      project_name: "Aave",
      metric_id: "fees",
      value: expect.anything(),
    });
  });

  it("agrees with the project metrics operation", async () => {
    const byMetric = (await getList(sim, "/v2/metrics/tvl?project_ids=aave&start=2025-01-01")).data;
    const byProject = (
      await getList(sim, "/v2/projects/aave/metrics?metric_ids=tvl&start=2025-01-01")
    ).data;
    expect(byMetric.map((r) => r.value)).toEqual(byProject.map((r) => r.tvl));
  });

  it("reports unknown projects as NOT_FOUND and projects lacking the metric as METRIC_NOT_AVAILABLE", async () => {
    const { data, errors } = await getList(
      sim,
      `/v2/metrics/tvl?project_ids=aave,nobody,bitcoin&start=${TODAY}`
    );
    expect(data.map((r) => r.project_id)).toEqual(["aave"]);
    expect(errors).toEqual([
      { code: "NOT_FOUND", field: "project_ids", value: "nobody" },
      { code: "METRIC_NOT_AVAILABLE", project_id: "bitcoin", metric_id: "tvl" },
    ]);
  });

  it("returns every project with the metric when project_ids is omitted or all", async () => {
    const omitted = (await getList(sim, `/v2/metrics/trading_volume?start=${TODAY}`)).data;
    const all = (await getList(sim, `/v2/metrics/trading_volume?project_ids=all&start=${TODAY}`))
      .data;
    expect(all).toEqual(omitted);
    const ids = omitted.map((r) => r.project_id);
    expect(ids).toEqual(expect.arrayContaining(["uniswap", "gmx", "opensea"]));
    expect(ids).not.toContain("aave");
  });

  it("keeps archived projects' history within a range", async () => {
    const { data } = await getList(
      sim,
      "/v2/metrics/fees?project_ids=anchor-protocol,aave&start=2022-05-12&end=2022-05-15"
    );
    expect(data.filter((r) => r.project_id === "anchor-protocol").map(date)).toEqual([
      "2022-05-13",
      "2022-05-12",
    ]);
    expect(data.filter((r) => r.project_id === "aave")).toHaveLength(4);
  });

  it("filters by market sector and reports unknown sectors", async () => {
    const { data, errors } = await getList(
      sim,
      `/v2/metrics/fees?market_sector_ids=liquid-staking,moon&start=${TODAY}`
    );
    expect(new Set(data.map((r) => r.project_id))).toEqual(
      new Set(["lido-finance", "rocket-pool", "eigenlayer"])
    );
    expect(errors).toEqual([{ code: "NOT_FOUND", field: "market_sector_ids", value: "moon" }]);
  });

  it("keeps the projects on chain_ids and sums their share of those chains", async () => {
    const split = (
      await getList(
        sim,
        "/v2/projects/curve/metrics?metric_ids=fees&aggregate_by=chain&start=2025-06-10"
      )
    ).data;
    const { data } = await getList(
      sim,
      "/v2/metrics/fees?project_ids=curve,solana&chain_ids=arbitrum,base&start=2025-06-10"
    );
    expect(new Set(data.map((r) => r.project_id))).toEqual(new Set(["curve"]));
    for (const row of data) {
      const parts = split.filter(
        (r) => date(r) === date(row) && (r.chain === "arbitrum" || r.chain === "base")
      );
      expectClose(num(row.value), sum(parts.map((r) => num(r.fees))));
    }
  });

  it("keeps the owners of product_ids with those products' share", async () => {
    const product = (
      await getList(
        sim,
        "/v2/projects/uniswap/products/uniswap-v3/metrics?metric_ids=fees&start=2025-06-10"
      )
    ).data;
    const { data, errors } = await getList(
      sim,
      "/v2/metrics/fees?product_ids=uniswap-v3,nope&start=2025-06-10"
    );
    expect(errors).toEqual([{ code: "NOT_FOUND", field: "product_ids", value: "nope" }]);
    expect(new Set(data.map((r) => r.project_id))).toEqual(new Set(["uniswap"]));
    data.forEach((row) =>
      expectClose(num(row.value), num(product.find((r) => date(r) === date(row))?.value))
    );
  });

  it("answers 404 for an unknown metric", async () => {
    const answer = await get(sim, "/v2/metrics/happiness");
    expect(answer.status).toBe(404);
    expect(answer.text).toBe("");
    sim.setKnobs({ readings: { errorBodies: "json" } });
    const said = await get(sim, "/v2/metrics/happiness");
    sim.setKnobs({ readings: { errorBodies: undefined } });
    expect(said.body).toEqual({ message: "Metric not found: happiness" });
  });
});
