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
 * Values are matched without case against the project's own lists, as every option value is (`chains=ETHEREUM`
 * is ethereum; a product by its id or its name, `products=Aave V3` is aave-v3), and sent in the project's own
 * spelling: the filtered series is the same whichever way the filter was typed.
 */
import type { Project } from "../../client";
import { closest, didYouMean } from "../../engine";
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

/** The candidate a value names: by id or label, without case; undefined when none does. */
function named(value: string, candidates: Candidates): string | undefined {
  const v = value.trim().toLowerCase();
  return (
    candidates.find((c) => c.id === value)?.id ??
    candidates.find((c) => c.id.toLowerCase() === v || c.labels.some((l) => l.toLowerCase() === v))
      ?.id
  );
}

/**
 * The values of `asked` in the candidates' spelling, or the first one that is none of theirs as an error
 * cell (a typo: #VALUE! with a suggestion; a real value of no use here: #N/A saying why).
 */
function matched(
  asked: readonly string[],
  candidates: Candidates,
  what: string,
  projectId: string,
  notApplicable: (value: string) => string
): { ids: string[] } | { error: ErrorCell } {
  const ids: string[] = [];
  for (const value of asked) {
    const id = named(value, candidates);
    if (id !== undefined) {
      if (!ids.includes(id)) ids.push(id);
      continue;
    }
    const close = closest(value, candidates);
    if (close.length > 0)
      return {
        error: {
          error: "value",
          message: `unknown ${what} "${value}" for ${projectId}${didYouMean(close)}`,
        },
      };
    return { error: { error: "na", message: notApplicable(value) } };
  }
  return { ids };
}

/** The filters of a project in its own spelling, or why they do not fit it. */
type FilterOutcome =
  { error: ErrorCell } | { filters: Readonly<Pick<Options, "chains" | "products" | "sectors">> };

/** The options with the filters the checks spelled as the project does (the same object when unchanged). */
export function withFilters<O extends Readonly<Pick<Options, "chains" | "products" | "sectors">>>(
  options: O,
  filters: Readonly<Pick<Options, "chains" | "products" | "sectors">>
): O {
  const same = (a: readonly string[], b: readonly string[]) =>
    a.length === b.length && a.every((x, i) => x === b[i]);
  if (
    same(options.chains, filters.chains) &&
    same(options.products, filters.products) &&
    same(options.sectors, filters.sectors)
  )
    return options;
  return { ...options, ...filters };
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
): Promise<FilterOutcome> {
  const id = project.projectId;
  const sectors: string[] = [];
  if (options.sectors.length > 0) {
    const catalogue = await traced(ctx, "GET /v2/market-sectors", ctx.engine.sectors());
    const known = catalogue.map((s) => s.id);
    for (const sector of options.sectors) {
      const match = named(sector, byId(known));
      if (match !== undefined) {
        if (!sectors.includes(match)) sectors.push(match);
        continue;
      }
      return {
        error: {
          error: "value",
          message: `unknown sector "${sector}"${didYouMean(closest(sector, byId(known)))}`,
        },
      };
    }
  }
  if (sectors.length > 0 && !(await inSectors(ctx, id, sectors))) {
    // The project's own list, for the message only: its shape is open (§2.12), the sectors' lists are not.
    const detail = await traced(ctx, `GET /v2/projects/${id}`, ctx.engine.project(id));
    return {
      error: {
        error: "na",
        message: `${id} is not in sector${sectors.length === 1 ? "" : "s"} ${sectors.map((s) => `"${s}"`).join(", ")}; its sectors: ${listed(detail.marketSectors)}`,
      },
    };
  }
  let chains: string[] = [];
  if (options.chains.length > 0) {
    const known = productId
      ? (
          await traced(
            ctx,
            `GET /v2/projects/${id}/products/${productId}`,
            ctx.engine.product(id, productId)
          )
        ).chains
      : (await traced(ctx, `GET /v2/projects/${id}`, ctx.engine.project(id))).chains;
    const owner = productId ? `${id}/${productId}` : id;
    const outcome = matched(
      options.chains,
      byId(known),
      "chain",
      owner,
      (chain) => `${owner} is not on chain "${chain}"; its chains: ${listed(known)}`
    );
    if ("error" in outcome) return outcome;
    chains = outcome.ids;
  }
  let products: string[] = [];
  if (options.products.length > 0) {
    const ids = project.products.map((p) => p.productId);
    const outcome = matched(
      options.products,
      project.products.map((p) => ({ id: p.productId, labels: [p.productId, p.productName] })),
      "product",
      id,
      (product) => `${id} has no product "${product}"; its products: ${listed(ids)}`
    );
    if ("error" in outcome) return outcome;
    products = outcome.ids;
  }
  return { filters: { chains, products, sectors } };
}
