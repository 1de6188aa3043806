import type { RunningSimulator } from "../../src/simulator";
import {
  date,
  expectClose,
  get,
  getList,
  getObject,
  num,
  start,
  sum,
  TODAY,
  type Row,
} from "./helpers";

let sim: RunningSimulator;
beforeAll(async () => {
  // Sums over raw rows need every row once; repeated rows have their own tests (repeats.test.ts).
  sim = await start({ duplicateRows: 0 });
});
afterAll(() => sim.close());

/** The default timestamps reading: the day's local midnight east of UTC. */
const OFFSET_MIDNIGHT = /^\d{4}-\d{2}-\d{2}T00:00:00\+02:00$/;

describe("GET /v2/projects/{id}/metrics defaults", () => {
  it("returns every available metric from the first date with data to today, newest first", async () => {
    const detail = await getObject(sim, "/v2/projects/aave");
    // The declared string (§2.2): a comma list of the available metrics.
    const available = String(detail.metric_availability).split(",");
    const { data, errors } = await getList(sim, "/v2/projects/aave/metrics");
    expect(errors).toBeUndefined();
    expect(date(data[0])).toBe(TODAY);
    expect(date(data[data.length - 1])).toBe("2020-01-08");
    const members = Object.keys(data[0]).filter(
      (k) => !["timestamp", "project_name", "project_id"].includes(k)
    );
    expect(members.sort()).toEqual(available.sort());
    expect(data[0]).toMatchObject({
      project_id: "aave",
      project_name: "Aave",
      timestamp: expect.stringMatching(OFFSET_MIDNIGHT),
    });
  });

  it("starts at the first date with data of the chosen metrics (a token launched after the project)", async () => {
    const { data } = await getList(sim, "/v2/projects/uniswap/metrics?metric_ids=price");
    expect(date(data[data.length - 1])).toBe("2020-09-17");
  });

  it("sorts oldest first with order_direction=asc", async () => {
    const { data } = await getList(
      sim,
      "/v2/projects/aave/metrics?metric_ids=fees&start=2024-01-01&end=2024-01-05&order_direction=asc"
    );
    expect(data.map(date)).toEqual([
      "2024-01-01",
      "2024-01-02",
      "2024-01-03",
      "2024-01-04",
      "2024-01-05",
    ]);
  });

  it("refuses start_date/end_date by default: start and end are the names §4.3 defines", async () => {
    const answer = await get(
      sim,
      "/v2/projects/aave/metrics?metric_ids=fees&start_date=2024-03-01"
    );
    expect(answer.status).toBe(400);
    expect(answer.text).toBe("");
  });

  it("accepts start_date/end_date as well as start/end under dateNames=both", async () => {
    sim.setKnobs({ readings: { dateNames: "both" } });
    try {
      const a = await getList(
        sim,
        "/v2/projects/aave/metrics?metric_ids=fees,tvl&start=2024-03-01&end=2024-03-10"
      );
      const b = await getList(
        sim,
        "/v2/projects/aave/metrics?metric_ids=fees,tvl&start_date=2024-03-01&end_date=2024-03-10"
      );
      expect(a.data).toHaveLength(10);
      expect(b.data).toEqual(a.data);
    } finally {
      sim.setKnobs({ readings: { dateNames: undefined } });
    }
  });

  it("refuses start and start_date that disagree under dateNames=both", async () => {
    sim.setKnobs({ readings: { dateNames: "both", errorBodies: "json" } });
    try {
      const answer = await get(
        sim,
        "/v2/projects/aave/metrics?start=2024-03-01&start_date=2024-03-02"
      );
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ message: expect.stringMatching(/start.*start_date/) });
    } finally {
      sim.setKnobs({ readings: { dateNames: undefined, errorBodies: undefined } });
    }
  });
});

