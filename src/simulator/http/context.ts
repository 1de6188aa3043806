import type { DemoDataset, ProjectInfo } from "../data/dataset";
import type { MetricDef } from "../data/metrics-catalog";
import type { Readings } from "../readings";
import { notFound, type Query } from "./params";
import type { Envelope } from "./wire";

/** Knobs that change what an answer holds (the others change how, or whether, it is sent). */
export interface AnswerKnobs {
  /** METRIC_NOT_AVAILABLE beyond §4.11 (off by default: the interface promises it there only). */
  reportUnavailable: boolean;
  /** Share of (project, day) pairs sent more than once in time-series answers. */
  duplicateRows: number;
  /** Which reading of the interface to answer by, where it is loose (readings.ts). */
  readings: Readings;
}

export interface HandlerContext {
  dataset: DemoDataset;
  knobs: AnswerKnobs;
  query: Query;
  /** Decoded path parameters, in the order of the route pattern. */
  params: readonly string[];
}

export interface HandlerResult {
  /** An envelope, or (v1 under the v1Envelope reading "bare") a bare list. */
  body: Envelope | unknown[];
  headers?: Record<string, string>;
}

export type Handler = (ctx: HandlerContext) => Envelope | HandlerResult;

export function requireProject(ctx: HandlerContext, projectId: string): ProjectInfo {
  const info = ctx.dataset.project(projectId);
  if (!info) throw notFound(`Project not found: ${projectId}`);
  return info;
}

export function requireMetric(ctx: HandlerContext, metricId: string): MetricDef {
  const metric = ctx.dataset.metric(metricId);
  if (!metric) throw notFound(`Metric not found: ${metricId}`);
  return metric;
}

export const projectUrl = (id: string): string => `/v2/projects/${encodeURIComponent(id)}`;
export const productUrl = (projectId: string, productId: string): string =>
  `${projectUrl(projectId)}/products/${encodeURIComponent(productId)}`;
