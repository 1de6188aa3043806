import type { RunningSimulator } from "../../src/simulator";
import { date, expectClose, getList, num, start, sum } from "./helpers";

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await start();
});
afterAll(() => sim.close());

const range = "start=2025-06-01&end=2025-06-15";

describe("GET /v2/projects/{id}/products/{product_id}/metrics", () => {
  it("returns long rows {metric_id, date, value} for the product's metrics, newest first", async () => {
    const { data, errors } = await getList(
      sim,
      `/v2/projects/aave/products/aave-v3/metrics?${range}`
    );
    expect(errors).toBeUndefined();
    expect(data[0]).toEqual({
      metric_id: "fees",
      date: "2025-06-15T00:00:00+02:00",
      value: expect.any(Number),
    });
    expect(new Set(data.map((r) => r.metric_id))).toEqual(
      new Set([
        "fees",
        "fees_supply_side",
        "revenue",
        "transaction_count",
        "tvl",
        "active_loans",
        "user_dau",
      ])
    );
    expect(date(data[data.length - 1])).toBe("2025-06-01");
  });

  it("gives products that add up to the project's totals", async () => {
    const project = (await getList(sim, `/v2/projects/aave/metrics?metric_ids=fees&${range}`)).data;
    const parts = await Promise.all(
      ["aave-v1", "aave-v2", "aave-v3"].map(
        async (p) =>
          (await getList(sim, `/v2/projects/aave/products/${p}/metrics?metric_ids=fees&${range}`))
            .data
      )
    );
    for (const row of project) {
      const values = parts
        .flat()
        .filter((r) => date(r) === date(row))
        .map((r) => num(r.value));
      expectClose(sum(values), num(row.fees));
    }
  });

  it("starts at the product's launch by default", async () => {
    const { data } = await getList(
      sim,
      "/v2/projects/uniswap/products/uniswap-v4/metrics?metric_ids=fees&order_direction=asc"
    );
    expect(date(data[0])).toBe("2025-01-31");
  });

  it("splits by chain with chain_id, over the product's own chains", async () => {
    const total = (
      await getList(sim, `/v2/projects/aave/products/aave-v2/metrics?metric_ids=fees&${range}`)
    ).data;
    const { data } = await getList(
      sim,
      `/v2/projects/aave/products/aave-v2/metrics?metric_ids=fees&aggregate_by=chain&${range}`
    );
    expect(new Set(data.map((r) => r.chain_id))).toEqual(
      new Set(["ethereum", "polygon", "avalanche"])
    );
    for (const row of total) {
      expectClose(
        sum(data.filter((r) => date(r) === date(row)).map((r) => num(r.value))),
        num(row.value)
      );
    }
  });

  it("restricts to chain_ids and reports unknown ones", async () => {
    const byChain = (
      await getList(
        sim,
        `/v2/projects/aave/products/aave-v2/metrics?metric_ids=fees&aggregate_by=chain&${range}`
      )
    ).data;
    const { data, errors } = await getList(
      sim,
      `/v2/projects/aave/products/aave-v2/metrics?metric_ids=fees&chain_ids=polygon,pluto&${range}`
    );
    expect(errors).toEqual([{ code: "NOT_FOUND", field: "chain_ids", value: "pluto" }]);
    for (const row of data) {
      const polygon = byChain.find((r) => date(r) === date(row) && r.chain_id === "polygon");
      expectClose(num(row.value), num(polygon?.value));
    }
  });

  it("reports unknown metrics only; a metric the product lacks is simply absent, as the interface says", async () => {
    const { data, errors } = await getList(
      sim,
      `/v2/projects/aave/products/aave-v3/metrics?metric_ids=fees,price,bogus&${range}`
    );
    expect(errors).toEqual([{ code: "NOT_FOUND", field: "metric_ids", value: "bogus" }]);
    expect(new Set(data.map((r) => r.metric_id))).toEqual(new Set(["fees"]));
  });

  it("reports a metric the product lacks as METRIC_NOT_AVAILABLE with knob reportUnavailable", async () => {
    const rich = await start({ reportUnavailable: true });
    try {
      const { errors } = await getList(
        rich,
        `/v2/projects/aave/products/aave-v3/metrics?metric_ids=fees,price,bogus&${range}`
      );
      expect(errors).toEqual([
        { code: "NOT_FOUND", field: "metric_ids", value: "bogus" },
        { code: "METRIC_NOT_AVAILABLE", project_id: "aave", metric_id: "price" },
      ]);
    } finally {
      await rich.close();
    }
  });

  it("yields an empty result for a breakdown by product (inapplicable to a product)", async () => {
    expect(
      (
        await getList(
          sim,
          `/v2/projects/aave/products/aave-v3/metrics?aggregate_by=product_id&${range}`
        )
      ).data
    ).toEqual([]);
  });

  it("sorts oldest first with order_direction=asc", async () => {
    const { data } = await getList(
      sim,
      `/v2/projects/aave/products/aave-v3/metrics?metric_ids=fees&${range}&order_direction=asc`
    );
    expect(data.map((r) => r.date)).toEqual([...data.map((r) => String(r.date))].sort());
  });
});
