import type { RunningSimulator } from "../../src/simulator";
import { date, expectClose, get, getList, num, start, sum, TODAY, type Row } from "./helpers";

let sim: RunningSimulator;
beforeAll(async () => {
  // Sums over raw rows need every row once; repeated rows have their own tests (repeats.test.ts).
  sim = await start({ duplicateRows: 0 });
});
afterAll(() => sim.close());

const value = (rows: Row[], metric: string, name: string) =>
  num(rows.find((r) => r.metric_id === metric && r.metric_aggregation_name === name)?.value);

/** Non-null daily values of a project metric, oldest first, with their dates. */
async function series(project: string, metric: string): Promise<{ date: string; value: number }[]> {
  const { data } = await getList(
    sim,
    `/v2/projects/${project}/metrics?metric_ids=${metric}&order_direction=asc`
  );
  return data
    .map((r) => ({ date: date(r), value: num(r[metric]) }))
    .filter((p): p is { date: string; value: number } => p.value !== null);
}

const shift = (day: string, days: number) =>
  new Date(Date.parse(day) + days * 86_400_000).toISOString().slice(0, 10);
const window = (
  points: { date: string; value: number }[],
  last: string,
  from: number,
  to: number
) =>
  points
    .filter((p) => p.date >= shift(last, -from) && p.date <= shift(last, -to))
    .map((p) => p.value);
const mean = (values: number[]) => sum(values) / values.length;

describe("GET /v2/projects/{id}/metric-aggregations", () => {
  let rows: Row[];
  beforeAll(async () => {
    rows = (await getList(sim, "/v2/projects/aave/metric-aggregations")).data;
  });

  it("gives every aggregation of every available metric, sum_30d only for flows", () => {
    expect(rows[0]).toEqual({
      project_name: "Aave",
      project_id: "aave",
      metric_id: "fees",
      metric_aggregation_name: "latest",
      value: expect.anything(),
    });
    const names = (metric: string) =>
      rows.filter((r) => r.metric_id === metric).map((r) => r.metric_aggregation_name);
    expect(names("fees")).toEqual([
      "latest",
      "sum_30d",
      "avg_7d",
      "change_30d",
      "trend_90d",
      "ath",
      "atl",
    ]);
    expect(names("tvl")).toEqual(["latest", "avg_7d", "change_30d", "trend_90d", "ath", "atl"]);
  });

  it("computes a flow's aggregations from its daily series", async () => {
    const fees = await series("aave", "fees");
    const last = fees[fees.length - 1].date;
    expect(last <= TODAY).toBe(true);
    expectClose(value(rows, "fees", "latest"), fees[fees.length - 1].value);
    expectClose(value(rows, "fees", "sum_30d"), sum(window(fees, last, 29, 0)));
    expectClose(value(rows, "fees", "avg_7d"), mean(window(fees, last, 6, 0)));
    expectClose(
      value(rows, "fees", "change_30d"),
      sum(window(fees, last, 29, 0)) / sum(window(fees, last, 59, 30)) - 1
    );
    expectClose(
      value(rows, "fees", "trend_90d"),
      mean(window(fees, last, 89, 0)) / mean(window(fees, last, 179, 90)) - 1
    );
    expectClose(
      value(rows, "fees", "ath"),
      fees.reduce((a, p) => Math.max(a, p.value), -Infinity)
    );
    expectClose(
      value(rows, "fees", "atl"),
      fees.reduce((a, p) => Math.min(a, p.value), Infinity)
    );
  });

  it("computes a level's change from its value 30 days earlier", async () => {
    const tvl = await series("aave", "tvl");
    const last = tvl[tvl.length - 1];
    const before = tvl.filter((p) => p.date <= shift(last.date, -30));
    expectClose(value(rows, "tvl", "latest"), last.value);
    expectClose(value(rows, "tvl", "change_30d"), last.value / before[before.length - 1].value - 1);
    expectClose(
      value(rows, "tvl", "ath"),
      tvl.reduce((a, p) => Math.max(a, p.value), -Infinity)
    );
  });

  it("aggregates an archived project up to its archive date", async () => {
    const anchor = (await getList(sim, "/v2/projects/anchor-protocol/metric-aggregations")).data;
    const fees = await series("anchor-protocol", "fees");
    expect(fees[fees.length - 1].date <= "2022-05-13").toBe(true);
    expectClose(value(anchor, "fees", "latest"), fees[fees.length - 1].value);
  });

  it("answers 404 for an unknown project", async () => {
    expect((await get(sim, "/v2/projects/nope/metric-aggregations")).status).toBe(404);
  });
});

