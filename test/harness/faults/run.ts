/**
 * One fault scenario over a workbook, in three recalculations, the way a user meets it:
 *  1. before: half the workbook computed on a healthy service (what the user already has);
 *  2. fault: Refresh, then the whole workbook while the service misbehaves;
 *  3. healed: the whole workbook again once the service is back, without Refresh.
 * Then the guarantees are checked: every cell settles within its budget; a value the user had is still
 * there (stale-if-error); errors have the fault's kinds and say what to do; nothing failed is cached (the
 * healed run equals a healthy baseline); the client never exceeds its configured rate; nothing is left
 * pending (timers, waiting calls, limiter queue, open exchanges).
 */
import { isDeepStrictEqual } from "node:util";

import { busiestWindow, type Lab } from "./lab";
import { kindOfMessage, type CellErrorKind } from "./kinds";
import { HEALTHY, type FaultScenario } from "./scenarios";
import { BUSY, evaluate, firstHalf, type CellResult, type Formula } from "./workbook";

/**
 * Longest a cell may stay busy in the fault phase. A cell makes at most three engine calls one after the
 * other (catalogue, then up to two series reads), each bounded by the engine's 130 s deadline.
 */
const CELL_BUDGET_MS = 3 * 130_000;

/** Kinds whose message must tell the user to refresh later: nothing is wrong with the formula. */
const TRANSIENT: ReadonlySet<CellErrorKind> = new Set<CellErrorKind>([
  "rate-limited",
  "server",
  "network",
  "timeout",
  "malformed-response",
]);

export interface FaultRow {
  fault: string;
  formulas: number;
  settled: number;
  /** Cells that had a value before the fault... */
  valuesBefore: number;
  /** ...and still showed that same value during it. */
  valuesKept: number;
  errorsByKind: Partial<Record<CellErrorKind, number>>;
  maxSettleMs: number;
  /** Requests the client started during the fault phase. */
  requests: number;
  /** Retries the client made during the fault phase. */
  retries: number;
  /** 429s the service answered during the fault phase (injected or its own limit). */
  rejected429: number;
  /** Most request starts in any 60 s, over the three phases, and the configured limit. */
  busiestMinute: number;
  limitPerMinute: number;
  /** Cells equal to the healthy baseline after the service healed. */
  recovered: number;
  violations: string[];
}

/**
 * Cells settle before their requests do when they are answered with earlier values (stale-if-slow): those
 * requests go on to refresh the cache. They must end by the client's call deadline; then nothing may be left.
 */
export async function backgroundSettles(lab: Lab): Promise<void> {
  const busy = (): boolean => {
    const { waiting, loading } = lab.runtime.engine.stats();
    return (
      waiting > 0 ||
      loading > 0 ||
      lab.runtime.client.limiter.stats().queued > 0 ||
      lab.io.blocking() > 0
    );
  };
  const quiet = new Promise<void>((resolve) => {
    const poll = (): void => {
      if (busy()) lab.time.timers.setTimeout(poll, 1_000);
      else resolve();
    };
    poll();
  });
  // The client's call deadline (2 minutes) bounds every request; a little more for the last poll.
  await lab.drive(quiet, { virtualMs: 150_000 });
}

async function leftovers(lab: Lab, phase: string): Promise<string[]> {
  await backgroundSettles(lab);
  const found: string[] = [];
  const { waiting, loading } = lab.runtime.engine.stats();
  const queued = lab.runtime.client.limiter.stats().queued;
  if (lab.time.timersPending > 0) found.push(`${lab.time.timersPending} timers left pending`);
  if (waiting > 0) found.push(`${waiting} series calls left waiting`);
  if (loading > 0) found.push(`${loading} loads left in flight`);
  if (queued > 0) found.push(`${queued} requests left queued at the limiter`);
  if (lab.io.blocking() > 0) found.push(`${lab.io.blocking()} exchanges left open`);
  return found.map((f) => `${phase}: ${f}`);
}

function describe(cell: CellResult): string {
  return cell.ok ? "a value" : `${cell.code} ${cell.message}`;
}

/** Runs the workbook once on a healthy service with a fresh runtime: what every cell should show. */
export async function healthyBaseline(
  lab: Lab,
  formulas: readonly Formula[]
): Promise<CellResult[]> {
  lab.setKnobs({ ...HEALTHY, rateLimit: null });
  lab.reset();
  return evaluate(lab, formulas);
}

