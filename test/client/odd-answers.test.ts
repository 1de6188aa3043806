/**
 * Answers that take a loose reading of the interface, or an odd one: the client reads them to the same
 * normalised data, and says what it set aside (meta.notes and a "notice" event, which the diagnostics keep).
 */
import { isReadableAggregation, type ClientEvent } from "../../src/client";
import { Diagnostics } from "../../src/runtime/diagnostics";
import { json, scriptedFetch, testClient } from "./helpers";

/** The test clock is 2024-06-01 12:00 UTC: 2 June has begun where the day begins first (UTC+14). */
const notices = (events: ClientEvent[]) =>
  events.flatMap((e) => (e.type === "notice" ? [e.message] : []));

describe("timestamps", () => {
  it("date a row by the day it writes, whatever its offset", async () => {
    const { client } = testClient(
      scriptedFetch(
        json({
          data: [
            { timestamp: "2024-01-02T00:00:00+02:00", project_id: "aave", fees: 1 },
            { timestamp: "2024-01-01T23:00:00-05:00", project_id: "aave", fees: 2 },
            { timestamp: "2024-01-03", project_id: "aave", fees: 3 },
          ],
        })
      ).fetch
    );
    const { data } = await client.getProjectMetrics("aave", { metricIds: ["fees"] });
    expect(data.map((r) => [r.date, r.values.fees])).toEqual([
      ["2024-01-03", 3],
      ["2024-01-02", 1],
      ["2024-01-01", 2],
    ]);
  });

  it("ignore rows dated after the latest day the service can have, and say so", async () => {
    const rows = ["2099-12-31", "2024-06-03", "2024-06-02", "2024-06-01"].map((day) => ({
      timestamp: `${day}T00:00:00.000Z`,
      project_id: "aave",
      project_name: "Aave",
      metric_id: "tvl",
      value: 7,
    }));
    const { client, events } = testClient(scriptedFetch(json({ data: rows })).fetch);
    const { data, meta } = await client.getMetric("tvl", { projectIds: ["aave"] });
    expect(data.map((r) => r.date)).toEqual(["2024-06-02", "2024-06-01"]);
    const note =
      "2 rows dated after 2024-06-02, the latest day the service can have data for, were ignored (2099-12-31, 2024-06-03)";
    expect(meta.notes).toEqual([note]);
    expect(notices(events)).toEqual([`getMetric(tvl): ${note}`]);
  });

  it("ignore a statement period dated after it too", async () => {
    const { client } = testClient(
      scriptedFetch(
        json({
          data: [
            { timestamp: "2024-04-01T00:00:00.000Z", metric_id: "fees", section: "S", value: 1 },
            { timestamp: "2099-01-01T00:00:00.000Z", metric_id: "fees", section: "S", value: 2 },
          ],
        })
      ).fetch
    );
    const { data, meta } = await client.getFinancialStatement("aave");
    expect(data.map((r) => r.date)).toEqual(["2024-04-01"]);
    expect(meta.notes).toHaveLength(1);
  });

  it("keep a statement period dated by its last day while it runs (within a year ahead)", async () => {
    const { client } = testClient(
      scriptedFetch(
        json({
          data: [
            { timestamp: "2024-03-31T00:00:00.000Z", metric_id: "fees", section: "S", value: 1 },
            { timestamp: "2024-12-31T00:00:00.000Z", metric_id: "fees", section: "S", value: 2 },
          ],
        })
      ).fetch
    );
    const { data, meta } = await client.getFinancialStatement("aave", {
      timestampGranularity: "year",
    });
    expect(data.map((r) => r.date)).toEqual(["2024-03-31", "2024-12-31"]);
    expect(meta.notes ?? []).toHaveLength(0);
  });
});

describe("catalogues with an entry that cannot be read", () => {
  it("leave the entry out, keep the rest, and say so", async () => {
    const { client, events } = testClient(
      scriptedFetch(
        json({
          data: [
            { project_id: "aave", name: "Aave", products: [{ product_id: null }] },
            { project_id: null, name: "Broken" },
          ],
        })
      ).fetch
    );
    const { data, meta } = await client.listProjects();
    expect(data.map((p) => [p.projectId, p.products.length])).toEqual([["aave", 0]]);
    expect(meta.notes?.[0]).toMatch(/^2 entries of the answer could not be read and were left out/);
    expect(notices(events)[0]).toMatch(/^listProjects\(\): 2 entries/);
  });

  it("are unusable when no entry can be read", async () => {
    const { client } = testClient(scriptedFetch(json({ data: [{ project_id: null }] })).fetch);
    await expect(client.listProjects()).rejects.toMatchObject({ kind: "malformed-response" });
  });

  it("reach the diagnostics as a note, once however often the catalogue is read", () => {
    const diagnostics = new Diagnostics(() => 0, 60);
    const notice = { type: "notice" as const, operation: "listProjects", message: "m" };
    diagnostics.onClientEvent(notice);
    diagnostics.onClientEvent(notice);
    expect(diagnostics.notes().map((n) => n.text)).toEqual(["m"]);
  });
});

describe("version 1", () => {
  it("reads a bare list and a {data} object alike", async () => {
    const rows = [{ project_id: "aave", name: "Aave" }];
    for (const body of [rows, { data: rows }]) {
      const { client } = testClient(scriptedFetch(json(body)).fetch);
      expect((await client.v1ListProjects()).data.map((r) => r.projectId)).toEqual(["aave"]);
    }
  });

  it("still wants an object with data from v2", async () => {
    const { client } = testClient(scriptedFetch(json([{ metric_id: "fees" }])).fetch);
    await expect(client.listMetrics()).rejects.toMatchObject({ kind: "malformed-response" });
  });
});

describe("aggregations across projects (§4.12, shape not shown)", () => {
  it("read §2.6's rows and wide rows to the same rows", async () => {
    const rows = [
      {
        project_id: "aave",
        project_name: "Aave",
        metric_id: "fees",
        metric_aggregation_name: "latest",
        value: "1",
      },
      {
        project_id: "aave",
        project_name: "Aave",
        metric_id: "fees",
        metric_aggregation_name: "sum_30d",
        value: 30,
      },
    ];
    const wide = [
      { project_id: "aave", project_name: "Aave", metric_id: "fees", latest: "1", sum_30d: 30 },
    ];
    const read = async (data: unknown) => {
      const { client } = testClient(scriptedFetch(json({ data })).fetch);
      return (await client.getMetricAggregations({ projectIds: ["aave"] })).data.map((r) => [
        r.projectId,
        r.metricId,
        r.aggregation,
        r.value,
      ]);
    };
    expect(await read(wide)).toEqual(await read(rows));
    expect(await read(rows)).toEqual([
      ["aave", "fees", "latest", 1],
      ["aave", "fees", "sum_30d", 30],
    ]);
  });

  it("mark rows of any other shape as not readable", async () => {
    const { client } = testClient(
      scriptedFetch(json({ data: { aave: { fees: { latest: 1 } } } })).fetch
    );
    const { data } = await client.getMetricAggregations({ projectIds: ["aave"] });
    expect(data.every(isReadableAggregation)).toBe(false);
  });
});
