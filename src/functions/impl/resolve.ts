/** Turning what the user typed into catalogue entries, with per-item failures kept for partial results. */
import type { Metric, Project } from "../../client";
import { isCryptometricsError } from "../../client";
import {
  loadSuggest,
  resolveMetricIn,
  suggestNow,
  resolveProjectIn,
  withSuggestions,
  type Engine,
  type Loaded,
  type Suggest,
} from "../../engine";
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

/**
 * A catalogue the engine holds already (traced as a cached request), else its request. `load` is one of the
 * module's loaders below, so a call makes no function of its own.
 */
async function catalogue<T>(
  ctx: FnContext,
  request: string,
  cached: T | undefined,
  load: (engine: Engine) => Promise<Loaded<T>>
): Promise<T> {
  if (cached) {
    ctx.trace.requests.add(`${request} (cached)`);
    return cached;
  }
  return traced(ctx, request, load(ctx.engine));
}

const loadProjects = (engine: Engine): Promise<Loaded<Project[]>> => engine.projects();
const loadMetrics = (engine: Engine): Promise<Loaded<Metric[]>> => engine.metrics();

export function projectCatalogue(ctx: FnContext): Promise<Project[]> {
  return catalogue(ctx, "GET /v2/projects", ctx.engine.cachedProjects(), loadProjects);
}

export function metricCatalogue(ctx: FnContext): Promise<Metric[]> {
  return catalogue(ctx, "GET /v2/metrics", ctx.engine.cachedMetrics(), loadMetrics);
}

/**
 * Each text of a list resolved (an empty position says so); when one is unknown, the list is resolved again
 * with the suggestions loaded (engine's loadSuggest), so every unknown text says "did you mean".
 */
async function resolveEach<T>(
  texts: readonly string[],
  what: string,
  resolve: (text: string, suggest?: Suggest) => T
): Promise<Resolved<T>[]> {
  const pass = (suggest?: Suggest): { out: Resolved<T>[]; unknown: boolean } => {
    let unknown = false;
    const out = texts.map(
      once<T>((text) => {
        if (text.trim() === "") return { text, error: emptyPosition(what) };
        try {
          return { text, value: resolve(text, suggest) };
        } catch (error) {
          const cell = asErrorCell(error);
          unknown = true;
          return { text, error: cell };
        }
      })
    );
    return { out, unknown };
  };
  const suggest = suggestNow();
  const first = pass(suggest);
  return first.unknown && !suggest ? pass(await loadSuggest()).out : first.out;
}

export async function resolveProjects(
  ctx: FnContext,
  texts: readonly string[]
): Promise<Resolved<Project>[]> {
  const projects = await projectCatalogue(ctx);
  return resolveEach(texts, "project", (text, suggest) =>
    resolveProjectIn(projects, text, suggest)
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
  return resolveEach(texts, "metric", (text, suggest) => {
    const value = resolveMetricIn(metrics, text, suggest);
    if (value.description) ctx.trace.definitions[value.metricId] = value.description;
    return value;
  });
}

/** One look-up or the whole-result error, with "did you mean" for an unknown text. */
async function single<T>(resolve: (suggest?: Suggest) => T): Promise<T> {
  try {
    return await withSuggestions(resolve);
  } catch (error) {
    throw notAvailable(asErrorCell(error).message);
  }
}

/** One project or the whole-result error. */
export async function resolveProject(ctx: FnContext, text: string): Promise<Project> {
  const projects = await projectCatalogue(ctx);
  return single((suggest) => resolveProjectIn(projects, text, suggest));
}

export async function resolveMetric(ctx: FnContext, text: string): Promise<Metric> {
  const metrics = await metricCatalogue(ctx);
  const metric = await single((suggest) => resolveMetricIn(metrics, text, suggest));
  if (metric.description) ctx.trace.definitions[metric.metricId] = metric.description;
  return metric;
}

/**
 * A project and a metric, waiting where needed: both are looked up, and a project that fails wins over a
 * metric that does (as resolvedNow).
 */
export async function resolvePair(
  ctx: FnContext,
  projectText: string,
  metricText: string
): Promise<[Project, Metric]> {
  const [project, metric] = await Promise.allSettled([
    resolveProject(ctx, projectText),
    resolveMetric(ctx, metricText),
  ]);
  if (project.status === "rejected") throw project.reason;
  if (metric.status === "rejected") throw metric.reason;
  return [project.value, metric.value];
}

/**
 * A project and a metric at once, without waiting, when both catalogues are cached (the warm path, where a
 * cell's awaits cost more than its look-ups); undefined otherwise, or for an unknown text before the
 * suggestions' code has arrived (resolvePair loads it and says so, with "did you mean"). The same trace and
 * the same error as those two run together: both are looked up, and a project that fails wins over a metric
 * that does.
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
  const suggest = suggestNow();
  try {
    project = resolveProjectIn(projects, projectText, suggest);
  } catch (error) {
    failure = { error };
  }
  try {
    metric = resolveMetricIn(metrics, metricText, suggest);
    if (metric.description) ctx.trace.definitions[metric.metricId] = metric.description;
  } catch (error) {
    failure ??= { error };
  }
  if (failure) {
    // An unknown text before the suggestions' code has arrived: resolvePair loads it and says "did you mean".
    const unknown = isCryptometricsError(failure.error) && failure.error.kind === "not-found";
    if (unknown && !suggest) return undefined;
    throw notAvailable(asErrorCell(failure.error).message);
  }
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
