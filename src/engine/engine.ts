/**
 * The engine every custom function and the taskpane share: catalogues and details (cached, coalesced),
 * time series (batched, planned, cached), statements and aggregations. No Office globals.
 */
import {
  CryptometricsError,
  DEFAULT_LIMITS,
  type ClientLimits,
  type FinancialStatementRow,
  type MarketSector,
  type MarketSectorDetail,
  type Metric,
  type MetricAggregationRow,
  type MetricsBreakdownRow,
  type MetricsClient,
  type ProductDetail,
  type Project,
  type ProjectDetail,
  type StatementInterval,
  type Timers,
  isCryptometricsError,
  isMetricAvailable,
  openText,
} from "../client";
import type { AggregationBatcher, PairAggregations } from "./aggregation-batcher";
import { OnFirstUse } from "./on-first-use";
import { DEFAULT_CACHE_POLICY, type CachePolicy, type Lifetime } from "../cache/policy";
import { dayOfInstant } from "../client";
import { withDeadline } from "./deadline";
import { readHistoryStarts, type HistoryStarts } from "./history-start";
import { KeyedCache, type Loaded } from "./keyed-cache";
import type { SavedCache } from "./saved-cache";
import { resolveMetricIn, resolveProjectIn, withSuggestions } from "./resolver";
import { SeriesBatcher } from "./series-batcher";
import { withDateNames } from "./date-names";
import type { SeriesClient } from "./series-fetch";
import { SeriesStore } from "./series-store";
import type { Change } from "./ledger";
import {
  seriesKey,
  type SeriesCallOptions,
  type SeriesAnswer,
  type SeriesQuery,
} from "./series-types";

export type EngineClient = Pick<
  MetricsClient,
  | "listProjects"
  | "getProject"
  | "getProjectMetrics"
  | "getProjectMetricAggregations"
  | "getFinancialStatement"
  | "getProduct"
  | "getProductMetrics"
  | "listMarketSectors"
  | "getMarketSector"
  | "listMetrics"
  | "getMetric"
  | "getMetricAggregations"
  | "getMetricsBreakdown"
> &
  /** The client's own limits: the engine's chunks and deadline follow them (absent: the defaults). */
  Partial<Pick<MetricsClient, "limits">>;

export interface EngineOptions {
  cache: CachePolicy;
  /**
   * The recalculation window: Excel hands a workbook's cells to the runtime over a few milliseconds; 50 ms
   * gathers them (Microsoft's batching sample waits 100 ms) while adding little to a single cell's latency.
   */
  windowMs: number;
  /**
   * The safety net over each call: the client's own call deadline plus ENGINE_DEADLINE_MARGIN_MS, so the
   * client's clearer error wins. Taken from the client unless given.
   */
  deadlineMs: number;
  /** Ids per request, as the client chunks them (its limits.maxIdsPerRequest) unless given. */
  maxIdsPerRequest: number;
  /**
   * Largest answer, in rows (projects in the catalogue × days), for which a metric asked of more projects
   * than one request holds is asked of every project instead (§4.11 `project_ids=all`): one request rather
   * than one per 50 ids. 20,000 rows is about 2.5 MB of JSON, a second or two on a slow line, while a
   * 500-project model on one date (500 rows per metric) or its latest values (36 days: 18,000 rows) fits.
   * 0 turns it off.
   */
  wholeUniverseMaxRows: number;
}

/** 10 s past the client's call deadline: the client settles first, with its own reason, when it can. */
const ENGINE_DEADLINE_MARGIN_MS = 10_000;

/** The engine's options for a client with these limits: chunk size and deadline follow the client's. */
function engineDefaults(limits: Readonly<ClientLimits> = DEFAULT_LIMITS): Readonly<EngineOptions> {
  return {
    cache: DEFAULT_CACHE_POLICY,
    windowMs: 50,
    deadlineMs: limits.deadlineMs + ENGINE_DEADLINE_MARGIN_MS,
    maxIdsPerRequest: limits.maxIdsPerRequest,
    wholeUniverseMaxRows: 20_000,
  };
}

export const DEFAULT_ENGINE_OPTIONS: Readonly<EngineOptions> = engineDefaults();

interface EngineDeps {
  client: EngineClient;
  now?: () => number;
  timers: Timers;
  options?: Partial<EngineOptions>;
  /** The cache saved on this computer (IndexedDB, a cache directory): what earlier sessions fetched. */
  saved?: SavedCache;
  /**
   * Where the restatements the series cache sees go (src/engine/ledger's RestatementLedger): without it,
   * answers are not compared with what was held and no first sighting is kept.
   */
  ledger?: { record(changes: readonly Change[]): Promise<void> };
}

