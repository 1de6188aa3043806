/**
 * The service client: every custom function and the taskpane reach the metrics service through this.
 * Usage: `const client = createClient({ baseUrl, apiKey }); const { data, errors } = await
 * client.getProjectMetrics("aave", { metricIds: ["fees"], start: "2024-01-01" });`
 */
export { createClient, type MetricsClient } from "./client";
export type { ApiKeySource, ClientConfig } from "./config";
export * from "./data/types";
export type * from "./data/wire";
export {
  CryptometricsError,
  ERROR_KINDS,
  isCryptometricsError,
  isRetryableKind,
  kindForStatus,
  redact,
  snippet,
  type ErrorKind,
} from "./errors";
export { hasSecretRun, redactRuns } from "./redact";
// The table of error words, a column per audience (error-words/words.ts): each bundle takes its own column.
export { CELL_WORDS } from "./error-words/cell";
export { CONNECTION_WORDS } from "./error-words/connection";
export { GATEWAY_WORDS } from "./error-words/gateway";
export { PANE_WORDS } from "./error-words/pane";
export { ERROR_WORDS } from "./error-words/table";
export type { CellHints, ExcelErrorName, PaneWords, Verdict } from "./error-words/words";
export {
  RateLimiter,
  claimSlots,
  settleSlots,
  type Claimed,
  type ClaimTurn,
  type Finished,
  type Claimers,
  type OpenStart,
  createRateLimiter,
  type LedgerRecord,
  type StartLedger,
} from "./http/rate-limiter";
export {
  DEFAULT_LIMITS,
  DEFAULT_RETRY_POLICY,
  scaledRetryPolicy,
  type ClientLimits,
  type RetryPolicy,
} from "./policy";
export { backoffDelay, parseRetryAfter } from "./http/backoff";
export { ClientLifetime, createSleep, realTimers, type Sleep, type Timers } from "./http/abort";
export type { ClientEvent, ClientListener, ResponseEvent, RetryEvent } from "./events";
export { readBody } from "./http/body";
export {
  GATEWAY_HEADER_NAME,
  SIMULATED_HEADER_NAME,
  type FetchLike,
  type FetchInitLike,
  type FetchResponseLike,
  type BodyReaderLike,
} from "./http/fetch";
export { keptFor } from "./kept-for";
export { Listeners } from "./listeners";
export { createLogger, setLogSink, type LogRecord, type LogSink } from "./log";
/** The calendar of the service: UTC days as "YYYY-MM-DD" and day numbers, periods (data/days.ts). */
export {
  addDays,
  dayNumber,
  dayOfInstant,
  formatDay,
  isIsoDate,
  parseDay,
  periodEnd,
  periodStart,
  type Period,
} from "./data/days";
export { isObject } from "./data/read";
export { toIsoDate, toMetricValue } from "./data/values";
export { isMetricAvailable } from "./data/normalise-catalogue";
export { isReadableAggregation } from "./data/normalise-summaries";
export { openText } from "./data/open-text";
export { buildUrl, chunkIds, isLoopbackHost, parseBaseUrl } from "./http/url";
export { defaultFetch } from "./http/fetch";
export { runCall } from "./call";
export { resolveConfig, type ResolvedConfig } from "./config";
export { firstLineOf, messageOf } from "./errors";
export {
  InteractionRequired,
  TokenProvider,
  type AccessToken,
  type SignedInAccount,
  type SignInState,
  type TokenSource,
} from "./token-provider";
/** The interface's operations as one table (interface.ts): the gateway and the simulator derive from it. */
export {
  DATE_NAMES,
  OPERATION_NAMES,
  dateNamesOf,
  isIdPart,
  operationDef,
  pathParts,
  queryNamesOf,
  type OperationName,
  type ParamKind,
} from "./interface";
