/** Plans of the catalogue operations (§4.1, 4.2, 4.6, 4.8–4.10) and v1's project list (§9). */
import type { Planner } from "../call";
import {
  normaliseMarketSectorDetail,
  normaliseMarketSectors,
  normaliseMetrics,
  normaliseProductDetail,
  normaliseProjectDetail,
  normaliseProjects,
} from "../data/normalise-catalogue";
import { normaliseOpenRows } from "../data/normalise-series";
import { pathOf, type PlanTools } from "./plan";
import type {
  MarketSector,
  MarketSectorDetail,
  Metric,
  OpenRow,
  ProductDetail,
  Project,
  ProjectDetail,
} from "../data/types";

export const listProjectsPlan =
  (t: PlanTools): Planner<Project[]> =>
  () =>
    t.one([], pathOf("listProjects"), [], normaliseProjects);

export const getProjectPlan =
  (t: PlanTools, projectId: unknown): Planner<ProjectDetail> =>
  (check) => {
    const id = check.pathId("projectId", projectId);
    return t.one([id], pathOf("getProject", id), [], normaliseProjectDetail);
  };

export const getProductPlan =
  (t: PlanTools, projectId: unknown, productId: unknown): Planner<ProductDetail> =>
  (check) => {
    const id = check.pathId("projectId", projectId);
    const product = check.pathId("productId", productId);
    return t.one([id, product], pathOf("getProduct", id, product), [], (data) =>
      normaliseProductDetail(data, id)
    );
  };

export const listMarketSectorsPlan =
  (t: PlanTools): Planner<MarketSector[]> =>
  () =>
    t.one([], pathOf("listMarketSectors"), [], normaliseMarketSectors);

export const getMarketSectorPlan =
  (t: PlanTools, marketSectorId: unknown): Planner<MarketSectorDetail> =>
  (check) => {
    const id = check.pathId("marketSectorId", marketSectorId);
    return t.one([id], pathOf("getMarketSector", id), [], normaliseMarketSectorDetail);
  };

export const listMetricsPlan =
  (t: PlanTools): Planner<Metric[]> =>
  () =>
    t.one([], pathOf("listMetrics"), [], normaliseMetrics);

export const v1ListProjectsPlan =
  (t: PlanTools): Planner<OpenRow[]> =>
  () =>
    // §9 shows no shape for v1: a bare list and a {data} object are both read.
    t.one([], pathOf("v1ListProjects"), [], normaliseOpenRows, true);