describe("partial success", () => {
  it("returns valid metrics with one NOT_FOUND entry per unknown id, field naming the parameter", async () => {
    const { data, errors } = await getList(
      sim,
      "/v2/projects/aave/metrics?metric_ids=fees,nope,zilch&chain_ids=ethereum,mars&product_ids=aave-v3,aave-v9&market_sector_ids=lending,casinos&start=2025-06-10"
    );
    expect(data).toHaveLength(6);
    expect(num(data[0].fees)).not.toBeNull();
    expect(errors).toEqual([
      { code: "NOT_FOUND", field: "metric_ids", value: "nope" },
      { code: "NOT_FOUND", field: "metric_ids", value: "zilch" },
      { code: "NOT_FOUND", field: "chain_ids", value: "mars" },
      { code: "NOT_FOUND", field: "product_ids", value: "aave-v9" },
      { code: "NOT_FOUND", field: "market_sector_ids", value: "casinos" },
    ]);
  });

  it("leaves a known metric the project lacks out of the rows with no entry, as the interface says", async () => {
    const path = "/v2/projects/bitcoin/metrics?metric_ids=fees,tvl&start=2025-06-01";
    const { data, errors } = await getList(sim, path);
    expect(errors).toBeUndefined();
    expect(data[0]).toHaveProperty("fees");
    expect(data[0]).not.toHaveProperty("tvl");
    // Only the metric the project lacks: no rows at all, and still nothing says why.
    const alone = await getList(sim, "/v2/projects/bitcoin/metrics?metric_ids=tvl");
    expect(alone).toEqual({ data: [] });
  });

  it("reports it as METRIC_NOT_AVAILABLE with knob reportUnavailable", async () => {
    const rich = await start({ reportUnavailable: true });
    try {
      const { data, errors } = await getList(
        rich,
        "/v2/projects/bitcoin/metrics?metric_ids=fees,tvl&start=2025-06-01"
      );
      expect(errors).toEqual([
        { code: "METRIC_NOT_AVAILABLE", project_id: "bitcoin", metric_id: "tvl" },
      ]);
      expect(data[0]).not.toHaveProperty("tvl");
    } finally {
      await rich.close();
    }
  });

  it("answers 404 for an unknown project", async () => {
    expect((await get(sim, "/v2/projects/nope/metrics")).status).toBe(404);
  });
});

describe("breakdowns and filters", () => {
  const range = "start=2025-05-01&end=2025-06-15";

  async function totals(project: string, metrics: string): Promise<Map<string, Row>> {
    const { data } = await getList(
      sim,
      `/v2/projects/${project}/metrics?metric_ids=${metrics}&${range}`
    );
    return new Map(data.map((r) => [date(r), r]));
  }

  it("aggregate_by=chain gives one row per chain and day that adds up to the project total", async () => {
    const total = await totals("aave", "fees,tvl");
    const { data } = await getList(
      sim,
      `/v2/projects/aave/metrics?metric_ids=fees,tvl&aggregate_by=chain&${range}`
    );
    expect(new Set(data.map((r) => r.chain))).toEqual(
      new Set(["ethereum", "polygon", "avalanche", "arbitrum", "optimism", "base"])
    );
    for (const [day, row] of total) {
      const parts = data.filter((r) => date(r) === day);
      expectClose(sum(parts.map((r) => num(r.fees))), num(row.fees));
      expectClose(sum(parts.map((r) => num(r.tvl))), num(row.tvl));
    }
  });

  it("aggregate_by=product_id gives rows per product that add up to the project total, with no member saying which by default", async () => {
    const total = await totals("aave", "fees");
    const path = `/v2/projects/aave/metrics?metric_ids=fees&aggregate_by=product_id&${range}`;
    const unlabelled = (await getList(sim, path)).data;
    // §2.4 names no product member: by default the rows do not say which product they are.
    expect(unlabelled.every((r) => !("product_id" in r) && !("version" in r))).toBe(true);
    for (const [day, row] of total) {
      const parts = unlabelled.filter((r) => date(r) === day).map((r) => num(r.fees));
      expect(parts.length).toBe(3);
      expectClose(sum(parts), num(row.fees));
    }
    for (const member of ["product_id", "business_line", "version"] as const) {
      sim.setKnobs({ readings: { productMember: member } });
      const { data } = await getList(sim, path);
      expect(new Set(data.map((r) => r[member]))).toEqual(
        new Set(["aave-v1", "aave-v2", "aave-v3"])
      );
      expect(data.map((r) => r.fees)).toEqual(unlabelled.map((r) => r.fees));
    }
    sim.setKnobs({ readings: { productMember: undefined } });
  });

  it("chain_ids restricts splittable metrics to those chains and leaves the others project-wide", async () => {
    const byChain = (
      await getList(sim, `/v2/projects/aave/metrics?metric_ids=fees&aggregate_by=chain&${range}`)
    ).data;
    const total = await totals("aave", "fees,price");
    const { data } = await getList(
      sim,
      `/v2/projects/aave/metrics?metric_ids=fees,price&chain_ids=ethereum,base&${range}`
    );
    for (const row of data) {
      const parts = byChain.filter(
        (r) => date(r) === date(row) && (r.chain === "ethereum" || r.chain === "base")
      );
      expectClose(num(row.fees), sum(parts.map((r) => num(r.fees))));
      expect(row.price).toEqual(total.get(date(row))?.price);
    }
  });

  it("yields an empty result for an inapplicable breakdown", async () => {
    expect((await getList(sim, "/v2/projects/bitcoin/metrics?aggregate_by=chain")).data).toEqual(
      []
    );
    expect(
      (await getList(sim, "/v2/projects/aave/metrics?metric_ids=price&aggregate_by=chain")).data
    ).toEqual([]);
    expect(
      (await getList(sim, "/v2/projects/ethereum/metrics?aggregate_by=product_id")).data
    ).toEqual([]);
  });

  it("without metric_ids and with aggregate_by, breaks down every metric that splits that way", async () => {
    const { data } = await getList(
      sim,
      `/v2/projects/aave/metrics?aggregate_by=chain&start=${TODAY}`
    );
    const members = Object.keys(data[0]).filter(
      (k) => !["timestamp", "project_name", "project_id", "chain"].includes(k)
    );
    expect(members.sort()).toEqual([
      "active_loans",
      "fees",
      "fees_supply_side",
      "revenue",
      "transaction_count",
      "tvl",
    ]);
  });

  it("market_sector_ids keeps the project only when it belongs to one of the sectors", async () => {
    expect(
      (await getList(sim, `/v2/projects/aave/metrics?market_sector_ids=exchanges&start=${TODAY}`))
        .data
    ).toEqual([]);
    expect(
      (
        await getList(
          sim,
          `/v2/projects/aave/metrics?market_sector_ids=exchanges,lending&start=${TODAY}`
        )
      ).data
    ).toHaveLength(1);
  });

  it("assets_bridged=false lowers asset metrics and leaves the others alone", async () => {
    const path = `/v2/projects/ethereum/metrics?metric_ids=tvl,fees&${range}`;
    const bridged = (await getList(sim, path)).data;
    const native = (await getList(sim, `${path}&assets_bridged=false`)).data;
    expect(native).toHaveLength(bridged.length);
    native.forEach((row, i) => {
      expect(row.fees).toEqual(bridged[i].fees);
      const [a, b] = [num(row.tvl), num(bridged[i].tvl)];
      if (a !== null && b !== null) expect(a).toBeLessThan(b * 0.9);
    });
  });
});