export type StatementGranularity = "year" | "quarter" | "month" | "week";

/**
 * How an engine reads. `live`: what it does not hold fresh it asks the service for. `cache-only`: the view a
 * formula preview reads (cacheOnly()): what it holds fresh, answered as now, and `miss()` rejected for
 * anything else; it sends nothing and opens no batching window.
 */
type ReadMode =
  { readonly kind: "live" } | { readonly kind: "cache-only"; readonly miss: () => Error };

const LIVE: ReadMode = { kind: "live" };

export class Engine {
  readonly options: EngineOptions;
  private readonly mode: ReadMode = LIVE;
  private readonly client: EngineClient;
  private readonly seriesClient: SeriesClient;
  private readonly timers: Timers;
  private readonly store: SeriesStore;
  private readonly cache: KeyedCache;
  private readonly batcher: SeriesBatcher;
  /**
   * AGGREGATION's batching and §4.4's fallback, loaded with the first aggregation asked for: only the
   * aggregation functions use them, and on the Excel page they join those functions' chunk.
   */
  private readonly aggregations: OnFirstUse<{
    batcher: AggregationBatcher;
    fallback: typeof import("./aggregation-fallback");
  }>;
  private readonly saved?: SavedCache;
  /** Series being looked up in the saved cache, by key. */
  private readonly restoring = new Map<string, Promise<void>>();
  /** The shared wait for `restoring` to empty (whenRestored), while one is under way. */
  private restored: Promise<void> | undefined;

  constructor(deps: EngineDeps) {
    this.options = { ...engineDefaults(deps.client.limits), ...deps.options };
    const now = deps.now ?? Date.now;
    this.client = deps.client;
    this.timers = deps.timers;
    const saved = deps.saved;
    this.saved = saved;
    this.store = new SeriesStore(
      this.options.cache,
      now,
      saved && ((key) => saved.saveSeries(key, () => this.store.exportEntry(key))),
      deps.ledger &&
        ((changes) => {
          // record() never rejects: a ledger that cannot be written costs a note, never a cell.
          void deps.ledger!.record(changes);
        })
    );
    this.cache = new KeyedCache(this.options.cache, now, this.timers, saved);
    this.aggregations = new OnFirstUse(() =>
      Promise.all([
        import(/* webpackChunkName: "fn-aggregations" */ "./aggregation-batcher"),
        import(/* webpackChunkName: "fn-aggregations" */ "./aggregation-fallback"),
      ]).then(([batching, fallback]) => ({
        batcher: new batching.AggregationBatcher(this.client, this.timers, this.options.windowMs),
        fallback,
      }))
    );
    // Series requests ask with the date names each operation takes (date-names.ts).
    this.seriesClient = withDateNames(this.client);
    this.batcher = new SeriesBatcher(
      this.seriesClient,
      this.store,
      this.timers,
      {
        windowMs: this.options.windowMs,
        deadlineMs: this.options.deadlineMs,
        maxIdsPerRequest: this.options.maxIdsPerRequest,
        staleAfterMs: this.options.cache.staleAfterMs,
        universe: () => {
          const projects = this.cache.peek<Project[]>("projects");
          if (!projects || this.options.wholeUniverseMaxRows <= 0) return undefined;
          return {
            projects: projects.length,
            today: dayOfInstant(now()),
            maxRows: this.options.wholeUniverseMaxRows,
          };
        },
      },
      (projectId, productId, metricId) => this.published(projectId, productId, metricId)
    );
  }

  /** Fetch everything afresh on next use; what was fetched stays as a fallback if the service fails. */
  refresh(): void {
    this.store.refresh();
    this.cache.refresh();
  }

  /** Forget everything, fallbacks included. */
  clear(): void {
    this.store.clear();
    this.cache.clear();
  }

  stats(): { series: number; points: number; entries: number; waiting: number; loading: number } {
    const { series, points } = this.store.size;
    return {
      series,
      points,
      entries: this.cache.size,
      waiting: this.batcher.waiting + (this.aggregations.current?.batcher.waiting ?? 0),
      loading: this.cache.pending,
    };
  }

