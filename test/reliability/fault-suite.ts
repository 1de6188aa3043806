/**
 * The fault table, once per run (CI runs no other; `npm run faults` is the same table as a command, with its
 * report): each fault of test/harness/faults/scenarios.ts against the table's workbook (every project of the
 * demo dataset: 305 formulas, enough requests that a client allowed more than the service's 60 a minute meets
 * its 429s), over real HTTP on loopback and on virtual time. Every guarantee `npm run faults` checks must hold,
 * and each fault must visibly have happened. Split over two files so that jest runs the halves in parallel.
 */
import { createDataset } from "../../src/simulator";
import { LAB_START, openLab, type Lab } from "../harness/faults/lab";
import { healthyBaseline, runScenario, type FaultRow } from "../harness/faults/run";
import { SCENARIOS, type FaultScenario } from "../harness/faults/scenarios";
import { buildWorkbook, type CellResult, type Formula } from "../harness/faults/workbook";

/** Faults of the network and of damaged answers; the others are the service's own (429, 5xx, limits). */
export function isNetworkFault(s: FaultScenario): boolean {
  return s.knobs.hang !== undefined || s.knobs.fault !== undefined;
}

interface FaultWorld {
  lab: Lab;
  formulas: Formula[];
  baseline: CellResult[];
}

/**
 * A lab and a healthy baseline of a workbook for the file's tests: by default the table's (`npm run faults`'s:
 * every project), or one over the first `projects` projects (tests of the checks themselves, not of the add-in).
 */
export function useFaultWorld(projects = Infinity): FaultWorld {
  const world = {} as FaultWorld;
  beforeAll(async () => {
    world.lab = await openLab();
    world.formulas = buildWorkbook(
      createDataset(new Date(LAB_START).toISOString().slice(0, 10)),
      projects
    );
    world.baseline = await healthyBaseline(world.lab, world.formulas);
  }, 120_000);
  afterAll(() => world.lab.close());
  return world;
}

function errors(row: FaultRow): number {
  return Object.values(row.errorsByKind).reduce((n, k) => n + (k ?? 0), 0);
}

export function scenario(name: string): FaultScenario {
  const found = SCENARIOS.find((s) => s.name === name);
  if (!found) throw new Error(`no scenario ${name}`);
  return found;
}

/** What a fault must visibly do, so that a fault that silently stopped being injected fails here. */
const EFFECT: Record<string, (row: FaultRow) => void> = {
  "none (control)": (row) => {
    expect(errors(row)).toBe(0);
    expect(row.retries).toBe(0);
  },
  "429 storm, 50%, Retry-After": (row) => expect(row.rejected429).toBeGreaterThan(10),
  "429 storm, 50%, no Retry-After": (row) => expect(row.rejected429).toBeGreaterThan(10),
  "service limit 60/min, client 60/min": (row) => {
    // The limiter was at work (a full minute's budget used) and never provoked a single 429.
    expect(row.busiestMinute).toBe(60);
    expect(row.rejected429).toBe(0);
    expect(errors(row)).toBe(0);
  },
  // A client set above the service's limit meets 429s without Retry-After and backs off on its own.
  "service limit 60/min, client 120/min": (row) => expect(row.rejected429).toBeGreaterThan(0),
  "5xx burst, 10 s": (row) => {
    expect(row.retries).toBeGreaterThan(0);
    expect(errors(row)).toBe(0);
  },
  "5xx, 30% of requests": (row) => expect(row.retries).toBeGreaterThan(0),
  "connection resets, 30%": (row) => expect(row.retries).toBeGreaterThan(0),
};

export function faultTable(world: FaultWorld, scenarios: readonly FaultScenario[]): void {
  it.each(scenarios.map((s) => [s.name, s] as const))(
    "%s: every guarantee holds",
    async (_, s) => {
      const { lab, formulas, baseline } = world;
      expect(baseline.filter((c) => !c.ok)).toEqual([]);
      const row = await runScenario(lab, s, formulas, baseline);
      expect(row.violations).toEqual([]);
      expect(row.settled).toBe(formulas.length);
      expect(row.valuesBefore).toBeGreaterThan(40);
      expect(row.valuesKept).toBe(row.valuesBefore);
      expect(row.recovered).toBe(formulas.length);
      expect(row.busiestMinute).toBeLessThanOrEqual(row.limitPerMinute);
      expect(Object.keys(row.errorsByKind).every((k) => s.kinds.includes(k as never))).toBe(true);
      const effect = EFFECT[s.name];
      // A lasting fault: cells with nothing to fall back on fail, with one of the fault's kinds.
      if (effect) effect(row);
      else expect(errors(row)).toBeGreaterThan(0);
    },
    120_000
  );
}
