/**
 * METRIC's `breakdown=product_id`: one dimension per product of the project, each read from the product's
 * own metrics (§4.7), whose rows have a documented shape.
 *
 * Why not `aggregate_by=product_id` on the project's metrics (§4.3)? The interface allows that breakdown but
 * names no member that says which product a row belongs to (§2.4 names chain, business_line and version):
 * a service may label the product in any of them, or in none, and a row nobody can attribute would make one
 * product's figure pass for the whole. The product operation answers the same figures (a metric a product
 * lacks is absent, as the breakdown leaves it out) whatever the service calls its members, at one request per
 * product instead of one.
 */
import { keptFor, type Project } from "../../client";
import type { DayPoint, SeriesAnswer, SeriesQuery, SeriesVariant } from "../../engine";
import type { FnContext } from "../context";
import { fetchSeries } from "./series-common";

/** The products a breakdown covers: those of `products=` when given (in the project's order), else all. */
function productsOf(project: Project, chosen: readonly string[]): string[] {
  const all = project.products.map((p) => p.productId);
  return chosen.length === 0 ? all : all.filter((id) => chosen.includes(id));
}

/** The variant of one product's own series: its chains and bridging; it is no breakdown of itself. */
const productVariants = new WeakMap<SeriesVariant, SeriesVariant>();
function ownVariant(v: SeriesVariant): SeriesVariant {
  return { bridged: v.bridged, chains: v.chains, products: [], sectors: [] };
}
function productVariant(v: SeriesVariant): SeriesVariant {
  return keptFor(productVariants, v, ownVariant);
}

/**
 * The project's series broken down by product: one dimension per product that has the metric (a product
 * without it has no dimension, as the service's breakdown leaves it out).
 */
export async function productBreakdown(
  ctx: FnContext,
  project: Project,
  query: SeriesQuery,
  label: string
): Promise<SeriesAnswer> {
  const variant = productVariant(query.variant);
  const products = productsOf(project, query.variant.products);
  const answers = await Promise.all(
    products.map((productId) =>
      fetchSeries(ctx, { ...query, productId, variant }, `${label} (${productId})`)
    )
  );
  const dims = new Map<string, DayPoint[]>();
  const warnings: string[] = [];
  const servedBy: string[] = [];
  let stale: SeriesAnswer["stale"];
  answers.forEach((answer, i) => {
    for (const w of answer.warnings) warnings.push(`${products[i]}: ${w}`);
    for (const s of answer.servedBy) servedBy.push(s);
    stale ??= answer.stale;
    // A product that lacks the metric (or that the service does not know) is no part of the breakdown.
    if (answer.issue) return;
    const points = answer.dims.get("");
    if (points && points.length > 0) dims.set(products[i], points);
  });
  return { dims, warnings, servedBy, ...(stale ? { stale } : {}) };
}
