/** Public types of the simulator (see index.ts). */
import type { Readings } from "./readings";
import type { RestatementChoice, RestatementMode } from "./restatements";

export type Fault =
  | "reset"
  | "truncated-json"
  | "html-200"
  | "wrong-content-type"
  | "empty-body"
  | "redirect-loop"
  | "corrupt-gzip";

export const FAULTS: readonly Fault[] = [
  "reset",
  "truncated-json",
  "html-200",
  "wrong-content-type",
  "empty-body",
  "redirect-loop",
  "corrupt-gzip",
];

export interface RateLimitKnob {
  /** Requests allowed per key in any window of `windowMs`. */
  limit: number;
  windowMs: number;
  /**
   * Whether 429s carry Retry-After (seconds). Default: as the retryAfter reading says (none: the interface
   * documents no Retry-After).
   */
  retryAfter?: boolean;
}

/** Realism knobs: settable at start and at runtime (RunningSimulator.setKnobs). */
export interface SimulatorKnobs {
  /** Default {limit: 60, windowMs: 60000}; null = no rate limit. */
  rateLimit?: RateLimitKnob | null;
  /** Added latency: fixed, or a uniform range drawn from the seeded generator. Default 0. */
  latencyMs?: number | [number, number];
  /** Share (0..1) of authorised requests answered 429 regardless of the rate limit. */
  fraction429?: number;
  /** Whether those injected 429s carry Retry-After: 1. Default: as the retryAfter reading says (none). */
  retryAfter429?: boolean;
  /** Share (0..1) of authorised requests answered 500, 502 or 503. */
  fraction5xx?: number;
  /** Never answer: every request (true) or those whose path matches. */
  hang?: boolean | RegExp;
  /** Renamed project ids: old id -> new id, answered 308 with a Location to the new path. */
  renamed?: Record<string, string>;
  /** A broken response for `faultFraction` of authorised requests. */
  fault?: null | Fault;
  /** Share of requests hit by `fault` (default 1). */
  faultFraction?: number;
  /**
   * Also report METRIC_NOT_AVAILABLE on project metrics (§4.3), product metrics (§4.7), metric aggregations
   * (§4.12) and the breakdown (§4.13), as a richer service might. Default false: the interface promises that
   * entry on the metric-by-id operation (§4.11) only; elsewhere an unavailable metric is simply absent.
   */
  reportUnavailable?: boolean;
  /**
   * Share (0..1) of (project, day) pairs whose time-series rows (§4.3, §4.7, §4.11) are sent more than once,
   * as aggregating services do. Default DEFAULT_DUPLICATE_ROWS; 0 = every row once.
   */
  duplicateRows?: number;
  /**
   * Readings of the interface where it is loose (readings.ts): each switch defaults to the least helpful
   * reading. Given switches replace the current ones; the others stay.
   */
  readings?: Partial<Readings>;
  /**
   * A service that restates (restatements.ts): `served`, chosen days change value after they were first
   * served; `refill`, a block of days first served counted twice is refilled once served. Default `none`.
   * Setting it again starts afresh (nothing served yet).
   */
  restatements?: RestatementMode | ({ mode: RestatementMode } & RestatementChoice);
}

export interface SimulatorOptions extends SimulatorKnobs {
  /** 0 = ephemeral (tests). Default 0. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Accepted bearer keys. Default [DEMO_API_KEY]. */
  apiKeys?: string[];
  /** Clock, ms since epoch: drives the rate limit, and the dataset's "today" (its UTC day) unless `today`. */
  now?: () => number;
  /** Fixes the dataset's "today" (YYYY-MM-DD) while the clock goes on (the rate limit's window still slides). */
  today?: string;
  /** Serve HTTPS with this key pair (npm start uses the dev certificates). */
  https?: { key: string | Buffer; cert: string | Buffer };
  /** Seed of the generator behind latency ranges and injected failures (the dataset itself is fixed). */
  seed?: number;
  /** Called once per request when it is answered (or dropped): the CLI's access log. */
  onRequest?: (entry: RequestLogEntry) => void;
  /** Keep at most this many log entries, dropping the oldest (long-running servers). Default: unbounded. */
  maxLogEntries?: number;
  /**
   * Size of the project universe: the 51 demo projects, then deterministic synthetic ones up to this many
   * (at most 50,000). Default: the demo projects alone.
   */
  projects?: number;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  /** Query parameters (last value wins); a value equal to an API key is replaced by "[redacted]". */
  query: Record<string, string>;
  /** Status sent; 0 while pending, and for a request that was never answered (hang, reset). */
  status: number;
  /** now() when the request arrived. */
  at: number;
  authorized: boolean;
}

export interface RunningSimulator {
  /** e.g. http://127.0.0.1:43123 (no trailing slash). */
  url: string;
  /** Every request received, in order (OPTIONS included). Never holds the Authorization value. */
  requestLog: RequestLogEntry[];
  clearLog(): void;
  setKnobs(knobs: Partial<SimulatorKnobs>): void;
  /** Closes the server and every open or hanging socket; never hangs. */
  close(): Promise<void>;
}