describe("GET /v2/metric-aggregations", () => {
  it("returns the same figures as the per-project operation, one wide row per project and metric by default", async () => {
    const single = (await getList(sim, "/v2/projects/aave/metric-aggregations")).data;
    const path = "/v2/metric-aggregations?project_ids=aave&metric_ids=fees,tvl";
    const { data, errors } = await getList(sim, path);
    expect(errors).toBeUndefined();
    const wanted = single.filter((r) => r.metric_id === "fees" || r.metric_id === "tvl");
    // The default (the aggregationsRows reading "wide"): a member per aggregation name.
    expect(data).toHaveLength(2);
    for (const r of wanted) {
      const row = data.find((w) => w.metric_id === r.metric_id)!;
      expect(row).toMatchObject({ project_id: "aave", project_name: "Aave" });
      expect(row[String(r.metric_aggregation_name)]).toEqual(r.value);
    }
    // "rows": the rows of §2.6, as the per-project operation sends them.
    sim.setKnobs({ readings: { aggregationsRows: "rows" } });
    expect((await getList(sim, path)).data).toEqual(wanted);
    // "opaque": an object keyed by project id.
    sim.setKnobs({ readings: { aggregationsRows: "opaque" } });
    const opaque = (await get(sim, path)).body as { data: Record<string, Record<string, unknown>> };
    expect(Object.keys(opaque.data)).toEqual(["aave"]);
    expect(Object.keys(opaque.data.aave).sort()).toEqual(["fees", "tvl"]);
    sim.setKnobs({ readings: { aggregationsRows: undefined } });
  });

  it("reports unknown ids only: an unavailable pair is simply absent, as the interface says", async () => {
    const path = "/v2/metric-aggregations?project_ids=aave,bitcoin,nobody&metric_ids=tvl,nothing";
    const { data, errors } = await getList(sim, path);
    expect(data.map((r) => r.project_id)).toEqual(["aave"]);
    expect(errors).toEqual([
      { code: "NOT_FOUND", field: "project_ids", value: "nobody" },
      { code: "NOT_FOUND", field: "metric_ids", value: "nothing" },
    ]);
    const rich = await start({ reportUnavailable: true });
    try {
      expect((await getList(rich, path)).errors).toEqual([
        { code: "NOT_FOUND", field: "project_ids", value: "nobody" },
        { code: "NOT_FOUND", field: "metric_ids", value: "nothing" },
        { code: "METRIC_NOT_AVAILABLE", project_id: "bitcoin", metric_id: "tvl" },
      ]);
    } finally {
      await rich.close();
    }
  });

  it("refuses a missing project_ids by default, as declared; takes all, as described", async () => {
    expect((await get(sim, "/v2/metric-aggregations?metric_ids=fees")).status).toBe(400);
    const all = (await getList(sim, "/v2/metric-aggregations?project_ids=all&metric_ids=fees"))
      .data;
    expect(new Set(all.map((r) => r.project_id)).size).toBeGreaterThanOrEqual(40);
  });

  it("selects every project and metric when both are omitted or all, under aggregationsProjects=optional", async () => {
    sim.setKnobs({ readings: { aggregationsProjects: "optional" } });
    const omitted = (await getList(sim, "/v2/metric-aggregations")).data;
    const all = (await getList(sim, "/v2/metric-aggregations?project_ids=all&metric_ids=all")).data;
    sim.setKnobs({ readings: { aggregationsProjects: undefined } });
    expect(all).toEqual(omitted);
    expect(new Set(omitted.map((r) => r.project_id)).size).toBeGreaterThanOrEqual(40);
    const fees = (await getList(sim, "/v2/metric-aggregations?project_ids=all&metric_ids=fees"))
      .data;
    expect(new Set(fees.map((r) => r.metric_id))).toEqual(new Set(["fees"]));
  });
});
