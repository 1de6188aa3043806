/**
 * Rows for one project (or product) and day that carry a breakdown member nobody asked for: an odd service
 * may answer `chain_ids=ethereum,base`, or any request, with one row per chain, business line, version or
 * product. The interface names those members for asked breakdowns only (§2.4), so such rows are parts of
 * the day's figure, never the figure itself:
 *
 * - parts with distinct member values partition the day: they are added up (a part without a value makes
 *   the day's sum unknown: no value);
 * - a row without the member beside parts that do carry it is the day's total if the parts add up to it
 *   (it is then the value); otherwise the total and the parts cannot be told apart, and the day has no
 *   value, with a note saying why;
 *
 * Rows reach the engine distinct: the client collapses rows the service sent twice, and marks the days whose
 * copies disagree (client/data/distinct.ts, the one place that does). So the same members twice on one day
 * cannot happen here; if it did, the client would have broken its word, and the answer is refused rather than
 * a guess made about which copy counts.
 *
 * The same rows give the same day whatever request brought them (§4.3 for a project's metrics, §4.11 for a
 * metric across projects, §4.7 for a product): the answer does not depend on the batching plan.
 */
import { exactSum } from "./series-ops";

/** The breakdown members a row may carry (chain, product, business line, version), as sent. */
interface Members {
  chain?: string;
  productId?: string;
  businessLine?: string;
  version?: string;
}

/** Member names as the interface spells them, for notes. */
const NAMES: Record<keyof Members, string> = {
  chain: "chain",
  productId: "product_id",
  businessLine: "business_line",
  version: "version",
};

/** The members a row carries besides `asked` (the breakdown asked, whose value is the dimension). */
export function unaskedMembers(row: Members, asked?: keyof Members): Members {
  const out: Members = {};
  for (const key of Object.keys(NAMES) as (keyof Members)[])
    if (key !== asked && row[key] !== undefined) out[key] = row[key];
  return out;
}

interface Part {
  /** "" for a row without unasked members. */
  key: string;
  members: Members;
  value: number | null;
}

/** Relative tolerance of "the parts add up to the total": floating-point sums of the same figures. */
const TOLERANCE = 1e-9;

function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= TOLERANCE * Math.max(1, Math.abs(a), Math.abs(b));
}

function describeMembers(parts: readonly Part[]): string {
  const names = new Set<string>();
  for (const p of parts)
    for (const key of Object.keys(p.members) as (keyof Members)[]) names.add(NAMES[key]);
  // Never empty: a part is a row that carries a member (a row without one is the total).
  return [...names].join(" and ");
}

/** The day's value from its parts (one per distinct member values), or why there is none. */
function resolve(
  parts: ReadonlyMap<string, Part>
): { value: number | null } | { ambiguous: string } {
  const total = parts.get("");
  const split = [...parts.values()].filter((p) => p.key !== "");
  if (split.length === 0) return { value: total?.value ?? null };
  const values: number[] = [];
  let complete = true;
  for (const p of split) {
    if (p.value === null) complete = false;
    else values.push(p.value);
  }
  // Parts of two decimals add up to a total of two decimals, without floating point's noise.
  const sum = exactSum(values);
  if (!total || total.value === null) {
    // Every part empty: no value, as one empty row would be; some empty: the sum is not the day's figure.
    if (split.every((p) => p.value === null)) return { value: null };
    return complete
      ? { value: sum }
      : {
          ambiguous: `split by ${describeMembers(split)} with a part that has no value: the day's sum is unknown`,
        };
  }
  // Parts without a value say nothing about a total that has one (a wide row's empty columns).
  if (split.every((p) => p.value === null)) return { value: total.value };
  if (complete && close(sum, total.value)) return { value: total.value };
  return {
    ambiguous: `sent both as a total (${total.value}) and split by ${describeMembers(split)} into parts that ${complete ? `add up to ${sum}` : "include one without a value"}: the total cannot be told from the parts`,
  };
}

/**
 * Collects the values of one answer per series member (project or metric), dimension and day, then gives
 * each day one value: the parts added up, or null with a note when they cannot be told apart.
 */
export class DayParts {
  private readonly parts = new Map<string, Map<string, Map<number, Map<string, Part>>>>();

  /** Throws when the same members come twice for one day: rows reach the engine distinct (see above). */
  add(id: string, dim: string, day: number, members: Members, value: number | null): void {
    let dims = this.parts.get(id);
    if (!dims) this.parts.set(id, (dims = new Map<string, Map<number, Map<string, Part>>>()));
    let days = dims.get(dim);
    if (!days) dims.set(dim, (days = new Map<number, Map<string, Part>>()));
    const key = Object.keys(members).length === 0 ? "" : JSON.stringify(members);
    let parts = days.get(day);
    if (!parts) days.set(day, (parts = new Map<string, Part>()));
    if (parts.has(key))
      throw new Error(
        `${id} on day ${day}: the same row twice after the client made rows distinct (${key || "no member"})`
      );
    parts.set(key, { key, members, value });
  }

  /**
   * Each (id, dim, day) through `push` once, in the order the days came; returns, per id, a
   * note for each day whose parts could not be told apart (pushed as null, and passed to `ambiguous`, which
   * marks it a conflict: unlike a day without data, no fill may fill it). `describe` names the series and
   * day in the note.
   */
  resolve(
    push: (id: string, dim: string, day: number, value: number | null) => void,
    describe: (id: string, dim: string, day: number) => string,
    ambiguous?: (id: string, dim: string, day: number) => void
  ): Map<string, string[]> {
    const notes = new Map<string, string[]>();
    for (const [id, dims] of this.parts)
      for (const [dim, days] of dims)
        for (const [day, parts] of days) {
          const outcome = resolve(parts);
          if ("value" in outcome) {
            push(id, dim, day, outcome.value);
            continue;
          }
          // No figure rather than one that may be wrong.
          push(id, dim, day, null);
          ambiguous?.(id, dim, day);
          let list = notes.get(id);
          if (!list) notes.set(id, (list = []));
          if (list.length < MAX_NOTES)
            list.push(`${describe(id, dim, day)}: ${outcome.ambiguous}; left empty`);
        }
    return notes;
  }
}

/** Days named per series: enough to find them, bounded however many there are. */
const MAX_NOTES = 5;
