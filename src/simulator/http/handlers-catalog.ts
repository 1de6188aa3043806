/** Catalogue operations: projects (§4.1, §4.2), products (§4.6), market sectors (§4.8, §4.9), metrics (§4.10). */
import type { ProductInfo, ProjectInfo } from "../data/dataset";
import { findMetric, metricSource } from "../data/metrics-catalog";
import { projectUrl, productUrl, requireProject, type HandlerContext } from "./context";
import { notFound } from "./params";
import { envelope, type Envelope } from "./wire";

/** Optional members are left out rather than sent as null, as the service does. */
function compact<T extends Record<string, unknown>>(record: T): T {
  for (const key of Object.keys(record)) if (record[key] === undefined) delete record[key];
  return record;
}

/**
 * The catalogueEntries reading "unusable": an entry that breaks its declared shape, appended to a list (an
 * odd service's answer, not a reading of the interface: the client must skip it, not fail on it).
 */
function withUnusable<T>(ctx: HandlerContext, list: T[], entry: T): T[] {
  return ctx.knobs.readings.catalogueEntries === "unusable" ? [...list, entry] : list;
}

export function listProjects(ctx: HandlerContext): Envelope {
  const { dataset } = ctx;
  // One product summary without its id, in the first project that has products.
  const brokenAt =
    ctx.knobs.readings.catalogueEntries === "unusable"
      ? dataset.projects.findIndex((p) => p.products.length > 0)
      : -1;
  const items: Record<string, unknown>[] = dataset.projects.map((p, i) =>
    compact({
      name: p.name,
      project_id: p.id,
      pricesource_id: p.pricesourceId,
      symbol: p.symbol,
      url: projectUrl(p.id),
      is_archived: p.isArchived,
      archived_reason: p.archivedReason,
      maintenance_reason: p.maintenanceReason,
      products: [
        ...p.products.map((x): Record<string, unknown> =>
          compact({
            product_id: x.id,
            product_name: x.name,
            symbol: x.symbol,
            url: productUrl(p.id, x.id),
          })
        ),
        ...(i === brokenAt ? [{ product_id: null, product_name: "Retired pool" }] : []),
      ],
    })
  );
  return envelope(withUnusable(ctx, items, { name: "Unnamed listing", project_id: null }));
}

/** metric id -> breakdowns it supports for this project or product ("chain", "product_id"). */
function aggregateByOptions(
  metrics: readonly string[],
  hasChains: boolean,
  hasProducts: boolean
): Record<string, string[]> {
  const options: Record<string, string[]> = {};
  for (const id of metrics) {
    const metric = findMetric(id);
    if (!metric) continue;
    const list = [
      ...(metric.byChain && hasChains ? ["chain"] : []),
      ...(metric.byProduct && hasProducts ? ["product_id"] : []),
    ];
    if (list.length > 0) options[id] = list;
  }
  return options;
}

/**
 * metric_availability as the availability reading says: the declared string (§2.2) as a comma list (on a
 * product, whose §2.3 declares an object, the object of the available ones), a list, an object of the
 * available ones, or an object of every metric with true or false.
 */
function availabilityOf(
  ctx: HandlerContext,
  available: readonly string[],
  declared: "string" | "object"
): unknown {
  const all = ctx.dataset.metrics.map((m) => m.id);
  const listed = (): Record<string, boolean> =>
    Object.fromEntries(available.map((id) => [id, true]));
  switch (ctx.knobs.readings.availability) {
    case "string":
      return declared === "string" ? available.join(",") : listed();
    case "list":
      return [...available];
    case "listed":
      return listed();
    case "object":
      return Object.fromEntries(all.map((id) => [id, available.includes(id)]));
  }
}

/** market_sectors as the sectors reading says (an object whose inner shape §2.2 does not show). */
function sectorsOf(ctx: HandlerContext, ids: readonly string[]): unknown {
  switch (ctx.knobs.readings.sectors) {
    case "names":
      return Object.fromEntries(ids.map((id) => [id, ctx.dataset.sector(id)?.name ?? id]));
    case "ids":
      return [...ids];
    case "objects":
      return ids.map((id) => ({ market_sector_id: id, name: ctx.dataset.sector(id)?.name ?? id }));
    case "wrapped":
      return { market_sector_ids: [...ids] };
  }
}

