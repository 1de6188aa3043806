/**
 * A service that restates: chosen days of a series change value after they were first served, as real data
 * providers fix a day's figure days or weeks later without a word (the `restatements` switch, README).
 *
 * - `served`: a chosen day is sent as generated the first time an answer holds it; every answer after that
 *   sends it restated (times its factor, from ±2 % to ±15 %). The days are chosen by `days` when given (tests),
 *   otherwise drawn: about 2 % of the days of the last 90 of every flow metric (fees, revenue, volumes…), so a
 *   newcomer refreshing the preview sees a few figures change.
 * - `refill`: a provider's fix of a block: the days of `refill` (by default aave's fees and revenue over the 136
 *   days from 150 to 15 days ago) are first served counted twice; once an answer has held any of them, every
 *   later answer sends the block as generated, refilled.
 *
 * It acts on answers as they leave (the time-series operations §4.3, §4.7 and §4.11: their values per day), so
 * "first served" means it: the first answer that held the day, in any form, for any key. Every copy of a day
 * in one answer (repeated rows, rows split by chain) gets the same value; chain-filtered and product answers are
 * restated by the same factor as the whole. Statements, aggregations and the breakdown are the service's own
 * figures and are left as generated. What it remembers is bounded (MAX_SERVED_MARKS).
 */
import { findMetric } from "./data/metrics-catalog";
import { parseDate } from "./util/days";
import { unitHash } from "./util/prng";

export type RestatementMode = "none" | "served" | "refill";
export const RESTATEMENT_MODES: readonly RestatementMode[] = ["none", "served", "refill"];

export interface RestatedDay {
  projectId: string;
  metricId: string;
  /** YYYY-MM-DD */
  day: string;
  /** What the day is multiplied by once first served (1.1: ten percent more). */
  factor: number;
}

export interface RefillBlock {
  projectId: string;
  metricIds: readonly string[];
  /** YYYY-MM-DD, both included. */
  from: string;
  to: string;
}

export interface RestatementChoice {
  /** `served`: the days restated (default: drawn, see the module comment). */
  days?: readonly RestatedDay[];
  /** `refill`: the block first served twice over (default: DEFAULT_REFILL). */
  refill?: RefillBlock;
}

/** Share of the recent days of a flow metric that the `served` mode restates when no days are given. */
export const DRAWN_SHARE = 0.02;
/** How far back the drawn restatements reach: a provider's fixes land on recent weeks. */
export const DRAWN_WINDOW_DAYS = 90;
/**
 * Days whose first serving is remembered: 100,000 (a few MB). Past it, a day not yet served keeps its first
 * value for good: never a day that flips back because its mark was forgotten.
 */
export const MAX_SERVED_MARKS = 100_000;

/** The public case this mirrors: 136 days of revenue counted twice, refilled later. */
export function defaultRefill(today: number): RefillBlock {
  return {
    projectId: "aave",
    metricIds: ["fees", "revenue"],
    from: dayText(today - 150),
    to: dayText(today - 15),
  };
}