  series(query: SeriesQuery, ctx: SeriesCallOptions = {}): Promise<SeriesAnswer> {
    if (this.mode.kind === "cache-only") {
      const answer = this.seriesNow(query);
      return answer ? Promise.resolve(answer) : Promise.reject(this.mode.miss());
    }
    if (this.saved) {
      // A series this session has never held may be in the saved cache: one look there first.
      const key = seriesKey(query);
      if (!this.store.has(key) && !this.restoring.has(key)) {
        const restore = this.restoreSeries(key).finally(() => this.restoring.delete(key));
        this.restoring.set(key, restore);
      }
      // Calls that will need the service wait for the look-ups under way, so that the whole recalculation
      // reaches the batching window together (a window closing on half the cells would split its requests).
      if (this.restoring.size > 0 && !this.store.fresh(key, query.start, query.end))
        return this.whenRestored().then(() => this.batcher.get(query, ctx));
    }
    return this.batcher.get(query, ctx);
  }

  /**
   * The series from the fresh cache, without waiting, or undefined when series() would have to wait (not
   * held, stale, refreshed, not covering the range). When it answers, series() would resolve with the same
   * answer at once: a fresh entry is held, so no saved-cache look-up starts and none is waited for.
   */
  seriesNow(query: SeriesQuery): SeriesAnswer | undefined {
    return this.batcher.cached(query);
  }

  /**
   * One wait for every look-up under way, shared by all the calls waiting: a wait of each call's own over
   * every look-up held a reaction per call and look-up (5,000 cells over 204 series: a million, 110 MB).
   */
  private whenRestored(): Promise<void> {
    if (this.restoring.size === 0) return Promise.resolve();
    this.restored ??= this.drainRestoring();
    return this.restored;
  }

  /** Until no look-up is under way (some start while others finish); cleared in the turn it sees none. */
  private async drainRestoring(): Promise<void> {
    try {
      while (this.restoring.size > 0) await Promise.all(this.restoring.values());
    } finally {
      this.restored = undefined;
    }
  }

  private async restoreSeries(key: string): Promise<void> {
    const saved = await this.saved?.readSeries(key);
    if (saved) this.store.restore(key, saved);
  }

  /** Sends what the current window holds now, instead of when its timer fires. */
  flush(): void {
    if (this.mode.kind === "cache-only") return;
    this.batcher.flush();
    this.aggregations.current?.batcher.flush();
  }

  /** The project catalogue if it is cached and fresh, without waiting: the warm path of every cell. */
  cachedProjects(): Project[] | undefined {
    return this.cache.peek<Project[]>("projects");
  }

  cachedMetrics(): Metric[] | undefined {
    return this.cache.peek<Metric[]>("metrics");
  }

  projects(): Promise<Loaded<Project[]>> {
    return this.catalogue("projects", "listProjects", () => this.client.listProjects());
  }

  metrics(): Promise<Loaded<Metric[]>> {
    return this.catalogue("metrics", "listMetrics", () => this.client.listMetrics());
  }

  sectors(): Promise<Loaded<MarketSector[]>> {
    return this.catalogue("sectors", "listMarketSectors", () => this.client.listMarketSectors());
  }

  sector(id: string): Promise<Loaded<MarketSectorDetail>> {
    return this.catalogue(`sector:${id}`, "getMarketSector", () => this.client.getMarketSector(id));
  }

  project(id: string): Promise<Loaded<ProjectDetail>> {
    return this.catalogue(`project:${id}`, "getProject", () => this.client.getProject(id));
  }

  product(projectId: string, productId: string): Promise<Loaded<ProductDetail>> {
    return this.catalogue(`product:${projectId}:${productId}`, "getProduct", () =>
      this.client.getProduct(projectId, productId)
    );
  }

  statement(
    projectId: string,
    granularity: StatementGranularity,
    interval: StatementInterval
  ): Promise<Loaded<FinancialStatementRow[]>> {
    return this.load(
      `statement:${projectId}:${granularity}:${interval}`,
      "daily",
      "getFinancialStatement",
      async () =>
        (
          await this.client.getFinancialStatement(projectId, {
            timestampGranularity: granularity,
            interval,
          })
        ).data
    );
  }

  /**
   * The service's aggregations of one project's metric (AGGREGATION). The pairs asked within one window share
   * one metric-aggregations request (§4.12); each pair is cached on its own until the next daily update.
   */
  aggregation(projectId: string, metricId: string): Promise<Loaded<PairAggregations>> {
    return this.load(
      `aggregation:${projectId.length}:${projectId}:${metricId}`,
      "daily",
      "getMetricAggregations",
      async () => (await this.aggregations.get()).batcher.get(projectId, metricId)
    );
  }

