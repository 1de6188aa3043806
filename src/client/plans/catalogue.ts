/**
 * Plans of the catalogue operations (§4.1, 4.2, 4.6, 4.10); the market sectors (§4.8, §4.9) are sectors.ts's,
 * v1's project list (§9) v1.ts's.
 */
import type { Planner } from "../call";
import {
  normaliseMetrics,
  normaliseProductDetail,
  normaliseProjectDetail,
  normaliseProjects,
} from "../data/normalise-catalogue";
import { pathOf, type PlanTools } from "./plan";
import type { OperationName } from "../interface";
import type { JsonValue } from "../data/wire";
import type { Notes } from "../data/notes";
import type { Metric, ProductDetail, Project, ProjectDetail } from "../data/types";

/** A list of the catalogue: one request, no parameters. */
export const listPlan =
  <T>(op: OperationName, read: (data: JsonValue, notes: Notes) => T, bare = false) =>
  (t: PlanTools): Planner<T> =>
  () =>
    t.one([], pathOf(op), [], read, bare);

/** One entry of the catalogue, by its id. */
export const detailPlan =
  <T>(op: OperationName, idName: string, read: (data: JsonValue, notes: Notes) => T) =>
  (t: PlanTools, entryId: unknown): Planner<T> =>
  (check) => {
    const id = check.pathId(idName, entryId);
    return t.one([id], pathOf(op, id), [], read);
  };

export const listProjectsPlan = listPlan<Project[]>("listProjects", normaliseProjects);

export const getProjectPlan = detailPlan<ProjectDetail>(
  "getProject",
  "projectId",
  normaliseProjectDetail
);

export const getProductPlan =
  (t: PlanTools, projectId: unknown, productId: unknown): Planner<ProductDetail> =>
  (check) => {
    const id = check.pathId("projectId", projectId);
    const product = check.pathId("productId", productId);
    return t.one([id, product], pathOf("getProduct", id, product), [], (data) =>
      normaliseProductDetail(data, id)
    );
  };

export const listMetricsPlan = listPlan<Metric[]>("listMetrics", normaliseMetrics);
