/** Turning what the user typed into catalogue entries, with per-item failures kept for partial results. */
import type { Metric, Project } from "../../client";
import { isCryptometricsError } from "../../client";
import { resolveMetricIn, resolveProjectIn } from "../../engine";
import { traced, type FnContext } from "../context";
import { notAvailable, type ErrorCell } from "../result";
import { userMessage } from "../messages";

export type Resolved<T> = { text: string; value: T } | { text: string; error: ErrorCell };

function asErrorCell(error: unknown): ErrorCell {
  if (isCryptometricsError(error) && error.kind === "not-found")
    return { error: "na", message: userMessage(error.message) };
  throw error; // anything else (no key, service down) fails the whole call
}

/** An empty position of a range or list: its column (or row) stays, saying why it is empty. */
function emptyPosition(what: string): ErrorCell {
  return { error: "na", message: `no ${what} given (the cell is empty)` };
}

export async function projectCatalogue(ctx: FnContext): Promise<Project[]> {
  const cached = ctx.engine.cachedProjects();
  if (cached) {
    ctx.trace.requests.add("GET /v2/projects (cached)");
    return cached;
  }
  return traced(ctx, "GET /v2/projects", ctx.engine.projects());
}

export async function metricCatalogue(ctx: FnContext): Promise<Metric[]> {
  const cached = ctx.engine.cachedMetrics();
  if (cached) {
    ctx.trace.requests.add("GET /v2/metrics (cached)");
    return cached;
  }
  return traced(ctx, "GET /v2/metrics", ctx.engine.metrics());
}

export async function resolveProjects(
  ctx: FnContext,
  texts: readonly string[]
): Promise<Resolved<Project>[]> {
  const projects = await projectCatalogue(ctx);
  return texts.map(
    once<Project>((text) => {
      if (text.trim() === "") return { text, error: emptyPosition("project") };
      try {
        return { text, value: resolveProjectIn(projects, text) };
      } catch (error) {
        return { text, error: asErrorCell(error) };
      }
    })
  );
}

/**
 * Each distinct text resolved once per call (a range repeats ids; an unknown one costs a search of the
 * whole catalogue for suggestions), every position still answered.
 */
function once<T>(resolve: (text: string) => Resolved<T>): (text: string) => Resolved<T> {
  const done = new Map<string, Resolved<T>>();
  return (text) => {
    const key = text.toLowerCase();
    let r = done.get(key);
    if (!r) done.set(key, (r = resolve(text)));
    return r.text === text ? r : { ...r, text };
  };
}

export async function resolveMetrics(
  ctx: FnContext,
  texts: readonly string[]
): Promise<Resolved<Metric>[]> {
  const metrics = await metricCatalogue(ctx);
  return texts.map(
    once<Metric>((text) => {
      if (text.trim() === "") return { text, error: emptyPosition("metric") };
      try {
        const value = resolveMetricIn(metrics, text);
        if (value.description) ctx.trace.definitions[value.metricId] = value.description;
        return { text, value };
      } catch (error) {
        return { text, error: asErrorCell(error) };
      }
    })
  );
}

function single<T>(resolve: () => T): T {
  try {
    return resolve();
  } catch (error) {
    throw notAvailable(asErrorCell(error).message);
  }
}

/** One project or the whole-result error. */
export async function resolveProject(ctx: FnContext, text: string): Promise<Project> {
  const projects = await projectCatalogue(ctx);
  return single(() => resolveProjectIn(projects, text));
}

export async function resolveMetric(ctx: FnContext, text: string): Promise<Metric> {
  const metrics = await metricCatalogue(ctx);
  const metric = single(() => resolveMetricIn(metrics, text));
  if (metric.description) ctx.trace.definitions[metric.metricId] = metric.description;
  return metric;
}

/**
 * A project and a metric at once, without waiting, when both catalogues are cached (the warm path, where a
 * cell's awaits cost more than its look-ups); undefined otherwise (resolve them with resolveProject and
 * resolveMetric). The same trace and the same error as those two run together: both are looked up, and a
 * project that fails wins over a metric that does.
 */
export function resolvedNow(
  ctx: FnContext,
  projectText: string,
  metricText: string
): [Project, Metric] | undefined {
  const projects = ctx.engine.cachedProjects();
  const metrics = projects && ctx.engine.cachedMetrics();
  if (!projects || !metrics) return undefined;
  ctx.trace.requests.add("GET /v2/projects (cached)");
  ctx.trace.requests.add("GET /v2/metrics (cached)");
  let failure: { error: unknown } | undefined;
  let project: Project | undefined;
  let metric: Metric | undefined;
  try {
    project = single(() => resolveProjectIn(projects, projectText));
  } catch (error) {
    failure = { error };
  }
  try {
    metric = single(() => resolveMetricIn(metrics, metricText));
    if (metric.description) ctx.trace.definitions[metric.metricId] = metric.description;
  } catch (error) {
    failure ??= { error };
  }
  if (failure) throw failure.error;
  return [project!, metric!];
}

/** A product of a project, by id or name (case-insensitive), from the project catalogue's product list. */
export function resolveProduct(project: Project, text: string): string {
  const t = text.trim().toLowerCase();
  const found = project.products.find(
    (p) => p.productId.toLowerCase() === t || p.productName.toLowerCase() === t
  );
  if (found) return found.productId;
  const known = project.products.map((p) => `"${p.productId}"`).join(", ");
  throw notAvailable(
    project.products.length === 0
      ? `project "${project.projectId}" has no products`
      : `project "${project.projectId}" has no product "${text.trim()}"; its products: ${known}`
  );
}
