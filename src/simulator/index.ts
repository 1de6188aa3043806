/**
 * The simulator: a local stand-in of the metrics service (the whole v2 interface and v1's two operations)
 * over HTTP on loopback, with a deterministic demo dataset and realism knobs (rate limit, latency, injected
 * failures, hangs, renames, broken responses). Default data source of `npm start` and of every test.
 */
export { DEMO_API_KEY, SIMULATED_HEADER } from "./constants";
export { startSimulator } from "./server";
export { simulatorOptionsFromEnv } from "./cli-options";
export type { RateLimitKnob, RunningSimulator, SimulatorKnobs, SimulatorOptions } from "./types";
export { FAULTS } from "./types";
export {
  DEFAULT_READINGS,
  READING_SWITCHES,
  READING_VALUES,
  type ReadingName,
  type Readings,
} from "./readings";
export { createDataset, OUTAGE, type Dataset } from "./data/dataset";
