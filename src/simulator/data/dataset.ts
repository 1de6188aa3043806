/**
 * The deterministic demo dataset: the catalogue (projects, products, metrics, sectors, chains) and the daily
 * series the simulator serves, for a given "today". Pure: no HTTP, no clock, no randomness beyond seeded
 * generators keyed by ids. Series are generated lazily and memoised per (project, metric, bridged).
 *
 * Served series differ from the model's raw ones in the ways real data does: occasional nulls in older
 * history, gaps of several days (an outage, an indexing gap in a recent quarter), asset metrics without
 * bridged assets on request, no data after an archive date, a lag for the project under maintenance.
 */
import { LRUCache } from "lru-cache";
import { day, dayFromMs, dayToDate, parseDate } from "../util/days";
import { hashString, unitAt, unitHash, rangeHash } from "../util/prng";
import { findMetric, METRICS, type MetricDef } from "./metrics-catalog";
import { PROFILES, TOKEN_METRICS } from "./profiles";
import { PROJECTS, type ProjectDef } from "./projects-catalog";
import { CHAINS, SECTORS, type ChainDef, type SectorDef } from "./sectors-chains";
import { generateMetric } from "./formulas";
import { ProjectModel, type Series } from "./series";
import { projectAggregations, type AggregationRow } from "./aggregations";
import type { Granularity, Interval } from "./periods";
import { chainShares, productShares, shareAt, sharesSum, type ShareTable } from "./shares";
import { financialStatement, type StatementOptions, type StatementRow } from "./statement";
import { syntheticProjects } from "./synthetic";

interface DatasetOptions {
  /**
   * Size of the universe: the 51 demo projects, then synthetic ones up to this many (see synthetic.ts).
   * Default (and anything up to 51): the demo projects alone.
   */
  projects?: number;
}

/**
 * Bounds on what the dataset keeps generated. Series are regenerated identically when asked again, so the
 * bounds cost time, never correctness. The demo's 51 projects fit whole (about 40 MB of served series); a
 * synthetic universe of thousands of projects does not, and would otherwise grow without limit.
 */
const MAX_MODELS = 600;
const MAX_SERVED_BYTES = 128 * 1024 * 1024;

export interface ProductInfo {
  id: string;
  name: string;
  symbol?: string;
  projectId: string;
  launch: string;
  chains: string[];
  /** Metrics the product has (the project's metrics that split by product). */
  metrics: string[];
}

export interface ProjectInfo {
  id: string;
  name: string;
  symbol?: string;
  pricesourceId?: string;
  profile: string;
  launch: string;
  sectors: string[];
  chains: string[];
  products: ProductInfo[];
  /** Metrics available for the project, in catalogue order. */
  metrics: string[];
  isArchived: boolean;
  archivedReason?: string;
  archiveDate?: string;
  maintenanceReason?: string;
  /** Last day with data: today, the archive date, or earlier for a project under maintenance. */
  lastDate: string;
  def: ProjectDef;
}

interface DailyPoint {
  date: string;
  value: number | null;
}

interface DailyOptions {
  start?: string;
  end?: string;
  /** false removes bridged assets from asset metrics (default true). */
  bridged?: boolean;
}

/** Project whose on-chain data has an outage (every value null) for two weeks. */
export const OUTAGE = { projectId: "tick-and-tock", start: "2023-03-01", end: "2023-03-14" };

/**
 * Days a project's data is missing (every non-token metric null), so that a demo user meets a quarter, a month
 * and a TTM that are not whole: the tick-and-tock outage, and a three-day indexing gap inside a recent
 * quarter (blast, Q3 2026).
 */
const GAPS_IN_DATA: readonly { projectId: string; start: string; end: string }[] = [
  OUTAGE,
  { projectId: "blast", start: "2026-08-10", end: "2026-08-12" },
];

/**
 * Days whose value the service sends as text that is no number (a formatted amount, a boolean, an overflow),
 * in every time-series answer (§4.3, §4.11): the value is there, but nobody can read it. The add-in shows
 * such a day as #N/A naming what was sent, never as a missing day that a fill would fill.
 */