describe("values as the real service sends them", () => {
  it("sends values as JSON numbers mostly and as numeric strings for some projects and metrics", async () => {
    const types = new Set<string>();
    for (const project of ["aave", "uniswap", "ethereum", "solana", "lido-finance", "gmx"]) {
      const { data } = await getList(sim, `/v2/projects/${project}/metrics?start=${TODAY}`);
      for (const [key, value] of Object.entries(data[0])) {
        if (["timestamp", "project_name", "project_id"].includes(key)) continue;
        types.add(typeof value);
        if (typeof value === "string") expect(Number.isFinite(Number(value))).toBe(true);
      }
    }
    expect(types).toEqual(new Set(["number", "string"]));
  });

  it("has occasional null values", async () => {
    const { data } = await getList(sim, "/v2/projects/aave/metrics?metric_ids=fees,revenue,tvl");
    const nulls = data.filter((r) => r.fees === null || r.revenue === null || r.tvl === null);
    expect(nulls.length).toBeGreaterThan(0);
    expect(nulls.length).toBeLessThan(data.length * 0.05);
  });

  it("keeps an archived project's history and has no data after its archive date", async () => {
    const { data } = await getList(sim, "/v2/projects/anchor-protocol/metrics?metric_ids=fees,tvl");
    expect(date(data[0])).toBe("2022-05-13");
    expect(date(data[data.length - 1])).toBe("2021-03-17");
    const later = await getList(sim, "/v2/projects/anchor-protocol/metrics?start=2022-05-14");
    expect(later.data).toEqual([]);
  });

  it("lags a few days for the project under maintenance", async () => {
    const { data } = await getList(sim, "/v2/projects/sushiswap/metrics?metric_ids=fees");
    expect(date(data[0])).toBe("2025-06-10");
  });

  it("clips an end in the future to the last day with data", async () => {
    const { data } = await getList(
      sim,
      "/v2/projects/aave/metrics?metric_ids=fees&start=2025-06-14&end=2030-01-01"
    );
    expect(data.map(date)).toEqual(["2025-06-15", "2025-06-14"]);
  });
});
