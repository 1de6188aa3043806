/**
 * The realism knobs at work: the per-key rate limit and the seeded draws that decide latency and injected
 * failures. Draws happen for every request in arrival order, whatever the knobs say, so a given seed and
 * request sequence always fail the same requests.
 */
import { DEFAULT_DUPLICATE_ROWS, DEFAULT_RATE_LIMIT } from "./constants";
import { DEFAULT_READINGS, mergeReadings, type Readings } from "./readings";
import type { Fault, RateLimitKnob, SimulatorKnobs } from "./types";
import { RESTATEMENT_MODES, type RestatementChoice, type RestatementMode } from "./restatements";

export interface ActiveKnobs {
  rateLimit: RateLimitKnob | null;
  latencyMs: number | [number, number];
  fraction429: number;
  /** undefined: as the retryAfter reading says. */
  retryAfter429?: boolean;
  fraction5xx: number;
  hang: boolean | RegExp;
  renamed: Record<string, string>;
  fault: Fault | null;
  faultFraction: number;
  reportUnavailable: boolean;
  duplicateRows: number;
  readings: Readings;
  /** The restating service's setting, one object per setKnobs (the pipeline starts afresh on a new one). */
  restatements: { mode: RestatementMode } & RestatementChoice;
}

const DEFAULTS: ActiveKnobs = {
  rateLimit: { ...DEFAULT_RATE_LIMIT },
  latencyMs: 0,
  fraction429: 0,
  retryAfter429: undefined,
  fraction5xx: 0,
  hang: false,
  renamed: {},
  fault: null,
  faultFraction: 1,
  reportUnavailable: false,
  duplicateRows: DEFAULT_DUPLICATE_ROWS,
  readings: DEFAULT_READINGS,
  restatements: { mode: "none" },
};

function fraction(name: string, value: number): number {
  if (!(value >= 0 && value <= 1))
    throw new RangeError(`Simulator knob ${name} must be between 0 and 1, got ${value}`);
  return value;
}

/** Knobs merged over `base`: a key given as undefined goes back to its default. */
export function mergeKnobs(base: ActiveKnobs, update: Partial<SimulatorKnobs>): ActiveKnobs {
  const next: ActiveKnobs = { ...base };
  const has = (key: keyof SimulatorKnobs) => Object.prototype.hasOwnProperty.call(update, key);
  if (has("rateLimit"))
    next.rateLimit = update.rateLimit === undefined ? DEFAULTS.rateLimit : update.rateLimit;
  if (has("latencyMs")) next.latencyMs = update.latencyMs ?? 0;
  if (has("fraction429")) next.fraction429 = fraction("fraction429", update.fraction429 ?? 0);
  if (has("retryAfter429")) next.retryAfter429 = update.retryAfter429;
  if (has("fraction5xx")) next.fraction5xx = fraction("fraction5xx", update.fraction5xx ?? 0);
  if (has("hang")) next.hang = update.hang ?? false;
  if (has("renamed")) next.renamed = { ...(update.renamed ?? {}) };
  if (has("fault")) next.fault = update.fault ?? null;
  if (has("faultFraction"))
    next.faultFraction = fraction("faultFraction", update.faultFraction ?? 1);
  if (has("reportUnavailable")) next.reportUnavailable = update.reportUnavailable ?? false;
  if (has("duplicateRows"))
    next.duplicateRows = fraction("duplicateRows", update.duplicateRows ?? DEFAULT_DUPLICATE_ROWS);
  // Readings merge one by one: setKnobs({readings: {timestamps: "utc"}}) keeps the others.
  if (has("readings"))
    next.readings =
      update.readings === undefined
        ? DEFAULT_READINGS
        : mergeReadings(base.readings, update.readings);
  if (has("restatements")) {
    const r = update.restatements ?? "none";
    next.restatements = typeof r === "string" ? { mode: r } : { ...r };
    if (!RESTATEMENT_MODES.includes(next.restatements.mode))
      throw new RangeError(
        `Simulator knob restatements must be one of ${RESTATEMENT_MODES.join(", ")}, got ${String(next.restatements.mode)}`
      );
  }
  return next;
}

export function initialKnobs(options: SimulatorKnobs): ActiveKnobs {
  const given = Object.fromEntries(
    Object.entries(options).filter(([k]) => k in DEFAULTS)
  ) as Partial<SimulatorKnobs>;
  return mergeKnobs(DEFAULTS, given);
}

/** Whether 429s carry Retry-After: an explicit knob wins, else the retryAfter reading (default none). */
export function sendsRetryAfter(explicit: boolean | undefined, readings: Readings): boolean {
  return explicit ?? readings.retryAfter === "seconds";
}

interface Draws {
  latencyMs: number;
  inject429: boolean;
  inject5xx: 500 | 502 | 503 | undefined;
  fault: Fault | null;
}

export function drawFor(knobs: ActiveKnobs, random: () => number): Draws {
  const latencyDraw = random();
  const u429 = random();
  const u5xx = random();
  const uStatus = random();
  const uFault = random();
  const latencyMs = Array.isArray(knobs.latencyMs)
    ? knobs.latencyMs[0] + latencyDraw * (knobs.latencyMs[1] - knobs.latencyMs[0])
    : knobs.latencyMs;
  const statuses = [500, 502, 503] as const;
  return {
    latencyMs: Math.max(0, latencyMs),
    inject429: u429 < knobs.fraction429,
    inject5xx: u5xx < knobs.fraction5xx ? statuses[Math.floor(uStatus * 3)] : undefined,
    fault: knobs.fault !== null && uFault < knobs.faultFraction ? knobs.fault : null,
  };
}

/** Sliding-window log per key: at most `limit` accepted requests in any window of `windowMs`. */
export class RateLimiter {
  private readonly hits = new Map<number, number[]>();

  /** Records the request when allowed; otherwise tells how long until a slot frees up. */
  take(
    keyIndex: number,
    now: number,
    limit: RateLimitKnob
  ): { allowed: true } | { allowed: false; retryAfterMs: number } {
    let list = this.hits.get(keyIndex);
    if (!list) {
      list = [];
      this.hits.set(keyIndex, list);
    }
    while (list.length > 0 && list[0] <= now - limit.windowMs) list.shift();
    if (list.length >= limit.limit)
      return { allowed: false, retryAfterMs: list[0] + limit.windowMs - now };
    list.push(now);
    return { allowed: true };
  }
}