function dayText(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

interface Figure {
  projectId: string;
  metricId: string;
  day: number;
}

/** Where in an answer a row's project, metric and day are, by the operation's path. */
type Form =
  | { kind: "project"; projectId: string }
  | { kind: "product"; projectId: string }
  | { kind: "metric"; metricId: string };

function formOf(path: string): Form | undefined {
  const s = path.split("/").filter(Boolean).map(decodeURIComponent);
  if (s[0] !== "v2") return undefined;
  if (s[1] === "projects" && s.length === 4 && s[3] === "metrics")
    return { kind: "project", projectId: s[2] };
  if (s[1] === "projects" && s.length === 6 && s[3] === "products" && s[5] === "metrics")
    return { kind: "product", projectId: s[2] };
  if (s[1] === "metrics" && s.length === 3) return { kind: "metric", metricId: s[2] };
  return undefined;
}

/** The day of a row's timestamp or date in any form the timestamps reading writes (its first ten characters). */
function dayOf(text: unknown): number | undefined {
  return typeof text === "string" ? parseDate(text.slice(0, 10)) : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A value scaled as the service would write it: a number stays a number, a numeric string a string. */
function scaled(value: unknown, factor: number, integer: boolean): unknown {
  const n = typeof value === "number" ? value : typeof value === "string" ? Number(value) : NaN;
  if (!Number.isFinite(n)) return value;
  const v = integer ? Math.round(n * factor) : n * factor;
  return typeof value === "string" ? String(v) : v;
}

export class Restatements {
  /** Figures (project, metric, day) already served; for `refill`, the (project, metric) blocks served. */
  private readonly served = new Set<string>();
  private readonly explicit?: Map<string, number>;

  constructor(
    private readonly mode: RestatementMode,
    private readonly today: number,
    private readonly choice: RestatementChoice = {},
    private readonly maxMarks: number = MAX_SERVED_MARKS
  ) {
    if (choice.days) {
      this.explicit = new Map();
      for (const d of choice.days) {
        const day = parseDate(d.day);
        if (day === undefined) throw new RangeError(`restated day "${d.day}" is not YYYY-MM-DD`);
        if (!(d.factor > 0) || !Number.isFinite(d.factor))
          throw new RangeError(`restated day ${d.day}: the factor must be a positive number`);
        this.explicit.set(JSON.stringify([d.projectId, d.metricId, day]), d.factor);
      }
    }
  }

  /** How many figures have been served once (what is remembered; at most maxMarks). */
  get marks(): number {
    return this.served.size;
  }

  /**
   * The factor a figure is sent with now, and the mark to keep once the answer is out (undefined: a figure
   * this mode leaves alone).
   */
  private decide(f: Figure): { factor: number; mark: string } | undefined {
    if (this.mode === "served") {
      const factor = this.restatedBy(f);
      if (factor === undefined) return undefined;
      const mark = JSON.stringify([f.projectId, f.metricId, f.day]);
      return { factor: this.served.has(mark) ? factor : 1, mark };
    }
    if (this.mode === "refill") {
      const block = this.choice.refill ?? defaultRefill(this.today);
      const from = parseDate(block.from);
      const to = parseDate(block.to);
      if (from === undefined || to === undefined) return undefined;
      if (f.projectId !== block.projectId || !block.metricIds.includes(f.metricId))
        return undefined;
      if (f.day < from || f.day > to) return undefined;
      const mark = JSON.stringify([f.projectId, f.metricId]);
      // Counted twice until the block has been served once; refilled from then on.
      return { factor: this.served.has(mark) ? 1 : 2, mark };
    }
    return undefined;
  }

  /** `served`: the factor of a chosen day (undefined: not chosen). */
  private restatedBy(f: Figure): number | undefined {
    if (this.explicit) return this.explicit.get(JSON.stringify([f.projectId, f.metricId, f.day]));
    if (findMetric(f.metricId)?.kind !== "flow") return undefined;
    if (f.day < this.today - DRAWN_WINDOW_DAYS || f.day >= this.today) return undefined;
    const key = `${f.projectId}|${f.metricId}|${f.day}|restated`;
    if (unitHash(key) >= DRAWN_SHARE) return undefined;
    const size = 0.02 + 0.13 * unitHash(`${key}|size`);
    return unitHash(`${key}|sign`) < 0.5 ? 1 - size : 1 + size;
  }

  /**
   * The answer to `path` as it leaves: chosen days restated once they have been served, then marked served.
   * The body is changed in place (it is the answer's own, built for this request); anything that is not a
   * time-series answer passes as it is.
   */
  restateAnswer(path: string, body: unknown): void {
    if (this.mode === "none") return;
    const form = formOf(path);
    if (!form || !isRecord(body) || !Array.isArray(body.data)) return;
    const decisions = new Map<string, { factor: number; mark: string } | undefined>();
    const decide = (f: Figure) => {
      const key = JSON.stringify([f.projectId, f.metricId, f.day]);
      if (!decisions.has(key)) decisions.set(key, this.decide(f));
      return decisions.get(key);
    };
    const restate = (row: Record<string, unknown>, member: string, f: Figure): void => {
      const d = decide(f);
      if (d && d.factor !== 1)
        row[member] = scaled(row[member], d.factor, findMetric(f.metricId)?.integer ?? false);
    };
    for (const row of body.data as unknown[]) {
      if (!isRecord(row)) continue;
      if (form.kind === "project") {
        const day = dayOf(row.timestamp);
        if (day === undefined) continue;
        // Wide rows: one member per metric asked, named by its id.
        for (const member of Object.keys(row))
          if (findMetric(member))
            restate(row, member, { projectId: form.projectId, metricId: member, day });
      } else {
        const day = dayOf(form.kind === "product" ? row.date : row.timestamp);
        const projectId = form.kind === "product" ? form.projectId : row.project_id;
        const metricId = form.kind === "metric" ? form.metricId : row.metric_id;
        if (day === undefined || typeof projectId !== "string" || typeof metricId !== "string")
          continue;
        restate(row, "value", { projectId, metricId, day });
      }
    }
    // Served: from the next answer on, these figures are restated (refilled).
    for (const d of decisions.values()) {
      if (!d || this.served.has(d.mark)) continue;
      if (this.served.size >= this.maxMarks) continue;
      this.served.add(d.mark);
    }
  }
}
