import devDefaults from "../config/dev-defaults.json";

/**
 * The simulator's default accepted key: printed by `npm start`, written in the README, and the key of
 * development builds (one source: src/config/dev-defaults.json). Not a secret: it opens only the simulator.
 */
export const DEMO_API_KEY: string = devDefaults.demoApiKey;

/** Header with value "true" on every response, so simulated figures are never mistaken for real ones. */
export const SIMULATED_HEADER = "x-cryptometrics-simulated";

/** The documented limit; whether 429s carry Retry-After is the retryAfter reading's (default: none). */
export const DEFAULT_RATE_LIMIT = { limit: 60, windowMs: 60_000 } as const;

/**
 * Share of (project, day) pairs whose rows the simulator repeats by default. Real answers from aggregating
 * services repeat rows now and then; the interface does not rule it out, so the simulator does it too (1 %:
 * rare enough to pass unnoticed by eye, frequent enough that every test over a few weeks meets some).
 */
export const DEFAULT_DUPLICATE_ROWS = 0.01;