const UNREADABLE_VALUES: readonly {
  projectId: string;
  metricId: string;
  date: string;
  /** What is sent instead of the day's value (the same in every slice: a filter, a split). */
  sent: string | boolean;
}[] = (
  [
    { date: "2024-01-05", sent: "1,234.50" },
    { date: "2024-01-06", sent: "$1,000" },
    { date: "2024-01-07", sent: "(1000)" },
    { date: "2024-01-08", sent: "12.5 USD" },
    { date: "2024-01-09", sent: true },
    { date: "2024-01-10", sent: "Infinity" },
    { date: "2024-01-11", sent: "1e400" },
  ] as const
).map((u) => ({ projectId: "nova", metricId: "revenue", ...u }));

/** The projects with values sent unreadable: a quick miss for every other value served. */
const UNREADABLE_PROJECTS = new Set(UNREADABLE_VALUES.map((u) => u.projectId));

/** UNREADABLE_VALUES by "project|metric|day": looked up for every value served. */
const UNREADABLE_BY_KEY = new Map(
  UNREADABLE_VALUES.map((u) => [`${u.projectId}|${u.metricId}|${day(u.date)}`, u.sent])
);

/**
 * Single days without a value, drawn at random per series, fall before this day only: older history has
 * the holes early indexers left, recent history is whole except for the gaps above. (Sprinkled over every
 * year, they left three quarters of all TTMs with a day missing.)
 */
const RANDOM_NULLS_UNTIL = "2024-01-01";
const RANDOM_NULLS_END = day(RANDOM_NULLS_UNTIL);

/** Metrics with gaps: removed for some projects, chosen by a hash of the project id. */
const GAPS: readonly { metrics: string[]; share: number }[] = [
  { metrics: ["active_developers", "code_commits"], share: 0.2 },
  { metrics: ["tokenholders"], share: 0.25 },
  { metrics: ["user_wau"], share: 0.3 },
  { metrics: ["gross_profit"], share: 0.3 },
  { metrics: ["treasury"], share: 0.2 },
];

function availableMetrics(def: ProjectDef): string[] {
  const wanted = new Set([
    ...PROFILES[def.profile].metrics,
    ...(def.token ? TOKEN_METRICS : []),
    ...(def.extra ?? []),
  ]);
  for (const id of def.missing ?? []) wanted.delete(id);
  for (const gap of GAPS) {
    if (unitHash(`${def.id}|gap|${gap.metrics.join(",")}`) < gap.share)
      for (const id of gap.metrics) wanted.delete(id);
  }
  return METRICS.filter((m) => wanted.has(m.id)).map((m) => m.id);
}

export class DemoDataset {
  readonly todayDay: number;
  readonly projects: readonly ProjectInfo[];
  readonly metrics: readonly MetricDef[] = METRICS;
  readonly sectors: readonly SectorDef[] = SECTORS;
  readonly chains: readonly ChainDef[] = CHAINS;
  private readonly byId: Map<string, ProjectInfo>;
  private readonly models = new LRUCache<string, ProjectModel>({ max: MAX_MODELS });
  private readonly served = new LRUCache<string, Series>({
    maxSize: MAX_SERVED_BYTES,
    sizeCalculation: (s) => Math.max(1, s.values.byteLength),
  });
  private readonly shareTables = new Map<string, ShareTable>();

  constructor(
    readonly today: string,
    options: DatasetOptions = {}
  ) {
    const todayDay = parseDate(today);
    if (todayDay === undefined)
      throw new Error(`createDataset: "${today}" is not a YYYY-MM-DD date`);
    this.todayDay = todayDay;
    const defs = [...PROJECTS, ...syntheticProjects(PROJECTS, options.projects ?? 0)];
    this.projects = defs.map((def) => this.describe(def));
    this.byId = new Map(this.projects.map((p) => [p.id, p]));
  }

