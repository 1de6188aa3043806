import type { DemoDataset, ProjectInfo } from "../data/dataset";
import { notFound, type Query } from "./params";
import type { Envelope } from "./wire";

export interface HandlerContext {
  dataset: DemoDataset;
  query: Query;
  /** Decoded path parameters, in the order of the route pattern. */
  params: readonly string[];
}

export interface HandlerResult {
  body: Envelope;
  headers?: Record<string, string>;
}

export type Handler = (ctx: HandlerContext) => Envelope | HandlerResult;

export function requireProject(ctx: HandlerContext, projectId: string): ProjectInfo {
  const info = ctx.dataset.project(projectId);
  if (!info) throw notFound(`Project not found: ${projectId}`);
  return info;
}

export const projectUrl = (id: string): string => `/v2/projects/${encodeURIComponent(id)}`;
export const productUrl = (projectId: string, productId: string): string =>
  `${projectUrl(projectId)}/products/${encodeURIComponent(productId)}`;
