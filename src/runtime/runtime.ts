/**
 * The composition root of the shared runtime: one client, one rate limiter, one engine (cache, batching) and
 * one diagnostics record for everything running on the page (custom functions, taskpane, ribbon) or in the
 * CLI. No Office globals: the host (Excel page, CLI, tests) configures it.
 */
import {
  CryptometricsError,
  createClient,
  createLogger,
  createRateLimiter,
  ClientLifetime,
  createSleep,
  realTimers,
  type ApiKeySource,
  type ClientConfig,
  type FetchLike,
  type MetricsClient,
  type Sleep,
  type StartLedger,
  type Timers,
} from "../client";
import {
  Engine,
  type EngineOptions,
  lazySavedCache,
  type SavedCache,
  type BlobStore,
  type BlobStoreUsage,
  cellId,
  type Change,
  type ChangeFilter,
  type LedgerStore,
  type LedgerView,
  type SeriesRef,
} from "../engine";
import { LazyLedger } from "./lazy-ledger";
import { LazyTeamRecord } from "./lazy-team-record";
import { namespaceSource, type Digest } from "./cache-namespace";
import { DataSourceWatch } from "./data-source";
import { Diagnostics } from "./diagnostics";

/**
 * This computer's changes and the team's, each once, newest first: a restatement both saw (the same figure,
 * from the same value to the same value) is listed once, at the first sighting of the two.
 */
function onceEach(own: readonly Change[], team: readonly Change[]): Change[] {
  const key = (c: Change) => `${cellId(c)}${JSON.stringify([c.before, c.after])}`;
  const mine = new Map<string, number>();
  const out = own.map((c, i) => {
    mine.set(key(c), i);
    return c;
  });
  for (const c of team) {
    const i = mine.get(key(c));
    if (i === undefined) out.push(c);
    else if (c.seenAt < out[i].seenAt) out[i] = { ...out[i], seenAt: c.seenAt };
  }
  const order = (c: Change) =>
    JSON.stringify([
      c.series.projectId,
      c.series.productId,
      c.series.metricId,
      c.series.filter,
      c.dim,
    ]);
  return out.sort(
    (a, b) =>
      b.seenAt - a.seenAt || (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : a.day - b.day)
  );
}

/** The cache saved on this computer: the host's store (IndexedDB on the page, a directory for the CLI). */
export interface SavedCacheConfig {
  store: BlobStore;
  /** How the API key is hashed into the namespace; default SHA-256 from Web Crypto. */
  digest?: Digest;
  /** Default 500 ms (see PersistenceOptions). */
  writeDelayMs?: number;
  /**
   * Where the record of restatements lives beside the saved answers (src/engine/ledger): the CLI's directory,
   * the page's IndexedDB. Without it, this session's memory.
   */
  ledger?: LedgerStore;
}

const log = createLogger("saved-cache");

export interface RuntimeConfig {
  /** The service (or simulator) base URL. Empty: not configured yet. */
  baseUrl: string;
  apiKey: ApiKeySource;
  /**
   * What the saved cache is keyed by when it is not the key: signed in to a team gateway, the account (its
   * access tokens change every hour; the account's answers stay its own).
   */
  cacheIdentity?: ApiKeySource;
  /** Client-side limit; default 60, the service's documented limit. */
  rateLimitPerMinute?: number;
  /**
   * The limit's window: the service's minute (60,000 ms). Shorter only against a simulator whose window is
   * shorter (benchmarks and tests run the minute faster).
   */
  rateWindowMs?: number;
  /** The record of request starts shared with other processes using the key (the CLI's cache directory). */
  rateLedger?: StartLedger;
  fetch?: FetchLike;
  now?: () => number;
  timers?: Timers;
  sleep?: Sleep;
  client?: Partial<
    Pick<
      ClientConfig,
      "retry" | "timeoutMs" | "deadlineMs" | "maxIdsPerRequest" | "maxResponseBytes" | "random"
    >
  >;
  engine?: Partial<EngineOptions>;
  /** Without it, nothing outlives the session. */
  savedCache?: SavedCacheConfig;
}

export const DEFAULT_RATE_LIMIT_PER_MINUTE = 60;

export class Runtime {
  readonly client: MetricsClient;
  readonly engine: Engine;
  readonly now: () => number;
  /** The cache saved on this computer, when the host has one. */
  readonly saved?: SavedCache;
  /**
   * Every restatement this computer has seen (src/engine/ledger): kept beside the saved cache, or for this
   * session only when there is none.
   */
  readonly ledger: LazyLedger;
  /** The team gateway's record, when the data source is a gateway (team-record.ts, loaded when first asked). */
  readonly team: LazyTeamRecord;
  readonly timers: Timers;
  /** Whether this runtime's answers come from the simulator: the stamp on its latest response. */
  readonly source = new DataSourceWatch(undefined);
  private readonly unsubscribe: () => void;
  private readonly clientConfig: ClientConfig;
  /** Ended by dispose(): ends every call of this runtime's clients (see ClientConfig.lifetime). */
  private readonly lifetime = new ClientLifetime();