  private describe(def: ProjectDef): ProjectInfo {
    const metrics = availableMetrics(def);
    const model = this.model(def);
    return {
      id: def.id,
      name: def.name,
      symbol: def.token ? def.symbol : undefined,
      pricesourceId: def.token ? (def.pricesourceId ?? def.id) : undefined,
      profile: PROFILES[def.profile].label,
      launch: def.launch,
      sectors: def.sectors,
      chains: def.chains,
      products: (def.products ?? []).map((p) => ({
        id: p.id,
        name: p.name,
        symbol: p.symbol ?? def.symbol,
        projectId: def.id,
        launch: p.launch,
        chains: p.chains ?? def.chains,
        metrics: metrics.filter((m) => findMetric(m)?.byProduct),
      })),
      metrics,
      isArchived: def.archived !== undefined,
      archivedReason: def.archived?.reason,
      archiveDate: def.archived?.date,
      maintenanceReason: def.maintenance?.reason,
      lastDate: dayToDate(model.end),
      def,
    };
  }

  private model(def: ProjectDef): ProjectModel {
    let model = this.models.get(def.id);
    if (!model) {
      model = new ProjectModel(def, this.todayDay, generateMetric);
      this.models.set(def.id, model);
    }
    return model;
  }

  project(id: string): ProjectInfo | undefined {
    return this.byId.get(id);
  }

  product(projectId: string, productId: string): ProductInfo | undefined {
    return this.project(projectId)?.products.find((p) => p.id === productId);
  }

  /** The project owning a product id (product ids are unique across projects). */
  productOwner(productId: string): ProjectInfo | undefined {
    return this.projects.find((p) => p.products.some((x) => x.id === productId));
  }

  metric(id: string): MetricDef | undefined {
    return findMetric(id);
  }

  sector(id: string): SectorDef | undefined {
    return this.sectors.find((s) => s.id === id);
  }

  hasMetric(projectId: string, metricId: string): boolean {
    return this.project(projectId)?.metrics.includes(metricId) ?? false;
  }

  /** First day (day number) a metric of a project can have data. */
  firstDay(projectId: string, metricId: string): number {
    const info = this.require(projectId);
    return this.model(info.def).metricStart(metricId);
  }

  /** Last day (day number) with data for a project. */
  lastDay(projectId: string): number {
    return this.model(this.require(projectId).def).end;
  }

  /**
   * The daily series served for a project's metric (NaN = null). Empty for a metric the project lacks.
   * bridged=false removes bridged assets from asset metrics.
   */
  series(projectId: string, metricId: string, bridged = true): Series {
    const info = this.require(projectId);
    const metric = findMetric(metricId);
    if (!metric || !info.metrics.includes(metricId))
      return { start: this.todayDay, values: new Float64Array(0) };
    const applyBridged = metric.asset && !bridged;
    const key = `${projectId}|${metricId}|${applyBridged ? 0 : 1}`;
    let series = this.served.get(key);
    if (!series) {
      series = this.serve(info, metric, applyBridged);
      this.served.set(key, series);
    }
    return series;
  }

  private serve(info: ProjectInfo, metric: MetricDef, withoutBridged: boolean): Series {
    const raw = this.model(info.def).raw(metric.id);
    const values = Float64Array.from(raw.values);
    const keyHash = hashString(`${info.id}|${metric.id}|null`);
    const nullRate = metric.token ? 0.001 : 0.004;
    const bridgedShare = Math.min(
      0.95,
      PROFILES[info.def.profile].bridgedShare * rangeHash(`${info.id}|bridged`, 0.7, 1.3)
    );
    const phase = rangeHash(`${info.id}|bridged-phase`, 0, 2 * Math.PI);
    const gaps = metric.token
      ? []
      : GAPS_IN_DATA.filter((g) => g.projectId === info.id).map((g) => [day(g.start), day(g.end)]);
    for (let i = 0; i < values.length; i++) {
      const d = raw.start + i;
      if (withoutBridged)
        values[i] *= 1 - bridgedShare * (1 + 0.2 * Math.sin((2 * Math.PI * d) / 700 + phase));
      if (
        (d < RANDOM_NULLS_END && unitAt(keyHash, d) < nullRate) ||
        gaps.some(([from, to]) => d >= from && d <= to)
      )
        values[i] = NaN;
    }
    return { start: raw.start, values };
  }

