/**
 * The long soak: a workbook recalculated again and again over several simulated days, through the real
 * functions, engine and client against the simulator (loopback HTTP, virtual time). The clock moves between
 * recalculations (hours; nights cross the daily update, so caches expire), the user clicks Refresh a few
 * times a day, and each recalculation also asks for a few time windows never asked before, so the series
 * cache fills up and must evict. After every recalculation: the caches are within their bounds, and nothing
 * is left pending (timers, waiting calls, loads in flight, limiter queue, open exchanges).
 */
import { DEFAULT_CACHE_POLICY, type CachePolicy } from "../../../src/cache/policy";
import { formatDay } from "../../../src/client/data/days";
import { createDataset } from "../../../src/simulator";
import { LAB_START, openLab, type Lab } from "../faults/lab";
import { buildWorkbook, evaluate, type Formula } from "../faults/workbook";

const DAY = 86_400_000;
/** Heap growth allowed from the end of day 1 to the end of the run: noise, not a trend. */
const HEAP_SLACK_BYTES = 24 * 1024 * 1024;

export function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A heap that kept growing after the first day (readings after forced GC; none without them). */
export function heapViolations(heapByDay: readonly number[]): string[] {
  if (heapByDay.length < 2) return [];
  const growth = heapByDay[heapByDay.length - 1] - heapByDay[0];
  return growth > HEAP_SLACK_BYTES
    ? [`heap grew ${mb(growth)} after the first day (${heapByDay.map(mb).join(", ")})`]
    : [];
}

interface SoakOptions {
  /** Cell evaluations in all (default 10,000). */
  evaluations?: number;
  /** Simulated days they spread over (default 5). */
  days?: number;
  /** Workbook over this many projects (default 8: 103 formulas, plus the roving ones). */
  projects?: number;
  /** The series cache's bound in points: small, so that it has to evict (default 40,000). */
  maxPoints?: number;
  /** The catalogue cache's bound in entries (default 150). */
  maxEntries?: number;
  /** Other cache lifetimes than the defaults (tests break a guarantee on purpose). */
  cache?: Partial<CachePolicy>;
  /** Clicks on Refresh per simulated day (default 2). */
  refreshesPerDay?: number;
  /** Called after each recalculation (progress output). */
  onRound?: (round: RoundStats) => void;
  /** Forced garbage collection (node --expose-gc): heap readings after it, at the end of each day. */
  gc?: () => void;
}

export interface RoundStats {
  round: number;
  day: number;
  at: string;
  cells: number;
  errors: number;
  requests: number;
  points: number;
  entries: number;
  refreshed: boolean;
}

interface SoakReport {
  evaluations: number;
  recalculations: number;
  days: number;
  requests: number;
  errors: number;
  /** Most points and entries the caches ever held, and their bounds. */
  maxPointsSeen: number;
  pointBound: number;
  maxEntriesSeen: number;
  entryBound: number;
  /** Heap after forced GC at the end of each day (bytes), when gc was given. */
  heapByDay: number[];
  /** The workbook's first latest value, on the first recalculation of each UTC day. */
  latestByDay: number[];
  violations: string[];
}

/** A few windows of one project's series that no earlier round asked for: the cache must make room. */
function rovingFormulas(round: number, projects: readonly string[]): Formula[] {
  return [0, 1, 2].map((k) => {
    const project = projects[(round * 3 + k) % projects.length];
    const start = Date.UTC(2021, 0, 1) / DAY + ((round * 37 + k * 101) % 1400);
    return {
      address: `Roving!A${k + 1}`,
      name: "METRIC",
      args: [[[project]], [["fees", "revenue", "tvl"]], formatDay(start), formatDay(start + 180)],
    };
  });
}

/** The latest value the service has for a VALUE(project, metric) formula on the day of `now`. */
function expectedLatest(formula: Formula, now: number): number | null {
  const today = new Date(now).toISOString().slice(0, 10);
  const from = formatDay(Math.floor(now / DAY) - 35);
  const points = createDataset(today).daily(String(formula.args[0]), String(formula.args[1]), {
    start: from,
    end: today,
  });
  return [...points].reverse().find((p) => p.value !== null)?.value ?? null;
}

function leftovers(lab: Lab): string[] {
  const found: string[] = [];
  const { waiting, loading } = lab.runtime.engine.stats();
  if (lab.time.timersPending > 0) found.push(`${lab.time.timersPending} timers pending`);
  if (waiting > 0) found.push(`${waiting} series calls waiting`);
  if (loading > 0) found.push(`${loading} loads in flight`);
  if (lab.runtime.client.limiter.stats().queued > 0) found.push("requests queued at the limiter");
  if (lab.io.blocking() > 0) found.push(`${lab.io.blocking()} exchanges open`);
  return found;
}