function metricTables(
  ctx: HandlerContext,
  metrics: readonly string[],
  declared: "string" | "object"
) {
  const { dataset } = ctx;
  const available = dataset.metrics.filter((m) => metrics.includes(m.id));
  return {
    metric_availability: availabilityOf(
      ctx,
      available.map((m) => m.id),
      declared
    ),
    metric_definitions: available.map((m) => ({ metric_id: m.id, definition: m.description })),
    metric_sources: available.map((m) => ({ metric_id: m.id, definition: metricSource(m) })),
  };
}

function description(p: ProjectInfo): { what: string; who: string; how: string } {
  return {
    what: `${p.name} is a ${p.profile}, launched on ${p.launch}.`,
    who: `Used by traders, investors and developers on ${p.chains.length > 0 ? p.chains.join(", ") : "its own chain"}.`,
    how: `Simulated figures: ${p.name}'s metrics are generated by the Cryptometrics simulator, not observed.`,
  };
}

export function getProject(ctx: HandlerContext): Envelope {
  const p = requireProject(ctx, ctx.params[0]);
  return envelope(
    compact({
      name: p.name,
      project_id: p.id,
      symbol: p.symbol,
      description: description(p),
      market_sectors: sectorsOf(ctx, p.sectors),
      chains: p.chains,
      links: [
        { summary: "Website", url: `https://${p.id}.example` },
        { summary: "Documentation", url: `https://docs.${p.id}.example` },
      ],
      aggregate_by_options: aggregateByOptions(
        p.metrics,
        p.chains.length > 0,
        p.products.length > 0
      ),
      ...metricTables(ctx, p.metrics, "string"),
      is_archived: p.isArchived,
      archived_reason: p.archivedReason,
      maintenance_reason: p.maintenanceReason,
    })
  );
}

export function requireProduct(
  ctx: HandlerContext,
  project: ProjectInfo,
  productId: string
): ProductInfo {
  const product = project.products.find((x) => x.id === productId);
  if (!product) throw notFound(`Product not found: ${productId} (project ${project.id})`);
  return product;
}

export function getProduct(ctx: HandlerContext): Envelope {
  const project = requireProject(ctx, ctx.params[0]);
  const product = requireProduct(ctx, project, ctx.params[1]);
  return envelope(
    compact({
      name: product.name,
      product_id: product.id,
      project_id: project.id,
      symbol: product.symbol,
      market_sectors: sectorsOf(ctx, project.sectors),
      chains: product.chains,
      aggregate_by_options: aggregateByOptions(product.metrics, product.chains.length > 0, false),
      ...metricTables(ctx, product.metrics, "object"),
    })
  );
}

export function listMarketSectors(ctx: HandlerContext): Envelope {
  const items: Record<string, unknown>[] = ctx.dataset.sectors.map((s) => ({
    id: s.id,
    name: s.name,
    url: `/v2/market-sectors/${s.id}`,
  }));
  return envelope(withUnusable(ctx, items, { id: null, name: "Unnamed sector" }));
}

export function getMarketSector(ctx: HandlerContext): Envelope {
  const sector = ctx.dataset.sector(ctx.params[0]);
  if (!sector) throw notFound(`Market sector not found: ${ctx.params[0]}`);
  return envelope({
    market_sector_id: sector.id,
    name: sector.name,
    description: { what: sector.what, how: sector.how },
    projects: ctx.dataset.projects
      .filter((p) => p.sectors.includes(sector.id))
      .map((p) => ({ project_id: p.id, name: p.name, url: projectUrl(p.id) })),
  });
}

export function listMetrics(ctx: HandlerContext): Envelope {
  const items: Record<string, unknown>[] = ctx.dataset.metrics.map((m) => ({
    metric_id: m.id,
    metric_name: m.name,
    description: m.description,
    url: `/v2/metrics/${m.id}`,
  }));
  return envelope(withUnusable(ctx, items, { metric_id: null, metric_name: "Unnamed metric" }));
}