  /**
   * What the service sends instead of `value`, a day's value of a project's metric (or of a slice of it) that
   * it sends unreadable (UNREADABLE_VALUES); undefined when it sends the value.
   */
  unreadable(
    projectId: string,
    metricId: string,
    d: number,
    value: number
  ): string | boolean | undefined {
    if (Number.isNaN(value) || !UNREADABLE_PROJECTS.has(projectId)) return undefined;
    return UNREADABLE_BY_KEY.get(`${projectId}|${metricId}|${d}`);
  }

  /** Whether the service sends this project's metric values as numeric strings rather than numbers. */
  valuesAsStrings(projectId: string, metricId: string): boolean {
    return unitHash(`${projectId}|${metricId}|strings`) < 0.15;
  }

  /** Chain split of a project (empty table for a project with no chains). */
  chainTable(projectId: string): ShareTable {
    return this.table(projectId, "chain");
  }

  /** Product split of a project (empty table for a project with no products). */
  productTable(projectId: string): ShareTable {
    return this.table(projectId, "product");
  }

  private table(projectId: string, kind: "chain" | "product"): ShareTable {
    const key = `${projectId}|${kind}`;
    let t = this.shareTables.get(key);
    if (!t) {
      const info = this.require(projectId);
      const end = this.model(info.def).end;
      t = kind === "chain" ? chainShares(info.def, end) : productShares(info.def, end);
      this.shareTables.set(key, t);
    }
    return t;
  }

  /** Share of one chain within a product on a day: the project's chain split restricted to the product's chains. */
  productChainShare(projectId: string, productId: string, chainId: string, d: number): number {
    const product = this.product(projectId, productId);
    if (!product || !product.chains.includes(chainId)) return 0;
    const t = this.chainTable(projectId);
    const total = sharesSum(t, product.chains, d);
    return total > 0 ? shareAt(t, chainId, d) / total : 0;
  }

  /** Convenience for tests and tools: served daily values as dates and numbers (null kept). */
  daily(projectId: string, metricId: string, options: DailyOptions = {}): DailyPoint[] {
    const series = this.series(projectId, metricId, options.bridged ?? true);
    const from = options.start !== undefined ? (parseDate(options.start) ?? -Infinity) : -Infinity;
    const to = options.end !== undefined ? (parseDate(options.end) ?? Infinity) : Infinity;
    const points: DailyPoint[] = [];
    for (let i = 0; i < series.values.length; i++) {
      const d = series.start + i;
      if (d < from || d > to) continue;
      const v = series.values[i];
      points.push({ date: dayToDate(d), value: Number.isNaN(v) ? null : v });
    }
    return points;
  }

  /** Financial statement rows (numbers, not the wire format): see financialStatement. */
  statement(
    projectId: string,
    granularity: Granularity = "quarter",
    interval: Interval = "1y",
    options: StatementOptions = {}
  ): StatementRow[] {
    return financialStatement(this, projectId, granularity, interval, options);
  }

  /** Aggregation rows of a project (all its metrics, or the ones given): see aggregateSeries. */
  aggregations(projectId: string, metricIds?: readonly string[]): AggregationRow[] {
    return projectAggregations(this, projectId, metricIds);
  }

  private require(projectId: string): ProjectInfo {
    const info = this.byId.get(projectId);
    if (!info) throw new Error(`Unknown project: ${projectId}`);
    return info;
  }
}

/** "YYYY-MM-DD" of the UTC day of an instant: the dataset's "today" for a clock reading. */
export function todayOf(nowMs: number): string {
  return dayToDate(dayFromMs(nowMs));
}

/** The dataset as other parts of the project see it (tests of the engine, the CLI, benchmarks). */
export type Dataset = DemoDataset;

/**
 * The demo dataset as of `today` (YYYY-MM-DD). Same output on every run: series depend only on ids and
 * dates, and `today` only decides where they stop.
 */
export function createDataset(today: string, options: DatasetOptions = {}): Dataset {
  return new DemoDataset(today, options);
}
