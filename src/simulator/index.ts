/**
 * The simulator: a local stand-in of the metrics service (the whole v2 interface and v1's two operations)
 * over HTTP on loopback, with a deterministic demo dataset and realism knobs (rate limit, latency, injected
 * failures, hangs, renames, broken responses). Default data source of `npm start` and of every test.
 */
export { DEMO_API_KEY, SIMULATED_HEADER } from "./constants";
export { startSimulator } from "./server";
export { simulatorOptionsFromEnv } from "./cli-options";
export type {
  Fault,
  RateLimitKnob,
  RequestLogEntry,
  RunningSimulator,
  SimulatorKnobs,
  SimulatorOptions,
} from "./types";
export { FAULTS } from "./types";
export {
  DEFAULT_READINGS,
  READING_SWITCHES,
  READING_VALUES,
  type ReadingName,
  type Readings,
  type ReadingSwitch,
} from "./readings";
export {
  createDataset,
  OUTAGE,
  type Dataset,
  type DailyOptions,
  type DatasetOptions,
  type DailyPoint,
  type ProductInfo,
  type ProjectInfo,
} from "./data/dataset";
export type { StatementRow } from "./data/statement";
export { type AggregationName, type AggregationRow } from "./data/aggregations";
export type { MetricDef, MetricKind } from "./data/metrics-catalog";
export { type Granularity, type Interval } from "./data/periods";
