/**
 * The unaskedSplit reading ("beyond" the interface): rows split by a member nobody asked for. An odd service
 * may answer one project's day in several rows (one per chain, per business line, per version) although no
 * breakdown was asked; the parts add up to the day's total exactly, as the asked breakdowns do.
 *
 * Integer metrics are split into whole parts (the remainder goes to the last part) and every split's last
 * part is the total minus the others, so the parts re-add to the total.
 *
 * `every_chain` is a service that ignores a chain filter and answers with a row per chain of the project,
 * each labelled with its chain: the parts of the unfiltered total, the asked chains' among them.
 */
import type { DemoDataset, ProjectInfo } from "../data/dataset";
import type { MetricDef } from "../data/metrics-catalog";
import { shareAt, type ShareTable } from "../data/shares";
import type { Readings } from "../readings";

/** A member name and the (key, share table) pairs a project's day splits into. */
export interface Split {
  member: "chain" | "business_line" | "version" | "product_id";
  /** Whether a metric splits this way (the others go in a row without the member). */
  splits: (m: MetricDef) => boolean;
  keys: readonly string[];
  table: ShareTable;
  /** The filter asked (chain_ids) is ignored: the parts split the project's whole total. */
  ignoresFilter?: true;
}

/** How a project's rows split under the reading, or undefined when they do not. */
export function splitOf(
  readings: Readings,
  dataset: DemoDataset,
  project: ProjectInfo,
  chains: readonly string[] | undefined,
  products: readonly string[] | undefined
): Split | undefined {
  const member = readings.unaskedSplit;
  if (member === "none") return undefined;
  if (member === "chain" || member === "every_chain") {
    // every_chain answers each chain of the project, whatever chains were asked.
    const everyChain = member === "every_chain";
    const keys = everyChain ? project.chains : (chains ?? project.chains);
    if (keys.length === 0) return undefined;
    return {
      member: "chain",
      splits: (m) => m.byChain,
      keys: [...keys].sort(),
      table: dataset.chainTable(project.id),
      ...(everyChain ? { ignoresFilter: true } : {}),
    };
  }
  const keys = products ?? project.products.map((p) => p.id);
  if (keys.length === 0) return undefined;
  return {
    member,
    splits: (m) => m.byProduct,
    keys: [...keys].sort(),
    table: dataset.productTable(project.id),
  };
}

/** The keys with a share on day d, in order: none means the day is not split (a row without member). */
export function keysOn(split: Split, d: number): string[] {
  return split.keys.filter((k) => shareAt(split.table, k, d) > 0);
}

/**
 * The parts of `total` for `keys` on day d, in proportion to their shares among themselves; they add up to
 * `total` (whole numbers for an integer metric). NaN stays NaN in every part.
 */
export function parts(
  total: number,
  split: Split,
  keys: readonly string[],
  d: number,
  integer: boolean
): number[] {
  if (Number.isNaN(total)) return keys.map(() => NaN);
  const shares = keys.map((k) => shareAt(split.table, k, d));
  const sum = shares.reduce((a, b) => a + b, 0);
  const out: number[] = [];
  let given = 0;
  for (let i = 0; i < keys.length; i++) {
    if (i === keys.length - 1) {
      out.push(total - given);
      break;
    }
    const raw = (total * shares[i]) / sum;
    const part = integer ? Math.round(raw) : raw;
    out.push(part);
    given += part;
  }
  return out;
}