  metricAggregations(
    projectIds: readonly string[] | "all",
    metricIds: readonly string[] | "all"
  ): Promise<Loaded<{ rows: MetricAggregationRow[]; errors: string[] }>> {
    const key = `metric-aggregations:${[projectIds].flat().join(",")}:${[metricIds].flat().join(",")}`;
    return this.load(key, "daily", "getMetricAggregations", async () => {
      const res = await this.client.getMetricAggregations({ projectIds, metricIds });
      const errors = res.errors.map((e) => openText(e));
      const { fallback: f } = await this.aggregations.get();
      if (f.readable(res.data)) return { rows: res.data, errors };
      // §4.12's shape is not shown; §4.4's is: the same figures, one request per project.
      const ids =
        projectIds === "all" ? (await this.projects()).value.map((p) => p.projectId) : projectIds;
      const fallback = await f.perProjectAggregations(this.client, ids, metricIds);
      for (const id of fallback.unknown) errors.push(`the service does not know project "${id}"`);
      return { rows: fallback.rows, errors };
    });
  }

  /**
   * The service's breakdown (§4.13) of a metric for the listed projects over [start, end], with the partial-
   * success errors as text. Its date parameters' names are not shown (§4.14): start_date/end_date (the usage
   * example's) first, start/end when the service refuses those with a 400.
   */
  breakdown(
    metricId: string,
    projectIds: readonly string[],
    start: string,
    end: string
  ): Promise<Loaded<{ rows: MetricsBreakdownRow[]; errors: string[] }>> {
    const key = `breakdown:${metricId}:${projectIds.join(",")}:${start}:${end}`;
    return this.load(key, "daily", "getMetricsBreakdown", async () => {
      const ask = (dateNames: "start_date" | "start") =>
        this.client.getMetricsBreakdown(metricId, { projectIds, start, end, dateNames });
      let res;
      try {
        res = await ask("start_date");
      } catch (error) {
        if (!(
          isCryptometricsError(error) &&
          error.kind === "invalid-input" &&
          error.status === 400
        ))
          throw error;
        res = await ask("start");
      }
      return { rows: res.data, errors: res.errors.map((e) => openText(e)) };
    });
  }

  /**
   * A value computed from other answers (a project card), cached like a daily answer: until the service's
   * next daily update or a Refresh, with the previous one as the fallback when computing it afresh fails.
   * `keep` says whether a computed value may be kept (one built from stale answers is shown, not kept).
   */
  derived<T>(
    key: string,
    compute: () => Promise<T>,
    keep: (value: T) => boolean = () => true
  ): Promise<Loaded<T>> {
    const fresh = this.cache.peek<T>(`derived:${key}`);
    if (fresh !== undefined) return Promise.resolve({ value: fresh, cached: true });
    if (this.mode.kind === "cache-only") return Promise.reject(this.mode.miss());
    return this.cache.get(`derived:${key}`, "daily", compute, keep);
  }

  /**
   * The first day with data of a project's metric if it is known (this session, or the saved cache) without a
   * request: null for "none", undefined for unknown.
   */
  knownHistoryStart(metricId: string, projectId: string): Promise<number | null | undefined> {
    return this.cache.peekSaved<number | null>(historyStartKey(metricId, projectId));
  }

  /**
   * The first day with data of a project's metric if this session holds it fresh, without waiting: null for
   * "none", undefined for not held (the warm path of a cell; knownHistoryStart also looks in the saved cache).
   */
  historyStartNow(metricId: string, projectId: string): number | null | undefined {
    return this.cache.peek<number | null>(historyStartKey(metricId, projectId));
  }

