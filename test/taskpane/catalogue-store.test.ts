import type { Loaded } from "../../src/engine/keyed-cache";
import type { MarketSector, Metric, Project } from "../../src/client/data/types";
import { CatalogueStore, type CatalogueEngine } from "../../src/taskpane/model/catalogue-store";

const loaded = <T>(value: T): Loaded<T> => ({ value, cached: false });
const project = (projectId: string, name: string): Project => ({
  projectId,
  name,
  isArchived: false,
  products: [],
});

function engine(failFirst = false) {
  let calls = 0;
  const e = {
    projects: async () => {
      calls += 1;
      if (failFirst && calls === 1) throw new Error("no key");
      return loaded([project("uniswap", "Uniswap"), project("aave", "Aave")]);
    },
    metrics: async () =>
      loaded<Metric[]>([{ metricId: "fees", metricName: "Fees", description: "" }]),
    sectors: async () => loaded<MarketSector[]>([{ id: "lending", name: "Lending" }]),
  } as unknown as CatalogueEngine;
  return { e, calls: () => calls };
}

test("loads the three catalogues once and indexes them; names and projects looked up by id", async () => {
  const { e, calls } = engine();
  const store = new CatalogueStore(async () => e);
  const heard: number[] = [];
  store.onLoaded((c) => heard.push(c.projects.length));
  const [a, b] = await Promise.all([store.load(), store.load()]);
  expect(a).toBe(b);
  expect(calls()).toBe(1);
  expect(a.projectIndex.search("").map((p) => p.projectId)).toEqual(["aave", "uniswap"]);
  expect(a.metricName("fees")).toBe("Fees");
  expect(a.metricName("unknown_metric")).toBe("unknown_metric");
  expect(a.projectById("aave")?.name).toBe("Aave");
  await Promise.resolve();
  expect(heard).toEqual([2]);
});

test("a failed load is not kept (the next try goes to the service); reset forgets a good one", async () => {
  const { e, calls } = engine(true);
  const store = new CatalogueStore(async () => e);
  await expect(store.load()).rejects.toThrow("no key");
  await expect(store.load()).resolves.toMatchObject({ projects: expect.any(Array) });
  expect(calls()).toBe(2);
  store.reset();
  await store.load();
  expect(calls()).toBe(3);
});