export async function runSoak(options: SoakOptions = {}): Promise<SoakReport> {
  const evaluations = options.evaluations ?? 10_000;
  const days = options.days ?? 5;
  const pointBound = options.maxPoints ?? 40_000;
  const entryBound = options.maxEntries ?? 150;
  const refreshesPerDay = options.refreshesPerDay ?? 2;
  const lab = await openLab({
    maxLogEntries: 2_000,
    engine: {
      cache: {
        ...DEFAULT_CACHE_POLICY,
        ...options.cache,
        maxPoints: pointBound,
        maxEntries: entryBound,
      },
    },
  });
  const dataset = createDataset(new Date(LAB_START).toISOString().slice(0, 10));
  const workbook = buildWorkbook(dataset, options.projects ?? 8);
  // Projects with all three metrics since before the roving windows start (2021).
  const projects = dataset.projects
    .filter((p) => !p.isArchived && p.launch < "2021-01-01")
    .filter((p) => ["fees", "revenue", "tvl"].every((m) => p.metrics.includes(m)))
    .map((p) => p.id);
  const perRound = workbook.length + rovingFormulas(0, projects).length;
  const rounds = Math.max(1, Math.ceil(evaluations / perRound));
  const step = (days * DAY) / rounds;
  const refreshEvery = Math.max(1, Math.round(rounds / (days * refreshesPerDay)));
  const violations: string[] = [];
  const report: SoakReport = {
    evaluations: 0,
    recalculations: 0,
    days,
    requests: 0,
    errors: 0,
    maxPointsSeen: 0,
    pointBound,
    maxEntriesSeen: 0,
    entryBound,
    heapByDay: [],
    latestByDay: [],
    violations,
  };
  const start = lab.time.now();
  let day = 0;
  let lastUtcDay = "";
  try {
    for (let round = 0; round < rounds; round++) {
      const refreshed = round > 0 && round % refreshEvery === 0;
      if (refreshed) lab.runtime.engine.refresh();
      const formulas = [...workbook, ...rovingFormulas(round, projects)];
      const requestsBefore = lab.starts.length;
      const cells = await evaluate(lab, formulas);
      const { points, entries } = lab.runtime.engine.stats();
      const errors = cells.filter((c) => !c.ok);
      report.evaluations += cells.length;
      report.recalculations++;
      report.requests += lab.starts.length - requestsBefore;
      report.errors += errors.length;
      report.maxPointsSeen = Math.max(report.maxPointsSeen, points);
      report.maxEntriesSeen = Math.max(report.maxEntriesSeen, entries);
      const at = new Date(lab.time.now()).toISOString();
      for (const e of errors.slice(0, 3))
        violations.push(`${at} ${e.address}: ${e.ok ? "" : `${e.code} ${e.message}`}`);
      if (points > pointBound)
        violations.push(`${at}: ${points} points cached, bound ${pointBound}`);
      if (entries > entryBound)
        violations.push(`${at}: ${entries} entries cached, bound ${entryBound}`);
      for (const l of leftovers(lab)) violations.push(`${at}: ${l} after the recalculation`);
      const diag = lab.runtime.diagnostics.export();
      if (diag.errors.length > 100)
        violations.push(`${at}: ${diag.errors.length} errors remembered`);

      // Every round: the latest value is the service's latest of that very day (caches expire at night).
      const today = Math.floor((lab.time.now() - start) / DAY);
      const latest = cells.find((c) => c.address === workbook[0].address);
      const expected = expectedLatest(workbook[0], lab.time.now());
      if (!latest?.ok || latest.value !== expected)
        violations.push(
          `${at}: ${workbook[0].address} shows ${latest?.ok ? JSON.stringify(latest.value) : "an error"}, the service's latest is ${expected}`
        );
      const utcDay = at.slice(0, 10);
      if (utcDay !== lastUtcDay && latest?.ok && typeof latest.value === "number")
        report.latestByDay.push(latest.value);
      lastUtcDay = utcDay;
      options.onRound?.({
        round,
        day: today,
        at,
        cells: cells.length,
        errors: errors.length,
        requests: lab.starts.length - requestsBefore,
        points,
        entries,
        refreshed,
      });
      // Only what this round needs is kept: the soak itself must not be what grows.
      lab.clearEvents();
      lab.starts.length = 0;
      lab.sim.clearLog();
      lab.time.jump(step);
      const nextDay = Math.floor((lab.time.now() - start) / DAY);
      if (nextDay > day && options.gc) {
        options.gc();
        report.heapByDay.push(process.memoryUsage().heapUsed);
      }
      day = nextDay;
    }
  } finally {
    await lab.close();
  }
  return report;
}
