/**
 * The simulator's synthetic universe (`--projects N`): deterministic, growing by appending, never clashing
 * with the demo projects' ids, names or symbols, and served like any other project.
 */
import { createDataset } from "../../src/simulator";
import { parseCliOptions, SimulatorOptionError } from "../../src/simulator/cli-options";
import { resolveProjectIn } from "../../src/engine/resolver";
import { getList, start, TODAY, type Row } from "./helpers";
import type { Project } from "../../src/client";

const demo = createDataset(TODAY);
const large = createDataset(TODAY, { projects: 300 });

function norm(s: string): string {
  return s.trim().toLowerCase();
}

describe("the synthetic universe", () => {
  it("keeps the 51 demo projects first and adds synthetic ones up to the size asked", () => {
    expect(demo.projects).toHaveLength(51);
    expect(large.projects).toHaveLength(300);
    expect(large.projects.slice(0, 51).map((p) => p.id)).toEqual(demo.projects.map((p) => p.id));
    // Asking for fewer projects than the demo has changes nothing.
    expect(createDataset(TODAY, { projects: 10 }).projects).toHaveLength(51);
  });

  it("is the same on every run, and a larger universe only appends projects", () => {
    const again = createDataset(TODAY, { projects: 300 });
    expect(again.projects.map((p) => [p.id, p.name, p.symbol, p.launch, p.sectors])).toEqual(
      large.projects.map((p) => [p.id, p.name, p.symbol, p.launch, p.sectors])
    );
    const larger = createDataset(TODAY, { projects: 400 });
    expect(larger.projects.slice(0, 300).map((p) => p.id)).toEqual(large.projects.map((p) => p.id));
    const synthetic = large.projects[120];
    expect(again.daily(synthetic.id, "fees", { start: "2025-01-01", end: "2025-01-31" })).toEqual(
      large.daily(synthetic.id, "fees", { start: "2025-01-01", end: "2025-01-31" })
    );
  });

  it("never clashes with a demo project's id, name or symbol, nor with one another", () => {
    const demoLabels = new Set(
      demo.projects.flatMap((p) => [p.id, p.name, ...(p.symbol ? [p.symbol] : [])].map(norm))
    );
    const synthetic = large.projects.slice(demo.projects.length);
    const labels = synthetic.flatMap((p) =>
      [p.id, p.name, ...(p.symbol ? [p.symbol] : [])].map(norm)
    );
    expect(labels.filter((l) => demoLabels.has(l))).toEqual([]);
    expect(new Set(labels).size).toBe(labels.length);
    // So a demo symbol still resolves to its project alone, in the large catalogue too.
    const catalogue = large.projects.map(
      (p) =>
        ({ projectId: p.id, name: p.name, symbol: p.symbol, products: [] }) as unknown as Project
    );
    expect(resolveProjectIn(catalogue, "AAVE").projectId).toBe("aave");
    expect(resolveProjectIn(catalogue, synthetic[3].name).projectId).toBe(synthetic[3].id);
  });

  it("gives synthetic projects sectors, profiles, metrics that agree, and a few archived ones", () => {
    const synthetic = large.projects.slice(demo.projects.length);
    const sectorIds = new Set(large.sectors.map((s) => s.id));
    for (const p of synthetic) {
      expect(p.sectors.every((s) => sectorIds.has(s))).toBe(true);
      expect(p.metrics).toEqual(expect.arrayContaining(["fees", "revenue"]));
      expect(p.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    }
    expect(new Set(synthetic.map((p) => p.profile)).size).toBeGreaterThan(6);
    expect(synthetic.filter((p) => p.symbol).length).toBeGreaterThan(synthetic.length / 2);
    const archived = synthetic.filter((p) => p.isArchived);
    expect(archived.length).toBeGreaterThan(0);
    expect(archived.every((p) => p.lastDate === p.archiveDate && p.archivedReason)).toBe(true);

    const withSupply = synthetic.find(
      (p) => !p.isArchived && p.metrics.includes("fees_supply_side")
    )!;
    const range = { start: "2025-03-01", end: "2025-03-07" };
    const fees = large.daily(withSupply.id, "fees", range);
    const supply = large.daily(withSupply.id, "fees_supply_side", range);
    const revenue = large.daily(withSupply.id, "revenue", range);
    revenue.forEach((r, i) => {
      if (r.value !== null && fees[i].value !== null && supply[i].value !== null)
        expect(r.value).toBeCloseTo(fees[i].value - supply[i].value, 3);
    });
  });

  it("refuses a universe beyond 50,000 projects or a fractional size", () => {
    expect(() => createDataset(TODAY, { projects: 50_001 })).toThrow(/50000/);
    expect(() => createDataset(TODAY, { projects: 100.5 })).toThrow(/integer/);
  });
});

describe("the simulator serving a synthetic universe", () => {
  it("lists every project, puts them in their sectors and serves one metric across all of them", async () => {
    const sim = await start({ projects: 120 });
    try {
      const projects = (await getList(sim, "/v2/projects")).data;
      expect(projects).toHaveLength(120);
      const synthetic = projects[100];
      const [sector] = large.project(String(synthetic.project_id))!.sectors;
      const detail = await fetch(`${sim.url}/v2/market-sectors/${sector}`, {
        headers: { Authorization: "Bearer cm_demo_4f1c2a9e" },
      }).then((r) => r.json() as Promise<{ data: { projects: Row[] } }>);
      expect(detail.data.projects.map((p) => p.project_id)).toContain(synthetic.project_id);

      const day = "2025-06-01";
      const all = await getList(sim, `/v2/metrics/fees?project_ids=all&start=${day}&end=${day}`);
      const ids = new Set(all.data.map((r) => r.project_id));
      expect(ids.has(synthetic.project_id)).toBe(true);
      expect(ids.size).toBeGreaterThan(100);
      expect(all.errors).toBeUndefined();
    } finally {
      await sim.close();
    }
  });

  it("refuses an invalid size at start", async () => {
    await expect(start({ projects: -1 })).rejects.toThrow(/projects/);
  });
});

describe("npm run simulator -- --projects", () => {
  it("reads the universe size from the flag or SIMULATOR_PROJECTS", () => {
    expect(parseCliOptions(["--projects", "500"], {}).simulator.projects).toBe(500);
    expect(parseCliOptions([], { SIMULATOR_PROJECTS: "2000" }).simulator.projects).toBe(2000);
    expect(parseCliOptions([], {}).simulator.projects).toBeUndefined();
  });

  it("refuses a size that is not a whole number up to 50,000", () => {
    expect(() => parseCliOptions(["--projects", "many"], {})).toThrow(SimulatorOptionError);
    expect(() => parseCliOptions(["--projects", "60000"], {})).toThrow(/50000/);
    expect(() => parseCliOptions(["--projects", "12.5"], {})).toThrow(/whole number/);
  });
});
