/** The simulator's default accepted key: printed by `npm start` and written in the README. Not a secret. */
export const DEMO_API_KEY = "cm_demo_4f1c2a9e";

/** Header with value "true" on every response, so simulated figures are never mistaken for real ones. */
export const SIMULATED_HEADER = "x-cryptometrics-simulated";

export const DEFAULT_RATE_LIMIT = { limit: 60, windowMs: 60_000, retryAfter: true } as const;