  constructor(
    readonly config: RuntimeConfig,
    readonly diagnostics: Diagnostics
  ) {
    if (!config.baseUrl.trim()) {
      throw new CryptometricsError(
        "invalid-input",
        "no service URL is set: open the Cryptometrics taskpane and set it in Settings",
        { operation: "configure" }
      );
    }
    this.now = config.now ?? Date.now;
    const timers = config.timers ?? realTimers;
    this.timers = timers;
    // Backoffs and the limiter's waits run on the same timers as everything else (tests inject virtual ones).
    const sleep = config.sleep ?? createSleep(timers);
    const limit = config.rateLimitPerMinute ?? DEFAULT_RATE_LIMIT_PER_MINUTE;
    const maxIdsPerRequest = config.client?.maxIdsPerRequest ?? config.engine?.maxIdsPerRequest;
    this.clientConfig = {
      baseUrl: config.baseUrl.trim(),
      apiKey: config.apiKey,
      fetch: config.fetch,
      now: this.now,
      timers,
      sleep,
      limiter: createRateLimiter({
        limit,
        windowMs: config.rateWindowMs ?? 60_000,
        now: this.now,
        sleep,
        ledger: config.rateLedger,
      }),
      ...config.client,
      ...(maxIdsPerRequest ? { maxIdsPerRequest } : {}),
      lifetime: this.lifetime,
    };
    this.client = createClient(this.clientConfig);
    // The saved cache and the ledger keep their entries under one namespace (the service and a hash of the
    // key), and say what goes wrong in the same two places.
    const namespace = namespaceSource(
      this.client.baseUrl,
      config.cacheIdentity ?? config.apiKey,
      config.savedCache?.digest
    );
    const onNote = (note: string): void => {
      log.warn(note);
      diagnostics.recordNote(note);
    };
    if (config.savedCache) {
      const { store, writeDelayMs } = config.savedCache;
      // Its code is loaded with the first look-up (engine/saved-cache.ts): on the Excel page, one chunk with
      // the IndexedDB store (office.ts), not part of functions.js.
      this.saved = lazySavedCache(
        () =>
          Promise.all([
            import(/* webpackChunkName: "saved-cache" */ "../engine/persistence"),
            import(/* webpackChunkName: "saved-cache" */ "../engine/saved-entries"),
          ]).then(([persistence, entries]) =>
            entries.savedEngineCache(
              new persistence.PersistentCache({
                store,
                namespace,
                timers,
                now: this.now,
                writeDelayMs,
                onNote,
              })
            )
          ),
        onNote
      );
    }
    this.ledger = new LazyLedger({
      ...(config.savedCache?.ledger ? { store: config.savedCache.ledger } : {}),
      namespace,
      now: this.now,
      onNote,
    });
    this.engine = new Engine({
      client: this.client,
      now: this.now,
      timers,
      // Its chunk size and deadline follow the client's limits (engineDefaults).
      options: config.engine,
      saved: this.saved,
      ledger: this.ledger,
    });
    this.team = new LazyTeamRecord({
      baseUrl: this.client.baseUrl,
      apiKey: config.apiKey,
      ...(config.fetch ? { fetch: config.fetch } : {}),
      timers,
      now: this.now,
    });
    diagnostics.setLimit(limit);
    const unsubscribeClient = this.client.subscribe(diagnostics.onClientEvent);
    const unsubscribeTeam = this.client.on("response", (e) =>
      this.team.servedBy(e.gateway === true)
    );
    this.unsubscribe = () => {
      unsubscribeClient();
      unsubscribeTeam();
    };
    this.source.follow({ client: this.client });
  }

  /** Writes the answers not saved yet (the CLI waits for this before it exits). */
  async flushSaved(): Promise<void> {
    // With a shared record of request starts (the CLI's), the answers it was told of reach it too.
    await Promise.all([this.saved?.flush(), this.ledger.flush(), this.client.limiter.settled()]);
  }

  /**
   * The restatements recorded since an instant (ms) for the filter's projects and metrics, newest first, and
   * where they were recorded (for a cell's diagnostics).
   */
  async restatementsSince(
    since: number,
    filter: Required<ChangeFilter>
  ): Promise<{ changes: Change[]; how: string }> {
    const [view, team] = await Promise.all([this.ledger.view(), this.team.changes(since, filter)]);
    const own = view.since(since, filter);
    const here = `the record of restatements on this computer (${this.ledger.location})`;
    if (team.kind === "none") return { changes: own, how: here };
    if (team.kind === "unavailable")
      return { changes: own, how: `${here}; the team gateway's record: ${team.why}` };
    return { changes: onceEach(own, team.changes), how: `${here} and the team gateway's record` };
  }

