import ids from "../fixtures/simulator/realistic-ids.json";
import type { RunningSimulator } from "../../src/simulator";
import { get, getList, getObject, start, type Row } from "./helpers";

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await start();
});
afterAll(() => sim.close());

describe("GET /v2/projects", () => {
  let projects: Row[];
  beforeAll(async () => {
    projects = (await getList(sim, "/v2/projects")).data;
  });

  it("lists at least 40 projects including every realistic id of the real service", () => {
    expect(projects.length).toBeGreaterThanOrEqual(40);
    const listed = projects.map((p) => p.project_id);
    for (const id of ids.projects) expect(listed).toContain(id);
  });

  it("gives each project a name, a relative url and the archived flag", () => {
    for (const p of projects) {
      expect(typeof p.name).toBe("string");
      expect(p.url).toBe(`/v2/projects/${String(p.project_id)}`);
      expect(typeof p.is_archived).toBe("boolean");
      expect(Array.isArray(p.products)).toBe(true);
    }
  });

  it("has at least two archived projects with a reason, and one under maintenance", () => {
    const archived = projects.filter((p) => p.is_archived === true);
    expect(archived.length).toBeGreaterThanOrEqual(2);
    for (const p of archived) expect(typeof p.archived_reason).toBe("string");
    expect(
      projects.filter((p) => typeof p.maintenance_reason === "string").length
    ).toBeGreaterThanOrEqual(1);
  });

  it("has a project whose name holds HTML-breaking characters", () => {
    const hostile = projects.filter((p) => /[<&"]/.test(String(p.name)));
    expect(hostile.length).toBeGreaterThanOrEqual(1);
    expect(String(hostile[0].name)).toMatch(/</);
    expect(String(hostile[0].name)).toMatch(/&/);
    expect(String(hostile[0].name)).toMatch(/"/);
  });

  it("lists products with relative urls to their detail", () => {
    const aave = projects.find((p) => p.project_id === "aave");
    const products = aave?.products as Row[];
    expect(products.map((x) => x.product_id)).toContain("aave-v3");
    expect(products.find((x) => x.product_id === "aave-v3")?.url).toBe(
      "/v2/projects/aave/products/aave-v3"
    );
  });

  it("sends symbol and price-source id only for projects with a token", () => {
    const base = projects.find((p) => p.project_id === "base");
    expect(base).not.toHaveProperty("symbol");
    expect(projects.find((p) => p.project_id === "aave")).toMatchObject({
      symbol: "AAVE",
      pricesource_id: "aave",
    });
  });
});

describe("GET /v2/projects/{id}", () => {
  it("describes a project with sectors as an object and metric availability as the declared string by default", async () => {
    const aave = await getObject(sim, "/v2/projects/aave");
    expect(aave).toMatchObject({
      project_id: "aave",
      name: "Aave",
      symbol: "AAVE",
      market_sectors: { lending: "Lending" },
    });
    expect(aave.chains).toEqual(expect.arrayContaining(["ethereum", "arbitrum"]));
    expect(typeof aave.metric_availability).toBe("string");
    const available = String(aave.metric_availability).split(",");
    expect(available).toContain("fees");
    expect(available).not.toContain("trading_volume");
    const defined = (aave.metric_definitions as Row[]).map((d) => d.metric_id);
    expect(defined).toEqual(available);
    expect((aave.metric_sources as Row[]).map((d) => d.metric_id)).toEqual(available);
    expect(aave.description).toEqual(expect.objectContaining({ what: expect.any(String) }));
    expect((aave.links as Row[])[0]).toEqual({
      summary: expect.any(String),
      url: expect.stringMatching(/^https:/),
    });
  });

  it("tells which metrics can be broken down by chain or product", async () => {
    const aave = await getObject(sim, "/v2/projects/aave");
    const options = aave.aggregate_by_options as Record<string, string[]>;
    expect(options.fees).toEqual(["chain", "product_id"]);
    expect(options.price).toBeUndefined();
    const bitcoin = await getObject(sim, "/v2/projects/bitcoin");
    expect(bitcoin.chains).toEqual([]);
    expect(
      Object.values(bitcoin.aggregate_by_options as Record<string, string[]>).flat()
    ).not.toContain("chain");
  });

  it("reports archive and maintenance reasons on the detail too", async () => {
    expect(await getObject(sim, "/v2/projects/anchor-protocol")).toMatchObject({
      is_archived: true,
      archived_reason: expect.any(String),
    });
    expect(await getObject(sim, "/v2/projects/sushiswap")).toMatchObject({
      maintenance_reason: expect.any(String),
    });
  });

  it("answers 404 for an unknown project, with a JSON message naming it under errorBodies=json", async () => {
    const answer = await get(sim, "/v2/projects/not-a-project");
    expect(answer.status).toBe(404);
    expect(answer.text).toBe("");
    sim.setKnobs({ readings: { errorBodies: "json" } });
    const said = await get(sim, "/v2/projects/not-a-project");
    sim.setKnobs({ readings: { errorBodies: undefined } });
    expect(said.body).toEqual({ message: expect.stringContaining("not-a-project") });
  });

  it("decodes percent-encoded ids", async () => {
    expect((await get(sim, "/v2/projects/%61ave")).status).toBe(200);
  });
});

describe("GET /v2/projects/{id}/products/{product_id}", () => {
  it("describes a product with its parent project and its own metrics", async () => {
    const product = await getObject(sim, "/v2/projects/aave/products/aave-v2");
    expect(product).toMatchObject({
      product_id: "aave-v2",
      project_id: "aave",
      name: "Aave V2",
      market_sectors: { lending: "Lending" },
    });
    expect(product.chains).toEqual(["ethereum", "polygon", "avalanche"]);
    // §2.3 declares an object: by default it lists the available metrics only.
    const availability = product.metric_availability as Record<string, boolean>;
    expect(availability.fees).toBe(true);
    expect(availability).not.toHaveProperty("price");
  });

  it("answers 404 for an unknown product or a product of another project", async () => {
    for (const path of [
      "/v2/projects/aave/products/nope",
      "/v2/projects/uniswap/products/aave-v3",
    ]) {
      const answer = await get(sim, path);
      expect(answer.status).toBe(404);
      expect(answer.text).toBe("");
    }
  });
});

describe("market sectors", () => {
  it("lists the sectors of the real service with relative urls", async () => {
    const sectors = (await getList(sim, "/v2/market-sectors")).data;
    for (const id of ids.sectors) expect(sectors.map((s) => s.id)).toContain(id);
    expect(sectors[0]).toEqual({
      id: "blockchains-l1",
      name: expect.any(String),
      url: "/v2/market-sectors/blockchains-l1",
    });
  });

  it("details a sector with its projects", async () => {
    const lending = await getObject(sim, "/v2/market-sectors/lending");
    expect(lending).toMatchObject({
      market_sector_id: "lending",
      description: { what: expect.any(String), how: expect.any(String) },
    });
    const projects = lending.projects as Row[];
    expect(projects).toContainEqual({ project_id: "aave", name: "Aave", url: "/v2/projects/aave" });
    expect(projects.map((p) => p.project_id)).not.toContain("uniswap");
  });

  it("answers 404 for an unknown sector", async () => {
    expect((await get(sim, "/v2/market-sectors/casinos")).status).toBe(404);
  });
});

describe("GET /v2/metrics", () => {
  it("lists at least 15 metrics, flows and levels alike, with relative urls", async () => {
    const metrics = (await getList(sim, "/v2/metrics")).data;
    expect(metrics.length).toBeGreaterThanOrEqual(15);
    const listed = metrics.map((m) => m.metric_id);
    for (const id of [...ids.metrics, ...ids.flows, ...ids.levels]) expect(listed).toContain(id);
    expect(metrics.find((m) => m.metric_id === "fees")).toEqual({
      metric_id: "fees",
      metric_name: "Fees",
      description: expect.any(String),
      url: "/v2/metrics/fees",
    });
  });
});
