import { installCliHost } from "../../src/cli/host";
import * as fns from "../../src/functions/functions";
import { dataset, excelError, inv, showTable, startHarness, type Harness } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const t = async (p: Promise<unknown>) => showTable((await p) as unknown[][]);

describe("catalogue functions", () => {
  it("PROJECTS lists every project with archive and maintenance reasons", async () => {
    const rows = await t(fns.projects_(null, inv()));
    expect(rows[0]).toEqual([
      "name",
      "project_id",
      "symbol",
      "is_archived",
      "archived_reason",
      "maintenance_reason",
      "products",
    ]);
    expect(rows).toHaveLength(dataset.projects.length + 1);
    const anchor = rows.find((r) => r[1] === "anchor-protocol")!;
    expect(anchor[3]).toBe(true);
    expect(anchor[4]).toContain("Terra");
    expect(rows.some((r) => typeof r[5] === "string" && r[5] !== "")).toBe(true);
    expect(rows.find((r) => r[1] === "aave")![6]).toBe("aave-v1, aave-v2, aave-v3");
  });

  it("PROJECTS filters by sector and drops headers on request", async () => {
    const rows = await t(fns.projects_("sectors=lending; headers=0", inv()));
    const lending = dataset.projects
      .filter((p) => p.sectors.includes("lending"))
      .map((p) => p.id)
      .sort();
    expect(rows.map((r) => r[1]).sort()).toEqual(lending);
  });

  it("PROJECT gives one field, or (on a host without entity values) every field as a field/value table", async () => {
    const chains = await t(fns.project_("aave", "chains", inv()));
    expect(chains).toEqual([[dataset.project("aave")!.chains.join(", ")]]);
    installCliHost(globalThis, true);
    const all = await t(fns.project_("AAVE", null, inv())).finally(() => installCliHost());
    expect(all[0]).toEqual(["field", "value"]);
    expect(all.map((r) => r[0])).toEqual(
      expect.arrayContaining([
        "name",
        "market_sectors",
        "metrics_available",
        "links",
        "definition.revenue",
      ])
    );
    const unknown = await excelError(fns.project_("aave", "colour", inv()));
    expect(unknown.code).toBe("#VALUE!");
    expect(unknown.message).toMatch(
      /^project "aave" has no field "colour"; fields: name, project_id, symbol/
    );
  });

  it("PRODUCT gives a product's fields, by product id or name", async () => {
    const rows = await t(fns.product_("aave", "aave v2", "chains", inv()));
    expect(rows).toEqual([[dataset.product("aave", "aave-v2")!.chains.join(", ")]]);
  });

  it("METRICS lists the catalogue, or the metrics available for a project", async () => {
    const all = await t(fns.metrics_(null, inv()));
    expect(all[0]).toEqual(["metric_id", "metric_name", "description"]);
    expect(all.length - 1).toBe(dataset.metrics.length);
    const forAave = await t(fns.metrics_("aave", inv()));
    expect(
      forAave
        .slice(1)
        .map((r) => r[0])
        .sort()
    ).toEqual([...dataset.project("aave")!.metrics].sort());
  });

  it("SECTORS and SECTOR list sectors and one sector's projects (by id or name)", async () => {
    const sectors = await t(fns.sectors_(inv()));
    expect(sectors.slice(1).map((r) => r[0])).toEqual(
      expect.arrayContaining(["lending", "exchanges"])
    );
    const lending = await t(fns.sector_("Lending", inv()));
    expect(lending[0]).toEqual(["project_id", "name"]);
    expect(lending.map((r) => r[0])).toContain("aave");
    const unknown = await excelError(fns.sector_("lendng", inv()));
    expect(unknown).toEqual({
      code: "#N/A",
      message: expect.stringContaining('unknown market sector "lendng"; sectors include "lending"'),
    });
  });
});