  /**
   * The record a vintage= of one series reads: this computer's, and signed in to a team gateway, the team's
   * changes of the series too (the figure as the team's gateway knew it).
   */
  async vintageView(series: SeriesRef): Promise<LedgerView> {
    const [view, team] = await Promise.all([
      this.ledger.view(),
      this.team.changes(-Infinity, {
        projects: new Set([series.projectId]),
        metrics: new Set([series.metricId]),
      }),
    ]);
    if (team.kind !== "changes") return view;
    const same = (c: Change) =>
      c.series.productId === series.productId && c.series.filter === series.filter;
    const theirs = team.changes.filter(same);
    if (theirs.length === 0) return view;
    const merged = await this.ledger.emptyView(view.keptSince);
    merged.add(
      view
        .since(-Infinity, {
          projects: new Set([series.projectId]),
          metrics: new Set([series.metricId]),
        })
        .filter(same)
    );
    merged.add(theirs);
    return merged;
  }

  /** Size of the saved cache; undefined when this runtime has none. */
  async savedUsage(): Promise<BlobStoreUsage | undefined> {
    return this.saved?.usage();
  }

  /**
   * Forgets everything: the saved cache and the record of restatements (every service and key) and this
   * session's memory.
   */
  async clearCaches(): Promise<void> {
    this.engine.clear();
    await Promise.all([this.saved?.clear(), this.ledger.clear()]);
  }

  /**
   * A client for one quick check (the connection test): the same service, fetch, clock and rate limiter
   * (its request counts against the same budget, and its events reach the diagnostics), its own retry
   * policy and deadline, and optionally a key that is not stored yet (a key being tried before saving).
   */
  probeClient(
    limits: Pick<ClientConfig, "retry" | "timeoutMs" | "deadlineMs">,
    apiKey: ApiKeySource = this.config.apiKey
  ): MetricsClient {
    const probe = createClient({ ...this.clientConfig, ...limits, apiKey });
    probe.subscribe(this.diagnostics.onClientEvent);
    return probe;
  }

  /** Replaced by new settings: what is in flight for the old ones is cancelled, nothing more is sent. */
  dispose(): void {
    this.lifetime.end(
      new CryptometricsError("cancelled", "the connection settings changed", {
        operation: "configure",
      })
    );
    this.unsubscribe();
    // Answers fetched so far still reach the saved cache; the memory goes.
    void this.saved?.flush();
    this.source.follow(undefined);
    this.engine.clear();
  }
}

let current: Runtime | undefined;
let configurationError: { readonly reason: unknown } | undefined;
let diagnostics: Diagnostics | undefined;
const listeners = new Set<(runtime: Runtime | undefined) => void>();

/** The diagnostics record outlives reconfigurations (a new key or URL keeps the error history). */
export function sharedDiagnostics(now: () => number = Date.now): Diagnostics {
  diagnostics ??= new Diagnostics(now, DEFAULT_RATE_LIMIT_PER_MINUTE);
  return diagnostics;
}

/**
 * (Re)configures the shared runtime. A refused base URL (plain http off loopback, not a URL) throws a
 * CryptometricsError of kind "invalid-input" and leaves the runtime unconfigured, so every function says so.
 */
export function configureRuntime(config: RuntimeConfig): Runtime {
  current?.dispose();
  current = undefined;
  try {
    const runtime = new Runtime(config, sharedDiagnostics(config.now));
    current = runtime;
    configurationError = undefined;
    return runtime;
  } catch (error) {
    configurationError = { reason: error };
    throw error;
  } finally {
    for (const l of listeners) l(current);
  }
}

/** The configured runtime, or the reason there is none (thrown). */
export function currentRuntime(): Runtime {
  if (current) return current;
  if (configurationError) throw configurationError.reason;
  throw new CryptometricsError(
    "invalid-input",
    "Cryptometrics is not set up yet: open its taskpane",
    { operation: "configure" }
  );
}

export function onRuntimeChange(listener: (runtime: Runtime | undefined) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

let loading: Promise<unknown> = Promise.resolve();
let loadingPending = false;

/**
 * Configures the runtime from settings that must be read first (the Excel page reads OfficeRuntime.storage).
 * Calls arriving meanwhile wait for it (readyRuntime), so no cell runs against half a configuration.
 */
export function configureRuntimeFrom(
  load: () => Promise<RuntimeConfig>
): Promise<Runtime | undefined> {
  const attempt = load().then(configureRuntime);
  loadingPending = true;
  const settled = attempt
    .catch(() => undefined)
    .then(() => {
      if (loading === settled) loadingPending = false;
    });
  loading = settled;
  return attempt;
}

/** The runtime once any configuration in progress is done; throws why there is none. */
export async function readyRuntime(): Promise<Runtime> {
  await loading;
  return currentRuntime();
}

/** The runtime right now when nothing is being configured (the warm path of every cell), else undefined. */
export function runtimeIfReady(): Runtime | undefined {
  return loadingPending ? undefined : current;
}