export async function runScenario(
  lab: Lab,
  scenario: FaultScenario,
  formulas: readonly Formula[],
  baseline: readonly CellResult[]
): Promise<FaultRow> {
  const violations: string[] = [];
  const limit = scenario.clientRateLimit ?? 60;
  // A new minute for the service's rate limit, and a fresh runtime: nothing carries over.
  lab.time.jump(120_000);
  lab.setKnobs({ ...HEALTHY, rateLimit: scenario.serviceRateLimit ?? null });
  lab.reset({ rateLimitPerMinute: limit, engine: scenario.engine });

  const beforeFormulas = firstHalf(formulas);
  const before = await evaluate(lab, beforeFormulas);
  for (const v of await leftovers(lab, "before")) violations.push(v);
  const had = new Map(before.filter((c) => c.ok).map((c) => [c.address, c]));

  lab.runtime.engine.refresh();
  lab.clearEvents();
  lab.sim.clearLog();
  const requestsBefore = lab.starts.length;
  lab.setKnobs(scenario.knobs);
  const heal =
    scenario.healAfterMs === undefined
      ? undefined
      : lab.time.timers.setTimeout(() => lab.setKnobs(HEALTHY), scenario.healAfterMs);
  const during = await evaluate(lab, formulas);
  if (heal !== undefined) lab.time.timers.clearTimeout(heal);
  for (const v of await leftovers(lab, "fault")) violations.push(v);
  const requests = lab.starts.length - requestsBefore;
  const rejected429 = lab.sim.requestLog.filter((e) => e.status === 429).length;
  const retries = lab.events.filter((e) => e.type === "retry").length;

  const errorsByKind: Partial<Record<CellErrorKind, number>> = {};
  let valuesKept = 0;
  for (const cell of during) {
    const earlier = had.get(cell.address);
    if (earlier && cell.ok && isDeepStrictEqual(cell.value, earlier.value)) valuesKept++;
    else if (earlier) violations.push(`${cell.address} lost its value: now ${describe(cell)}`);
    if (cell.ms > CELL_BUDGET_MS)
      violations.push(`${cell.address} took ${Math.round(cell.ms / 1000)} s to settle`);
    if (cell.ok) continue;
    if (cell.code === BUSY) {
      violations.push(`${cell.address} never settled (#BUSY!)`);
      continue;
    }
    const kind = kindOfMessage(cell.message, lab.events);
    errorsByKind[kind] = (errorsByKind[kind] ?? 0) + 1;
    if (cell.code !== "#N/A" && cell.code !== "#VALUE!")
      violations.push(`${cell.address} failed with ${cell.code}: ${cell.message}`);
    if (!(scenario.kinds as readonly string[]).includes(kind))
      violations.push(`${cell.address}: unexpected kind ${kind}: ${cell.message}`);
    if (TRANSIENT.has(kind) && !/Refresh/.test(cell.message))
      violations.push(`${cell.address}: message does not say what to do: ${cell.message}`);
  }

  lab.setKnobs(HEALTHY);
  const after = await evaluate(lab, formulas);
  for (const v of await leftovers(lab, "healed")) violations.push(v);
  let recovered = 0;
  after.forEach((cell, i) => {
    const expected = baseline[i];
    const same =
      cell.ok && expected.ok
        ? isDeepStrictEqual(cell.value, expected.value)
        : !cell.ok &&
          !expected.ok &&
          cell.code === expected.code &&
          cell.message === expected.message;
    if (same) recovered++;
    else
      violations.push(
        `${cell.address} after healing: ${describe(cell)}; healthy: ${describe(expected)}`
      );
  });

  const busiestMinute = busiestWindow(lab.starts, 60_000);
  if (busiestMinute > limit)
    violations.push(`the client started ${busiestMinute} requests within 60 s (limit ${limit})`);

  return {
    fault: scenario.name,
    formulas: formulas.length,
    settled: during.filter((c) => c.ok || c.code !== BUSY).length,
    valuesBefore: had.size,
    valuesKept,
    errorsByKind,
    maxSettleMs: during.reduce((a, c) => Math.max(a, c.ms), 0),
    requests,
    retries,
    rejected429,
    busiestMinute,
    limitPerMinute: limit,
    recovered,
    violations,
  };
}
