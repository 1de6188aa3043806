/**
 * The engine's one door: everything outside src/engine reaches it through this file (a dependency-cruiser rule
 * says so), so what it offers is said in one place and its insides can move. Its parts:
 * - engine.ts: reads of the service, planned, batched, cached and recorded;
 * - figures/: the rules every figure follows (completeness, growth, windows, kinds, as-of, a day's parts);
 * - ledger/: the memory of what the service said and when;
 * - the caches (keyed-cache, series-store, persistence), the planner and the resolver.
 * The cache policy the gateway shares lives below both, in src/cache/.
 * One exception, named in the rule: the runtime loads on demand (chunks of their own) ledger/ledger.ts and the
 * saved cache's implementation, persistence.ts with saved-entries.ts.
 */
// The engine: one per runtime, every read of the service through it.
export {
  DEFAULT_ENGINE_OPTIONS,
  Engine,
  type EngineOptions,
  type StatementGranularity,
} from "./engine";
export { type Loaded } from "./keyed-cache";
// The saved cache (IndexedDB in the pages, files for the CLI).
export { type BlobStore, type BlobStoreUsage, MAX_SAVED_ENTRY_BYTES } from "./persistence";
export { lazySavedCache, type SavedCache } from "./saved-cache";
// Series reads: what is asked and what comes back.
export {
  DEFAULT_VARIANT,
  type SeriesAnswer,
  type SeriesQuery,
  type SeriesVariant,
  variantKey,
} from "./series-types";
// Names, ids and tickers to projects and metrics.
export {
  didYouMean,
  resolveMetricIn,
  resolveProjectIn,
  type Suggest,
  loadSuggest,
  suggestNow,
  withSuggestions,
} from "./resolver";
// The edit distances behind "did you mean", for the functions' own look-ups (filters); loaded on demand.
export { closest } from "./suggest";
// The rules of figures (figures/README.md): which days a figure covers, when it is whole, growth and NM,
// trailing windows, metric kinds, as-of words and the pure series operations under them.
export {
  conflictMessage,
  dataEnd,
  dayConflict,
  type DayState,
  dayStates,
  type FigureWords,
  FILL_LOOKBACK_DAYS,
  isWhole,
  judge,
  type Judged,
  type SeriesDays,
  windowFigure,
  type WindowFigure,
} from "./figures/rule";
export {
  DEFAULT_PARTIAL,
  horizonOf,
  incompleteMessage,
  isComplete,
  lastValueDay,
  type PartialPeriods,
  periodLabel,
  type PeriodWindow,
  previousWindow,
  windowOf,
} from "./figures/completeness";
export { baseStart, type Growth, growthOf, notMeaningful, ratioOf } from "./figures/growth";
export {
  annualized,
  parseWindow,
  type TrailingWindow,
  WINDOW_FORMS,
  windowLabel,
  windowStart,
} from "./figures/trailing-window";
export {
  type Aggregation,
  defaultAggregation,
  describeMetricKind,
  type Fill,
  fillRefusal,
  metricInfo,
  metricKind,
  unknownKindMessage,
} from "./figures/metric-kinds";
export { archivedMessage, tooOldMessage } from "./figures/as-of";
export { type DayPoint, lastDataAtOrBefore, slicePoints } from "./figures/series-ops";
// What the service said and when (ledger/README.md).
export {
  cellId,
  type Change,
  type ChangeFilter,
  changeText,
  decodeRuns,
  encodeRuns,
  hmacSeal,
  type LedgerOptions,
  type LedgerSegmentInfo,
  type LedgerStore,
  type LedgerView,
  linesBytes,
  MAX_LEDGER_BYTES,
  MemoryLedgerStore,
  newestChanges,
  newestWithin,
  NO_RUNS,
  parseVintage,
  RestatementLedger,
  type SeenRun,
  type SeenRuns,
  type SeriesRef,
  spliceRuns,
  utf8Bytes,
  type Vintage,
} from "./ledger";
export { answerChanges, type AnswerOutcome, type HeldSnapshot, seriesRefOf } from "./series-ledger";
export { knownAt } from "./vintage-answer";