  /**
   * The first day with data of a metric for each project (history-start.ts): one read of the whole history
   * for the projects not cached yet, whose days from `keepFrom(projectId)` on fill the series cache. Kept a
   * catalogue lifetime (a first day does not move); a failed read is not kept.
   */
  async historyStarts(
    metricId: string,
    projectIds: readonly string[],
    keepFrom: (projectId: string) => number
  ): Promise<HistoryStarts> {
    const key = (id: string): string => historyStartKey(metricId, id);
    if (this.mode.kind === "cache-only")
      return this.historyStartsHeld(metricId, projectIds, this.mode.miss);
    const known = await Promise.all(projectIds.map((id) => this.cache.peekSaved(key(id))));
    const missing = projectIds.filter(
      (id, i) => known[i] === undefined && !this.cache.loading(key(id))
    );
    let read: Promise<HistoryStarts> | undefined;
    if (missing.length > 0) {
      const controller = new AbortController();
      read = withDeadline(
        readHistoryStarts(
          this.seriesClient,
          this.store,
          metricId,
          missing,
          keepFrom,
          controller.signal
        ),
        this.options.deadlineMs,
        this.timers,
        () => {
          controller.abort();
          return new CryptometricsError(
            "timeout",
            `history of ${metricId}: no answer within ${Math.round(this.options.deadlineMs / 1000)} s`,
            { operation: "getMetric" }
          );
        }
      );
      // Each waiting project hears a failure through its own load below; this only keeps it handled.
      read.catch(() => undefined);
    }
    const starts: HistoryStarts = new Map();
    await Promise.all(
      projectIds.map(async (id) => {
        const loaded = await this.cache.get<number | null>(key(id), "catalogue", async () => {
          if (!read) throw new Error("history start expired while being read; ask again");
          return (await read).get(id) ?? null;
        });
        starts.set(id, loaded.value ?? undefined);
      })
    );
    return starts;
  }

  /** A metric's availability as the project's (or product's) detail publishes it; undefined when silent. */
  async published(
    projectId: string,
    productId: string | undefined,
    metricId: string
  ): Promise<boolean | undefined> {
    const detail = productId
      ? (await this.product(projectId, productId)).value
      : (await this.project(projectId)).value;
    return isMetricAvailable(detail, metricId);
  }

  /**
   * This engine as a formula preview reads it (the `cache-only` mode): whatever it holds fresh, answered as
   * now, and `miss()` rejected for anything that would need the service (a catalogue, detail, series or
   * computed value not held). The view shares every cache with the engine, sends nothing and opens no
   * batching window: Excel previews a formula on every keystroke, and a preview must not spend the rate limit.
   * It is the same class with the same fields (the same caches, by reference) and one field changed, `mode`,
   * which every read path asks: no method is replaced.
   */
  cacheOnly(miss: () => Error): Engine {
    const mode: ReadMode = { kind: "cache-only", miss };
    return Object.assign(Object.create(Engine.prototype) as Engine, this, { mode });
  }

  /** historyStarts in the cache-only mode: each project's first day from this session's fresh cache. */
  private historyStartsHeld(
    metricId: string,
    projectIds: readonly string[],
    miss: () => Error
  ): Promise<HistoryStarts> {
    const starts: HistoryStarts = new Map();
    for (const id of projectIds) {
      const known = this.cache.peek<number | null>(historyStartKey(metricId, id));
      if (known === undefined) return Promise.reject(miss());
      starts.set(id, known ?? undefined);
    }
    return Promise.resolve(starts);
  }

  async resolveProject(text: string): Promise<Project> {
    const projects = (await this.projects()).value;
    return withSuggestions((suggest) => resolveProjectIn(projects, text, suggest));
  }

  async resolveMetric(text: string): Promise<Metric> {
    const metrics = (await this.metrics()).value;
    return withSuggestions((suggest) => resolveMetricIn(metrics, text, suggest));
  }

  /** A catalogue answer's data (a list, or one project, product or sector), cached as catalogues are. */
  private catalogue<T>(
    key: string,
    operation: string,
    ask: () => Promise<{ data: T }>
  ): Promise<Loaded<T>> {
    return this.load(key, "catalogue", operation, async () => (await ask()).data);
  }

  private load<T>(
    key: string,
    lifetime: Lifetime,
    operation: string,
    fetch: () => Promise<T>
  ): Promise<Loaded<T>> {
    // The hot path of a warm workbook: no timer, no flight for a value already here.
    const fresh = this.cache.peek<T>(key);
    if (fresh !== undefined) return Promise.resolve({ value: fresh, cached: true });
    // Every catalogue, detail, statement and aggregation comes here: a preview's miss stops at this line.
    if (this.mode.kind === "cache-only") return Promise.reject(this.mode.miss());
    return withDeadline(
      this.cache.get(key, lifetime, fetch),
      this.options.deadlineMs,
      this.timers,
      () =>
        new CryptometricsError(
          "timeout",
          `${operation}: no answer within ${Math.round(this.options.deadlineMs / 1000)} s`,
          {
            operation,
          }
        )
    );
  }
}

function historyStartKey(metricId: string, projectId: string): string {
  return `history-start:${metricId}:${projectId}`;
}
