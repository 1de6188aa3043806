/**
 * The `chains`, `products` and `sectors` filters checked before a series is asked, so a typo never reads as
 * "no data" and a project a filter excludes says so instead of showing blank cells:
 * - chains against the project's (or product's) detail (§4.2, §4.6 `chains`), products against the
 *   project's products (§4.1), sectors against the sector catalogue (§4.8) and each sector's projects
 *   (§4.9: the detail's own market_sectors has a shape the interface leaves open);
 * - a value close to a known one is a typo: #VALUE! `unknown chain "etherium" for aave; did you mean
 *   "ethereum"?`;
 * - a real value that does not apply to this project is #N/A with the reason (`aave is not on chain
 *   "solana"; its chains: …`, `uniswap is not in sector "lending"; its sectors: …`): in a table of several
 *   projects only that project's column says it.
 * Ids are matched as the service spells them (a case-only difference is offered as a suggestion).
 */
import type { Project } from "../../client";
import { closest, didYouMean } from "../../engine/resolver";
import type { FnContext } from "../context";
import type { Options } from "../options";
import type { ErrorCell } from "../result";
import { traced } from "../context";

/** Items named in a message: enough to choose from, bounded however many the project has. */
const MAX_LISTED = 12;

function listed(ids: readonly string[]): string {
  const shown = ids.slice(0, MAX_LISTED).join(", ");
  return ids.length > MAX_LISTED ? `${shown}, …` : shown || "none";
}

type Candidates = ReadonlyArray<{ id: string; labels: readonly string[] }>;

function byId(ids: readonly string[]): Candidates {
  return ids.map((id) => ({ id, labels: [id] }));
}

/** The first value of `asked` that is no candidate's id, as an error cell; undefined when all are. */
function firstMismatch(
  asked: readonly string[],
  candidates: Candidates,
  what: string,
  projectId: string,
  notApplicable: (value: string) => string
): ErrorCell | undefined {
  for (const value of asked) {
    if (candidates.some((c) => c.id === value)) continue;
    const close = closest(value, candidates);
    if (close.length > 0)
      return {
        error: "value",
        message: `unknown ${what} "${value}" for ${projectId}${didYouMean(close)}`,
      };
    return { error: "na", message: notApplicable(value) };
  }
  return undefined;
}

/**
 * Why the filters of `options` do not fit `project` (or its product `productId`), as an error cell for its
 * column or the whole result; undefined when they fit (or there are none).
 */
/**
 * Whether a project is in one of the sectors, by the sectors' own project lists (§4.9, a documented shape);
 * the project detail's market_sectors is an object whose inner shape the interface does not show.
 */
async function inSectors(
  ctx: FnContext,
  projectId: string,
  sectors: readonly string[]
): Promise<boolean> {
  const details = await Promise.all(
    sectors.map((s) => traced(ctx, `GET /v2/market-sectors/${s}`, ctx.engine.sector(s)))
  );
  return details.some((d) => d.projects.some((p) => p.projectId === projectId));
}

export async function checkFilters(
  ctx: FnContext,
  project: Project,
  options: Readonly<Pick<Options, "chains" | "products" | "sectors">>,
  productId?: string
): Promise<ErrorCell | undefined> {
  const id = project.projectId;
  if (options.sectors.length > 0) {
    const catalogue = await traced(ctx, "GET /v2/market-sectors", ctx.engine.sectors());
    const known = catalogue.map((s) => s.id);
    for (const sector of options.sectors) {
      if (known.includes(sector)) continue;
      return {
        error: "value",
        message: `unknown sector "${sector}"${didYouMean(closest(sector, byId(known)))}`,
      };
    }
  }
  if (options.sectors.length > 0 && !(await inSectors(ctx, id, options.sectors))) {
    // The project's own list, for the message only: its shape is open (§2.12), the sectors' lists are not.
    const detail = await traced(ctx, `GET /v2/projects/${id}`, ctx.engine.project(id));
    return {
      error: "na",
      message: `${id} is not in sector${options.sectors.length === 1 ? "" : "s"} ${options.sectors.map((s) => `"${s}"`).join(", ")}; its sectors: ${listed(detail.marketSectors)}`,
    };
  }
  if (options.chains.length > 0) {
    const chains = productId
      ? (
          await traced(
            ctx,
            `GET /v2/projects/${id}/products/${productId}`,
            ctx.engine.product(id, productId)
          )
        ).chains
      : (await traced(ctx, `GET /v2/projects/${id}`, ctx.engine.project(id))).chains;
    const owner = productId ? `${id}/${productId}` : id;
    const chainMismatch = firstMismatch(
      options.chains,
      byId(chains),
      "chain",
      owner,
      (chain) => `${owner} is not on chain "${chain}"; its chains: ${listed(chains)}`
    );
    if (chainMismatch) return chainMismatch;
  }
  if (options.products.length > 0) {
    const products = project.products.map((p) => p.productId);
    return firstMismatch(
      options.products,
      project.products.map((p) => ({ id: p.productId, labels: [p.productId, p.productName] })),
      "product",
      id,
      (product) => `${id} has no product "${product}"; its products: ${listed(products)}`
    );
  }
  return undefined;
}
